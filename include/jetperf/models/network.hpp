#pragma once
// A network as a list of ops in execution order, grouped into the blocks of the seed's
// block granularity (torchvision's top-level children, nn.Sequential expanded one level).
#include <cstdint>
#include <string>
#include <vector>

#include <jetperf/models/op.hpp>

namespace jetperf::models {

/// A contiguous run of ops [first, last) that the block granularity runs as one layer.
struct block {
  std::string name;  ///< module path ("layer1.0", "features.3", "fc")
  std::string type;  ///< torchvision class ("Bottleneck", "InvertedResidual", "Conv2d", ...)
  int first = 0;
  int last = 0;
};

struct network {
  std::string name;
  shape input_shape;          ///< [3, 224, 224] for the zoo
  std::vector<op> ops;        ///< execution order; inputs point backwards only
  std::vector<block> blocks;  ///< cover ops exactly, in order

  std::int64_t params() const;
  std::int64_t macs() const;   ///< per sample
  std::int64_t flops() const;  ///< per sample
  /// The seed's functionalLayerCount: distinct leaf modules plus one for the model's own forward.
  std::int64_t functional_layer_count() const;
};

enum class granularity { op, block };
std::string to_string(granularity g);
/// Throws std::invalid_argument for anything but "op" / "block".
granularity parse_granularity(const std::string& name);

/// One layer as a job measures it: a contiguous op range run in isolation.
struct layer {
  int index = 0;  ///< position in the network's layer list for this granularity
  std::string name;
  std::string type;
  int first = 0;  ///< op range [first, last)
  int last = 0;
  std::vector<int> inputs;         ///< producers outside the range (op index or k_network_input), in first-use order
  std::vector<shape> input_shapes; ///< shapes of `inputs`
  shape output_shape;              ///< output of the range's last op
  std::int64_t params = 0;
  std::int64_t macs = 0;
  std::int64_t flops = 0;
};

/// The seed's functionalLayerCount of ops [first, last) (a stage of a split network): distinct
/// leaf modules plus one for the range's own forward.
std::int64_t functional_layer_count(const network& net, int first, int last);

/// The network's layers at `g`: every op on its own, or every block.
std::vector<layer> layers_of(const network& net, granularity g);
/// The whole network as one layer (index -1, name = network name, type "network").
layer whole_network(const network& net);
/// A layer for ops [first, last) (inputs computed from the graph).
layer make_layer(const network& net, int first, int last);

/// Bytes one layer needs at `batch` and `element_bytes`: external inputs, every op output and
/// weights; saturated at the int64 maximum when larger.
std::int64_t layer_working_set_bytes(const network& net, const layer& l, std::int64_t batch, int element_bytes);

/// Op `op`'s multiply-accumulates per byte of its working set (inputs, output, weights) at
/// `batch`: its arithmetic intensity (0 for element-wise ops and aliases).
double op_macs_per_byte(const network& net, int op, std::int64_t batch, int element_bytes);

}  // namespace jetperf::models
