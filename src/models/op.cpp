// Op type names and shape helpers shared by the layer tables and the JSON network reader.
#include <jetperf/models/op.hpp>

#include <sstream>
#include <stdexcept>

namespace jetperf::models {

namespace {

struct type_name {
  op_type type;
  const char* name;
};

// Declaration order of op_type; to_string, parse_op_type and all_op_types read this one table.
constexpr type_name k_names[] = {
    {op_type::conv2d, "conv2d"},
    {op_type::linear, "linear"},
    {op_type::batch_norm, "batch_norm"},
    {op_type::relu, "relu"},
    {op_type::relu6, "relu6"},
    {op_type::sigmoid, "sigmoid"},
    {op_type::hardswish, "hardswish"},
    {op_type::hardsigmoid, "hardsigmoid"},
    {op_type::silu, "silu"},
    {op_type::max_pool, "max_pool"},
    {op_type::avg_pool, "avg_pool"},
    {op_type::adaptive_avg_pool, "adaptive_avg_pool"},
    {op_type::add, "add"},
    {op_type::mul, "mul"},
    {op_type::concat, "concat"},
    {op_type::channel_shuffle, "channel_shuffle"},
    {op_type::chunk, "chunk"},
    {op_type::flatten, "flatten"},
    {op_type::dropout, "dropout"},
};

}  // namespace

std::string to_string(op_type type) {
  for (const auto& n : k_names) {
    if (n.type == type) return n.name;
  }
  throw std::invalid_argument("unknown op_type value " + std::to_string(static_cast<int>(type)));
}

std::optional<op_type> parse_op_type(const std::string& name) {
  for (const auto& n : k_names) {
    if (name == n.name) return n.type;
  }
  return std::nullopt;
}

const std::vector<op_type>& all_op_types() {
  static const std::vector<op_type> types = [] {
    std::vector<op_type> t;
    for (const auto& n : k_names) t.push_back(n.type);
    return t;
  }();
  return types;
}

std::int64_t elements(const shape& s) {
  std::int64_t n = 1;
  for (auto d : s) n *= d;
  return n;
}

std::int64_t chunk_first_channel(const op& o) {
  const std::int64_t c = o.input_shapes.at(0).at(0);
  return o.groups > 0 ? o.chunk_index * ((c + o.groups - 1) / o.groups) : 0;
}

std::string format_shape(const shape& s, std::int64_t batch) {
  shape with_batch{batch};
  with_batch.insert(with_batch.end(), s.begin(), s.end());
  return format_shape(with_batch);
}

std::string format_shape(const shape& s) {
  std::ostringstream out;
  out << '[';
  for (std::size_t i = 0; i < s.size(); ++i) out << (i ? ", " : "") << s[i];
  out << ']';
  return out.str();
}

}  // namespace jetperf::models
