#include <jetperf/kinds/layers/layers_spec.hpp>

#include <algorithm>
#include <cmath>

#include <unistd.h>

#include <jetperf/backend/gemm_dtype.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/common/spec_fields.hpp>
#include <jetperf/models/network_json.hpp>
#include <jetperf/models/zoo.hpp>
#include <jetperf/workloads/gemm_backends.hpp>
#include <jetperf/backend/gemm_dtype.hpp>
#include <jetperf/measure/sweep_axes.hpp>

namespace jetperf::kinds {

using namespace workloads;  // the backends and dtypes the kind measures with
using namespace measure;    // the board-setting axes every sweeping kind shares

namespace {

using nlohmann::json;

std::string field(const std::string& name) { return "spec." + name; }

const spec_field& declared(const char* name) { return find_spec_field(layers_spec_fields(), name); }

std::vector<std::string> string_list(const json& spec, const char* name) {
  std::vector<std::string> out;
  auto it = spec.find(name);
  if (it == spec.end() || it->is_null()) return out;
  for (const auto& item : spec_list(*it)) {
    if (!item.is_string()) throw validation_error(field(name), std::string(name) + " must hold names, got " + item.dump());
    if (std::find(out.begin(), out.end(), item.get<std::string>()) == out.end()) out.push_back(item);
  }
  return out;
}

std::int64_t memory_limit(const platform::board_offer& offered, const std::string& device, const char** key) {
  *key = device == "cuda" ? "gpu_memory_bytes" : "memory_bytes";
  std::int64_t limit = device == "cuda" ? offered.gpu_memory_bytes : offered.memory_bytes;
  if (limit <= 0 && device == "cuda" && offered.memory_bytes > 0) {
    limit = offered.memory_bytes;
    *key = "memory_bytes";
  }
  // A board that does not report its memory (a simulated one) runs CPU layers on this host.
  if (limit <= 0 && device == "cpu") {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0) limit = static_cast<std::int64_t>(pages) * page;
    *key = "this host's memory";
  }
  return limit;
}

// The most memory one point of `net` needs: its largest layer at the job's granularity, or the
// whole network when the job also runs it end to end (every op's output and all the weights).
struct working_set {
  std::int64_t bytes = 0;
  std::string layer;
};

working_set largest_working_set(const models::network& net, const std::vector<models::layer>& layers,
                                bool end_to_end, std::int64_t batch, int element_bytes) {
  working_set worst;
  const auto consider = [&](const models::layer& l) {
    const auto bytes = models::layer_working_set_bytes(net, l, batch, element_bytes);
    if (bytes > worst.bytes) worst = {bytes, l.name};
  };
  for (const auto& l : layers) consider(l);
  if (end_to_end) consider(models::whole_network(net));
  return worst;
}

void check_memory(const models::network& net, const working_set& need, const std::string& device,
                  std::int64_t batch, const platform::board_offer& offered) {
  const char* key = nullptr;
  const auto limit = memory_limit(offered, device, &key);
  if (limit > 0 && need.bytes > limit)
    throw validation_error(field("batch"),
                           "batch " + std::to_string(batch) + " does not fit: layer '" + need.layer + "' of " +
                               net.name + " needs " + std::to_string(need.bytes) + " bytes on " + device + ", over " +
                               key + " = " + std::to_string(limit),
                           "too_large");
}

}  // namespace

std::string dnnstats_device_key(const std::string& device) { return device == "cuda" ? "gpu" : device; }

models::network network_of_spec(const nlohmann::json& spec, const std::string& name) {
  if (spec.contains("networks") && spec["networks"].is_array()) {
    for (std::size_t i = 0; i < spec["networks"].size(); ++i) {
      const auto& n = spec["networks"][i];
      if (n.value("name", std::string()) == name)
        return models::network_from_json(n, "spec.networks[" + std::to_string(i) + "]");
    }
  }
  return models::build_model(name);
}

