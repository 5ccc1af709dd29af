#include <jetperf/workloads/gemm_spec.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>
#include <string>

#include <jetperf/common/errors.hpp>
#include <jetperf/common/spec_fields.hpp>
#include <jetperf/workloads/gemm_backends.hpp>
#include <jetperf/workloads/gemm_dtype.hpp>

namespace jetperf::workloads {

namespace {

using nlohmann::json;

constexpr std::int64_t k_max_dim = 1 << 20;

std::string field(const std::string& name) { return "spec." + name; }

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) {
    cur.erase(0, cur.find_first_not_of(" \t"));
    cur.erase(cur.find_last_not_of(" \t") + 1);
    if (!cur.empty()) out.push_back(cur);
  }
  return out;
}

std::optional<std::int64_t> parse_int(const std::string& s) {
  if (s.empty() || s.size() > 18) return std::nullopt;
  for (char c : s)
    if (c < '0' || c > '9') return std::nullopt;
  return std::stoll(s);
}

std::int64_t json_int(const json& v, const std::string& name) {
  if (v.is_number_integer()) return v.get<std::int64_t>();
  if (v.is_number_float() && std::isfinite(v.get<double>()) && std::floor(v.get<double>()) == v.get<double>() &&
      std::fabs(v.get<double>()) < 9e15)
    return static_cast<std::int64_t>(v.get<double>());
  if (v.is_string())
    if (auto i = parse_int(v.get<std::string>())) return *i;
  throw validation_error(field(name), name + " must hold integers, got " + v.dump());
}

// A list from a JSON array or a comma-separated string.
std::vector<json> as_list(const json& v) {
  if (v.is_array()) return {v.begin(), v.end()};
  if (v.is_string()) {
    std::vector<json> out;
    for (auto& s : split(v.get<std::string>(), ',')) out.emplace_back(s);
    return out;
  }
  return {v};
}

// The shared field readers; in a gemm spec an explicit null has always meant "the default".
double number(const json& spec, const char* name, double min, double max, double fallback) {
  auto it = spec.find(name);
  return it == spec.end() || it->is_null() ? fallback : number_field(spec, name, min, max, fallback);
}

std::int64_t integer(const json& spec, const char* name, std::int64_t min, std::int64_t max, std::int64_t fallback) {
  auto it = spec.find(name);
  return it == spec.end() || it->is_null() ? fallback : integer_field(spec, name, min, max, fallback);
}

json size_of(std::int64_t m, std::int64_t n, std::int64_t k) {
  if (m < 1 || n < 1 || k < 1 || m > k_max_dim || n > k_max_dim || k > k_max_dim)
    throw validation_error(field("sizes"), "matrix dimensions must be between 1 and " + std::to_string(k_max_dim) +
                                               ", got " + std::to_string(m) + "x" + std::to_string(n) + "x" +
                                               std::to_string(k),
                           "out_of_range");
  return {{"m", m}, {"n", n}, {"k", k}};
}

// "from:to:step", "MxNxK", or "N" (square).
void parse_size_text(const std::string& text, std::vector<json>& out) {
  const auto bad = [&](const std::string& why) {
    return validation_error(field("sizes"), "size '" + text + "': " + why +
                                                " (expected from:to:step, N, MxNxK or a list of them)");
  };
  if (text.find(':') != std::string::npos) {
    const auto parts = split(text, ':');
    if (parts.size() != 3) throw bad("a range has three parts");
    const auto from = parse_int(parts[0]), to = parse_int(parts[1]), step = parse_int(parts[2]);
    if (!from || !to || !step) throw bad("range parts must be non-negative integers");
    if (*step < 1) throw bad("step must be at least 1");
    if (*from < 1) throw bad("sizes start at 1");
    if ((*to - *from) / *step > static_cast<std::int64_t>(k_max_gemm_points))
      throw validation_error(field("sizes"), "size range '" + text + "' has more than " +
                                                 std::to_string(k_max_gemm_points) + " sizes", "too_many_points");
    for (std::int64_t s = *from; s <= *to; s += *step) out.push_back(size_of(s, s, s));
    return;
  }
  std::string lower = text;
  std::replace(lower.begin(), lower.end(), 'X', 'x');
  if (lower.find('x') != std::string::npos) {
    const auto parts = split(lower, 'x');
    if (parts.size() != 3) throw bad("explicit sizes are MxNxK");
    const auto m = parse_int(parts[0]), n = parse_int(parts[1]), k = parse_int(parts[2]);
    if (!m || !n || !k) throw bad("dimensions must be integers");
    out.push_back(size_of(*m, *n, *k));
    return;
  }
  const auto s = parse_int(text);
  if (!s) throw bad("not a size");
  out.push_back(size_of(*s, *s, *s));
}

