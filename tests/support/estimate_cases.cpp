#include <support/estimate_cases.hpp>

#include <stdexcept>

namespace jetperf::test {

using nlohmann::json;

std::vector<std::string> estimate_case_kinds(bool onednn) {
  if (onednn) return {"idle", "gemm", "layers", "multi_dnn", "command"};
  return {"idle", "gemm", "command"};
}

namespace {

json gemm_case(int n) {
  static const json sizes[] = {json{64, 128, 192, 256}, json{96, 160, 224}, json{128, 256, 320},
                               json{48, 96, 144, 192, 240}};
  return {{"device", "cpu"},
          {"threads", 1},
          {"dtypes", {n % 3 == 2 ? "double" : "float"}},
          {"sizes", sizes[n % 4]},
          {"warmup_s", 0.05},
          {"min_time_s", 0.2},
          {"max_time_s", 1.0},
          {"boundary_s", 0.05}};
}

json layers_case(int n) {
  static const char* const networks[] = {"squeezenet1_0", "mobilenet_v3_small", "mnasnet0_5", "shufflenet_v2_x0_5"};
  return {{"device", "cpu"},
          {"threads", 1},
          {"models", {networks[n % 4]}},
          {"latency_samples", 10},
          {"warmup_runs", 1},
          {"min_time_s", 0.1},
          {"max_time_s", 0.5}};
}

json multi_dnn_case(int n) {
  // Generated mappings of one or two small networks, all on the CPU (a board without a GPU).
  return {{"networks", {"squeezenet1_0", "mobilenet_v3_small", "mnasnet0_5"}},
          {"num_networks", "1:2"},
          {"samples", 2 + n % 2},
          {"seed", n},
          {"device_priorities", {{"cpu", 1.0}}},
          {"threads", 1},
          {"warmup_runs", 1},
          {"min_time_s", 0.3},
          {"max_time_s", 1.0},
          {"boundary_s", 0.05}};
}

json command_case(int n, const std::string& program) {
  const int cycles = 2 + n % 3;
  return {{"argv", {program, std::to_string(cycles), "100", "100"}}, {"repeats", 3 + n % 2}, {"idle_s", 0.5}};
}

}  // namespace

json estimate_case_spec(const std::string& kind, int n, const std::string& program) {
  if (kind == "idle") return {{"duration_s", 0.5 + 0.25 * (n % 3)}, {"repeats", 3 + n % 3}};
  if (kind == "gemm") return gemm_case(n);
  if (kind == "layers") return layers_case(n);
  if (kind == "multi_dnn") return multi_dnn_case(n);
  if (kind == "command") return command_case(n, program);
  throw std::invalid_argument("no estimate case for kind " + kind);
}

}  // namespace jetperf::test
