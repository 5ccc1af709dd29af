#pragma once
// The deterministic weights and inputs every layer backend uses, so that oneDNN, cuDNN and the
// reference compute the same function on the same numbers. Values are scaled so activations stay
// near unit size through a block (half precision included): weights ~ U(-1, 1) / sqrt(fan_in).
#include <cstdint>
#include <vector>

#include <jetperf/models/op.hpp>

namespace jetperf::workloads {

/// The parameters of one op in PyTorch's layouts (empty vectors where the op has none).
struct op_weights {
  std::vector<float> weight;        ///< conv2d [Cout, Cin/groups, kh, kw]; linear [out, in]; batch_norm gamma [C]
  std::vector<float> bias;          ///< conv2d/linear [Cout] when op.bias; batch_norm beta [C]
  std::vector<float> running_mean;  ///< batch_norm [C]
  std::vector<float> running_var;   ///< batch_norm [C], in [0.5, 1.5]
};

/// Weights of op `op_index` (seeded by the index, so one network's ops differ from each other).
op_weights make_op_weights(const models::op& o, int op_index);

/// Input `input_index` of a layer at `batch`: U(-1, 1), seeded by (first op, input index).
std::vector<float> make_layer_input(const models::shape& s, std::int64_t batch, int first_op, std::size_t input_index);

/// Fills `out` with U(lo, hi) from a small counter-based generator seeded by `seed` (splitmix64).
void fill_uniform(std::vector<float>& out, std::uint64_t seed, float lo, float hi);

}  // namespace jetperf::workloads
