// User networks from JSON (proto/network.schema.json) and the layer tables printed for networks.
#include <jetperf/models/network_json.hpp>

#include <cmath>
#include <map>
#include <set>

#include <jetperf/common/cell_text.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/models/network_cell.hpp>
#include <jetperf/models/network_builder.hpp>

namespace jetperf::models {

namespace {

using nlohmann::json;

// Bounds that keep every shape, parameter and MAC count far from int64 overflow.
constexpr std::int64_t k_max_dim = 1 << 16;
constexpr std::int64_t k_max_attribute = 1 << 16;
// The largest zoo network has under 500 ops; the cap keeps a hostile spec from making the
// builder's per-op name check quadratic in a huge count.
constexpr std::size_t k_max_layers = 4096;

/// Attributes each type accepts (besides name, type, inputs, block, output_shape).
const std::map<op_type, std::set<std::string>>& allowed_attributes() {
  static const std::map<op_type, std::set<std::string>> m = {
      {op_type::conv2d, {"out_channels", "kernel", "stride", "padding", "dilation", "groups", "bias"}},
      {op_type::linear, {"out_features", "bias"}},
      {op_type::batch_norm, {"eps"}},
      {op_type::relu, {}},
      {op_type::relu6, {}},
      {op_type::sigmoid, {}},
      {op_type::hardswish, {}},
      {op_type::hardsigmoid, {}},
      {op_type::silu, {}},
      // No layer backend pools with dilation (cuDNN cannot), so a dilated max_pool is refused.
      {op_type::max_pool, {"kernel", "stride", "padding", "ceil_mode"}},
      {op_type::avg_pool, {"kernel", "stride", "padding", "ceil_mode", "count_include_pad"}},
      {op_type::adaptive_avg_pool, {"output_size"}},
      {op_type::add, {}},
      {op_type::mul, {}},
      {op_type::concat, {}},
      {op_type::channel_shuffle, {"groups"}},
      {op_type::chunk, {"groups", "chunk_index"}},
      {op_type::flatten, {}},
      {op_type::dropout, {}},
  };
  return m;
}

/// Types without a module: they do not count as functional layers and, outside a block, join the
/// block after them (network_builder.hpp).
bool is_functional(op_type t) {
  switch (t) {
    case op_type::add:
    case op_type::mul:
    case op_type::concat:
    case op_type::channel_shuffle:
    case op_type::chunk:
    case op_type::flatten: return true;
    default: return false;
  }
}

std::string type_list() {
  std::string s;
  for (op_type t : all_op_types()) s += (s.empty() ? "" : ", ") + to_string(t);
  return s;
}

/// Reads one layer's fields; every error names the layer and uses the layer's field path.
class layer_reader {
 public:
  layer_reader(const json& j, std::string field, std::string name)
      : j_(j), field_(std::move(field)), name_(std::move(name)) {}

  [[noreturn]] void fail(const std::string& message) const {
    throw validation_error(field_, "layer \"" + name_ + "\": " + message);
  }

  bool has(const char* key) const { return j_.contains(key); }

  std::int64_t integer(const json& v, const std::string& key, std::int64_t min, std::int64_t max) const {
    std::int64_t n = 0;
    if (v.is_number_integer()) {
      if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(max)) {
        fail(key + " must be at most " + std::to_string(max));
      }
      n = v.get<std::int64_t>();
    } else if (v.is_number_float() && std::abs(v.get<double>()) <= static_cast<double>(max) &&
               v.get<double>() == std::trunc(v.get<double>())) {
      // 3.0 is accepted as 3 (JSON writers may emit integral floats); 3.5 is not.
      n = static_cast<std::int64_t>(v.get<double>());
    } else if (v.is_number_float() && v.get<double>() == std::trunc(v.get<double>())) {
      fail(key + " must be at most " + std::to_string(max));
    } else {
      fail(key + " must be an integer, got " + v.dump());
    }
    if (n < min || n > max) {
      fail(key + " must be in [" + std::to_string(min) + ", " + std::to_string(max) + "], got " + std::to_string(n));
    }
    return n;
  }

  std::int64_t integer(const char* key, std::int64_t min, std::int64_t fallback) const {
    if (!has(key)) return fallback;
    return integer(j_.at(key), key, min, k_max_attribute);
  }

  std::int64_t required_integer(const char* key, std::int64_t min) const {
    if (!has(key)) fail("missing attribute " + std::string(key));
    return integer(j_.at(key), key, min, k_max_attribute);
  }

  /// An int or [h, w].
  std::pair<std::int64_t, std::int64_t> pair(const char* key, std::int64_t min, std::int64_t fallback,
                                             bool required = false) const {
    if (!has(key)) {
      if (required) fail("missing attribute " + std::string(key));
      return {fallback, fallback};
    }
    const json& v = j_.at(key);
    if (v.is_array()) {
      if (v.size() != 2) fail(std::string(key) + " must be an integer or [h, w], got " + v.dump());
      return {integer(v[0], key, min, k_max_attribute), integer(v[1], key, min, k_max_attribute)};
    }
    const std::int64_t n = integer(v, key, min, k_max_attribute);
    return {n, n};
  }

