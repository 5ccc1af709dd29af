// A whole zoo network as one layer on the oneDNN backend at batch 1: the latency the layers
// workload sees on the CPU. Usage: bench_layer_cpu_e2e [model=resnet50] [--threads N] [--no-ops].
// Prints one JSON object: mean/median of 20 runs after 3 warm-ups, and each op type's share of
// the summed per-op medians (every op run alone, as the op granularity measures it).
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/models/zoo.hpp>
#include <jetperf/workloads/layer_backends.hpp>

using nlohmann::json;
using namespace jetperf;

namespace {

constexpr int k_warmup = 3;
constexpr int k_runs = 20;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double process_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Wall seconds per run (the backend's clock) and, in `cpu`, process CPU seconds per run: on a
// shared machine the CPU time of a one-thread run is the latency without the time descheduled.
std::vector<double> time_runs(workloads::layer_backend& be, int warmup, int runs, std::vector<double>* cpu = nullptr) {
  for (int i = 0; i < warmup; ++i) be.timed_run_s();
  std::vector<double> t;
  for (int i = 0; i < runs; ++i) {
    const double c0 = process_cpu_s();
    t.push_back(be.timed_run_s());
    if (cpu) cpu->push_back(process_cpu_s() - c0);
  }
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  std::string model = "resnet50";
  int threads = 0;
  bool per_op = true;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--threads" && i + 1 < argc) {
      threads = std::atoi(argv[++i]);
    } else if (a == "--no-ops") {
      per_op = false;
    } else {
      model = a;
    }
  }
  std::string why;
  auto be = workloads::make_onednn_layer_backend(&why);
  if (!be) {
    std::cout << json{{"network", model}, {"backend", "onednn"}, {"skipped", why}}.dump() << "\n";
    return 0;
  }
  try {
    const auto net = models::build_model(model);
    const auto whole = models::whole_network(net);
    be->set_threads(threads);
    const auto t0 = std::chrono::steady_clock::now();
    be->prepare(net, whole, 1, workloads::gemm_dtype::single);
    const double prepare_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::vector<double> cpu;
    const auto runs = time_runs(*be, k_warmup, k_runs, &cpu);
    json out{{"network", model},
             {"backend", be->name()},
             {"batch", 1},
             {"dtype", "float"},
             {"threads", threads},
             {"ops", net.ops.size()},
             {"gmacs", static_cast<double>(net.macs()) / 1e9},
             {"prepare_s", prepare_s},
             {"warmup", k_warmup},
             {"runs", k_runs},
             {"mean_s", std::accumulate(runs.begin(), runs.end(), 0.0) / runs.size()},
             {"median_s", median(runs)},
             {"min_s", *std::min_element(runs.begin(), runs.end())},
             {"max_s", *std::max_element(runs.begin(), runs.end())},
             {"median_cpu_s", median(cpu)}};
    if (per_op) {
      // Each op alone, as the op granularity runs it: its own prepare, 2 warm-ups, median of 5.
      std::map<std::string, double> by_type;
      double total = 0;
      for (const auto& l : models::layers_of(net, models::granularity::op)) {
        auto op_be = workloads::make_onednn_layer_backend();
        op_be->set_threads(threads);
        if (op_be->supports(net, l, workloads::gemm_dtype::single)) continue;
        op_be->prepare(net, l, 1, workloads::gemm_dtype::single);
        const double m = median(time_runs(*op_be, 2, 5));
        by_type[l.type] += m;
        total += m;
      }
      json share = json::object(), seconds = json::object();
      for (const auto& [type, s] : by_type) {
        share[type] = total > 0 ? s / total : 0.0;
        seconds[type] = s;
      }
      out["sum_of_op_medians_s"] = total;
      out["op_type_share"] = share;
      out["op_type_s"] = seconds;
    }
    std::cout << out.dump() << "\n";
  } catch (const std::exception& e) {
    std::cout << json{{"network", model}, {"backend", "onednn"}, {"error", e.what()}}.dump() << "\n";
    return 1;
  }
  return 0;
}
