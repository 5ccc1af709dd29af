#pragma once
// Where each op of a layer reads its inputs from (an external input of the layer or an earlier op
// of the range), resolved once so that every layer backend wires a layer the same way.
#include <cstddef>
#include <vector>

#include <jetperf/models/network.hpp>

namespace jetperf::workloads::detail {

struct op_source {
  bool external = false;  ///< true: `index` is into layer.inputs; false: an op index of the network
  int index = 0;
};

/// One source list per op of [l.first, l.last), in the op's input order. Throws
/// std::invalid_argument when the layer does not fit the network (bad range, unlisted producer).
std::vector<std::vector<op_source>> wire_layer(const models::network& net, const models::layer& l);

/// The argument check every backend's set_input makes: throws std::out_of_range for an input the
/// layer does not have and std::invalid_argument for a value count that is not its size.
void check_set_input(std::size_t i, std::size_t inputs, std::size_t expected_values, std::size_t values);

}  // namespace jetperf::workloads::detail
