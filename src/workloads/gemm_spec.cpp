#include <jetperf/workloads/gemm_spec.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include <jetperf/backend/gemm_dtype.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/common/spec_fields.hpp>
#include <jetperf/workloads/gemm_backends.hpp>
#include <jetperf/workloads/sweep_axes.hpp>

namespace jetperf::workloads {

namespace {

using nlohmann::json;

constexpr std::int64_t k_max_dim = 1 << 20;

std::string field(const std::string& name) { return "spec." + name; }

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
    const auto parts = split_trimmed(text, ':');
    if (parts.size() != 3) throw bad("a range has three parts");
    const auto from = parse_count(parts[0]), to = parse_count(parts[1]), step = parse_count(parts[2]);
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
    const auto parts = split_trimmed(lower, 'x');
    if (parts.size() != 3) throw bad("explicit sizes are MxNxK");
    const auto m = parse_count(parts[0]), n = parse_count(parts[1]), k = parse_count(parts[2]);
    if (!m || !n || !k) throw bad("dimensions must be integers");
    out.push_back(size_of(*m, *n, *k));
    return;
  }
  const auto s = parse_count(text);
  if (!s) throw bad("not a size");
  out.push_back(size_of(*s, *s, *s));
}

std::vector<json> parse_sizes(const json& v) {
  std::vector<json> out;
  for (const auto& item : spec_list(v)) {
    if (item.is_string())
      parse_size_text(item.get<std::string>(), out);
    else if (item.is_number())
      out.push_back(size_of(spec_integer(item, "sizes"), spec_integer(item, "sizes"), spec_integer(item, "sizes")));
    else if (item.is_object() && item.contains("m") && item.contains("n") && item.contains("k"))
      out.push_back(size_of(spec_integer(item["m"], "sizes"), spec_integer(item["n"], "sizes"), spec_integer(item["k"], "sizes")));
    else
      throw validation_error(field("sizes"), "sizes must be \"from:to:step\", a list of ints or \"MxNxK\" strings");
  }
  if (out.empty()) throw validation_error(field("sizes"), "sizes is empty: the sweep would have no points", "empty");
  return out;
}

std::vector<std::string> parse_dtypes(const json& v) {
  std::vector<std::string> out;
  for (const auto& item : spec_list(v)) {
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
  for (const auto& item : spec_list(v)) {
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

  normalize_board_axes(spec, offered, out);

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
  auto dims = board_axis_sizes(out);
  dims.insert(dims.end(), {{"dtypes", dtypes.size()}, {"tensor", tensor.size()}, {"sizes", sizes.size()}});
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
  std::vector<json> points;
  for (const auto& setting : board_setting_points(spec))
    for (const auto& dtype : spec.at("dtypes"))
      for (const auto& tensor : spec.at("tensor"))
        for (const auto& size : spec.at("sizes")) {
          json p = setting;
          p.update({{"device", spec.at("device")},
                    {"dtype", dtype},
                    {"tensor", tensor},
                    {"m", size.at("m")},
                    {"n", size.at("n")},
                    {"k", size.at("k")}});
          points.push_back(std::move(p));
        }
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
  const std::size_t settings = board_setting_count(spec);
  return per_point * static_cast<double>(points) + gemm_idle_baseline_s(spec) * static_cast<double>(settings);
}

}  // namespace jetperf::workloads