namespace {

bool names_user_network(const json& spec, const std::string& name) {
  if (!spec.contains("networks") || !spec["networks"].is_array()) return false;
  for (const auto& n : spec["networks"])
    if (n.is_object() && n.value("name", json()) == name) return true;
  return false;
}

}  // namespace

nlohmann::json normalize_layers_spec(const nlohmann::json& spec, const platform::board_offer& offered) {
  if (!spec.is_object()) throw validation_error("spec", "the layers spec must be a JSON object");
  reject_unknown_fields(spec, layers_spec_fields());
  json out;

  // Networks: zoo names and user networks, each name once. A stored spec lists its user networks'
  // names in models too (after the zoo's): those refer to spec.networks, so that a stored spec
  // normalizes to itself and can be submitted again as it is (jetperf rerun).
  std::vector<std::string> names;
  for (const auto& n : string_list(spec, "models")) {
    if (names_user_network(spec, n)) continue;
    if (!models::find_model(n))
      throw validation_error(field("models"), "unknown model '" + n + "' (known: " + models::zoo_names() + ")", "unknown_model");
    names.push_back(n);
  }
  std::vector<models::network> nets;
  for (const auto& n : names) nets.push_back(models::build_model(n));
  json user = json::array();
  if (spec.contains("networks") && !spec["networks"].is_null()) {
    if (!spec["networks"].is_array())
      throw validation_error(field("networks"), "networks must be a list of network objects (proto/network.schema.json)");
    for (std::size_t i = 0; i < spec["networks"].size(); ++i) {
      const auto prefix = "spec.networks[" + std::to_string(i) + "]";
      auto net = models::network_from_json(spec["networks"][i], prefix);
      if (models::find_model(net.name) || std::find(names.begin(), names.end(), net.name) != names.end())
        throw validation_error(prefix + ".name", "network name '" + net.name + "' is already used (by the zoo or another network)");
      names.push_back(net.name);
      nets.push_back(std::move(net));
      user.push_back(spec["networks"][i]);
    }
  }
  if (names.empty())
    throw validation_error(field("models"), "give at least one network: models (known: " + models::zoo_names() +
                                                ") or networks (proto/network.schema.json)", "empty");
  out["models"] = names;
  out["networks"] = user;

  // Devices: the GPU when the board has one, else the CPU.
  const bool has_cuda = offered.has_cuda_device ? *offered.has_cuda_device : cuda_device_available();
  const char* device_field = spec.contains("devices") ? "devices" : "device";
  auto devices = string_list(spec, device_field);
  if (devices.empty()) devices.push_back(has_cuda ? "cuda" : "cpu");
  for (const auto& d : devices)
    if (d != "cpu" && d != "cuda")
      throw validation_error(field(device_field), "device must be \"cuda\" or \"cpu\", got \"" + d + "\"");
  out["devices"] = devices;

  const auto gran = string_field(spec, declared("granularity"));
  out["granularity"] = gran;
  const auto dtype_name = string_field(spec, declared("dtype"));
  const auto dtype = parse_gemm_dtype(dtype_name);
  out["dtype"] = dtype_name;
  const auto batch = integer_field(spec, declared("batch"));
  out["batch"] = batch;

  const auto protocol = string_field(spec, declared("protocol"));
  out["protocol"] = protocol;
  const bool fixed = protocol == "fixed";
  out["latency_samples"] = integer_field(spec, declared("latency_samples"));
  out["warmup_runs"] = integer_field(spec, declared("warmup_runs"));
  // The seed's protocol: 5 s of tegrastats per layer between 1 s boundaries, 2 s gaps.
  out["window_s"] = number_field(spec, declared("window_s"));
  out["boundary_s"] = number_field(spec, declared("boundary_s"), fixed ? 1.0 : 0.05);
  out["gap_s"] = number_field(spec, declared("gap_s"), fixed ? 2.0 : 0.0);
  out["target_rse"] = number_field(spec, declared("target_rse"));
  const auto& latency_target = declared("latency_target_rse");
  out["latency_target_rse"] = spec.contains("latency_target_rse") && !spec["latency_target_rse"].is_null()
                                  ? json(number_field(spec, latency_target))
                                  : json();
  out["min_time_s"] = number_field(spec, declared("min_time_s"));
  out["max_time_s"] = number_field(spec, declared("max_time_s"));
  if (out["max_time_s"].get<double>() < out["min_time_s"].get<double>())
    throw validation_error(field("max_time_s"), "max_time_s must be at least min_time_s", "out_of_range");
  out["end_to_end"] = bool_field(spec, declared("end_to_end"));
  out["threads"] = integer_field(spec, declared("threads"));
  out["cooldown_s"] = number_field(spec, declared("cooldown_s"));
  normalize_board_axes(spec, offered, out);
  if (spec.contains("tags")) out["tags"] = spec["tags"];

  // Every point must fit the device's memory; the job's size is named after its largest axis
  // when it is too big.
  const auto g = models::parse_granularity(gran);
  const bool end_to_end = out["end_to_end"].get<bool>();
  double layers = 0;
  for (const auto& net : nets) {
    const auto net_layers = models::layers_of(net, g);
    const auto need = largest_working_set(net, net_layers, end_to_end, batch, static_cast<int>(dtype_size(*dtype)));
    for (const auto& d : devices) check_memory(net, need, d, batch, offered);
    layers += static_cast<double>(net_layers.size()) + (end_to_end ? 1 : 0);
  }
  auto dims = board_axis_sizes(out);
  double total = layers * static_cast<double>(devices.size());
  for (const auto& d : dims) total *= static_cast<double>(d.second);
  if (total > static_cast<double>(k_max_layers_points)) {
    dims.emplace_back("models", nets.size());
    const auto biggest = std::max_element(dims.begin(), dims.end(),
                                          [](const auto& a, const auto& b) { return a.second < b.second; });
    throw validation_error(field(biggest->first),
                           "the job has " + std::to_string(static_cast<std::int64_t>(total)) +
                               " points, over the limit of " + std::to_string(k_max_layers_points) + "; narrow " +
                               biggest->first,
                           "too_many_points");
  }
  return out;
}

