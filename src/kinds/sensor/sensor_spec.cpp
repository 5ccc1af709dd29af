#include <jetperf/kinds/sensor/sensor_kind.hpp>

#include <algorithm>
#include <cstdio>

#include <jetperf/common/cell_text.hpp>
#include <jetperf/common/spec_table.hpp>
#include <jetperf/kinds/common/sweep_axes.hpp>
#include <jetperf/measure/square_wave_load.hpp>
#include <jetperf/workloads/gemm_backends.hpp>

namespace jetperf::kinds {
namespace {

// The card must fit its minute on an idle board (issue 38): the wave, the settings and the
// analysis. The wave gets most of it.
constexpr double k_max_wave_s = 50;

const spec_table<sensor_spec>& sensor_table() {
  static const spec_table<sensor_spec> table({
      // Each half must hold several updates of the slowest sensor, and its later half settled levels.
      {{"half_period_s", spec_type::number, 0.1, "length of each busy and idle half of the square-wave load", 0.02, 5, {}},
       &sensor_spec::half_period_s},
      {{"cycles", spec_type::integer, 15, "busy/idle cycles (two edges each)", 2, 500, {}}, &sensor_spec::cycles},
      {{"threads", spec_type::integer, 1, "CPU threads busy in each busy half", 1, 64, {}}, &sensor_spec::threads},
      {{"loads", spec_type::list, nullptr,
        "square waves to make, one point each: cpu and/or gpu (default: cpu, and gpu when a CUDA device answers)",
        0, 0, {"cpu", "gpu"}},
       {}},
  });
  return table;
}

// Each load once, in the order given; "gpu" only where a CUDA device answers (when checked).
std::vector<std::string> parse_loads(const cell& given, bool has_cuda, bool check_device) {
  std::vector<std::string> out;
  for (const auto& item : common::spec_list(given)) {
    if (!item.is_string() || (item.as_string() != "cpu" && item.as_string() != "gpu"))
      throw validation_error("spec.loads", "loads holds \"cpu\" and/or \"gpu\", got " + json_text(item));
    if (std::find(out.begin(), out.end(), item.as_string()) == out.end()) out.push_back(item.as_string());
  }
  if (out.empty()) throw validation_error("spec.loads", "loads is empty: the card would make no square wave", "empty");
  if (check_device && !has_cuda && std::find(out.begin(), out.end(), "gpu") != out.end())
    throw validation_error("spec.loads", "the gpu load needs a CUDA device, and none answers here", "unsupported");
  return out;
}

}  // namespace

const std::vector<spec_field>& sensor_spec_fields() { return sensor_table().declarations(); }

sensor_spec sensor_spec::parse(const record& spec, const platform::board_offer& offered) {
  // The board's word alone is not enough: a simulated board has a GPU node and no GPU behind it.
  return parse_with(spec, offered.has_cuda_device.value_or(true) && workloads::cuda_device_available());
}

sensor_spec sensor_spec::parse_with(const record& spec, bool has_cuda) {
  check_spec_fields(spec, sensor_spec_fields());
  sensor_spec s;
  sensor_table().parse(spec, s);
  const auto* loads = given_field(spec, "loads");
  s.loads = parse_loads(loads ? *loads : cell(has_cuda ? cell_list{"cpu", "gpu"} : cell_list{"cpu"}), has_cuda, true);
  const double card_s = static_cast<double>(s.loads.size()) * s.wave_s();
  if (card_s > k_max_wave_s) {
    char text[200];
    std::snprintf(text, sizeof text,
                  "the square waves would take %.1f s (loads x (cycles x 2 + 1) x half_period_s, and a lead); at most %.0f s",
                  card_s, k_max_wave_s);
    throw validation_error("spec.cycles", text);
  }
  return s;
}

sensor_spec sensor_spec::stored(const record& normalized) {
  sensor_spec s;
  sensor_table().stored(normalized, s);
  const auto* loads = given_field(normalized, "loads");
  s.loads = parse_loads(loads ? *loads : cell(cell_list{"cpu"}), false, false);
  return s;
}

record sensor_spec::to_record() const {
  record out;
  sensor_table().put(*this, out);
  cell_list loads_out(loads.begin(), loads.end());
  out.set("loads", cell(std::move(loads_out)));
  return out;
}

double sensor_spec::wave_s() const {
  return measure::square_wave_plan{}.lead_s + static_cast<double>(2 * cycles + 1) * half_period_s;
}

std::vector<sensor_point> expand(const sensor_spec& spec) {
  std::vector<sensor_point> out;
  for (const auto& load : spec.loads) out.push_back(sensor_point{load});
  return out;
}

}  // namespace jetperf::kinds
