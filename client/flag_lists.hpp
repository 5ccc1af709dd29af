#pragma once
// Flag values that are lists ("a,b", "min,1300500000") and the board-setting flags every
// sweeping kind shares (--power-mode, --gpu-freq, --cpu-freq, --emc-freq). Values go to the
// daemon as written where it can parse them, so its message (naming spec.<field>) is the one a
// person sees.
#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace jetperf::client {

/// True for a non-empty string of decimal digits.
bool all_digits(const std::string& s);

/// "a, b,,c" -> ["a", "b", "c"]: split at commas, blanks dropped.
std::vector<std::string> split_list(const std::string& text);

/// "all" -> "all"; "min,1300500000" -> ["min", 1300500000]: numbers as integers, words as given.
nlohmann::json id_list(const std::string& text);

/// The text of FILE, or of standard input for "-"; a cli_error (usage) naming `what` and the
/// path when it cannot be read.
std::string read_input(const std::string& path, const std::string& what);

/// "a,b" -> ["a", "b"] (always an array).
nlohmann::json string_list(const std::string& text);

/// A flag whose value goes to spec[field] only when it was given.
template <class T>
struct value_flag {
  const char* flag;
  const char* field;
  const char* help;
  CLI::Option* option = nullptr;
  T value{};

  void add_to(CLI::App& app) { option = app.add_option(flag, value, help); }
  bool given() const { return option && option->count() > 0; }
};
using number_flag = value_flag<double>;
using integer_flag = value_flag<std::int64_t>;

/// --contention-threshold and --max-retries -> spec.contention_threshold, max_retries: the same
/// for every kind that measures windows (measure/contention.hpp).
inline number_flag contention_threshold_flag() {
  return {"--contention-threshold", "contention_threshold",
          "Share of the workload's cores' time other processes may take in a window before it is measured again "
          "(spec.contention_threshold; default 0.05)"};
}
inline number_flag max_retries_flag() {
  return {"--max-retries", "max_retries", "Times a contended window is measured again (spec.max_retries; default 2)"};
}

/// --power-mode, --gpu-freq, --cpu-freq, --emc-freq -> spec.power_modes, gpu_freqs, cpu_freqs,
/// emc_freqs (only those given); --allow-reboot -> spec.allow_reboot = true.
class board_axis_flags {
 public:
  void add_to(CLI::App& app);
  void fill(nlohmann::json& spec) const;

 private:
  bool allow_reboot_ = false;
  value_flag<std::string> axes_[4] = {
      {"--gpu-freq", "gpu_freqs", "GPU clocks in Hz: a comma list, all, min or max (spec.gpu_freqs)"},
      {"--cpu-freq", "cpu_freqs", "CPU clocks in kHz: a comma list, all, min or max (spec.cpu_freqs)"},
      {"--emc-freq", "emc_freqs", "EMC clocks in Hz: a comma list, all, min or max (spec.emc_freqs)"},
      {"--power-mode", "power_modes", "Power modes: a comma list of ids or names, or all (spec.power_modes)"},
  };
};

}  // namespace jetperf::client
