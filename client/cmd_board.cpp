// jetperf board: what the daemon runs on: identity, L4T/JetPack, power modes, the frequency
// lists in brief, and the rails and sensors the sampler reads (from GET /v1/telemetry).
#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>

#include "cli_error.hpp"
#include "command.hpp"
#include "output.hpp"

namespace jetperf::client {

namespace {

std::string text(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || j[key].is_null()) return "-";
  const auto s = format_cell(j[key]);
  return s.empty() ? "-" : s;
}

// [115200, ..., 2201600] kHz, scale 1e3 -> "115-2202 MHz, 29 steps".
std::string freq_summary(const nlohmann::json& list, double hz_per_unit) {
  if (!list.is_array() || list.empty()) return "-";
  std::vector<double> v;
  for (const auto& f : list)
    if (f.is_number()) v.push_back(f.get<double>() * hz_per_unit / 1e6);
  if (v.empty()) return "-";
  std::sort(v.begin(), v.end());
  std::ostringstream out;
  out << format_number(std::round(v.front())) << "-" << format_number(std::round(v.back())) << " MHz, " << v.size()
      << (v.size() == 1 ? " step" : " steps");
  return out.str();
}

// A list's length ("cores": [0, 1, ...] -> "12"), or the value itself when it is a number.
std::string count(const nlohmann::json& j, const char* key) {
  if (j.contains(key) && j[key].is_array()) return std::to_string(j[key].size());
  return text(j, key);
}

std::string mode_list(const nlohmann::json& modes, const nlohmann::json& default_mode) {
  std::string out;
  for (const auto& m : modes) {
    if (!m.is_object()) continue;
    out += (out.empty() ? "" : ", ") + text(m, "id") + " " + text(m, "name");
    if (default_mode.is_number() && m.value("id", nlohmann::json()) == default_mode) out += " (default)";
  }
  return out.empty() ? "none" : out;
}

// The caps of the mode in effect (GET /v1/power-mode): "2 MODE_30W: gpu 625 MHz, cpu 1728 MHz,
// emc no cap", so the frequency lists above read against what the mode allows.
std::string caps_line(const nlohmann::json& mode) {
  if (!mode.is_object() || !mode.contains("id")) return "-";
  nlohmann::json current;
  for (const auto& m : mode.value("modes", nlohmann::json::array()))
    if (m.is_object() && m.value("id", nlohmann::json()) == mode["id"]) current = m;
  if (!current.is_object()) return "-";
  const auto cap = [&current](const char* key, double hz_per_unit) -> std::string {
    if (!current.contains(key)) return "-";
    if (current[key].is_null()) return "no cap";
    return format_number(std::round(current[key].get<double>() * hz_per_unit / 1e6)) + " MHz";
  };
  return text(mode, "id") + " " + text(mode, "name") + ": gpu " + cap("gpu_max_hz", 1) + ", cpu " +
         cap("cpu_max_khz", 1e3) + ", emc " + cap("emc_max_hz", 1);
}

// Channel names of one kind, without their "rail."/"temp." prefix ("power.total" -> "total").
std::string channels_of(const nlohmann::json& telemetry, const std::string& kind) {
  std::string out;
  for (const auto& c : telemetry.value("channels", nlohmann::json::array())) {
    if (!c.is_object() || c.value("kind", std::string()) != kind) continue;
    auto name = c.value("name", std::string("?"));
    const auto dot = name.find('.');
    if (dot != std::string::npos) name = name.substr(dot + 1);
    out += (out.empty() ? "" : ", ") + name;
  }
  return out.empty() ? "-" : out;
}

class board_command final : public command {
 public:
  explicit board_command(CLI::App& parent)
      : app_(parent.add_subcommand("board", "Show the board: identity, power modes, clocks, rails, sensors")) {}
  CLI::App* app() const override { return app_; }

  int run(context& ctx) override {
    const auto b = ctx.call("GET", "/v1/board");
    if (ctx.config().json) {
      std::cout << b.dump(2) << '\n';
      return exit_ok;
    }
    // Rails and sensors are what the sampler reads; a host without telemetry still has a board.
    nlohmann::json telemetry = nlohmann::json::object();
    try {
      telemetry = ctx.call("GET", "/v1/telemetry");
    } catch (const cli_error& e) {
      if (e.code() == exit_connect) throw;
    }
    nlohmann::json mode;
    if (!b.value("modes", nlohmann::json::array()).empty()) {
      try {
        mode = ctx.call("GET", "/v1/power-mode");
      } catch (const cli_error& e) {
        if (e.code() == exit_connect) throw;
      }
    }
    const bool simulated = b.value("simulated", false);
    std::ostringstream out;
    out << "board:     " << text(b, "board") << (simulated ? " (simulated)" : "") << '\n'
        << "family:    " << text(b, "family") << "  soc: " << text(b, "soc") << '\n'
        << "module:    " << text(b, "module") << "  model: " << text(b, "model") << '\n'
        << "L4T:       " << text(b, "l4t") << "  JetPack: " << text(b, "jetpack") << '\n'
        << "modes:     " << mode_list(b.value("modes", nlohmann::json::array()), b.value("default_mode", nlohmann::json()))
        << '\n';
    const auto gpu = b.value("gpu", nlohmann::json());
    out << "gpu:       "
        << (gpu.is_object() ? freq_summary(gpu.value("available_hz", nlohmann::json()), 1) + ", governor " +
                                  text(gpu, "governor")
                            : std::string("-"))
        << '\n';
    const auto cpu = b.value("cpu", nlohmann::json());
    out << "cpu:       "
        << (cpu.is_object() ? count(cpu, "cores") + " cores (" + count(cpu, "online") + " online), " +
                                  freq_summary(cpu.value("available_khz", nlohmann::json()), 1e3)
                            : std::string("-"))
        << '\n';
    const auto emc = b.value("emc", nlohmann::json());
    out << "emc:       " << (emc.is_object() ? freq_summary(emc.value("available_hz", nlohmann::json()), 1) : "-")
        << '\n';
    if (mode.is_object()) out << "caps:      " << caps_line(mode) << '\n';
    out << "rails:     " << channels_of(telemetry, "power") << '\n'
        << "sensors:   " << channels_of(telemetry, "temperature") << '\n';
    std::cout << out.str();
    return exit_ok;
  }

 private:
  CLI::App* app_;
};

}  // namespace

std::unique_ptr<command> make_board_command(CLI::App& parent) { return std::make_unique<board_command>(parent); }

}  // namespace jetperf::client
