#include <jetperf/kinds/multi_dnn/multi_dnn_spec.hpp>

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include <jetperf/common/cell_text.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/common/spec_table.hpp>
#include <jetperf/common/stored_spec.hpp>
#include <jetperf/config.hpp>
#include <jetperf/measure/point_board.hpp>
#include <jetperf/kinds/common/sweep_axes.hpp>
#include <jetperf/models/zoo.hpp>

namespace jetperf::kinds {

using namespace measure;  // the board-setting axes every sweeping kind shares

namespace {

std::string field(const std::string& name) { return "spec." + name; }

const spec_field& declared(const char* name) { return find_spec_field(multi_dnn_spec_fields(), name); }


// Each zoo network's block count and the boundaries where the rest of it reads only the tensor
// the blocks before leave (every boundary of the zoo's networks, checked rather than assumed).
struct zoo_blocks {
  std::map<std::string, int> blocks;
  std::map<std::string, std::vector<int>> cuts;
};

const zoo_blocks& zoo_block_table() {
  static const zoo_blocks table = [] {
    zoo_blocks t;
    for (const auto& e : models::zoo()) {
      const auto net = e.build();
      const auto layers = models::layers_of(net, models::granularity::block);
      t.blocks[e.name] = static_cast<int>(layers.size());
      auto& cuts = t.cuts[e.name];
      const int end = static_cast<int>(net.ops.size());
      for (std::size_t b = 1; b < layers.size(); ++b) {
        const auto rest = models::make_layer(net, layers[b].first, end);
        if (rest.inputs.size() == 1 && rest.inputs[0] == layers[b - 1].last - 1) cuts.push_back(static_cast<int>(b));
      }
    }
    return t;
  }();
  return table;
}

std::vector<std::string> name_list(const record& spec, const char* name) {
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

// "2:4", [2, 4] or 3.
std::pair<std::int64_t, std::int64_t> parse_range(const record& spec) {
  const auto& f = declared("num_networks");
  const auto* asked = given_field(spec, "num_networks");
  const cell& v = asked ? *asked : f.default_value;
  std::vector<std::int64_t> ends;
  if (v.is_string()) {
    const auto& text = v.as_string();
    const auto colon = text.find(':');
    for (const auto& piece : {text.substr(0, colon), colon == std::string::npos ? text : text.substr(colon + 1)}) {
      const auto n = common::parse_count(piece);
      if (!n) throw validation_error(field("num_networks"), "num_networks must be N or LO:HI, got '" + text + "'");
      ends.push_back(*n);
    }
  } else if (v.is_list() && v.as_list().size() == 2) {
    for (const auto& x : v.as_list()) ends.push_back(common::spec_integer(x, "num_networks"));
  } else if (v.is_number()) {
    ends = {common::spec_integer(v, "num_networks"), common::spec_integer(v, "num_networks")};
  } else {
    throw validation_error(field("num_networks"), "num_networks must be N, \"LO:HI\" or [LO, HI], got " + json_text(v));
  }
  if (ends[0] < static_cast<std::int64_t>(f.min) || ends[1] > static_cast<std::int64_t>(f.max) || ends[0] > ends[1])
    throw validation_error(field("num_networks"),
                           "num_networks must lie in 1.." + std::to_string(static_cast<std::int64_t>(f.max)) +
                               " with LO <= HI, got " + std::to_string(ends[0]) + ":" + std::to_string(ends[1]),
                           "out_of_range");
  return {ends[0], ends[1]};
}

// {"cpu": 0.4, "cuda": 0.6}, "cpu=0.4,cuda=0.6" or the seed's [0.4, 0.6] (in the order cpu,
// cuda); weights are normalized to sum to 1. Default: equal odds for every device offered.
std::vector<std::pair<std::string, double>> parse_priorities(const record& spec, const mapping_rules& rules) {
  const auto at = field("device_priorities");
  std::vector<std::pair<std::string, double>> out;
  const auto* asked = given_field(spec, "device_priorities");
  if (!asked) {
    for (const auto& d : rules.devices) out.emplace_back(d, 1.0 / static_cast<double>(rules.devices.size()));
    return out;
  }
  const cell& v = *asked;
  const auto add = [&](const std::string& device, const cell& weight) {
    if (device != "cpu" && device != "cuda")
      throw validation_error(at, "device_priorities names devices cpu and cuda, got \"" + device + "\"");
    if (!weight.is_number() || !std::isfinite(*weight.number()) || *weight.number() < 0)
      throw validation_error(at, "the priority of " + device + " must be a number >= 0, got " + json_text(weight));
    if (*weight.number() > 0 && std::find(rules.devices.begin(), rules.devices.end(), device) == rules.devices.end())
      throw validation_error(at, "device_priorities gives cuda a chance: " + rules.missing_cuda, "unsupported");
    for (const auto& p : out)
      if (p.first == device) throw validation_error(at, "device_priorities names " + device + " twice");
    out.emplace_back(device, *weight.number());
  };
  if (v.is_record()) {
    for (const auto& [device, weight] : v.as_record()) add(device, weight);
  } else if (v.is_string()) {
    for (const auto& item : common::split_trimmed(v.as_string(), ',')) {
      const auto eq = item.find('=');
      if (eq == std::string::npos) throw validation_error(at, "device_priorities must be DEVICE=WEIGHT,..., got '" + item + "'");
      cell weight;
      try {
        std::size_t used = 0;
        const double w = std::stod(item.substr(eq + 1), &used);
        if (used == item.size() - eq - 1) weight = w;
      } catch (const std::exception&) {
      }
      add(item.substr(0, eq), weight.is_null() ? cell(item.substr(eq + 1)) : weight);
    }
  } else if (v.is_list()) {
    static const char* order[] = {"cpu", "cuda"};
    const auto& weights = v.as_list();
    if (weights.size() > 2) throw validation_error(at, "device_priorities as a list gives the cpu and cuda weights, in that order");
    for (std::size_t i = 0; i < weights.size(); ++i) add(order[i], weights[i]);
  } else {
    throw validation_error(at, "device_priorities must be {\"cpu\": W, \"cuda\": W}, \"cpu=W,cuda=W\" or [W_cpu, W_cuda]");
  }
  double total = 0;
  for (const auto& p : out) total += p.second;
  if (total <= 0) throw validation_error(at, "device_priorities gives every device weight 0", "empty");
  for (auto& p : out) p.second /= total;
  return out;
}

}  // namespace

mapping_rules multi_dnn_rules(const platform::board_offer& offered) {
  mapping_rules r;
  const auto& zoo = zoo_block_table();
  r.blocks = zoo.blocks;
  r.cuts = zoo.cuts;
  r.devices = {"cpu"};
  if (!JETPERF_HAS_CUDA || !JETPERF_HAS_CUDNN)
    r.missing_cuda = "this build has no CUDA/cuDNN";
  else if (offered.has_cuda_device && !*offered.has_cuda_device)
    r.missing_cuda = "the board has no CUDA device";
  else
    r.devices.push_back("cuda");
  return r;
}

namespace {
const spec_table<multi_dnn_spec>& multi_dnn_table();
const spec_table<multi_dnn_spec>& multi_dnn_table_after_axes();
}  // namespace

multi_dnn_spec multi_dnn_spec::parse(const record& spec, const platform::board_offer& offered) {
  // Explicit mappings or the generator's networks: a stored spec names both, one empty.
  check_spec_fields(spec, multi_dnn_spec_fields(), {"mappings", "networks"});
  const auto rules = multi_dnn_rules(offered);
  multi_dnn_spec s;

  if (const auto* maps = given_field(spec, "mappings")) {
    if (!maps->is_list())
      throw validation_error(field("mappings"), "mappings must be a list of mappings in DNN stats' form");
    const auto& list = maps->as_list();
    if (list.size() > k_max_multi_dnn_points)
      throw validation_error(field("mappings"), "at most " + std::to_string(k_max_multi_dnn_points) + " mappings",
                             "too_large");
    for (std::size_t i = 0; i < list.size(); ++i)
      s.mappings.push_back(parse_mapping(list[i], rules, "spec.mappings[" + std::to_string(i) + "]"));
    // An empty list asks for nothing: it must not quietly become the generator's default draw (a
    // stored generated spec names its samples, and stays valid).
    if (s.mappings.empty() && !given_field(spec, "samples"))
      throw validation_error(field("mappings"),
                             "mappings is empty: give at least one mapping, or leave mappings out and set samples for "
                             "the generator",
                             "empty");
  }

  auto& g = s.generator;
  g.networks = name_list(spec, "networks");
  for (const auto& n : g.networks)
    if (!rules.blocks.count(n))
      throw validation_error(field("networks"), "unknown model '" + n + "' (known: " + models::zoo_names() + ")",
                             "unknown_model");
  if (g.networks.empty())
    for (const auto& e : models::zoo()) g.networks.push_back(e.name);
  std::tie(g.min_networks, g.max_networks) = parse_range(spec);
  g.samples = integer_field(spec, "samples", 0, static_cast<std::int64_t>(k_max_multi_dnn_points),
                            s.mappings.empty() ? 20 : 0);
  g.sets = integer_field(spec, declared("sets"));
  g.device_priorities = parse_priorities(spec, rules);
  g.max_split_networks = integer_field(spec, declared("max_split_networks"));
  g.single_networks = bool_field(spec, declared("single_networks"));
  g.gpu_only_maps = bool_field(spec, declared("gpu_only_maps"));
  if (g.gpu_only_maps && std::find(rules.devices.begin(), rules.devices.end(), "cuda") == rules.devices.end())
    throw validation_error(field("gpu_only_maps"), "gpu_only_maps needs the GPU: " + rules.missing_cuda, "unsupported");
  g.seed = static_cast<std::uint64_t>(integer_field(spec, declared("seed")));
  s.generate = g.samples > 0 || g.single_networks || g.gpu_only_maps;
  if (s.generate && g.samples > 0 && g.min_networks > static_cast<std::int64_t>(g.networks.size()))
    throw validation_error(field("num_networks"),
                           "num_networks starts at " + std::to_string(g.min_networks) + " but networks names only " +
                               std::to_string(g.networks.size()),
                           "out_of_range");
  if (!s.generate && s.mappings.empty())
    throw validation_error(field("mappings"), "give mappings, or samples > 0 for the generator: the job would have no points",
                           "empty");

  multi_dnn_table().parse(spec, s);
  multi_dnn_table_after_axes().parse(spec, s);
  s.contention = measure::contention_policy::parse(spec);
  if (s.max_time_s < s.min_time_s)
    throw validation_error(field("max_time_s"), "max_time_s must be at least min_time_s", "out_of_range");
  if (s.fixed() && s.window_s <= 2 * s.boundary_s)
    throw validation_error(field("window_s"), "window_s must be longer than its two boundaries (2 x boundary_s)",
                           "out_of_range");
  common::normalize_board_axes(spec, offered, s.board_axes);
  if (const auto* tags = spec.find("tags")) s.tags = *tags;

  // The job's size, counted before the generator runs.
  double per_setting = static_cast<double>(s.mappings.size());
  if (s.generate) {
    const auto top = std::min<std::int64_t>(g.max_networks, static_cast<std::int64_t>(g.networks.size()));
    const double counts = static_cast<double>(std::max<std::int64_t>(0, top - g.min_networks + 1));
    per_setting += counts * static_cast<double>(g.sets) * static_cast<double>(g.samples + (g.gpu_only_maps ? 1 : 0));
    if (g.single_networks) per_setting += static_cast<double>(g.networks.size() * g.device_priorities.size());
  }
  double total = per_setting * static_cast<double>(s.repeats);
  for (const auto& d : common::board_axis_sizes(s.board_axes)) total *= static_cast<double>(d.second);
  if (total > static_cast<double>(k_max_multi_dnn_points))
    throw validation_error(field(s.generate ? "samples" : "mappings"),
                           "the job has " + std::to_string(static_cast<std::int64_t>(total)) +
                               " points, over the limit of " + std::to_string(k_max_multi_dnn_points),
                           "too_many_points");
  return s;
}

std::vector<generated_mapping> multi_dnn_spec::all_mappings() const {
  std::vector<generated_mapping> out;
  for (const auto& m : mappings) out.push_back({m, mapping_class(m), -1});
  if (generate) {
    const auto made = generate_mappings(generator, multi_dnn_rules({}));
    out.insert(out.end(), made.begin(), made.end());
  }
  return out;
}

record multi_dnn_spec::to_record() const {
  record out = board_axes;
  cell_list explicit_maps;
  for (const auto& m : mappings) explicit_maps.push_back(mapping_record(m));
  record priorities;
  for (const auto& [d, w] : generator.device_priorities) priorities.set(d, w);
  out.set("mappings", std::move(explicit_maps));
  out.set("networks", generator.networks);
  out.set("num_networks", cell_list{generator.min_networks, generator.max_networks});
  out.set("samples", generator.samples);
  out.set("sets", generator.sets);
  out.set("device_priorities", std::move(priorities));
  out.set("max_split_networks", generator.max_split_networks);
  out.set("single_networks", generator.single_networks);
  out.set("gpu_only_maps", generator.gpu_only_maps);
  out.set("seed", static_cast<std::int64_t>(generator.seed));
  multi_dnn_table().put(*this, out);
  multi_dnn_table_after_axes().put(*this, out);
  contention.put(out);
  if (!tags.is_null()) out.set("tags", tags);
  return out;
}

multi_dnn_spec multi_dnn_spec::stored(const record& j) {
  const stored_spec r(j);
  multi_dnn_spec s;
  if (r.at("mappings").is_list())
    for (const auto& m : r.at("mappings").as_list())
      s.mappings.push_back(mapping_of_record(m.is_record() ? m.as_record() : record()));
  auto& g = s.generator;
  g.networks = r.texts("networks");
  const auto range = r.integers("num_networks");
  if (range.size() != 2) throw validation_error(field("num_networks"), "the stored spec's num_networks is not [LO, HI]");
  g.min_networks = range[0];
  g.max_networks = range[1];
  g.samples = r.integer("samples");
  g.sets = r.integer("sets");
  // In name order (cpu, cuda), as JSON stores an object: the order the generator draws in.
  if (r.at("device_priorities").is_record())
    for (const auto& [device, weight] : r.at("device_priorities").as_record())
      g.device_priorities.emplace_back(device, weight.number().value_or(0.0));
  std::sort(g.device_priorities.begin(), g.device_priorities.end());
  g.max_split_networks = r.integer("max_split_networks");
  g.single_networks = r.boolean("single_networks");
  g.gpu_only_maps = r.boolean("gpu_only_maps");
  g.seed = static_cast<std::uint64_t>(r.integer("seed"));
  s.generate = g.samples > 0 || g.single_networks || g.gpu_only_maps;
  multi_dnn_table().stored(j, s);
  multi_dnn_table_after_axes().stored(j, s);
  s.contention = measure::contention_policy::stored(j);
  s.board_axes = common::stored_board_axes(j);
  if (const auto* tags = j.find("tags")) s.tags = *tags;
  return s;
}

record multi_dnn_point::to_record() const {
  record p = setting_record(setting);
  std::vector<std::string> nets;
  for (const auto& n : mapping.m.networks) nets.push_back(n.network);
  p.set("repeat", repeat);
  p.set("mapping_id", mapping_id);
  p.set("mapping_class", mapping.mapping_class);
  p.set("set", mapping.set);
  p.set("mapping", mapping_record(mapping.m));
  p.set("networks", nets);
  return p;
}

multi_dnn_point multi_dnn_point::of(const record& point) {
  const auto integer = [&point](const char* key, std::int64_t fallback) {
    const auto* v = point.find(key);
    return v && v->is_number() ? *v->integer() : fallback;
  };
  multi_dnn_point p;
  p.setting = setting_of_point(point);
  p.repeat = integer("repeat", 0);
  p.mapping_id = integer("mapping_id", 0);
  const auto& seed_form = point.at("mapping");
  p.mapping.m = mapping_of_record(seed_form.is_record() ? seed_form.as_record() : record());
  const auto* cls = point.find("mapping_class");
  p.mapping.mapping_class = cls && cls->is_string() ? cls->as_string() : std::string();
  p.mapping.set = integer("set", -1);
  return p;
}

std::vector<multi_dnn_point> expand(const multi_dnn_spec& spec) {
  const auto maps = spec.all_mappings();
  std::vector<multi_dnn_point> points;
  for (std::int64_t r = 0; r < spec.repeats; ++r)
    for (const auto& setting : common::board_setting_points(spec.board_axes))
      for (std::size_t i = 0; i < maps.size(); ++i)
        points.push_back({setting_of_point(setting), r, static_cast<std::int64_t>(i), maps[i]});
  return points;
}

namespace {

cell boundary_by_protocol(const multi_dnn_spec& s) { return s.fixed() ? 2.0 : 0.05; }

// The mapping and generator fields (read by parse()), then the protocol's, each bound to its member.
const spec_table<multi_dnn_spec>& multi_dnn_table() {
  using t = spec_type;
  static const spec_table<multi_dnn_spec> table({
      {{"mappings", t::list, nullptr,
        "explicit mappings in DNN stats' form, e.g. [{\"resnet50\": {\"8\": \"cpu\", \"22\": \"cuda\"}}]: a stage "
        "covers the blocks after the previous split up to and including its index", 0, 0, {}}, {}},
      {{"networks", t::list, nullptr, "the generator's zoo networks (default: the whole zoo)", 0, 0, {}}, {}},
      {{"num_networks", t::text, "2:6", "networks per generated mapping: N, \"LO:HI\" or [LO, HI]", 1,
        static_cast<double>(k_max_mapping_networks), {}}, {}},
      {{"samples", t::integer, nullptr, "generated mappings per set of networks (default 20 without mappings, else 0)",
        0, static_cast<double>(k_max_multi_dnn_points), {}}, {}},
      {{"sets", t::integer, 1, "sets of networks drawn per network count", 1, 1000, {}}, {}},
      {{"device_priorities", t::object, nullptr,
        "odds of each device for a whole network or a split network's first stage: {\"cpu\": 0.4, \"cuda\": 0.6}, "
        "\"cpu=0.4,cuda=0.6\" or DNN stats' list [0.4, 0.6] (default: equal odds for every device offered)", 0, 0, {}}, {}},
      {{"max_split_networks", t::integer, -1, "networks a generated mapping may split (-1: all)", -1,
        static_cast<double>(k_max_mapping_networks), {}}, {}},
      {{"single_networks", t::boolean, false, "also generate each network alone on each device (class A)", 0, 0, {}}, {}},
      {{"gpu_only_maps", t::boolean, false, "also generate each set whole on the GPU (class B)", 0, 0, {}}, {}},
      {{"seed", t::integer, 0, "generator seed: the same seed gives the same mappings on every board and mode", 0,
        9007199254740991.0, {}}, {}},
      {{"batch", t::integer, 1, "images per inference", 1, 64, {}}, &multi_dnn_spec::batch},
      {{"dtype", t::text, "float", "float or half", 0, 0, {"float", "half"}}, &multi_dnn_spec::dtype},
      {{"threads", t::integer, 1, "CPU threads each network's CPU stages use", 1, 256, {}}, &multi_dnn_spec::threads},
      {{"pin", t::boolean, false, "pin each network's CPU threads to cores of its own (round robin)", 0, 0, {}},
       &multi_dnn_spec::pin},
      {{"protocol", t::text, "adaptive",
        "adaptive (stop once every network's throughput and the power meet target_rse) or fixed (DNN stats' "
        "window_s windows)", 0, 0, {"adaptive", "fixed"}}, &multi_dnn_spec::protocol},
      {{"window_s", t::number, 30.0, "fixed protocol: the window per mapping, boundaries included", 0.01, 3600, {}},
       &multi_dnn_spec::window_s},
      {{"boundary_s", t::number, nullptr, "seconds cut from each end of the power window (2 fixed, 0.05 adaptive)", 0,
        60, {}}, &multi_dnn_spec::boundary_s, boundary_by_protocol},
      {{"target_rse", t::number, 0.01,
        "adaptive: relative standard error every network's throughput and the mean power must reach", 1e-6, 1, {}},
       &multi_dnn_spec::target_rse},
      {{"min_time_s", t::number, 1.0, "adaptive: shortest window", 0, 3600, {}}, &multi_dnn_spec::min_time_s},
      {{"max_time_s", t::number, 30.0, "adaptive: longest window", 0.001, 3600, {}}, &multi_dnn_spec::max_time_s},
      {{"warmup_runs", t::integer, 3, "discarded inferences of each network before the window", 0, 100000, {}},
       &multi_dnn_spec::warmup_runs},
      {{"repeats", t::integer, 1, "times the whole job runs", 1, 1000, {}}, &multi_dnn_spec::repeats},
  });
  return table;
}

const spec_table<multi_dnn_spec>& multi_dnn_table_after_axes() {
  using t = spec_type;
  static const spec_table<multi_dnn_spec> table({
      {{"cooldown_s", t::number, 0.0, "seconds of rest before each mapping", 0, 3600, {}}, &multi_dnn_spec::cooldown_s},
      {{"tags", t::list, nullptr, "labels for finding the job later", 0, 0, {}}, {}},
  });
  return table;
}

}  // namespace

const std::vector<spec_field>& multi_dnn_spec_fields() {
  static const std::vector<spec_field> fields = with_contention_fields(
      common::with_board_axes(multi_dnn_table().declarations(), multi_dnn_table_after_axes().declarations()));
  return fields;
}

}  // namespace jetperf::kinds