std::vector<json> parse_sizes(const json& v) {
  std::vector<json> out;
  for (const auto& item : as_list(v)) {
    if (item.is_string())
      parse_size_text(item.get<std::string>(), out);
    else if (item.is_number())
      out.push_back(size_of(json_int(item, "sizes"), json_int(item, "sizes"), json_int(item, "sizes")));
    else if (item.is_object() && item.contains("m") && item.contains("n") && item.contains("k"))
      out.push_back(size_of(json_int(item["m"], "sizes"), json_int(item["n"], "sizes"), json_int(item["k"], "sizes")));
    else
      throw validation_error(field("sizes"), "sizes must be \"from:to:step\", a list of ints or \"MxNxK\" strings");
  }
  if (out.empty()) throw validation_error(field("sizes"), "sizes is empty: the sweep would have no points", "empty");
  return out;
}

std::vector<std::string> parse_dtypes(const json& v) {
  std::vector<std::string> out;
  for (const auto& item : as_list(v)) {
    if (!item.is_string() || !parse_gemm_dtype(item.get<std::string>()))
      throw validation_error(field("dtypes"), "unknown dtype " + item.dump() + " (known: half, float, double)");
    if (std::find(out.begin(), out.end(), item.get<std::string>()) == out.end()) out.push_back(item);
  }
  if (out.empty()) throw validation_error(field("dtypes"), "dtypes is empty: the sweep would have no points", "empty");
  return out;
}

std::vector<bool> parse_tensor(const json& v) {
  std::vector<bool> out;
  const auto add = [&](bool b) {
    if (std::find(out.begin(), out.end(), b) == out.end()) out.push_back(b);
  };
  for (const auto& item : as_list(v)) {
    if (item.is_boolean()) {
      add(item.get<bool>());
    } else if (item == "on") {
      add(true);
    } else if (item == "off") {
      add(false);
    } else if (item == "both") {
      add(true);
      add(false);
    } else {
      throw validation_error(field("tensor"), "tensor must be \"on\", \"off\", \"both\" or a list of them, got " +
                                                  item.dump());
    }
  }
  if (out.empty()) throw validation_error(field("tensor"), "tensor is empty: the sweep would have no points", "empty");
  return out;
}