  bool boolean(const char* key, bool fallback) const {
    if (!has(key)) return fallback;
    if (!j_.at(key).is_boolean()) fail(std::string(key) + " must be true or false, got " + j_.at(key).dump());
    return j_.at(key).get<bool>();
  }

  double number(const char* key, double fallback) const {
    if (!has(key)) return fallback;
    const json& v = j_.at(key);
    if (!v.is_number() || !(v.get<double>() > 0)) fail(std::string(key) + " must be a number > 0, got " + v.dump());
    return v.get<double>();
  }

 private:
  const json& j_;
  std::string field_;
  std::string name_;
};

shape read_shape(const json& v, const std::string& field, const std::string& what) {
  if (!v.is_array() || (v.size() != 1 && v.size() != 3)) {
    throw validation_error(field, what + " must be [C, H, W] or [F], got " + v.dump());
  }
  shape s;
  for (const auto& d : v) {
    if (!d.is_number_integer() || d.get<std::int64_t>() < 1 || d.get<std::int64_t>() > k_max_dim) {
      throw validation_error(field, what + " dimensions must be integers in [1, " + std::to_string(k_max_dim) +
                                        "], got " + v.dump());
    }
    s.push_back(d.get<std::int64_t>());
  }
  return s;
}

/// The op's attributes from the layer object (type already known and checked).
void read_attributes(op& o, const layer_reader& r) {
  switch (o.type) {
    case op_type::conv2d: {
      o.out_channels = r.required_integer("out_channels", 1);
      std::tie(o.kernel_h, o.kernel_w) = r.pair("kernel", 1, 1, true);
      std::tie(o.stride_h, o.stride_w) = r.pair("stride", 1, 1);
      std::tie(o.pad_h, o.pad_w) = r.pair("padding", 0, 0);
      o.dilation = r.integer("dilation", 1, 1);
      o.groups = r.integer("groups", 1, 1);
      o.bias = r.boolean("bias", true);  // torch.nn.Conv2d's default
      break;
    }
    case op_type::linear:
      o.out_channels = r.required_integer("out_features", 1);
      o.bias = r.boolean("bias", true);
      break;
    case op_type::batch_norm: o.eps = r.number("eps", 1e-5); break;
    case op_type::max_pool:
    case op_type::avg_pool: {
      std::tie(o.kernel_h, o.kernel_w) = r.pair("kernel", 1, 1, true);
      // torch: stride defaults to the kernel size.
      std::tie(o.stride_h, o.stride_w) = r.pair("stride", 1, 0);
      if (o.stride_h == 0) std::tie(o.stride_h, o.stride_w) = std::make_pair(o.kernel_h, o.kernel_w);
      std::tie(o.pad_h, o.pad_w) = r.pair("padding", 0, 0);
      o.dilation = o.type == op_type::max_pool ? r.integer("dilation", 1, 1) : 1;
      o.ceil_mode = r.boolean("ceil_mode", false);
      o.count_include_pad = r.boolean("count_include_pad", true);
      break;
    }
    case op_type::adaptive_avg_pool: o.kernel_h = o.kernel_w = r.integer("output_size", 1, 1); break;
    case op_type::channel_shuffle: o.groups = r.required_integer("groups", 1); break;
    case op_type::chunk:
      o.groups = r.required_integer("groups", 1);
      o.chunk_index = r.required_integer("chunk_index", 0);
      break;
    default: break;
  }
}

// The network object's own fields; returns its input shape.
shape read_network_fields(const json& j, const std::string& field_prefix) {
  if (!j.is_object()) throw validation_error(field_prefix, "a network must be a JSON object");
  if (!j.contains("name") || !j.at("name").is_string() || j.at("name").get<std::string>().empty()) {
    throw validation_error(field_prefix + ".name", "the network needs a non-empty string name");
  }
  if (!j.contains("input")) throw validation_error(field_prefix + ".input", "the network needs an input shape");
  shape input = read_shape(j.at("input"), field_prefix + ".input", "input");
  if (!j.contains("layers") || !j.at("layers").is_array() || j.at("layers").empty()) {
    throw validation_error(field_prefix + ".layers", "the network needs a non-empty array of layers");
  }
  if (j.at("layers").size() > k_max_layers) {
    throw validation_error(field_prefix + ".layers", "a network may have at most " + std::to_string(k_max_layers) +
                                                         " layers, got " + std::to_string(j.at("layers").size()));
  }
  for (const auto& item : j.items()) {
    if (item.key() != "name" && item.key() != "input" && item.key() != "layers") {
      throw validation_error(field_prefix + "." + item.key(), "unknown field \"" + item.key() + "\"");
    }
  }
  return input;
}

// The layer's name, checked before anything else so that later errors can name the layer.
std::string layer_name(const json& l, const std::string& field, std::size_t i) {
  if (!l.is_object()) throw validation_error(field, "layer " + std::to_string(i) + " must be a JSON object");
  if (!l.contains("name") || !l.at("name").is_string() || l.at("name").get<std::string>().empty()) {
    throw validation_error(field, "layer " + std::to_string(i) + " needs a non-empty string name");
  }
  return l.at("name").get<std::string>();
}

// The layer's type, and no attribute that the type does not take.
op_type layer_type(const json& l, const layer_reader& r) {
  if (!l.contains("type") || !l.at("type").is_string()) r.fail("missing type; valid types: " + type_list());
  const std::string type_name = l.at("type").get<std::string>();
  const auto type = parse_op_type(type_name);
  if (!type) r.fail("unknown type \"" + type_name + "\"; valid types: " + type_list());

  const auto& allowed = allowed_attributes().at(*type);
  for (const auto& item : l.items()) {
    const std::string& key = item.key();
    if (key == "name" || key == "type" || key == "inputs" || key == "block" || key == "output_shape") continue;
    if (!allowed.count(key)) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      r.fail("attribute \"" + key + "\" does not apply to " + type_name +
             (list.empty() ? " (it takes none)" : " (it takes " + list + ")"));
    }
  }
  return *type;
}

