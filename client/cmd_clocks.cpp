// jetperf clocks [lock --gpu/--cpu/--emc | restore]: read, lock or put back the GPU, CPU and EMC
// clocks. A lock snapshots the board first; restore returns to that snapshot.
#include <cctype>
#include <iostream>

#include "cli_error.hpp"
#include "command.hpp"
#include "output.hpp"

namespace jetperf::client {

namespace {

// "min"/"max" stay words, digits become an integer; anything else is a usage error here.
nlohmann::json clock_value(const std::string& flag, const std::string& text) {
  if (text == "min" || text == "max") return text;
  bool digits = !text.empty() && text.size() <= 18;
  for (unsigned char c : text) digits = digits && std::isdigit(c);
  if (!digits) throw cli_error(exit_usage, flag + " expects a frequency (integer), min or max, got '" + text + "'");
  return std::stoll(text);
}

// The table, and around it the power mode and the snapshot for a person (CSV: the table alone).
std::string clocks_table(const nlohmann::json& j, const std::string& format) {
  const auto avail = j.value("available", nlohmann::json::object());
  const auto cell = [&](const char* key) { return format_cell(j.value(key, nlohmann::json())); };
  const auto count = [&](const char* key) {
    const auto list = avail.value(key, nlohmann::json::array());
    return list.is_array() ? std::to_string(list.size()) : std::string("-");
  };
  // A GPU clock is locked when its range is one value; EMC says so itself.
  const bool gpu_locked = j.value("gpu_min_hz", nlohmann::json()).is_number() &&
                          j.value("gpu_min_hz", nlohmann::json()) == j.value("gpu_max_hz", nlohmann::json());
  const bool emc_locked = j.value("emc_locked", nlohmann::json()) == true;
  std::vector<std::vector<std::string>> rows = {
      {"gpu", "Hz", cell("gpu_cur_hz"), cell("gpu_min_hz"), cell("gpu_max_hz"), gpu_locked ? "yes" : "no",
       count("gpu_hz")},
      {"cpu", "kHz", cell("cpu_cur_khz"), "-", "-", "-", count("cpu_khz")},
      {"emc", "Hz", cell("emc_freq_hz"), "-", "-", emc_locked ? "yes" : "no", count("emc_hz")}};
  const std::vector<std::string> header = {"CLOCK", "UNIT", "CURRENT", "MIN", "MAX", "LOCKED", "OFFERED"};
  if (format == "csv") return format_csv(header, rows);
  std::string out = "power mode: " + cell("power_mode") + " " + cell("power_mode_name") + "\n" +
                    format_table(header, rows);
  out += std::string("snapshot held: ") + (j.value("armed", false) ? "yes (jetperf clocks restore puts it back)" : "no") +
         "\n";
  return out;
}

class clocks_command final : public command {
 public:
  explicit clocks_command(CLI::App& parent)
      : app_(parent.add_subcommand("clocks", "Show the clocks, lock them, or restore the snapshot")) {
    app_->require_subcommand(0, 1);
    lock_ = app_->add_subcommand("lock", "Lock clocks to offered frequencies (at least one flag)");
    lock_->fallthrough();
    lock_->add_option("--gpu", gpu_, "GPU clock in Hz, min or max");
    lock_->add_option("--cpu", cpu_, "CPU clock in kHz, min or max");
    lock_->add_option("--emc", emc_, "EMC clock in Hz, min or max");
    restore_ = app_->add_subcommand("restore", "Put back the clocks and power mode saved before the first change");
    restore_->fallthrough();
  }
  CLI::App* app() const override { return app_; }
  bool prints_table() const override { return true; }

  int run(context& ctx) override {
    nlohmann::json j;
    if (lock_->parsed()) {
      nlohmann::json body = nlohmann::json::object();
      if (!gpu_.empty()) body["gpu"] = clock_value("--gpu", gpu_);
      if (!cpu_.empty()) body["cpu"] = clock_value("--cpu", cpu_);
      if (!emc_.empty()) body["emc"] = clock_value("--emc", emc_);
      if (body.empty()) throw cli_error(exit_usage, "clocks lock needs at least one of --gpu, --cpu, --emc");
      j = ctx.call("PUT", "/v1/clocks", body.dump());
    } else if (restore_->parsed()) {
      j = ctx.call("POST", "/v1/clocks/restore");
    } else {
      j = ctx.call("GET", "/v1/clocks");
    }
    const bool csv = ctx.config().format == "csv";
    if (ctx.config().json)
      std::cout << j.dump(2) << '\n';
    else
      std::cout << (restore_->parsed() && !csv ? "clocks restored\n" : "") << clocks_table(j, ctx.config().format);
    return exit_ok;
  }

 private:
  CLI::App* app_;
  CLI::App* lock_ = nullptr;
  CLI::App* restore_ = nullptr;
  std::string gpu_, cpu_, emc_;
};

}  // namespace

std::unique_ptr<command> make_clocks_command(CLI::App& parent) { return std::make_unique<clocks_command>(parent); }

}  // namespace jetperf::client
