#include <jetperf/sim/profile_file.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

#include <jetperf/common/errors.hpp>

#include "file_io.hpp"

namespace jetperf::sim {

namespace {

using json = nlohmann::ordered_json;

// Each struct's fields, spelled once: `v(name, member)` for every member, in the order a file
// shows them. The writer and the reader are two visitors over the same lists.
template <typename V, typename T>
void fields_of(V& v, T& t, cpu_cluster*) {
  v("param", t.param);
  v("cores", t.cores);
  v("freqs_khz", t.freqs_khz);
}

template <typename V, typename T>
void fields_of(V& v, T& t, rail_channel*) {
  v("label", t.label);
  v("kind", t.kind);
}

template <typename V, typename T>
void fields_of(V& v, T& t, sensor_timing*) {
  v.scaled("update_period_ms", t.period_us, 1e-3);
  v.scaled("lag_ms", t.lag_us, 1e-3);
  v("noise_mw", t.noise_mw);
  v("noise_fraction", t.noise_fraction);
}

template <typename V, typename T>
void fields_of(V& v, T& t, ina_chip*) {
  v("bus_addr", t.bus_addr);
  v("device_path", t.device_path);
  v("hwmon_index", t.hwmon_index);
  v("channels", t.channels);
  v("sensor", t.timing);
}

template <typename V, typename T>
void fields_of(V& v, T& t, ina238_chip*) {
  v("bus_addr", t.bus_addr);
  v("device_path", t.device_path);
  v("hwmon_index", t.hwmon_index);
  v("sensor", t.timing);
}

template <typename V, typename T>
void fields_of(V& v, T& t, thermal_zone_spec*) {
  v("type", t.type);
  v("offset_c", t.offset_c);
  v("offline", t.offline);
  v("fixed_trip", t.fixed_trip);
}

template <typename V, typename T>
void fields_of(V& v, T& t, mode_spec*) {
  v("id", t.id);
  v("name", t.name);
  v("online", t.online);
  v("cpu_min_khz", t.cpu_min_khz);
  v("cpu_max_khz", t.cpu_max_khz);
  v("gpu_min_hz", t.gpu_min_hz);
  v("gpu_max_hz", t.gpu_max_hz);
  v("emc_max_hz", t.emc_max_hz);
  v("tpc_pg_mask", t.tpc_pg_mask);
  v("fbp_pg_mask", t.fbp_pg_mask);
  v("oc_warn_ma", t.oc_warn_ma);
  v("oc_crit_ma", t.oc_crit_ma);
}

template <typename V, typename T>
void fields_of(V& v, T& t, power_constants*) {
  v("cpu_core_static_mw", t.cpu_core_static_mw);
  v("cpu_core_max_mw", t.cpu_core_max_mw);
  v("gpu_static_mw", t.gpu_static_mw);
  v("gpu_max_mw", t.gpu_max_mw);
  v("gpu_tpcs", t.gpu_tpcs);
  v("v_min_ratio", t.v_min_ratio);
  v("soc_static_mw", t.soc_static_mw);
  v("ddr_static_mw", t.ddr_static_mw);
  v("emc_max_mw", t.emc_max_mw);
  v("cv_static_mw", t.cv_static_mw);
  v("sys5v_mw", t.sys5v_mw);
  v("wifi_mw", t.wifi_mw);
  v("input_base_mw", t.input_base_mw);
  v("input_efficiency", t.input_efficiency);
  v("ambient_c", t.ambient_c);
  v("thermal_c_per_w", t.thermal_c_per_w);
  v("thermal_tau_s", t.thermal_tau_s);
}

template <typename V, typename T>
void fields_of(V& v, T& p, board_profile*) {
  v("name", p.name);
  v("description", p.description);
  v("soc", p.soc);
  v("model", p.model);
  v("compatible", p.compatible);
  v("release_line", p.release_line);
  v("l4t_major", p.l4t_major);
  v("knext", p.knext);
  v("nvpmodel_conf_name", p.nvpmodel_conf_name);
  v("clusters", p.clusters);
  v("cpu_governor", p.cpu_governor);
  v("gpu_device_dir", p.gpu_device_dir);
  v("gpu_devfreq_dir", p.gpu_devfreq_dir);
  v("gpu_class_name", p.gpu_class_name);
  v("gpu_of_node_name", p.gpu_of_node_name);
  v("gpu_devfreq_dir_alt", p.gpu_devfreq_dir_alt);
  v("gpu_pm_dir", p.gpu_pm_dir);
  v("gpu_pm_dir_alt", p.gpu_pm_dir_alt);
  v("gpu_compatible", p.gpu_compatible);
  v("gpu_freqs_hz", p.gpu_freqs_hz);
  v("gpu_clock_debugfs", p.gpu_clock_debugfs);
  v("nvgpu_sysfs", p.nvgpu_sysfs);
  v("enable_3d_scaling", p.enable_3d_scaling);
  v("gpu_governors", p.gpu_governors);
  v("gpu_extra_devfreq", p.gpu_extra_devfreq);
  v("gpu_gpcs", p.gpu_gpcs);
  v("emc_rate_path", p.emc_rate_path);
  v("emc_min_path", p.emc_min_path);
  v("emc_max_path", p.emc_max_path);
  v("emc_cap_path", p.emc_cap_path);
  v("emc_cap_path_alt", p.emc_cap_path_alt);
  v("emc_freqs_hz", p.emc_freqs_hz);
  v("symlinks", p.symlinks);
  v("zones", p.zones);
  v("sensor", p.sensor);
  v("ina", p.ina);
  v("ina238", p.ina238);
  v("ucsi_supplies", p.ucsi_supplies);
  v("hwmon_rails", p.hwmon_rails);
  v("fan_hwmon", p.fan_hwmon);
  v("fan_modes", p.fan_modes);
  v("default_fan_mode", p.default_fan_mode);
  v("has_tpc_param", p.has_tpc_param);
  v("has_fbp_param", p.has_fbp_param);
  v("has_oc_param", p.has_oc_param);
  v("oc_hwmon_dir", p.oc_hwmon_dir);
  v("modes", p.modes);
  v("default_mode", p.default_mode);
  v("ram_total_mb", p.ram_total_mb);
  v("swap_total_mb", p.swap_total_mb);
  v("timestamp", p.timestamp);
  v("rail_mw_suffix", p.rail_mw_suffix);
  v("gr3d_array", p.gr3d_array);
  v("iram", p.iram);
  v("mts", p.mts);
  v("vic_field", p.vic_field);
  v("ape_mhz", p.ape_mhz);
  v("rail_max", p.rail_max);
  v("temp_max", p.temp_max);
  v("gr3d_load", p.gr3d_load);
  v("engines_off", p.engines_off);
  v("engines_at_freq", p.engines_at_freq);
  v("omit_offline_zones", p.omit_offline_zones);
  v("power", p.power);
}

template <typename T>
constexpr bool has_fields = std::is_same_v<T, cpu_cluster> || std::is_same_v<T, rail_channel> ||
                            std::is_same_v<T, sensor_timing> || std::is_same_v<T, ina_chip> ||
                            std::is_same_v<T, ina238_chip> || std::is_same_v<T, thermal_zone_spec> ||
                            std::is_same_v<T, mode_spec> || std::is_same_v<T, power_constants> ||
                            std::is_same_v<T, board_profile>;

const std::array<std::pair<rail_kind, const char*>, 13> k_rail_kinds{{
    {rail_kind::input, "input"}, {rail_kind::cpu, "cpu"}, {rail_kind::gpu, "gpu"}, {rail_kind::soc, "soc"},
    {rail_kind::ddr, "ddr"}, {rail_kind::cv, "cv"}, {rail_kind::sys5v, "sys5v"}, {rail_kind::wifi, "wifi"},
    {rail_kind::gpu_soc, "gpu_soc"}, {rail_kind::cpu_cv, "cpu_cv"}, {rail_kind::cpu_gpu_cv, "cpu_gpu_cv"},
    {rail_kind::nc, "nc"}, {rail_kind::cpu_soc_mss, "cpu_soc_mss"},
}};

std::string kind_names() {
  std::string out;
  for (const auto& [k, name] : k_rail_kinds) out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

struct writer {
  json& out;

  template <typename T>
  static json value(const T& t) {
    if constexpr (has_fields<T>) {
      json j = json::object();
      writer w{j};
      fields_of(w, t, static_cast<T*>(nullptr));
      return j;
    } else if constexpr (std::is_same_v<T, rail_kind>) {
      for (const auto& [k, name] : k_rail_kinds)
        if (k == t) return name;
      return nullptr;
    } else {
      return t;
    }
  }
  template <typename T>
  static json value(const std::vector<T>& list) {
    json a = json::array();
    for (const auto& x : list) a.push_back(value(x));
    return a;
  }
  static json value(const std::vector<bool>& list) { return json(std::vector<bool>(list)); }
  template <typename T>
  static json value(const std::optional<T>& o) {
    return o ? value(*o) : json(nullptr);
  }
  static json value(const std::pair<std::string, std::string>& p) { return json::array({p.first, p.second}); }

  template <typename T>
  void operator()(const char* name, const T& t) {
    out[name] = value(t);
  }
  void scaled(const char* name, const long long& v, double scale) { out[name] = static_cast<double>(v) * scale; }
};

// The names a struct's fields go by (a file's unknown keys are refused).
struct field_names {
  std::set<std::string>& known;
  template <typename U>
  void operator()(const char* n, U&) {
    known.insert(n);
  }
  void scaled(const char* n, long long&, double) { known.insert(n); }
};

struct reader {
  const json& in;
  std::string path;

  std::string at(const char* name) const { return path.empty() ? name : path + "." + name; }
  [[noreturn]] static void refuse(const std::string& field, const std::string& why) {
    throw validation_error(field, "simulated board profile: " + field + ": " + why);
  }

  template <typename T>
  static void read(const json& j, const std::string& field, T& t) {
    if constexpr (has_fields<T>) {
      if (!j.is_object()) refuse(field, "must be an object");
      reader r{j, field};
      std::set<std::string> known;
      field_names collect{known};
      fields_of(collect, t, static_cast<T*>(nullptr));
      for (auto it = j.begin(); it != j.end(); ++it)
        if (!known.count(it.key())) refuse(field.empty() ? it.key() : field + "." + it.key(), "not a field of a profile");
      fields_of(r, t, static_cast<T*>(nullptr));
    } else if constexpr (std::is_same_v<T, rail_kind>) {
      if (j.is_string())
        for (const auto& [k, name] : k_rail_kinds)
          if (j.get<std::string>() == name) {
            t = k;
            return;
          }
      refuse(field, "must be one of " + kind_names());
    } else if constexpr (std::is_same_v<T, bool>) {
      if (!j.is_boolean()) refuse(field, "must be true or false");
      t = j.get<bool>();
    } else if constexpr (std::is_integral_v<T>) {
      if (!j.is_number_integer()) refuse(field, "must be an integer");
      t = j.get<T>();
    } else if constexpr (std::is_floating_point_v<T>) {
      if (!j.is_number() || !std::isfinite(j.get<double>())) refuse(field, "must be a number");
      t = j.get<T>();
    } else if constexpr (std::is_same_v<T, std::string>) {
      if (!j.is_string()) refuse(field, "must be a string");
      t = j.get<std::string>();
    } else {
      static_assert(std::is_same_v<T, std::pair<std::string, std::string>>);
      if (!j.is_array() || j.size() != 2 || !j[0].is_string() || !j[1].is_string())
        refuse(field, "must be a [link, target] pair of paths");
      t = {j[0].get<std::string>(), j[1].get<std::string>()};
    }
  }
  template <typename T>
  static void read(const json& j, const std::string& field, std::vector<T>& list) {
    if (!j.is_array()) refuse(field, "must be a list");
    list.clear();
    for (std::size_t i = 0; i < j.size(); ++i) {
      T x{};
      read(j[i], field + "[" + std::to_string(i) + "]", x);
      list.push_back(std::move(x));
    }
  }
  static void read(const json& j, const std::string& field, std::vector<bool>& list) {
    if (!j.is_array()) refuse(field, "must be a list");
    list.clear();
    for (std::size_t i = 0; i < j.size(); ++i) {
      bool b = false;
      read(j[i], field + "[" + std::to_string(i) + "]", b);
      list.push_back(b);
    }
  }
  template <typename T>
  static void read(const json& j, const std::string& field, std::optional<T>& o) {
    if (j.is_null()) {
      o.reset();
      return;
    }
    T x{};
    read(j, field, x);
    o = std::move(x);
  }

  // A field the file leaves out keeps its default.
  template <typename T>
  void operator()(const char* name, T& t) {
    const auto it = in.find(name);
    if (it != in.end()) read(*it, at(name), t);
  }
  void scaled(const char* name, long long& v, double scale) {
    const auto it = in.find(name);
    if (it == in.end()) return;
    double x = 0;
    read(*it, at(name), x);
    v = std::llround(x / scale);
  }
};

void require(bool ok, const std::string& field, const std::string& why) {
  if (!ok) reader::refuse(field, why);
}

template <typename T>
bool ascending(const std::vector<T>& v) {
  return std::adjacent_find(v.begin(), v.end(), [](const T& a, const T& b) { return !(a < b); }) == v.end();
}

void check_timing(const sensor_timing& t, const std::string& field) {
  require(t.period_us >= 100 && t.period_us <= 1'000'000, field + ".update_period_ms", "must be 0.1 to 1000 ms");
  require(t.lag_us >= 0 && t.lag_us <= 1'000'000, field + ".lag_ms", "must be 0 to 1000 ms");
  require(t.noise_mw >= 0, field + ".noise_mw", "must not be negative");
  require(t.noise_fraction >= 0 && t.noise_fraction < 1, field + ".noise_fraction", "must be in [0, 1)");
}

void check_clocks(const board_profile& p) {
  require(!p.clusters.empty(), "clusters", "a board has at least one CPU cluster");
  std::set<int> cores;
  for (std::size_t k = 0; k < p.clusters.size(); ++k) {
    const auto& c = p.clusters[k];
    const std::string f = "clusters[" + std::to_string(k) + "]";
    require(!c.cores.empty(), f + ".cores", "a cluster has at least one core");
    for (int core : c.cores) require(core >= 0 && core < 256 && cores.insert(core).second, f + ".cores", "each core once, 0-255");
    require(!c.freqs_khz.empty() && c.freqs_khz.front() > 0 && ascending(c.freqs_khz), f + ".freqs_khz",
            "must be positive and ascending");
  }
  require(static_cast<int>(cores.size()) == p.core_count() && *cores.rbegin() == p.core_count() - 1, "clusters",
          "the cores must be numbered 0 to N-1");
  require(p.gpu_freqs_hz.empty() || (p.gpu_freqs_hz.front() > 0 && ascending(p.gpu_freqs_hz)), "gpu_freqs_hz",
          "must be positive and ascending");
  require(p.emc_freqs_hz.empty() || (p.emc_freqs_hz.front() > 0 && ascending(p.emc_freqs_hz)), "emc_freqs_hz",
          "must be positive and ascending");
}

void check_modes(const board_profile& p) {
  require(!p.modes.empty(), "modes", "a board has at least one power mode");
  std::set<int> ids;
  for (std::size_t k = 0; k < p.modes.size(); ++k) {
    const auto& m = p.modes[k];
    const std::string f = "modes[" + std::to_string(k) + "]";
    require(m.id >= 0 && ids.insert(m.id).second, f + ".id", "ids are distinct and not negative");
    require(!m.name.empty(), f + ".name", "must not be empty");
    require(!m.online.empty(), f + ".online", "a mode keeps at least one core online");
    for (int c : m.online) require(c >= 0 && c < p.core_count(), f + ".online", "names a core the board does not have");
  }
  require(p.find_mode(p.default_mode) != nullptr, "default_mode", "must be the id of one of the modes");
}

void check_sensors(const board_profile& p) {
  check_timing(p.sensor, "sensor");
  for (std::size_t k = 0; k < p.ina.size(); ++k) {
    const std::string f = "ina[" + std::to_string(k) + "]";
    require(p.ina[k].channels.size() == 3, f + ".channels", "an INA3221 has exactly three channels");
    if (p.ina[k].timing) check_timing(*p.ina[k].timing, f + ".sensor");
  }
  for (std::size_t k = 0; k < p.ina238.size(); ++k)
    if (p.ina238[k].timing) check_timing(*p.ina238[k].timing, "ina238[" + std::to_string(k) + "].sensor");
}

}  // namespace

void check_profile(const board_profile& p) {
  require(!p.name.empty() && p.name.size() <= 64 &&
              p.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-") == std::string::npos,
          "name", "must be 1-64 characters of a-z, 0-9, _ and -");
  require(!p.soc.empty(), "soc", "must not be empty");
  check_clocks(p);
  check_modes(p);
  check_sensors(p);
  const auto& c = p.power;
  require(c.input_efficiency > 0 && c.input_efficiency <= 1, "power.input_efficiency", "must be in (0, 1]");
  require(c.v_min_ratio > 0 && c.v_min_ratio <= 1, "power.v_min_ratio", "must be in (0, 1]");
  require(c.thermal_tau_s > 0, "power.thermal_tau_s", "must be positive");
}

std::string profile_json_text(const board_profile& profile) { return writer::value(profile).dump(2) + "\n"; }

board_profile profile_from_json_text(const std::string& text) {
  const json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded()) throw validation_error("", "simulated board profile: not valid JSON");
  board_profile p;
  reader::read(doc, "", p);
  check_profile(p);
  return p;
}

board_profile read_profile_file(const std::string& path) {
  const auto text = detail::read_text(path);
  if (!text) throw validation_error("board", "simulated board profile " + path + ": cannot be read");
  try {
    return profile_from_json_text(*text);
  } catch (const validation_error& e) {
    throw validation_error(e.field(), path + ": " + e.what());
  }
}

}  // namespace jetperf::sim
