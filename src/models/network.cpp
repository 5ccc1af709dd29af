// Network totals and the layer lists of the two granularities.
#include <jetperf/models/network.hpp>

#include <algorithm>
#include <set>
#include <stdexcept>

#include <jetperf/common/saturating.hpp>

namespace jetperf::models {

std::int64_t network::params() const {
  std::int64_t n = 0;
  for (const auto& o : ops) n += o.params;
  return n;
}

std::int64_t network::macs() const {
  std::int64_t n = 0;
  for (const auto& o : ops) n += o.macs;
  return n;
}

std::int64_t network::flops() const {
  std::int64_t n = 0;
  for (const auto& o : ops) n += o.flops;
  return n;
}

std::int64_t network::functional_layer_count() const {
  return models::functional_layer_count(*this, 0, static_cast<int>(ops.size()));
}

std::int64_t functional_layer_count(const network& net, int first, int last) {
  std::set<std::string> modules;
  for (int i = std::max(0, first); i < last && i < static_cast<int>(net.ops.size()); ++i) {
    const auto& m = net.ops[static_cast<std::size_t>(i)].module;
    if (!m.empty()) modules.insert(m);
  }
  // The seed counts the model's own forward() as one more functional layer.
  return static_cast<std::int64_t>(modules.size()) + 1;
}

std::string to_string(granularity g) { return g == granularity::op ? "op" : "block"; }

granularity parse_granularity(const std::string& name) {
  if (name == "op") return granularity::op;
  if (name == "block") return granularity::block;
  throw std::invalid_argument("granularity must be \"op\" or \"block\", not \"" + name + "\"");
}

layer make_layer(const network& net, int first, int last) {
  const int n = static_cast<int>(net.ops.size());
  if (first < 0 || last > n || first >= last) {
    throw std::out_of_range("op range [" + std::to_string(first) + ", " + std::to_string(last) +
                            ") is not inside the network's " + std::to_string(n) + " ops");
  }
  layer l;
  l.first = first;
  l.last = last;
  for (int i = first; i < last; ++i) {
    const op& o = net.ops[static_cast<std::size_t>(i)];
    for (std::size_t k = 0; k < o.inputs.size(); ++k) {
      const int src = o.inputs[k];
      const bool external = src == k_network_input || src < first || src >= last;
      if (!external || std::find(l.inputs.begin(), l.inputs.end(), src) != l.inputs.end()) continue;
      l.inputs.push_back(src);
      l.input_shapes.push_back(src == k_network_input ? net.input_shape
                                                      : net.ops[static_cast<std::size_t>(src)].output_shape);
    }
    l.params += o.params;
    l.macs += o.macs;
    l.flops += o.flops;
  }
  l.output_shape = net.ops[static_cast<std::size_t>(last - 1)].output_shape;
  return l;
}

std::vector<layer> layers_of(const network& net, granularity g) {
  std::vector<layer> out;
  if (g == granularity::op) {
    out.reserve(net.ops.size());
    for (int i = 0; i < static_cast<int>(net.ops.size()); ++i) {
      layer l = make_layer(net, i, i + 1);
      l.name = net.ops[static_cast<std::size_t>(i)].name;
      l.type = to_string(net.ops[static_cast<std::size_t>(i)].type);
      out.push_back(std::move(l));
    }
  } else {
    out.reserve(net.blocks.size());
    for (const auto& b : net.blocks) {
      layer l = make_layer(net, b.first, b.last);
      l.name = b.name;
      l.type = b.type;
      out.push_back(std::move(l));
    }
  }
  for (std::size_t i = 0; i < out.size(); ++i) out[i].index = static_cast<int>(i);
  return out;
}

layer whole_network(const network& net) {
  layer l = make_layer(net, 0, static_cast<int>(net.ops.size()));
  l.index = -1;
  l.name = net.name;
  l.type = "network";
  return l;
}

std::int64_t layer_working_set_bytes(const network& net, const layer& l, std::int64_t batch, int element_bytes) {
  // A user network's shapes reach 2^48 elements and it may have thousands of ops, so at a large
  // batch the bytes pass int64: saturated, they stay "more than any device has" instead of
  // wrapping to a small or negative size that a memory check would accept.
  std::int64_t activations = 0;
  for (const auto& s : l.input_shapes) activations = saturating_add(activations, elements(s));
  for (int i = l.first; i < l.last; ++i)
    activations = saturating_add(activations, elements(net.ops[static_cast<std::size_t>(i)].output_shape));
  // Weights are shared by the batch; activations scale with it.
  return saturating_mul(saturating_add(saturating_mul(activations, batch), l.params),
                        static_cast<std::int64_t>(element_bytes));
}

double op_macs_per_byte(const network& net, int op, std::int64_t batch, int element_bytes) {
  const auto l = make_layer(net, op, op + 1);
  const auto bytes = layer_working_set_bytes(net, l, batch, element_bytes);
  return bytes > 0 ? static_cast<double>(l.macs) * static_cast<double>(batch) / static_cast<double>(bytes) : 0.0;
}

}  // namespace jetperf::models
