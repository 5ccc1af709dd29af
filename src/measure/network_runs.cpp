#include <jetperf/measure/network_runs.hpp>

#include <algorithm>

namespace jetperf::measure {

std::vector<stats::layer_span> layer_spans_of_run(const std::vector<workloads::op_span>& ops,
                                           const std::vector<models::layer>& layers) {
  std::vector<stats::layer_span> out;
  for (std::size_t li = 0; li < layers.size(); ++li) {
    const auto& l = layers[li];
    std::int64_t first = -1, last = -1;
    for (const auto& s : ops) {
      if (s.op < l.first || s.op >= l.last) continue;
      if (first < 0 || s.start_ns < first) first = s.start_ns;
      last = std::max(last, s.end_ns);
    }
    if (first >= 0) out.push_back({static_cast<int>(li), first, last});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.start_ns < b.start_ns; });
  return out;
}

void record_run_ops(const point_context& ctx, const models::network& net, const std::map<int, std::string>& kernels,
                    const std::vector<workloads::op_span>& ops, std::size_t run) {
  for (const auto& s : ops) {
    const auto& o = net.ops.at(static_cast<std::size_t>(s.op));
    auto k = kernels.find(s.op);
    ctx.record("ops", o.name, s.start_ns, s.end_ns,
               {{"op", s.op}, {"type", models::to_string(o.type)}, {"kernel", k == kernels.end() ? "" : k->second},
                {"run", run}});
  }
}

}  // namespace jetperf::measure
