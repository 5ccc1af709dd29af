// Resolves a layer's op inputs against its external input list.
#include <jetperf/backend/detail/layer_wiring.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace jetperf::workloads::detail {

std::vector<std::vector<op_source>> wire_layer(const models::network& net, const models::layer& l) {
  const int n = static_cast<int>(net.ops.size());
  if (l.first < 0 || l.last > n || l.first >= l.last) {
    throw std::invalid_argument("layer \"" + l.name + "\": op range [" + std::to_string(l.first) + ", " +
                                std::to_string(l.last) + ") is not inside the network's " + std::to_string(n) +
                                " ops");
  }
  if (l.input_shapes.size() != l.inputs.size())
    throw std::invalid_argument("layer \"" + l.name + "\": inputs and input_shapes differ in length");
  std::vector<std::vector<op_source>> wiring;
  wiring.reserve(static_cast<std::size_t>(l.last - l.first));
  for (int i = l.first; i < l.last; ++i) {
    const models::op& o = net.ops[static_cast<std::size_t>(i)];
    std::vector<op_source> sources;
    for (const int src : o.inputs) {
      if (src != models::k_network_input && src >= l.first && src < i) {
        sources.push_back({false, src});
        continue;
      }
      if (src != models::k_network_input && src >= i)
        throw std::invalid_argument(o.name + ": input " + std::to_string(src) + " does not precede the op");
      const auto it = std::find(l.inputs.begin(), l.inputs.end(), src);
      if (it == l.inputs.end())
        throw std::invalid_argument("layer \"" + l.name + "\": producer " + std::to_string(src) + " of " + o.name +
                                    " is not among the layer's inputs");
      sources.push_back({true, static_cast<int>(it - l.inputs.begin())});
    }
    wiring.push_back(std::move(sources));
  }
  return wiring;
}

void check_set_input(std::size_t i, std::size_t inputs, std::size_t expected_values, std::size_t values) {
  if (i >= inputs) throw std::out_of_range("set_input: the layer has " + std::to_string(inputs) + " inputs");
  if (values != expected_values)
    throw std::invalid_argument("set_input: expected " + std::to_string(expected_values) + " values, got " +
                                std::to_string(values));
}

}  // namespace jetperf::workloads::detail
