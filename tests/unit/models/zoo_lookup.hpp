#pragma once
// Finding an op or a block of a built network by its torchvision name, for the zoo tests.
#include <algorithm>
#include <string>

#include <jetperf/models/network.hpp>

namespace jetperf::models {

/// The op named `name`, or nullptr.
inline const op* find_op(const network& net, const std::string& name) {
  auto it = std::find_if(net.ops.begin(), net.ops.end(), [&](const op& o) { return o.name == name; });
  return it == net.ops.end() ? nullptr : &*it;
}

/// The block named `name`, or nullptr.
inline const block* find_block(const network& net, const std::string& name) {
  auto it = std::find_if(net.blocks.begin(), net.blocks.end(), [&](const block& b) { return b.name == name; });
  return it == net.blocks.end() ? nullptr : &*it;
}

}  // namespace jetperf::models
