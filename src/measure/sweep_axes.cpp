#include <jetperf/measure/sweep_axes.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

#include <jetperf/common/errors.hpp>
#include <jetperf/measure/allow_reboot.hpp>
#include <jetperf/platform/reboot_plan.hpp>

namespace jetperf::measure {

namespace {

using nlohmann::json;

std::string field(const std::string& name) { return "spec." + name; }

// "all" | "min" | "max" | [ints], each checked against the offered list.
// `setting`: the point key the axis sets (gpu_freq_hz), which names it in a refusal: the words
// a point's apply would use for the same value (platform::check_offered_clock).
std::optional<std::vector<std::int64_t>> parse_freqs(const json& spec, const std::string& name,
                                                     const std::vector<std::int64_t>& offered, const char* setting) {
  auto it = spec.find(name);
  if (it == spec.end() || it->is_null()) return std::nullopt;
  std::vector<std::int64_t> valid = offered;
  std::sort(valid.begin(), valid.end());
  if (valid.empty()) platform::check_offered_clock(0, valid, field(name), setting);
  std::vector<std::int64_t> out;
  const auto add = [&](std::int64_t f) {
    if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
  };
  for (const auto& item : spec_list(*it)) {
    if (item == "all") {
      for (auto f : valid) add(f);
    } else if (item == "min") {
      add(valid.front());
    } else if (item == "max") {
      add(valid.back());
    } else {
      add(platform::check_offered_clock(spec_integer(item, name), valid, field(name), setting));
    }
  }
  if (out.empty()) throw validation_error(field(name), name + " is empty: the sweep would have no points", "empty");
  return out;
}

std::optional<std::vector<std::int64_t>> parse_power_modes(const json& spec, const platform::board_offer& offered) {
  auto it = spec.find("power_modes");
  if (it == spec.end() || it->is_null()) return std::nullopt;
  std::vector<std::pair<std::int64_t, std::string>> modes;
  for (const auto& m : offered.power_modes) modes.emplace_back(m.id, m.name);
  std::string valid;
  for (const auto& [id, nm] : modes) valid += (valid.empty() ? "" : ", ") + std::to_string(id) + " (" + nm + ")";
  if (modes.empty()) throw validation_error(field("power_modes"), "this board offers no power modes", "not_offered");
  std::vector<std::int64_t> out;
  for (const auto& item : spec_list(*it)) {
    if (item == "all") {
      for (const auto& m : modes)
        if (std::find(out.begin(), out.end(), m.first) == out.end()) out.push_back(m.first);
      continue;
    }
    std::optional<std::int64_t> id;
    for (const auto& [mid, nm] : modes) {
      if (item.is_number_integer() && item.get<std::int64_t>() == mid) id = mid;
      if (item.is_string() && (item.get<std::string>() == nm || item.get<std::string>() == std::to_string(mid))) id = mid;
    }
    if (!id)
      throw validation_error(field("power_modes"), "power mode " + item.dump() + " is not offered; valid: " + valid,
                             "not_offered");
    if (std::find(out.begin(), out.end(), *id) == out.end()) out.push_back(*id);
  }
  if (out.empty())
    throw validation_error(field("power_modes"), "power_modes is empty: the sweep would have no points", "empty");
  return out;
}

json list_or_null(const std::optional<std::vector<std::int64_t>>& v) { return v ? json(*v) : json(); }

std::size_t count_or_one(const json& v) { return v.is_array() ? v.size() : 1; }

std::vector<json> values(const json& v) {
  return v.is_array() ? std::vector<json>(v.begin(), v.end()) : std::vector<json>{json()};
}

}  // namespace

std::optional<std::int64_t> parse_count(const std::string& text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  for (char c : text)
    if (c < '0' || c > '9') return std::nullopt;
  return std::stoll(text);
}

std::int64_t spec_integer(const nlohmann::json& v, const std::string& name) {
  if (v.is_number_integer()) return v.get<std::int64_t>();
  if (v.is_number_float() && std::isfinite(v.get<double>()) && std::floor(v.get<double>()) == v.get<double>() &&
      std::fabs(v.get<double>()) < 9e15)
    return static_cast<std::int64_t>(v.get<double>());
  if (v.is_string())
    if (auto i = parse_count(v.get<std::string>())) return *i;
  throw validation_error(field(name), name + " must hold integers, got " + v.dump());
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

std::vector<nlohmann::json> spec_list(const nlohmann::json& v) {
  if (v.is_array()) return {v.begin(), v.end()};
  if (v.is_string()) {
    std::vector<json> out;
    for (auto& piece : split_trimmed(v.get<std::string>(), ',')) out.emplace_back(std::move(piece));
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

void normalize_board_axes(const nlohmann::json& spec, const platform::board_offer& offered, nlohmann::json& out) {
  out["gpu_freqs"] = list_or_null(parse_freqs(spec, "gpu_freqs", offered.gpu_freqs_hz, "gpu_freq_hz"));
  out["cpu_freqs"] = list_or_null(parse_freqs(spec, "cpu_freqs", offered.cpu_freqs_khz, "cpu_freq_khz"));
  out["emc_freqs"] = list_or_null(parse_freqs(spec, "emc_freqs", offered.emc_freqs_hz, "emc_freq_hz"));
  const auto modes = parse_power_modes(spec, offered);
  out["power_modes"] = list_or_null(modes);
  const auto& allow = allow_reboot_field();
  out[allow.name] = bool_field(spec, allow);
  // Refused up front rather than failing point by point: the sweep in order, from the mode in
  // effect now and back to it when the job ends (the job's points apply the modes in this order).
  if (modes && !out[allow.name].get<bool>()) {
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

nlohmann::json stored_board_axes(const nlohmann::json& normalized) {
  json axes = json::object();
  for (const auto& f : board_axis_fields()) axes[f.name] = normalized.value(f.name, f.default_value);
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

std::vector<nlohmann::json> board_setting_points(const nlohmann::json& spec) {
  std::vector<json> points;
  for (const auto& mode : values(spec.value("power_modes", json())))
    for (const auto& emc : values(spec.value("emc_freqs", json())))
      for (const auto& gpu : values(spec.value("gpu_freqs", json())))
        for (const auto& cpu : values(spec.value("cpu_freqs", json())))
          points.push_back({{"power_mode", mode}, {"emc_freq_hz", emc}, {"gpu_freq_hz", gpu}, {"cpu_freq_khz", cpu}});
  return points;
}

std::size_t board_setting_count(const nlohmann::json& spec) {
  std::size_t n = 1;
  for (const auto& a : board_axis_sizes(spec)) n *= a.second;
  return n;
}

std::vector<std::pair<std::string, std::size_t>> board_axis_sizes(const nlohmann::json& spec) {
  return {{"power_modes", count_or_one(spec.value("power_modes", json()))},
          {"emc_freqs", count_or_one(spec.value("emc_freqs", json()))},
          {"gpu_freqs", count_or_one(spec.value("gpu_freqs", json()))},
          {"cpu_freqs", count_or_one(spec.value("cpu_freqs", json()))}};
}

}  // namespace jetperf::measure
