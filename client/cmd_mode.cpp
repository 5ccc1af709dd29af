// jetperf mode [set ID|NAME [--force]]: the nvpmodel power mode, read or switched.
#include <cctype>
#include <iostream>

#include "cli_error.hpp"
#include "command.hpp"
#include "output.hpp"

namespace jetperf::client {

namespace {

bool all_digits(const std::string& s) {
  if (s.empty() || s.size() > 9) return false;
  for (unsigned char c : s)
    if (!std::isdigit(c)) return false;
  return true;
}

// A mode's cap: the value, "no cap" where the mode names nvpmodel's "no limit" (null in the
// API, -1 or 0 in nvpmodel.conf), "-" where it names none.
std::string cap_cell(const nlohmann::json& mode, const char* key) {
  if (!mode.contains(key)) return "-";
  return mode[key].is_null() ? "no cap" : format_cell(mode[key]);
}

// The modes as a table, the current one marked with '*' (CSV: a CURRENT column of yes and no, and
// the table alone).
std::string mode_table(const nlohmann::json& j, const std::string& format) {
  const bool csv = format == "csv";
  const auto current = j.value("id", nlohmann::json());
  const auto default_mode = j.value("default", nlohmann::json());
  std::vector<std::vector<std::string>> rows;
  for (const auto& m : j.value("modes", nlohmann::json::array())) {
    if (!m.is_object()) continue;
    const auto id = m.value("id", nlohmann::json());
    std::string notes;
    if (id == default_mode) notes = "default";
    if (m.value("reboot_needed_from_default", false)) notes += std::string(notes.empty() ? "" : ", ") + "reboot";
    rows.push_back({id == current ? (csv ? "yes" : "*") : (csv ? "no" : ""), format_cell(id), format_cell(m.value("name", nlohmann::json())),
                    cap_cell(m, "gpu_max_hz"), cap_cell(m, "cpu_max_khz"), cap_cell(m, "emc_max_hz"),
                    format_cell(m.value("cores_online", nlohmann::json())), notes.empty() ? "-" : notes});
  }
  std::vector<std::string> header = {"", "ID", "NAME", "GPU_MAX_HZ", "CPU_MAX_KHZ", "EMC_MAX_HZ", "CORES", "NOTES"};
  if (csv) {
    header[0] = "CURRENT";
    return format_csv(header, rows);
  }
  return "power mode: " + format_cell(current) + " " + format_cell(j.value("name", nlohmann::json())) + "\n" +
         format_table(header, rows);
}

class mode_command final : public command {
 public:
  explicit mode_command(CLI::App& parent)
      : app_(parent.add_subcommand("mode", "Show the power mode, or switch it: mode set ID|NAME")) {
    app_->require_subcommand(0, 1);
    set_ = app_->add_subcommand("set", "Switch the power mode (nvpmodel -m); the board is snapshotted first");
    set_->fallthrough();
    set_->add_option("mode", mode_, "Mode id or name")->required();
    set_->add_flag("--force", force_,
                   "Accepted for older scripts: a mode that needs a reboot is refused all the same (measure in it with "
                   "a job's --allow-reboot, or run nvpmodel on the board)");
  }
  CLI::App* app() const override { return app_; }
  bool prints_table() const override { return true; }

  int run(context& ctx) override {
    nlohmann::json j;
    if (set_->parsed()) {
      nlohmann::json body = nlohmann::json::object();
      if (all_digits(mode_))
        body["id"] = std::stoi(mode_);
      else
        body["name"] = mode_;
      if (force_) body["force"] = true;
      j = ctx.call("PUT", "/v1/power-mode", body.dump());
      if (ctx.config().format == "table")
        std::cout << "power mode set to " << format_cell(j.value("id", nlohmann::json())) << " "
                  << format_cell(j.value("name", nlohmann::json())) << " (jetperf clocks restore puts the board back)\n";
    } else {
      j = ctx.call("GET", "/v1/power-mode");
      if (!ctx.config().json) std::cout << mode_table(j, ctx.config().format);
    }
    if (ctx.config().json) std::cout << j.dump(2) << '\n';
    return exit_ok;
  }

 private:
  CLI::App* app_;
  CLI::App* set_ = nullptr;
  std::string mode_;
  bool force_ = false;
};

}  // namespace

std::unique_ptr<command> make_mode_command(CLI::App& parent) { return std::make_unique<mode_command>(parent); }

}  // namespace jetperf::client
