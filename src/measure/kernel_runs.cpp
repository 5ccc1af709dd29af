#include <jetperf/measure/kernel_runs.hpp>

#include <algorithm>
#include <exception>

#include <jetperf/common/clock.hpp>

namespace jetperf::measure {

std::vector<int> kernel_runs(const std::vector<run_span>& runs, const std::vector<workloads::gpu_kernel>& kernels) {
  std::vector<int> out;
  out.reserve(kernels.size());
  for (const auto& k : kernels) {
    const std::int64_t t = k.launch_ns >= 0 ? k.launch_ns : k.start_ns;
    int found = -1;
    for (std::size_t i = 0; i < runs.size() && found < 0; ++i)
      if (t >= runs[i].start_ns && t <= runs[i].end_ns) found = static_cast<int>(i);
    out.push_back(found);
  }
  return out;
}

traced_runs record_kernel_runs(const measure::point_context& ctx, workloads::kernel_tracer& tracer,
                               const timed_iteration& run_once, std::size_t runs, std::size_t max_kernels) {
  traced_runs out;
  const auto t0 = monotonic_ns();
  try {
    tracer.start();
  } catch (const std::exception& e) {
    out.error = e.what();
    ctx.record("kernels", "kernel trace unavailable", t0, t0, {{"reason", out.error}});
    return out;
  }
  std::vector<run_span> spans;
  for (std::size_t i = 0; i < runs && !ctx.cancelled(); ++i) {
    run_span s;
    s.start_ns = monotonic_ns();
    run_once();  // synchronises: every kernel of the run has ended when it returns
    s.end_ns = monotonic_ns();
    spans.push_back(s);
  }
  workloads::kernel_trace trace;
  try {
    trace = tracer.stop(max_kernels);
  } catch (const std::exception& e) {
    out.error = e.what();
    ctx.record("kernels", "kernel trace unavailable", t0, monotonic_ns(), {{"reason", out.error}});
    return out;
  }
  const auto run_of = kernel_runs(spans, trace.kernels);
  out.runs = spans.size();
  out.kernels = trace.kernels.size();
  out.dropped = trace.dropped;
  out.unattributed = static_cast<std::size_t>(std::count(run_of.begin(), run_of.end(), -1));
  for (std::size_t i = 0; i < spans.size(); ++i) {
    record args{{"run", i}, {"kernel_trace", true},
                           {"kernels", std::count(run_of.begin(), run_of.end(), static_cast<int>(i))}};
    if (i == 0) {
      args.set("kernels_dropped", trace.dropped);
      args.set("kernels_unattributed", out.unattributed);
      args.set("clock_uncertainty_ns", trace.clock_uncertainty_ns);
    }
    ctx.record("runs", "traced run", spans[i].start_ns, spans[i].end_ns, std::move(args));
  }
  for (std::size_t i = 0; i < trace.kernels.size(); ++i) {
    const auto& k = trace.kernels[i];
    ctx.record("kernels", k.name, k.start_ns, k.end_ns,
               record{{"run", run_of[i] >= 0 ? cell(run_of[i]) : cell()},
                {"grid", k.grid},
                {"block", k.block},
                {"stream", k.stream},
                {"device", k.device},
                {"correlation", k.correlation},
                {"launch_ns", k.launch_ns >= 0 ? cell(k.launch_ns) : cell()}});
  }
  return out;
}

}  // namespace jetperf::measure
