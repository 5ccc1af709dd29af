#include "provenance_view.hpp"

#include "output.hpp"

namespace jetperf::client {
namespace {

using json = nlohmann::json;

std::string text(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

std::string number(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_number() ? format_cell(j[key]) : std::string("-");
}

}  // namespace

std::string provenance_board_line(const json& p, bool rows_speed_not_simulated) {
  if (!p.is_object() || p.empty()) return {};
  const auto board = p.value("board", json::object());
  std::string what = text(board, "module");
  if (!text(board, "l4t").empty()) what += (what.empty() ? "" : ", ") + std::string("L4T ") + text(board, "l4t");
  std::string line = "measured on " + text(board, "board") + (what.empty() ? "" : " (" + what + ")");
  const auto sim = p.value("simulation", json::object());
  if (sim.value("simulated", false)) {
    if (!sim.value("speed_simulated", false))
      line += ": simulated board; power is modelled and speed is NOT simulated (power-only comparisons)";
    else if (rows_speed_not_simulated)
      line += ": simulated board; power is modelled and the speed of rows flagged speed_not_simulated did NOT "
              "follow the simulated clock (power-only comparisons for them)";
    else
      line += ": simulated board; power is modelled and CPU speed follows the simulated clock";
  }
  return line + "\n";
}

std::string format_provenance(const json& p) {
  if (!p.is_object() || p.empty()) return {};
  std::string out = provenance_board_line(p);
  const auto sim = p.value("simulation", json::object());
  if (!text(sim, "speed").empty()) out += "speed: " + text(sim, "speed") + "\n";
  const auto jp = p.value("jetperf", json::object());
  out += "jetperf " + text(jp, "version") + " (" + text(jp, "commit") + ")\n";
  const auto sensor = p.value("power_sensor", json::object());
  const auto channels = sensor.value("channels", json::array());
  if (!channels.empty()) {
    const auto sampling = p.value("sampling", json::object());
    out += "power: " + text(channels[0], "driver") + ", " + std::to_string(channels.size()) +
           " channel(s), readings change every " + number(sensor, "update_period_s") + " s; sampled at " +
           number(sampling, "achieved_rate_hz") + " Hz (jitter p99 " + number(sampling, "jitter_p99_s") + " s)\n";
  }
  const auto backends = p.value("backends", json::object());
  if (backends.is_object() && !backends.empty()) {
    std::string list;
    for (const auto& b : backends.items()) list += (list.empty() ? "" : "; ") + b.key() + " " + format_cell(b.value());
    out += "backends: " + list + "\n";
  }
  return out;
}

}  // namespace jetperf::client