// The ops the layer reads: those it names, else the layer before it (the network input for the first).
std::vector<int> layer_inputs(const json& l, const layer_reader& r, const std::map<std::string, int>& produced,
                              std::size_t i) {
  std::vector<int> inputs;
  if (!l.contains("inputs")) {
    inputs.push_back(i == 0 ? k_network_input : static_cast<int>(i) - 1);
    return inputs;
  }
  const json& ins = l.at("inputs");
  if (!ins.is_array() || ins.empty()) r.fail("inputs must be a non-empty array of layer names");
  for (const auto& in : ins) {
    if (!in.is_string()) r.fail("inputs must be layer names, got " + in.dump());
    const std::string src = in.get<std::string>();
    if (src == "input") {
      inputs.push_back(k_network_input);
    } else if (produced.count(src)) {
      inputs.push_back(produced.at(src));
    } else {
      r.fail("unknown input \"" + src + "\" (inputs name \"input\" or an earlier layer)");
    }
  }
  return inputs;
}

// Consecutive layers with the same "block" form one block; a block may not open twice.
class block_tracker {
 public:
  void enter(const json& l, const layer_reader& r, network_builder& b) {
    std::string block_name;
    if (l.contains("block")) {
      if (!l.at("block").is_string() || l.at("block").get<std::string>().empty()) {
        r.fail("block must be a non-empty string");
      }
      block_name = l.at("block").get<std::string>();
    }
    if (block_name == open_block_) return;
    if (!open_block_.empty()) {
      b.end_block();
      closed_blocks_.insert(open_block_);
    }
    if (!block_name.empty()) {
      if (closed_blocks_.count(block_name)) r.fail("block \"" + block_name + "\" is not contiguous");
      b.begin_block(block_name, "Sequential");
    }
    open_block_ = block_name;
  }

  void finish(network_builder& b) const {
    if (!open_block_.empty()) b.end_block();
  }

 private:
  std::set<std::string> closed_blocks_;
  std::string open_block_;
};

// Returns the op's index; a shape the op cannot take names the layer.
int append_layer(network_builder& b, const op& o, const layer_reader& r) {
  int index = 0;
  try {
    index = b.append(o, is_functional(o.type) ? std::string() : o.name);
  } catch (const shape_error& e) {
    r.fail(e.detail());
  }
  return index;
}

void check_output_shape(const network_builder& b, int index, const json& l, const layer_reader& r,
                        const std::string& field, const std::string& name) {
  if (!l.contains("output_shape")) return;
  const shape declared = read_shape(l.at("output_shape"), field, "layer \"" + name + "\": output_shape");
  const shape& computed = b.shape_of(index);
  if (declared != computed) {
    r.fail("inconsistent shapes: declared " + format_shape(declared) + ", computed " + format_shape(computed));
  }
}

}  // namespace

network network_from_json(const json& j, const std::string& field_prefix) {
  const shape input = read_network_fields(j, field_prefix);
  network_builder b(j.at("name").get<std::string>(), input);
  std::map<std::string, int> produced;  // layer name -> op index
  block_tracker blocks;
  const json& layers = j.at("layers");
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const std::string field = field_prefix + ".layers[" + std::to_string(i) + "]";
    const json& l = layers[i];
    const std::string name = layer_name(l, field, i);
    const layer_reader r(l, field, name);
    if (name == "input") r.fail("the name \"input\" is reserved for the network input");
    if (produced.count(name)) r.fail("the name is used by an earlier layer");

    op o;
    o.type = layer_type(l, r);
    o.name = name;
    o.inputs = layer_inputs(l, r, produced, i);
    read_attributes(o, r);
    blocks.enter(l, r, b);
    const int index = append_layer(b, o, r);
    produced[name] = index;
    check_output_shape(b, index, l, r, field, name);
  }
  blocks.finish(b);
  return b.build();
}

network network_from_cell(const cell& c, const std::string& field_prefix) {
  // The spec's cell as the text it arrived as: the reader keeps one path for files and specs.
  return network_from_json(json::parse(json_text(c)), field_prefix);
}

}  // namespace jetperf::models
