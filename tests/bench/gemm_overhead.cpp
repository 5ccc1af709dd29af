// Harness overhead (DESIGN.md section 8): FLOPS of a GEMM measured through jetperf (the
// measurement loop, and the gemm workload's run_point) against a bare loop of the same cblas
// call in the same process. Prints one JSON object; target: ratio >= 0.98.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/store/cell_json.hpp>
#include <jetperf/config.hpp>
#include <jetperf/measure/measurement_loop.hpp>
#include <jetperf/workloads/gemm_backends.hpp>
#include <jetperf/kinds/gemm/gemm_kind.hpp>

#include "support/json_workload.hpp"

#if JETPERF_HAS_OPENBLAS
#include <cblas.h>
#endif

using nlohmann::json;
using namespace jetperf;

namespace {

constexpr double k_window_s = 1.0;
constexpr int k_reps = 5;

#if JETPERF_HAS_OPENBLAS
// The bare loop: the same cblas_sgemm back to back for the window, timed once around the loop.
double bare_gflops(int s) {
  std::vector<float> a(static_cast<std::size_t>(s) * s, 0.5f), b(a.size(), 0.25f), c(a.size());
  const auto call = [&] {
    cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, s, s, s, 1.0f, a.data(), s, b.data(), s, 0.0f, c.data(), s);
  };
  for (int i = 0; i < 3; ++i) call();
  long n = 0;
  const auto t0 = std::chrono::steady_clock::now();
  double elapsed = 0;
  do {
    call();
    ++n;
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  } while (elapsed < k_window_s);
  return workloads::gemm_flops(s, s, s) * static_cast<double>(n) / elapsed / 1e9;
}

// Through measurement_loop with the backend's per-iteration timing (as run_point uses it).
// Also returns the share of the window spent inside the timed calls (1 - harness cost).
double loop_gflops(int s, double* busy_fraction) {
  auto be = workloads::make_cpu_gemm_backend();
  be->prepare(s, s, s, workloads::gemm_dtype::single, false);
  for (int i = 0; i < 3; ++i) be->run_once();
  measure::loop_options o;
  o.stop.fixed_duration_s = k_window_s;
  const auto r = measure::measurement_loop(o, nullptr).run([&] { return be->timed_run_s(); });
  double busy = 0;
  for (double t : r.times_s) busy += t;
  *busy_fraction = busy / (static_cast<double>(r.t_end_ns - r.t_start_ns) * 1e-9);
  return workloads::gemm_flops(s, s, s) / r.latency.mean_s / 1e9;
}

double run_point_gflops(int s) {
  auto w = jetperf::test::json_workload(kinds::make_gemm_kind());
  const auto spec = w->normalize({{"device", "cpu"}, {"dtypes", {"float"}}, {"sizes", {s}}, {"warmup_s", 0.1},
                                  {"duration_s", k_window_s}},
                                 {});
  measure::point_context ctx;
  const auto r = w->run_point(ctx, spec, w->expand(spec).at(0));
  return jetperf::to_json(r.metrics).at("gflops").get<double>();
}
#endif

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double best(const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); }

}  // namespace

int main() {
#if !JETPERF_HAS_OPENBLAS
  std::cout << json{{"bench", "gemm_overhead"}, {"skipped", "not supported by this build (no OpenBLAS)"}}.dump()
            << std::endl;
  return 0;
#else
  // One thread: the comparison is between harnesses, and a shared machine's other load then
  // perturbs both sides alike.
  openblas_set_num_threads(1);
  json results = json::array();
  double worst = 1e9;
  for (int s : {512, 1024}) {
    std::vector<double> bare, loop, point, busy;
    // Interleaved repetitions, so drift of the machine affects all three alike.
    for (int r = 0; r < k_reps; ++r) {
      bare.push_back(bare_gflops(s));
      double f = 0;
      loop.push_back(loop_gflops(s, &f));
      busy.push_back(f);
      point.push_back(run_point_gflops(s));
    }
    // Best of the repetitions: on a shared machine the fastest run is the least disturbed one.
    const double b = best(bare), l = best(loop), p = best(point);
    worst = std::min({worst, l / b, p / b});
    results.push_back({{"size", s},
                       {"dtype", "float"},
                       {"threads", 1},
                       {"bare_gflops", b},
                       {"measurement_loop_gflops", l},
                       {"run_point_gflops", p},
                       {"loop_ratio", l / b},
                       {"run_point_ratio", p / b},
                       {"median_loop_ratio", median(loop) / median(bare)},
                       {"median_run_point_ratio", median(point) / median(bare)},
                       {"loop_busy_fraction", median(busy)},
                       {"bare_runs", bare},
                       {"run_point_runs", point}});
  }
  std::cout << json{{"bench", "gemm_overhead"},
                    {"window_s", k_window_s},
                    {"reps", k_reps},
                    {"statistic", "best of reps (median ratios also given)"},
                    {"results", results},
                    {"min_ratio", worst},
                    {"target", 0.98},
                    {"meets_target", worst >= 0.98}}
                   .dump()
            << std::endl;
  return 0;
#endif
}
