#include <jetperf/kinds/layers/layers_spec.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <unordered_set>

#include <jetperf/backend/gemm_dtype.hpp>
#include <jetperf/common/cell_text.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/common/spec_fields.hpp>
#include <jetperf/common/stored_spec.hpp>
#include <jetperf/kinds/common/memory_limit.hpp>
#include <jetperf/measure/point_board.hpp>
#include <jetperf/kinds/common/sweep_axes.hpp>
#include <jetperf/models/network_builder.hpp>
#include <jetperf/models/zoo.hpp>
#include <jetperf/workloads/gemm_backends.hpp>

namespace jetperf::kinds {

using namespace workloads;  // the backends and dtypes the kind measures with
using namespace measure;    // the board-setting axes every sweeping kind shares

namespace {

std::string field(const std::string& name) { return "spec." + name; }

const spec_field& declared(const char* name) { return find_spec_field(layers_spec_fields(), name); }


// Each name once, in the order given; a set rather than a scan of `out` keeps a list of
// 100 000 distinct names (a 1 MiB body) linear.
std::vector<std::string> string_list(const record& spec, const char* name) {
  std::vector<std::string> out;
  const auto* list = given_field(spec, name);
  if (!list) return out;
  std::unordered_set<std::string> seen;
  for (const auto& item : common::spec_list(*list)) {
    if (!item.is_string()) throw validation_error(field(name), std::string(name) + " must hold names, got " + json_text(item));
    if (seen.insert(item.as_string()).second) out.push_back(item.as_string());
  }
  return out;
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

// Saturated counts (models::layer_working_set_bytes) read as what they are: a lower bound.
std::string bytes_text(std::int64_t bytes) {
  return (bytes == std::numeric_limits<std::int64_t>::max() ? "more than " : "") + std::to_string(bytes);
}

void check_memory(const models::network& net, const working_set& need, const std::string& device,
                  std::int64_t batch, const platform::board_offer& offered) {
  const auto limit = common::device_memory_limit(offered, device);
  if (limit.bytes > 0 && need.bytes > limit.bytes)
    throw validation_error(field("batch"),
                           "batch " + std::to_string(batch) + " does not fit: layer '" + need.layer + "' of " +
                               net.name + " at " + models::format_shape(net.input_shape) + " needs " +
                               bytes_text(need.bytes) + " bytes on " + device + ", over " + limit.source + " = " +
                               std::to_string(limit.bytes),
                           "too_large");
}

// spec.dtype: one name or a list, each a dtype the layer backends run.
std::vector<std::string> parse_dtypes(const record& spec) {
  const auto& f = declared("dtype");
  const auto* list = given_field(spec, "dtype");
  if (!list) return f.default_value.strings();
  std::vector<std::string> out;
  for (const auto& item : common::spec_list(*list)) {
    if (!item.is_string() || std::find(f.choices.begin(), f.choices.end(), item.as_string()) == f.choices.end())
      throw validation_error(field("dtype"), "dtype must be float, half or a list of them, got " + json_text(item));
    if (std::find(out.begin(), out.end(), item.as_string()) == out.end()) out.push_back(item.as_string());
  }
  if (out.empty()) throw validation_error(field("dtype"), "dtype is empty: the job would have no points", "empty");
  return out;
}

// spec.batch and spec.input_size: one integer or a list, each within the declared range.
std::vector<std::int64_t> parse_integers(const record& spec, const char* name) {
  const auto& f = declared(name);
  std::vector<std::int64_t> out;
  const auto* list = given_field(spec, name);
  if (!list) {
    if (f.default_value.is_list())
      for (const auto& v : f.default_value.as_list()) out.push_back(*v.integer());
    return out;
  }
  for (const auto& item : common::spec_list(*list)) {
    const auto v = common::spec_integer(item, name);
    if (v < static_cast<std::int64_t>(f.min) || v > static_cast<std::int64_t>(f.max))
      throw validation_error(field(name), std::string(name) + " must be between " +
                                              std::to_string(static_cast<std::int64_t>(f.min)) + " and " +
                                              std::to_string(static_cast<std::int64_t>(f.max)) + ", got " +
                                              std::to_string(v),
                             "out_of_range");
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  }
  if (out.empty()) throw validation_error(field(name), std::string(name) + " is empty: the job would have no points", "empty");
  return out;
}

// The resolution the zoo network `name` was published at; nullopt when the zoo has no such network.
std::optional<std::int64_t> zoo_input_size(const std::string& name) {
  const auto* e = models::find_model(name);
  return e ? std::optional<std::int64_t>(e->published_resolution) : std::nullopt;
}

// The sizes a network runs at: the spec's for a zoo network (its published one when the spec
// gives none), none for a user network (its own input shape).
std::vector<std::optional<std::int64_t>> sizes_of(const user_networks& users, const std::string& name,
                                                  const std::vector<std::int64_t>& input_sizes) {
  if (users.contains(name)) return {std::nullopt};
  if (input_sizes.empty()) return {zoo_input_size(name)};
  return {input_sizes.begin(), input_sizes.end()};
}

// Networks: zoo names and user networks, each name once. A stored spec lists its user networks'
// names in models too (after the zoo's): those refer to spec.networks, so that a stored spec
// parses to itself and can be submitted again as it is (jetperf rerun).
void parse_networks(const record& spec, layers_spec& s) {
  // Indexed as given: a valid list is stored as it came (the checks below refuse any other).
  s.networks = user_networks::of_spec(spec);
  for (const auto& n : string_list(spec, "models")) {
    if (s.networks.contains(n)) continue;
    if (!models::find_model(n))
      throw validation_error(field("models"), "unknown model '" + n + "' (known: " + models::zoo_names() + ")", "unknown_model");
    s.models.push_back(n);
  }
  if (const auto* list = given_field(spec, "networks")) {
    if (!list->is_list())
      throw validation_error(field("networks"), "networks must be a list of network objects (proto/network.schema.json)");
    // Names taken so far, in a set: a scan of the names per network was quadratic in their number.
    std::unordered_set<std::string> taken(s.models.begin(), s.models.end());
    for (std::size_t i = 0; i < s.networks.size(); ++i) {
      const auto prefix = "spec.networks[" + std::to_string(i) + "]";
      const auto net = s.networks.network(i, prefix);
      if (models::find_model(net.name) || !taken.insert(net.name).second)
        throw validation_error(prefix + ".name", "network name '" + net.name + "' is already used (by the zoo or another network)");
      s.models.push_back(net.name);
    }
  }
  if (s.models.empty())
    throw validation_error(field("models"), "give at least one network: models (known: " + models::zoo_names() +
                                                ") or networks (proto/network.schema.json)", "empty");
}

// Devices: the GPU when the board has one, else the CPU.
std::vector<std::string> parse_devices(const record& spec, const platform::board_offer& offered) {
  const bool has_cuda = offered.has_cuda_device ? *offered.has_cuda_device : cuda_device_available();
  const char* device_field = spec.contains("devices") ? "devices" : "device";
  auto devices = string_list(spec, device_field);
  if (devices.empty()) devices.push_back(has_cuda ? "cuda" : "cpu");
  for (const auto& d : devices)
    if (d != "cpu" && d != "cuda")
      throw validation_error(field(device_field), "device must be \"cuda\" or \"cpu\", got \"" + d + "\"");
  return devices;
}

// What every layer runs at: granularity, dtype, batch, input size, and how often the job runs.
void parse_variants(const record& spec, layers_spec& s) {
  s.granularity = string_field(spec, declared("granularity"));
  s.dtypes = parse_dtypes(spec);
  s.batches = parse_integers(spec, "batch");
  s.input_sizes = parse_integers(spec, "input_size");
  s.repeats = integer_field(spec, declared("repeats"));
}

// The protocol and its windows; each default is the protocol's own.
void parse_protocol(const record& spec, layers_spec& s) {
  s.protocol = string_field(spec, declared("protocol"));
  s.latency_samples = integer_field(spec, declared("latency_samples"));
  // A layer alone warms its own caches over a few runs; a whole network does not keep them from
  // one run to the next. On the simulated Orin resnet50's first run took 112-115 ms and the
  // second 70-71 ms, as fast as every later one (3 jobs with no warm-up, the runs' own times):
  // the first run is the cold one (page faults, caches), so one run, not five.
  s.warmup_runs = integer_field(spec, declared("warmup_runs"), s.in_context() ? 1 : 5);
  // The seed's protocol: 5 s of tegrastats per layer between 1 s boundaries, 2 s gaps.
  s.window_s = number_field(spec, declared("window_s"));
  s.boundary_s = number_field(spec, declared("boundary_s"), s.fixed() ? 1.0 : 0.05);
  s.gap_s = number_field(spec, declared("gap_s"), s.fixed() ? 2.0 : 0.0);
  s.target_rse = number_field(spec, declared("target_rse"));
  if (given_field(spec, "latency_target_rse"))
    s.latency_target_rse = number_field(spec, declared("latency_target_rse"));
  s.min_time_s = number_field(spec, declared("min_time_s"));
  // in_context's budget is for the whole network: the runs stop once every layer is within the
  // target or would not be by max_time_s (measure/protocols/in_context.hpp). On the simulated
  // Orin (5 ms sensor window) resnet50's blocks settle within about a second; the stem's 0.4 ms
  // layers would take 6-7 s. So 2 s at block granularity: the fast answer, the short layers said
  // not_converged or merged, and max_time_s buys them. Its 175 ops are eight times the unknowns,
  // most of them short: 2 s resolved 10-17 of them, 10 s 55-60.
  s.max_time_s = number_field(spec, declared("max_time_s"), !s.in_context() ? 5.0 : s.granularity == "op" ? 10.0 : 2.0);
  s.target_half_width = number_field(spec, declared("target_half_width"));
}

// in_context resolves layers by the edges of the sensor's windows: by default it shortens them
// (auto); the isolated protocols leave the sensors as the board has them.
measure::sensor_samples_request parse_sensor_samples(const record& spec, const layers_spec& s,
                                                     const platform::board_offer& offered) {
  const auto* asked = given_field(spec, "sensor_samples");
  const cell samples = asked ? *asked : s.in_context() ? cell("auto") : cell("as_is");
  return measure::sensor_samples_request::parse(samples, &offered.sensor_samples);
}

// The job's size, counted before anything is built per point: named after its largest axis
// when it is too big.
void check_point_count(const layers_spec& s) {
  const auto g = models::parse_granularity(s.granularity);
  const bool end_to_end = s.end_to_end || s.in_context();
  double layers = 0;
  for (const auto& name : s.models) {
    const auto count =
        s.in_context() ? 1 : models::layers_of(network_of_spec(s.networks, name), g).size() + (end_to_end ? 1 : 0);
    layers += static_cast<double>(count) * static_cast<double>(sizes_of(s.networks, name, s.input_sizes).size());
  }
  auto dims = common::board_axis_sizes(s.board_axes);
  double total = layers * static_cast<double>(s.devices.size() * s.dtypes.size() * s.batches.size()) *
                 static_cast<double>(s.repeats);
  for (const auto& d : dims) total *= static_cast<double>(d.second);
  if (total <= static_cast<double>(k_max_layers_points)) return;
  dims.emplace_back("models", s.models.size());
  dims.emplace_back("dtype", s.dtypes.size());
  dims.emplace_back("batch", s.batches.size());
  dims.emplace_back("input_size", std::max<std::size_t>(1, s.input_sizes.size()));
  dims.emplace_back("repeats", static_cast<std::size_t>(s.repeats));
  const auto biggest =
      std::max_element(dims.begin(), dims.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  throw validation_error(field(biggest->first),
                         "the job has " + std::to_string(static_cast<std::int64_t>(total)) +
                             " points, over the limit of " + std::to_string(k_max_layers_points) + "; narrow " +
                             biggest->first,
                         "too_many_points");
}

// Every network at every size it runs at: the size must fit its convolutions and pools, and
// its largest point at the largest batch and dtype must fit each device's memory.
void check_networks_fit(const layers_spec& s, const platform::board_offer& offered) {
  const auto g = models::parse_granularity(s.granularity);
  const bool end_to_end = s.end_to_end || s.in_context();
  const auto largest_batch = *std::max_element(s.batches.begin(), s.batches.end());
  int element_bytes = 0;
  for (const auto& d : s.dtypes) element_bytes = std::max(element_bytes, static_cast<int>(dtype_size(*parse_gemm_dtype(d))));
  for (const auto& name : s.models) {
    for (const auto& size : sizes_of(s.networks, name, s.input_sizes)) {
      models::network net;
      try {
        net = network_of_spec(s.networks, name, size);
      } catch (const models::shape_error& e) {
        throw validation_error(field("input_size"), name + " cannot run at " + std::to_string(size.value_or(0)) + "x" +
                                                        std::to_string(size.value_or(0)) + " pixels: " + e.what(),
                               "out_of_range");
      }
      const auto need = largest_working_set(net, models::layers_of(net, g), end_to_end, largest_batch, element_bytes);
      for (const auto& d : s.devices) check_memory(net, need, d, largest_batch, offered);
    }
  }
}

// Each network's layers at the spec's granularity, then the whole network where it runs end to
// end: built once, as names and indices do not depend on the input size.
std::vector<std::pair<std::string, std::vector<models::layer>>> layers_to_run(const layers_spec& s) {
  const auto g = models::parse_granularity(s.granularity);
  std::vector<std::pair<std::string, std::vector<models::layer>>> networks;
  for (const auto& name : s.models) {
    const auto net = network_of_spec(s.networks, name);
    // in_context measures every layer inside the end-to-end runs: one point per network.
    auto layers = s.in_context() ? std::vector<models::layer>{} : models::layers_of(net, g);
    if (s.end_to_end || s.in_context()) layers.push_back(models::whole_network(net));
    networks.emplace_back(name, std::move(layers));
  }
  return networks;
}

}  // namespace

std::string dnnstats_device_key(const std::string& device) { return device == "cuda" ? "gpu" : device; }

std::optional<std::int64_t> published_input_size(const record& spec, const std::string& name) {
  if (user_networks::of_spec(spec).contains(name)) return std::nullopt;
  return zoo_input_size(name);
}

models::network network_of_spec(const record& spec, const std::string& name,
                                std::optional<std::int64_t> input_size) {
  return network_of_spec(user_networks::of_spec(spec), name, input_size);
}

models::network network_of_spec(const user_networks& users, const std::string& name,
                                std::optional<std::int64_t> input_size) {
  if (const auto position = users.position_of(name))
    return users.network(*position, "spec.networks[" + std::to_string(*position) + "]");
  if (!input_size) input_size = zoo_input_size(name);
  return input_size ? models::build_model(name, *input_size) : models::build_model(name);
}

layers_spec layers_spec::parse(const record& spec, const platform::board_offer& offered) {
  // One of models and networks may be empty (a stored spec names both).
  check_spec_fields(spec, layers_spec_fields(), {"models", "networks"});
  layers_spec s;
  parse_networks(spec, s);
  s.devices = parse_devices(spec, offered);
  parse_variants(spec, s);
  parse_protocol(spec, s);
  s.sensor_samples = parse_sensor_samples(spec, s, offered);
  if (s.max_time_s < s.min_time_s)
    throw validation_error(field("max_time_s"), "max_time_s must be at least min_time_s", "out_of_range");
  s.end_to_end = bool_field(spec, declared("end_to_end"));
  s.threads = integer_field(spec, declared("threads"));
  s.cooldown_s = number_field(spec, declared("cooldown_s"));
  s.contention = measure::contention_policy::parse(spec);
  common::normalize_board_axes(spec, offered, s.board_axes);
  if (const auto* tags = spec.find("tags")) s.tags = *tags;
  check_point_count(s);
  check_networks_fit(s, offered);
  return s;
}

record layers_spec::to_record() const {
  record out = {{"models", models},
              {"networks", networks.list()},
              {"devices", devices},
              {"granularity", granularity},
              {"dtype", dtypes},
              {"batch", batches},
              {"input_size", input_sizes.empty() ? cell() : cell(input_sizes)},
              {"repeats", repeats},
              {"protocol", protocol},
              {"latency_samples", latency_samples},
              {"warmup_runs", warmup_runs},
              {"window_s", window_s},
              {"boundary_s", boundary_s},
              {"gap_s", gap_s},
              {"target_rse", target_rse},
              {"latency_target_rse", latency_target_rse},
              {"min_time_s", min_time_s},
              {"max_time_s", max_time_s},
              {"target_half_width", target_half_width},
              {"sensor_samples", sensor_samples.to_cell()},
              {"end_to_end", end_to_end},
              {"threads", threads},
              {"cooldown_s", cooldown_s}};
  contention.put(out);
  for (const auto& axis : board_axes) out.set(axis.first, axis.second);
  if (tags) out.set("tags", *tags);
  return out;
}

record layers_point::to_record() const {
  record p = setting_record(setting);
  p.set("repeat", repeat);
  p.set("network", network);
  p.set("device", device);
  p.set("granularity", granularity);
  p.set("layer_index", layer_index);
  p.set("layer_name", layer_name);
  p.set("layer_type", layer_type);
  p.set("batch", batch);
  p.set("dtype", dtype);
  p.set("input_size", input_size);
  return p;
}

layers_point layers_point::of(const record& point) {
  const auto text_or_empty = [&point](const char* key) {
    const auto* c = point.find(key);
    return c && c->is_string() ? c->as_string() : std::string();
  };
  layers_point p;
  p.setting = setting_of_point(point);
  const auto* repeat = point.find("repeat");
  p.repeat = repeat && repeat->is_number() ? *repeat->integer() : 0;
  p.network = point.at("network").as_string();
  p.device = point.at("device").as_string();
  p.granularity = point.at("granularity").as_string();
  p.layer_index = static_cast<int>(*point.at("layer_index").integer());
  p.layer_name = text_or_empty("layer_name");
  p.layer_type = text_or_empty("layer_type");
  p.batch = *point.at("batch").integer();
  p.dtype = point.at("dtype").as_string();
  const auto* size = point.find("input_size");
  // A user network never has a zoo network's name (parse refuses it), so the zoo alone tells
  // which of a legacy point's networks ran at 224.
  if (!size)
    p.input_size = models::find_model(p.network) ? std::optional<std::int64_t>(224) : std::nullopt;
  else if (size->is_integer())
    p.input_size = *size->integer();
  return p;
}

std::vector<layers_point> expand(const layers_spec& s) {
  const auto networks = layers_to_run(s);
  const auto settings = common::board_setting_points(s.board_axes);
  std::vector<layers_point> points;
  layers_point p;
  for (p.repeat = 0; p.repeat < s.repeats; ++p.repeat)
    for (const auto& setting : settings) {
      p.setting = setting_of_point(setting);
      for (const auto& [name, layers] : networks)
        for (const auto& size : sizes_of(s.networks, name, s.input_sizes))
          for (const auto batch : s.batches)
            for (const auto& dtype : s.dtypes)
              for (const auto& device : s.devices)
                for (const auto& l : layers) {
                  p.network = name;
                  p.device = device;
                  p.granularity = s.granularity;
                  p.layer_index = l.index;
                  p.layer_name = l.name;
                  p.layer_type = l.type;
                  p.batch = batch;
                  p.dtype = dtype;
                  p.input_size = size;
                  points.push_back(p);
                }
    }
  return points;
}

const std::vector<spec_field>& layers_spec_fields() {
  using t = spec_type;
  static const std::vector<spec_field> fields = with_contention_fields(common::with_board_axes({
      {"models", t::list, nullptr, "zoo network names (GET /v1/models)", 0, 0, {}},
      {"networks", t::list, nullptr, "user networks (proto/network.schema.json)", 0, 0, {}},
      {"devices", t::list, nullptr, "cuda and/or cpu (default: cuda when the board has a CUDA device)", 0, 0, {}},
      {"device", t::text, nullptr, "one device, as devices", 0, 0, {}},
      {"granularity", t::text, "block", "block (torchvision modules) or op (every op)", 0, 0, {"block", "op"}},
      {"batch", t::list, cell_list{1}, "batch sizes (one or a list, each 1..65536): every layer runs at each", 1,
       65536, {}},
      {"dtype", t::list, cell_list{"float"}, "float, half or both (one or a list): every layer runs in each", 0, 0,
       {"float", "half"}},
      {"input_size", t::list, nullptr,
       "input sizes in pixels for the zoo networks (one or a list, each 8..8192; default: each network's published "
       "resolution, GET /v1/models); user networks keep their own input shape", 8, 8192, {}},
      {"repeats", t::integer, 1,
       "times the whole job runs (rows carry repeat; the summary gives each network's mean and 95% interval across "
       "repeats, and flags repeats that disagree beyond their own noise)", 1, 1000, {}},
      {"protocol", t::text, "adaptive",
       "adaptive (each layer alone, stop rule), fixed (each layer alone, DNN stats' fixed windows) or in_context (every "
       "layer's power and energy from end-to-end runs of the whole network, at sub-sample resolution)", 0, 0,
       {"adaptive", "fixed", "in_context"}},
      {"latency_samples", t::integer, 100, "timed runs per layer", 1, 1000000, {}},
      {"warmup_runs", t::integer, nullptr, "discarded runs before measuring (5; in_context 1 of the whole network)", 0,
       100000, {}},
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
      {"max_time_s", t::number, nullptr,
       "adaptive: longest window (5 s); in_context: longest run of end-to-end runs per network (2 s; 10 s at op "
       "granularity)", 0.001, 3600, {}},
      {"target_half_width", t::number, 0.10,
       "in_context: the end-to-end runs go on until every layer's 95% energy interval is within this fraction of "
       "its dynamic energy (its energy over the idle baseline), or would not be by max_time_s", 1e-4, 1, {}},
      {"sensor_samples", t::text, nullptr,
       "the power sensors' averaging count for each point (INA3221 `samples`, put back after it): a count the board "
       "offers, \"auto\" (the shortest window the sampler's fastest polls can place, the power sensors polled that "
       "fast for the point: in_context's default) or \"as_is\" (the "
       "isolated protocols' default)", 0, 0, {}},
      {"end_to_end", t::boolean, true, "also run each network whole", 0, 0, {}},
      {"threads", t::integer, 0, "CPU backend threads (0 = the library's default)", 0, 1024, {}},
  }, {
      {"cooldown_s", t::number, 0.0, "seconds of rest before each point", 0, 3600, {}},
      {"tags", t::list, nullptr, "labels for finding the job later", 0, 0, {}},
  }));
  return fields;
}

record layers_spec::upgrade(record j, std::int64_t from_version) {
  if (from_version >= k_layers_spec_version) return j;
  const auto absent = [&j](const char* key) { return !j.contains(key); };
  // Specs stored before these were lists held one dtype and one batch, ran every network at 224
  // pixels and ran once.
  for (const char* key : {"dtype", "batch", "input_size"}) {
    auto* v = j.find(key);
    if (v && !v->is_list() && !v->is_null()) *v = cell_list{*v};
  }
  if (absent("batch")) j.set("batch", cell_list{1});
  if (absent("input_size")) j.set("input_size", cell_list{224});
  if (absent("repeats")) j.set("repeats", 1);
  // Before latency_target_rse existed latency was not a criterion; before in_context its target
  // had no field; before sensor_samples the sensors were left as they were.
  if (absent("latency_target_rse")) j.set("latency_target_rse", nullptr);
  if (absent("target_half_width")) j.set("target_half_width", 0.05);
  if (absent("sensor_samples")) j.set("sensor_samples", "as_is");
  return j;
}

layers_spec layers_spec::stored(const record& j) {
  const stored_spec r(j);
  layers_spec s;
  s.models = r.texts("models");
  s.networks = user_networks::of_spec(j);
  s.devices = r.texts("devices");
  s.granularity = r.text("granularity");
  s.dtypes = r.texts("dtype");
  s.batches = r.integers("batch");
  s.input_sizes = r.integers("input_size");
  s.repeats = r.integer("repeats");
  s.protocol = r.text("protocol");
  s.latency_samples = r.integer("latency_samples");
  s.warmup_runs = r.integer("warmup_runs");
  s.threads = r.integer("threads");
  s.window_s = r.number("window_s");
  s.boundary_s = r.number("boundary_s");
  s.gap_s = r.number("gap_s");
  s.target_rse = r.number("target_rse");
  s.latency_target_rse = r.at("latency_target_rse").number();
  s.min_time_s = r.number("min_time_s");
  s.max_time_s = r.number("max_time_s");
  s.target_half_width = r.number("target_half_width");
  s.sensor_samples = measure::sensor_samples_request::parse(r.at("sensor_samples"), nullptr);
  s.cooldown_s = r.number("cooldown_s");
  s.contention = measure::contention_policy::stored(j);
  s.end_to_end = r.boolean("end_to_end");
  s.board_axes = common::stored_board_axes(j);
  if (const auto* tags = j.find("tags")) s.tags = *tags;
  return s;
}

double layers_spec::idle_baseline_s(double sensor_update_s) const {
  // in_context's layer powers hardly depend on the idle baseline: a reading inside the runs
  // covers them whole (its coefficients add up to 1), so an error in the idle term moves every
  // dynamic power by as much and leaves idle + dynamic as it was; the pauses between runs have a
  // power of their own. Only the dynamic columns (and the bound that a layer draws no less than
  // idle) see it: a few dozen readings are plenty (their mean is
  // within a few mW, against layers' dynamic powers of watts), which is a quarter second of a
  // 20 ms sensor but 0.15 s of the 5 ms window in_context asks for: the other 0.1 s is a twentieth
  // of the protocol's time on a network like resnet50.
  if (!in_context()) return std::max(0.5, min_time_s);
  double s = 0.25;
  if (sensor_update_s > 0) s = std::clamp(k_in_context_idle_readings * sensor_update_s, 0.1, s);
  return std::max(s, min_time_s);
}

}  // namespace jetperf::kinds