std::vector<nlohmann::json> expand_layers_spec(const nlohmann::json& spec) {
  const auto g = models::parse_granularity(spec.at("granularity").get<std::string>());
  // Each network's layers, built once for every board setting.
  std::vector<std::pair<json, std::vector<models::layer>>> networks;
  for (const auto& name : spec.at("models")) {
    const auto net = network_of_spec(spec, name.get<std::string>());
    auto layers = models::layers_of(net, g);
    if (spec.at("end_to_end").get<bool>()) layers.push_back(models::whole_network(net));
    networks.emplace_back(name, std::move(layers));
  }
  std::vector<json> points;
  for (const auto& setting : board_setting_points(spec)) {
    for (const auto& [name, layers] : networks) {
      for (const auto& device : spec.at("devices")) {
        for (const auto& l : layers) {
          json p = setting;
          p.update({{"network", name},
                    {"device", device},
                    {"granularity", spec.at("granularity")},
                    {"layer_index", l.index},
                    {"layer_name", l.name},
                    {"layer_type", l.type},
                    {"batch", spec.at("batch")},
                    {"dtype", spec.at("dtype")}});
          points.push_back(std::move(p));
        }
      }
    }
  }
  return points;
}

const std::vector<spec_field>& layers_spec_fields() {
  using t = spec_type;
  static const std::vector<spec_field> fields = with_board_axes({
      {"models", t::list, nullptr, "zoo network names (GET /v1/models)", 0, 0, {}},
      {"networks", t::list, nullptr, "user networks (proto/network.schema.json)", 0, 0, {}},
      {"devices", t::list, nullptr, "cuda and/or cpu (default: cuda when the board has a CUDA device)", 0, 0, {}},
      {"device", t::text, nullptr, "one device, as devices", 0, 0, {}},
      {"granularity", t::text, "block", "block (torchvision modules) or op (every op)", 0, 0, {"block", "op"}},
      {"batch", t::integer, 1, "batch size", 1, 65536, {}},
      {"dtype", t::text, "float", "float or half", 0, 0, {"float", "half"}},
      {"protocol", t::text, "adaptive", "adaptive (stop rule) or fixed (the seed's windows)", 0, 0, {"adaptive", "fixed"}},
      {"latency_samples", t::integer, 100, "timed runs per layer", 1, 1000000, {}},
      {"warmup_runs", t::integer, 5, "discarded runs before measuring", 0, 100000, {}},
      {"window_s", t::number, 5.0, "fixed protocol: power window per layer", 0.01, 3600, {}},
      {"boundary_s", t::number, nullptr, "seconds cut from each end of the power window (1 fixed, 0.05 adaptive)", 0, 60, {}},
      {"gap_s", t::number, nullptr, "rest after each layer (2 fixed, 0 adaptive)", 0, 3600, {}},
      {"target_rse", t::number, 0.01,
       "adaptive: the window may end once the relative standard error of the mean power is at most this "
       "(power only; latency is latency_samples runs unless latency_target_rse is set)", 1e-6, 1, {}},
      {"latency_target_rse", t::number, nullptr,
       "adaptive: also require the relative standard error of the mean latency to be at most this (absent: "
       "latency is not a stop criterion)", 1e-6, 1, {}},
      {"min_time_s", t::number, 0.1, "adaptive: shortest window", 0, 3600, {}},
      {"max_time_s", t::number, 5.0, "adaptive: longest window", 0.001, 3600, {}},
      {"end_to_end", t::boolean, true, "also run each network whole", 0, 0, {}},
      {"threads", t::integer, 0, "CPU backend threads (0 = the library's default)", 0, 1024, {}},
  }, {
      {"cooldown_s", t::number, 0.0, "seconds of rest before each point", 0, 3600, {}},
      {"tags", t::list, nullptr, "labels for finding the job later", 0, 0, {}},
  });
  return fields;
}

