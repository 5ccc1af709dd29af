#pragma once
// The reference layer backend's per-op loops: float, NCHW / NC, batch included, PyTorch's
// semantics (pool windows, ceil_mode, channel_shuffle order). Obviously correct before fast.
#include <cstdint>
#include <vector>

#include <jetperf/backend/layer_data.hpp>
#include <jetperf/models/op.hpp>

namespace jetperf::workloads::detail {

/// Computes op `o` at `batch` from `inputs` (one pointer per o.inputs entry, each holding
/// batch * elements(o.input_shapes[k]) floats) and its weights `w` (layer_data.hpp layouts) into
/// `out`, resized to batch * elements(o.output_shape). Throws std::invalid_argument on a
/// malformed op (wrong input count, missing weights).
void run_reference_op(const models::op& o, std::int64_t batch, const std::vector<const float*>& inputs,
                      const op_weights& w, std::vector<float>& out);

}  // namespace jetperf::workloads::detail
