#include <jetperf/kinds/common/sweep_axes.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

#include <jetperf/common/cell_text.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/jobs/allow_reboot.hpp>
#include <jetperf/platform/reboot_plan.hpp>

namespace jetperf::kinds::common {

namespace {

std::string field(const std::string& name) { return "spec." + name; }

bool is_text(const cell& c, const char* text) { return c.is_string() && c.as_string() == text; }


// One item of a clock axis as given: "all", "min", "max", or a value the board offers.
struct clock_term {
  std::string word;  ///< "" for a value
  std::int64_t value = 0;
};

// A clock axis as given: its items, each value checked against the board's values (every mode's)
// in the words a point's apply would use for it (platform::check_offered_clock). nullopt when the
// spec leaves the setting as it is.
struct clock_axis {
  std::string name;     ///< gpu_freqs
  std::string setting;  ///< gpu_freq_hz: the point key, which names the value in a refusal
  std::vector<std::int64_t> valid;  ///< ascending
  std::vector<clock_term> terms;
};

std::optional<clock_axis> parse_clock_axis(const record& spec, const std::string& name,
                                           const std::vector<std::int64_t>& offered, const std::string& setting) {
  const auto* given_list = given_field(spec, name);
  if (!given_list) return std::nullopt;
  clock_axis axis{name, setting, offered, {}};
  std::sort(axis.valid.begin(), axis.valid.end());
  if (axis.valid.empty()) platform::check_offered_clock(0, axis.valid, field(name), setting);
  for (const auto& item : spec_list(*given_list)) {
    if (is_text(item, "all") || is_text(item, "min") || is_text(item, "max"))
      axis.terms.push_back({item.as_string(), 0});
    else
      axis.terms.push_back({"", platform::check_offered_clock(spec_integer(item, name), axis.valid, field(name), setting)});
  }
  if (axis.terms.empty()) throw validation_error(field(name), name + " is empty: the sweep would have no points", "empty");
  return axis;
}

// The axis in one power mode: "all", "min" and "max" read under the mode's cap (its limits), and
// the values kept where the cap allows them, each once, in the order given.
std::vector<std::int64_t> in_mode(const clock_axis& axis, std::optional<std::int64_t> cap) {
  const auto allowed = platform::under_cap(axis.valid, cap);
  std::vector<std::int64_t> out;
  const auto add = [&](std::int64_t f) {
    if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
  };
  for (const auto& t : axis.terms) {
    if (t.word == "all") {
      for (auto f : allowed) add(f);
    } else if (t.word == "min") {
      if (!allowed.empty()) add(allowed.front());
    } else if (t.word == "max") {
      if (!allowed.empty()) add(allowed.back());
    } else if (!cap || t.value <= *cap) {
      add(t.value);
    }
  }
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

// The clock axes in sweep order of their keys in a stored spec, with the setting each sets.
const std::pair<const char*, const char*> k_clock_axes[] = {
    {"gpu_freqs", "gpu_freq_hz"}, {"cpu_freqs", "cpu_freq_khz"}, {"emc_freqs", "emc_freq_hz"}};

std::string mode_key(std::int64_t mode) { return std::to_string(mode); }

// A value no mode of the sweep allows could only be skipped: refused, naming the caps.
void refuse_above_every_cap(const clock_axis& axis, const std::vector<std::optional<std::int64_t>>& run_in,
                            const std::vector<std::vector<std::int64_t>>& lists, const platform::board_offer& offered,
                            bool swept) {
  for (const auto& t : axis.terms) {
    if (!t.word.empty()) continue;
    bool allowed = false;
    for (const auto& l : lists) allowed = allowed || std::find(l.begin(), l.end(), t.value) != l.end();
    if (allowed) continue;
    if (!swept) {
      const auto mode = run_in.front();
      platform::check_under_cap(t.value, offered.caps_in(mode).of(axis.setting), axis.valid, field(axis.name),
                                axis.setting, mode ? offered.mode_label(*mode) : "in effect");
    }
    std::string caps;
    for (const auto& m : run_in)
      caps += (caps.empty() ? "" : ", ") + offered.mode_label(*m) + " " +
              std::to_string(offered.caps_in(m).of(axis.setting).value_or(0));
    throw validation_error(field(axis.name),
                           axis.setting + " " + std::to_string(t.value) + " is above the cap of every power mode swept (" +
                               caps + "): add a mode that allows it to power_modes, or leave it out",
                           "above_cap");
  }
}

// A stored spec's clocks_by_mode given back (jetperf rerun sends it): {mode id: {axis: [values]}}
// for swept modes and given axes; each list is checked against the mode's own list below.
const record* given_by_mode(const record& spec, const std::optional<std::vector<std::int64_t>>& modes) {
  const auto* given = given_field(spec, "clocks_by_mode");
  if (!given) return nullptr;
  if (!given->is_record()) throw validation_error(field("clocks_by_mode"), "clocks_by_mode must be an object");
  for (const auto& [key, lists] : given->as_record()) {
    bool swept = false;
    if (modes)
      for (auto m : *modes) swept = swept || mode_key(m) == key;
    if (!swept)
      throw validation_error(field("clocks_by_mode." + key), "power mode " + key + " is not one of power_modes");
    if (!lists.is_record()) throw validation_error(field("clocks_by_mode." + key), "expected an object of clock lists");
    for (const auto& [axis, list] : lists.as_record()) {
      bool known = false;
      for (const auto& a : k_clock_axes) known = known || axis == a.first;
      if (!known || !list.is_list())
        throw validation_error(field("clocks_by_mode." + key + "." + axis), "expected gpu_freqs, cpu_freqs or emc_freqs lists");
    }
  }
  return &given->as_record();
}

// The mode's list narrowed to what a given clocks_by_mode names, in the list's order.
std::vector<std::int64_t> narrowed(const std::vector<std::int64_t>& list, const cell& given, const std::string& where) {
  std::vector<std::int64_t> asked;
  for (const auto& v : given.as_list()) {
    const auto f = spec_integer(v, where);
    if (std::find(list.begin(), list.end(), f) == list.end())
      throw validation_error(field(where), std::to_string(f) + " is not swept in that power mode (valid: under its cap, in the axis)",
                             "above_cap");
    asked.push_back(f);
  }
  std::vector<std::int64_t> out;
  for (auto f : list)
    if (std::find(asked.begin(), asked.end(), f) != asked.end()) out.push_back(f);
  return out;
}

// Every clock axis resolved in each mode the points run in (the swept ones, else the one in
// effect): the union in the axis, in the order the modes first ask for the values, and in
// `by_mode` each mode whose list differs from it, so that a sweep over modes x clocks keeps only
// the combinations each mode's caps allow and "max" is each mode's own highest step.
void resolve_clock_axes(const record& spec, const platform::board_offer& offered,
                        const std::optional<std::vector<std::int64_t>>& modes, record& out) {
  std::vector<std::optional<std::int64_t>> run_in;
  if (modes)
    for (auto m : *modes) run_in.emplace_back(m);
  else
    run_in.emplace_back(offered.power_mode);
  const record* given = given_by_mode(spec, modes);
  record by_mode;
  for (const auto& [name, setting] : k_clock_axes) {
    const auto axis = parse_clock_axis(spec, name, offered.clock_values(setting), setting);
    if (!axis) {
      out.set(name, cell());
      continue;
    }
    std::vector<std::vector<std::int64_t>> lists;
    for (const auto& m : run_in) lists.push_back(in_mode(*axis, offered.caps_in(m).of(setting)));
    refuse_above_every_cap(*axis, run_in, lists, offered, modes.has_value());
    std::vector<std::int64_t> all;
    for (const auto& l : lists)
      for (auto f : l)
        if (std::find(all.begin(), all.end(), f) == all.end()) all.push_back(f);
    if (all.empty())
      throw validation_error(field(name), "no value of " + std::string(name) + " is allowed by the power modes' caps", "above_cap");
    for (std::size_t i = 0; i < run_in.size(); ++i) {
      const auto key = run_in[i] ? mode_key(*run_in[i]) : "";
      const auto* lists_given = given && !key.empty() ? given->find(key) : nullptr;
      const auto* list_given = lists_given ? lists_given->as_record().find(name) : nullptr;
      if (list_given) lists[i] = narrowed(lists[i], *list_given, "clocks_by_mode." + key + "." + name);
      if (lists[i] == all || !run_in[i] || !modes) continue;
      if (!by_mode.find(key)) by_mode.set(key, record());
      by_mode.find(key)->as_record().set(name, lists[i]);
    }
    out.set(name, all);
  }
  if (!by_mode.empty()) out.set("clocks_by_mode", std::move(by_mode));
}

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
      {"clocks_by_mode", t::object, nullptr,
       "filled in when power_modes is swept: per mode id, the clock lists that mode sweeps where its caps narrow "
       "the axes (\"max\" is each mode's own highest step); a value above a mode's cap is left out of that mode",
       0, 0, {}},
      jobs::allow_reboot_field(),
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
  const auto modes = parse_power_modes(spec, offered);
  resolve_clock_axes(spec, offered, modes, out);
  out.set("power_modes", list_or_null(modes));
  const auto& allow = jobs::allow_reboot_field();
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
    // clocks_by_mode only where a sweep's modes differ: specs without it keep their stored form.
    if (f.name == "clocks_by_mode" && (!c || c->is_null())) continue;
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

namespace {

// A clock axis in one power mode: its clocks_by_mode list where the spec has one, else the axis.
const cell& axis_in(const record& spec, const cell& mode, const char* name) {
  const auto* by_mode = spec.find("clocks_by_mode");
  if (mode.is_integer() && by_mode && by_mode->is_record())
    if (const auto* lists = by_mode->as_record().find(mode_key(*mode.integer())))
      if (const auto* list = lists->as_record().find(name)) return *list;
  return axis(spec, name);
}

}  // namespace

std::vector<record> board_setting_points(const record& spec) {
  std::vector<record> points;
  for (const auto& mode : values(axis(spec, "power_modes")))
    for (const auto& emc : values(axis_in(spec, mode, "emc_freqs")))
      for (const auto& gpu : values(axis_in(spec, mode, "gpu_freqs")))
        for (const auto& cpu : values(axis_in(spec, mode, "cpu_freqs")))
          points.push_back({{"power_mode", mode}, {"emc_freq_hz", emc}, {"gpu_freq_hz", gpu}, {"cpu_freq_khz", cpu}});
  return points;
}

std::size_t board_setting_count(const record& spec) {
  std::size_t n = 0;
  for (const auto& mode : values(axis(spec, "power_modes")))
    n += count_or_one(axis_in(spec, mode, "emc_freqs")) * count_or_one(axis_in(spec, mode, "gpu_freqs")) *
         count_or_one(axis_in(spec, mode, "cpu_freqs"));
  return std::max<std::size_t>(n, 1);
}

std::vector<std::pair<std::string, std::size_t>> board_axis_sizes(const record& spec) {
  // Each clock axis as its widest mode sweeps it: their product bounds the settings from above.
  std::vector<std::pair<std::string, std::size_t>> sizes = {{"power_modes", count_or_one(axis(spec, "power_modes"))}};
  for (const char* name : {"emc_freqs", "gpu_freqs", "cpu_freqs"}) {
    std::size_t widest = 0;
    for (const auto& mode : values(axis(spec, "power_modes")))
      widest = std::max(widest, count_or_one(axis_in(spec, mode, name)));
    sizes.emplace_back(name, widest);
  }
  return sizes;
}

}  // namespace jetperf::kinds::common
