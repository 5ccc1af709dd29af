#include <jetperf/measure/sweep_axes.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

#include <jetperf/common/cell_text.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/measure/allow_reboot.hpp>
#include <jetperf/platform/reboot_plan.hpp>

namespace jetperf::measure {

namespace {

std::string field(const std::string& name) { return "spec." + name; }

bool is_text(const cell& c, const char* text) { return c.is_string() && c.as_string() == text; }


// "all" | "min" | "max" | [ints], each checked against the offered list.
// `setting`: the point key the axis sets (gpu_freq_hz), which names it in a refusal: the words
// a point's apply would use for the same value (platform::check_offered_clock).
std::optional<std::vector<std::int64_t>> parse_freqs(const record& spec, const std::string& name,
                                                     const std::vector<std::int64_t>& offered, const char* setting) {
  const auto* given_list = given_field(spec, name);
  if (!given_list) return std::nullopt;
  std::vector<std::int64_t> valid = offered;
  std::sort(valid.begin(), valid.end());
  if (valid.empty()) platform::check_offered_clock(0, valid, field(name), setting);
  std::vector<std::int64_t> out;
  const auto add = [&](std::int64_t f) {
    if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
  };
  for (const auto& item : spec_list(*given_list)) {
    if (is_text(item, "all")) {
      for (auto f : valid) add(f);
    } else if (is_text(item, "min")) {
      add(valid.front());
    } else if (is_text(item, "max")) {
      add(valid.back());
    } else {
      add(platform::check_offered_clock(spec_integer(item, name), valid, field(name), setting));
    }
  }
  if (out.empty()) throw validation_error(field(name), name + " is empty: the sweep would have no points", "empty");
  return out;
}

std::optional<std::vector<std::int64_t>> parse_power_modes(const record& spec, const platform::board_offer& offered) {
  const auto* given_list = given_field(spec, "power_modes");
  if (!given_list) return std::nullopt;
  std::vector<std::pair<std::int64_t, std::string>> modes;
  for (const auto& m : offered.power_modes) modes.emplace_back(m.id, m.name);
  std::string valid;
  for (const auto& [id, nm] : modes) valid += (valid.empty() ? "" : ", ") + std::to_string(id) + " (" + nm + ")";
  if (modes.empty()) throw validation_error(field("power_modes"), "this board offers no power modes", "not_offered");
  std::vector<std::int64_t> out;
  for (const auto& item : spec_list(*given_list)) {
    if (is_text(item, "all")) {
      for (const auto& m : modes)
        if (std::find(out.begin(), out.end(), m.first) == out.end()) out.push_back(m.first);
      continue;
    }
    std::optional<std::int64_t> id;
    for (const auto& [mid, nm] : modes) {
      if (item.is_integer() && *item.integer() == mid) id = mid;
      if (item.is_string() && (item.as_string() == nm || item.as_string() == std::to_string(mid))) id = mid;
    }
    if (!id)
      throw validation_error(field("power_modes"), "power mode " + json_text(item) + " is not offered; valid: " + valid,
                             "not_offered");
    if (std::find(out.begin(), out.end(), *id) == out.end()) out.push_back(*id);
  }
  if (out.empty())
    throw validation_error(field("power_modes"), "power_modes is empty: the sweep would have no points", "empty");
  return out;
}

cell list_or_null(const std::optional<std::vector<std::int64_t>>& v) { return v ? cell(*v) : cell(); }

const cell& axis(const record& spec, const char* name) {
  static const cell none;
  const auto* c = spec.find(name);
  return c ? *c : none;
}

std::size_t count_or_one(const cell& v) { return v.is_list() ? v.as_list().size() : 1; }

cell_list values(const cell& v) { return v.is_list() ? v.as_list() : cell_list{cell()}; }

}  // namespace

std::optional<std::int64_t> parse_count(const std::string& text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  for (char c : text)
    if (c < '0' || c > '9') return std::nullopt;
  return std::stoll(text);
}

std::int64_t spec_integer(const cell& v, const std::string& name) {
  if (v.is_integer()) return *v.integer();
  if (v.is_double() && std::isfinite(*v.number()) && std::floor(*v.number()) == *v.number() &&
      std::fabs(*v.number()) < 9e15)
    return static_cast<std::int64_t>(*v.number());
  if (v.is_string())
    if (auto i = parse_count(v.as_string())) return *i;
  throw validation_error(field(name), name + " must hold integers, got " + json_text(v));
}

std::vector<std::string> split_trimmed(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(text);
  while (std::getline(in, cur, sep)) {
    cur.erase(0, cur.find_first_not_of(" \t"));
    cur.erase(cur.find_last_not_of(" \t") + 1);
    if (!cur.empty()) out.push_back(cur);
  }
  return out;
}

cell_list spec_list(const cell& v) {
  if (v.is_list()) return v.as_list();
  if (v.is_string()) {
    cell_list out;
    for (auto& piece : split_trimmed(v.as_string(), ',')) out.emplace_back(std::move(piece));
    return out;
  }
  return {v};
}

const std::vector<spec_field>& board_axis_fields() {
  using t = spec_type;
  static const std::vector<spec_field> fields = {
      {"power_modes", t::list, nullptr, "nvpmodel mode ids, \"all\", or absent to leave the mode", 0, 0, {}},
      {"emc_freqs", t::list, nullptr, "EMC clocks in Hz, \"all\", \"min\", \"max\", or absent to leave them", 0, 0, {}},
      {"gpu_freqs", t::list, nullptr, "GPU clocks in Hz, \"all\", \"min\", \"max\", or absent to leave them", 0, 0, {}},
      {"cpu_freqs", t::list, nullptr, "CPU clocks in kHz, \"all\", \"min\", \"max\", or absent to leave them", 0, 0, {}},
      allow_reboot_field(),
  };
  return fields;
}

std::vector<spec_field> with_board_axes(std::vector<spec_field> before, const std::vector<spec_field>& after) {
  const auto& axes = board_axis_fields();
  before.insert(before.end(), axes.begin(), axes.end());
  before.insert(before.end(), after.begin(), after.end());
  return before;
}

void normalize_board_axes(const record& spec, const platform::board_offer& offered, record& out) {
  out.set("gpu_freqs", list_or_null(parse_freqs(spec, "gpu_freqs", offered.gpu_freqs_hz, "gpu_freq_hz")));
  out.set("cpu_freqs", list_or_null(parse_freqs(spec, "cpu_freqs", offered.cpu_freqs_khz, "cpu_freq_khz")));
  out.set("emc_freqs", list_or_null(parse_freqs(spec, "emc_freqs", offered.emc_freqs_hz, "emc_freq_hz")));
  const auto modes = parse_power_modes(spec, offered);
  out.set("power_modes", list_or_null(modes));
  const auto& allow = allow_reboot_field();
  const bool allowed = bool_field(spec, allow);
  out.set(allow.name, allowed);
  // Refused up front rather than failing point by point: the sweep in order, from the mode in
  // effect now and back to it when the job ends (the job's points apply the modes in this order).
  if (modes && !allowed) {
    const auto steps = platform::reboot_steps(offered, *modes);
    if (!steps.empty())
      throw validation_error(field(allow.name),
                             "these power mode switches change GPU power gating and need a reboot: " +
                                 platform::describe(offered, steps) +
                                 "; set allow_reboot to let jetperfd reboot the board and go on after the boot, "
                                 "or leave those modes out of power_modes",
                             "reboot_needed");
  }
}

record stored_board_axes(const record& normalized) {
  record axes;
  for (const auto& f : board_axis_fields()) {
    const auto* c = normalized.find(f.name);
    axes.set(f.name, c ? *c : f.default_value);
  }
  return axes;
}

const std::vector<std::string>& board_setting_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> out;
    for (const auto& f : platform::setting_fields()) out.emplace_back(f.key);
    return out;
  }();
  return keys;
}

std::vector<record> board_setting_points(const record& spec) {
  std::vector<record> points;
  for (const auto& mode : values(axis(spec, "power_modes")))
    for (const auto& emc : values(axis(spec, "emc_freqs")))
      for (const auto& gpu : values(axis(spec, "gpu_freqs")))
        for (const auto& cpu : values(axis(spec, "cpu_freqs")))
          points.push_back({{"power_mode", mode}, {"emc_freq_hz", emc}, {"gpu_freq_hz", gpu}, {"cpu_freq_khz", cpu}});
  return points;
}

std::size_t board_setting_count(const record& spec) {
  std::size_t n = 1;
  for (const auto& a : board_axis_sizes(spec)) n *= a.second;
  return n;
}

std::vector<std::pair<std::string, std::size_t>> board_axis_sizes(const record& spec) {
  return {{"power_modes", count_or_one(axis(spec, "power_modes"))},
          {"emc_freqs", count_or_one(axis(spec, "emc_freqs"))},
          {"gpu_freqs", count_or_one(axis(spec, "gpu_freqs"))},
          {"cpu_freqs", count_or_one(axis(spec, "cpu_freqs"))}};
}

}  // namespace jetperf::measure