std::string list_text(const std::vector<std::int64_t>& v) {
  std::string s;
  for (auto x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
  return s;
}

// "all" | "min" | "max" | [ints], each checked against the offered list.
std::optional<std::vector<std::int64_t>> parse_freqs(const json& spec, const std::string& name,
                                                     const json& offered, const char* offered_key) {
  auto it = spec.find(name);
  if (it == spec.end() || it->is_null()) return std::nullopt;
  std::vector<std::int64_t> valid;
  if (offered.is_object() && offered.contains(offered_key) && offered[offered_key].is_array())
    for (const auto& f : offered[offered_key])
      if (f.is_number()) valid.push_back(f.get<std::int64_t>());
  std::sort(valid.begin(), valid.end());
  if (valid.empty())
    throw validation_error(field(name), "this board offers no " + name + " control (" + offered_key + " is empty)",
                           "not_offered");
  std::vector<std::int64_t> out;
  const auto add = [&](std::int64_t f) {
    if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
  };
  for (const auto& item : as_list(*it)) {
    if (item == "all") {
      for (auto f : valid) add(f);
    } else if (item == "min") {
      add(valid.front());
    } else if (item == "max") {
      add(valid.back());
    } else {
      const auto f = json_int(item, name);
      if (!std::binary_search(valid.begin(), valid.end(), f))
        throw validation_error(field(name), name + " value " + std::to_string(f) +
                                                " is not offered by this board; valid: " + list_text(valid),
                               "not_offered");
      add(f);
    }
  }
  if (out.empty()) throw validation_error(field(name), name + " is empty: the sweep would have no points", "empty");
  return out;
}

std::optional<std::vector<std::int64_t>> parse_power_modes(const json& spec, const json& offered) {
  auto it = spec.find("power_modes");
  if (it == spec.end() || it->is_null()) return std::nullopt;
  std::vector<std::pair<std::int64_t, std::string>> modes;
  if (offered.is_object() && offered.contains("power_modes") && offered["power_modes"].is_array())
    for (const auto& m : offered["power_modes"])
      if (m.is_object() && m.contains("id"))
        modes.emplace_back(m["id"].get<std::int64_t>(), m.value("name", std::string()));
  std::string valid;
  for (const auto& [id, nm] : modes) valid += (valid.empty() ? "" : ", ") + std::to_string(id) + " (" + nm + ")";
  if (modes.empty())
    throw validation_error(field("power_modes"), "this board offers no power modes", "not_offered");
  std::vector<std::int64_t> out;
  for (const auto& item : as_list(*it)) {
    std::optional<std::int64_t> id;
    for (const auto& [mid, nm] : modes) {
      if (item.is_number_integer() && item.get<std::int64_t>() == mid) id = mid;
      if (item.is_string() && (item.get<std::string>() == nm || item.get<std::string>() == std::to_string(mid)))
        id = mid;
    }
    if (item == "all") {
      for (const auto& m : modes) out.push_back(m.first);
      continue;
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

}  // namespace

nlohmann::json normalize_gemm_spec(const nlohmann::json& spec_in, const nlohmann::json& offered) {
  if (!spec_in.is_object()) throw validation_error("spec", "the gemm spec must be a JSON object");
  static const char* const known[] = {"device",     "dtypes",      "sizes",      "tensor",     "gpu_freqs",
                                      "cpu_freqs",  "emc_freqs",   "power_modes", "threads",   "warmup_s",
                                      "min_time_s", "max_time_s",  "target_rse", "min_samples", "duration_s",
                                      "boundary_s", "cooldown_s",  "tags"};
  for (auto it = spec_in.begin(); it != spec_in.end(); ++it) {
    if (std::find_if(std::begin(known), std::end(known), [&](const char* k) { return it.key() == k; }) ==
        std::end(known)) {
      std::string list;
      for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
      throw validation_error(field(it.key()), "unknown field '" + it.key() + "' (known: " + list + ")",
                             "unknown_field");
    }
  }
  const json& spec = spec_in;
  json out;

  bool has_cuda = false;
  if (offered.is_object() && offered.contains("has_cuda_device") && offered["has_cuda_device"].is_boolean())
    has_cuda = offered["has_cuda_device"].get<bool>();
  else
    has_cuda = cuda_device_available();
  std::string device = has_cuda ? "cuda" : "cpu";
  if (spec.contains("device") && !spec["device"].is_null()) {
    if (!spec["device"].is_string() || (spec["device"] != "cuda" && spec["device"] != "cpu"))
      throw validation_error(field("device"), "device must be \"cuda\" or \"cpu\", got " + spec["device"].dump());
    device = spec["device"].get<std::string>();
  }
  out["device"] = device;

  const auto dtypes = parse_dtypes(spec.value("dtypes", json::array({"float"})));
  out["dtypes"] = dtypes;
  const auto sizes = parse_sizes(spec.contains("sizes") ? spec["sizes"] : json("128:2048:128"));
  const auto tensor = parse_tensor(spec.value("tensor", json(device == "cuda" ? "both" : "off")));
  out["tensor"] = tensor;

  // Three matrices of the widest dtype must fit in the memory the device has.
  std::int64_t limit = 0;
  const char* limit_key = device == "cuda" ? "gpu_memory_bytes" : "memory_bytes";
  if (offered.is_object() && offered.contains(limit_key) && offered[limit_key].is_number())
    limit = offered[limit_key].get<std::int64_t>();
  if (limit <= 0 && device == "cuda" && offered.is_object() && offered.contains("memory_bytes") &&
      offered["memory_bytes"].is_number())
    limit = offered["memory_bytes"].get<std::int64_t>();
  std::size_t widest = 0;
  for (const auto& d : dtypes) widest = std::max(widest, dtype_size(*parse_gemm_dtype(d)));
  if (limit > 0) {
    for (const auto& s : sizes) {
      const double m = s["m"].get<double>(), n = s["n"].get<double>(), k = s["k"].get<double>();
      const double bytes = (m * k + k * n + m * n) * static_cast<double>(widest);
      if (bytes > static_cast<double>(limit))
        throw validation_error(field("sizes"),
                               "size " + std::to_string(s["m"].get<std::int64_t>()) + "x" +
                                   std::to_string(s["n"].get<std::int64_t>()) + "x" +
                                   std::to_string(s["k"].get<std::int64_t>()) + " needs " +
                                   std::to_string(static_cast<std::int64_t>(bytes)) + " bytes for A, B and C, over " +
                                   limit_key + " = " + std::to_string(limit),
                               "too_large");
    }
  }
  out["sizes"] = sizes;

  out["gpu_freqs"] = list_or_null(parse_freqs(spec, "gpu_freqs", offered, "gpu_freqs_hz"));
  out["cpu_freqs"] = list_or_null(parse_freqs(spec, "cpu_freqs", offered, "cpu_freqs_khz"));
  out["emc_freqs"] = list_or_null(parse_freqs(spec, "emc_freqs", offered, "emc_freqs_hz"));
  out["power_modes"] = list_or_null(parse_power_modes(spec, offered));

  out["threads"] = integer(spec, "threads", 0, 1024, 0);
  out["warmup_s"] = number(spec, "warmup_s", 0, 600, 0.5);
  out["min_time_s"] = number(spec, "min_time_s", 0, 3600, 0.5);
  out["max_time_s"] = number(spec, "max_time_s", 0.001, 3600, 10);
  if (out["max_time_s"].get<double>() < out["min_time_s"].get<double>())
    throw validation_error(field("max_time_s"), "max_time_s must be at least min_time_s", "out_of_range");
  out["target_rse"] = number(spec, "target_rse", 1e-6, 1, 0.01);
  out["min_samples"] = integer(spec, "min_samples", 1, 10000000, 10);
  out["duration_s"] = spec.contains("duration_s") && !spec["duration_s"].is_null()
                          ? json(number(spec, "duration_s", 0.001, 3600, 1))
                          : json();
  out["boundary_s"] = number(spec, "boundary_s", 0, 60, 0.1);
  out["cooldown_s"] = number(spec, "cooldown_s", 0, 3600, 0);

  // The sweep's size, named after its largest dimension when it is too big.
  const std::vector<std::pair<std::string, std::size_t>> dims = {
      {"power_modes", count_or_one(out["power_modes"])}, {"emc_freqs", count_or_one(out["emc_freqs"])},
      {"gpu_freqs", count_or_one(out["gpu_freqs"])},     {"cpu_freqs", count_or_one(out["cpu_freqs"])},
      {"dtypes", dtypes.size()},                         {"tensor", tensor.size()},
      {"sizes", sizes.size()}};
  double total = 1;
  for (const auto& d : dims) total *= static_cast<double>(d.second);
  if (total > static_cast<double>(k_max_gemm_points)) {
    const auto biggest = std::max_element(dims.begin(), dims.end(),
                                          [](const auto& a, const auto& b) { return a.second < b.second; });
    throw validation_error(field(biggest->first),
                           "the sweep has " + std::to_string(static_cast<std::int64_t>(total)) +
                               " points, over the limit of " + std::to_string(k_max_gemm_points) + "; narrow " +
                               biggest->first + " (" + std::to_string(biggest->second) + " values)",
                           "too_many_points");
  }
  return out;
}

std::vector<nlohmann::json> expand_gemm_spec(const nlohmann::json& spec) {
  const auto values = [](const json& v) { return v.is_array() ? std::vector<json>(v.begin(), v.end()) : std::vector<json>{json()}; };
  std::vector<json> points;
  for (const auto& mode : values(spec.at("power_modes")))
    for (const auto& emc : values(spec.at("emc_freqs")))
      for (const auto& gpu : values(spec.at("gpu_freqs")))
        for (const auto& cpu : values(spec.at("cpu_freqs")))
          for (const auto& dtype : spec.at("dtypes"))
            for (const auto& tensor : spec.at("tensor"))
              for (const auto& size : spec.at("sizes"))
                points.push_back({{"power_mode", mode},
                                  {"emc_freq_hz", emc},
                                  {"gpu_freq_hz", gpu},
                                  {"cpu_freq_khz", cpu},
                                  {"device", spec.at("device")},
                                  {"dtype", dtype},
                                  {"tensor", tensor},
                                  {"m", size.at("m")},
                                  {"n", size.at("n")},
                                  {"k", size.at("k")}});
  return points;
}

double gemm_idle_baseline_s(const nlohmann::json& spec) {
  return std::max(0.5, spec.value("min_time_s", 0.5));
}

double estimate_gemm_s(const nlohmann::json& spec, std::size_t points) {
  const double window = spec.value("duration_s", json()).is_number()
                            ? spec["duration_s"].get<double>()
                            : std::min(spec.value("max_time_s", 10.0), spec.value("min_time_s", 0.5) * 1.5);
  const double per_point = spec.value("cooldown_s", 0.0) + spec.value("warmup_s", 0.5) + window;
  const std::size_t settings = count_or_one(spec.value("power_modes", json())) *
                               count_or_one(spec.value("emc_freqs", json())) *
                               count_or_one(spec.value("gpu_freqs", json())) *
                               count_or_one(spec.value("cpu_freqs", json()));
  return per_point * static_cast<double>(points) + gemm_idle_baseline_s(spec) * static_cast<double>(settings);
}

}  // namespace jetperf::workloads