layers_spec layers_spec::stored(const nlohmann::json& j) {
  layers_spec s;
  s.models = j.at("models").get<std::vector<std::string>>();
  s.networks = j.value("networks", json::array());
  s.devices = j.at("devices").get<std::vector<std::string>>();
  s.granularity = j.at("granularity").get<std::string>();
  s.dtype = j.at("dtype").get<std::string>();
  s.protocol = j.at("protocol").get<std::string>();
  s.batch = j.at("batch").get<std::int64_t>();
  s.latency_samples = j.at("latency_samples").get<std::int64_t>();
  s.warmup_runs = j.at("warmup_runs").get<std::int64_t>();
  s.threads = j.at("threads").get<std::int64_t>();
  s.window_s = j.at("window_s").get<double>();
  s.boundary_s = j.at("boundary_s").get<double>();
  s.gap_s = j.at("gap_s").get<double>();
  s.target_rse = j.at("target_rse").get<double>();
  // Specs stored before the field existed have none: latency was not a criterion then either.
  const auto lt = j.value("latency_target_rse", json());
  if (lt.is_number()) s.latency_target_rse = lt.get<double>();
  s.min_time_s = j.at("min_time_s").get<double>();
  s.max_time_s = j.at("max_time_s").get<double>();
  s.cooldown_s = j.at("cooldown_s").get<double>();
  s.end_to_end = j.at("end_to_end").get<bool>();
  s.board_axes = stored_board_axes(j);
  return s;
}

double layers_spec::idle_baseline_s() const { return std::max(0.5, min_time_s); }

double estimate_layers_s(const nlohmann::json& normalized, std::size_t points) {
  const auto spec = layers_spec::stored(normalized);
  // Without a measured latency the window is the protocol's floor; the ETA corrects itself as points finish.
  const double per_point = spec.fixed() ? spec.window_s + 2 * spec.boundary_s + spec.gap_s
                                        : spec.min_time_s + 2 * spec.boundary_s + 0.1;
  const double idle = spec.idle_baseline_s() * static_cast<double>(board_setting_count(spec.board_axes));
  return (per_point + spec.cooldown_s) * static_cast<double>(points) + idle;
}

}  // namespace jetperf::kinds
