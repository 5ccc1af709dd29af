#pragma once
// Builds a network op by op with torchvision's names, inferring shapes, params and MACs, and
// checking that every op's input fits it (shape_error names the op otherwise).
#include <cstdint>
#include <stdexcept>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include <jetperf/models/network.hpp>

namespace jetperf::models {

/// An op that does not fit its inputs (wrong channel count, mismatched add, empty output).
class shape_error : public std::runtime_error {
 public:
  shape_error(std::string op_name, std::string message)
      : std::runtime_error(op_name + ": " + message), op_name_(std::move(op_name)), detail_(std::move(message)) {}
  const std::string& op_name() const noexcept { return op_name_; }
  /// The message without the op's name in front.
  const std::string& detail() const noexcept { return detail_; }

 private:
  std::string op_name_;
  std::string detail_;
};

/// Conv2d attributes; defaults follow torch.nn.Conv2d.
struct conv_options {
  std::int64_t kernel = 1;
  std::int64_t stride = 1;
  std::int64_t padding = 0;
  std::int64_t groups = 1;
  std::int64_t dilation = 1;
  bool bias = false;
};

class network_builder {
 public:
  /// `input_shape` per sample, e.g. {3, 224, 224}.
  network_builder(std::string name, shape input_shape);

  /// The value an op reads: the network input (k_network_input) or an op index.
  using value = int;
  value input() const { return k_network_input; }
  const shape& shape_of(value v) const;

  // Blocks: every op added between begin_block and end_block belongs to that block. A module op
  // added outside any block becomes a block of its own, named and typed after its module. A
  // functional op outside any block (glue such as forward()'s torch.flatten) joins the block that
  // follows it, as the seed runs it at the start of the next layer; glue at the end of the
  // network, with no block after it, joins the last block.
  void begin_block(const std::string& name, const std::string& type);
  void end_block();

  // Leaf modules. `name` is the module path; `module` defaults to it (pass another op's
  // module to record a shared module such as a ResNet block's ReLU).
  value conv2d(const std::string& name, value in, std::int64_t out_channels, const conv_options& o);
  value linear(const std::string& name, value in, std::int64_t out_features, bool bias = true);
  value batch_norm(const std::string& name, value in, double eps = 1e-5);
  /// `module`: nullopt = the module named `name`; "" = a functional call (densenet's F.relu).
  value activation(const std::string& name, op_type type, value in,
                   const std::optional<std::string>& module = std::nullopt);
  value max_pool(const std::string& name, value in, std::int64_t kernel, std::int64_t stride, std::int64_t padding,
                 bool ceil_mode = false);
  value avg_pool(const std::string& name, value in, std::int64_t kernel, std::int64_t stride, std::int64_t padding,
                 bool ceil_mode = false, bool count_include_pad = true);
  value adaptive_avg_pool(const std::string& name, value in, std::int64_t out_hw, bool is_module = true);
  value dropout(const std::string& name, value in, bool is_module = true);

  // Functional steps (no module).
  value add(const std::string& name, value a, value b);
  value mul(const std::string& name, value x, value scale);
  value concat(const std::string& name, const std::vector<value>& parts);
  value channel_shuffle(const std::string& name, value in, std::int64_t groups);
  /// x.chunk(parts, dim=1)[index]: channels [index*C/parts, (index+1)*C/parts).
  value chunk(const std::string& name, value in, int parts, int index);
  value flatten(const std::string& name, value in);

  /// Appends an op whose attributes are set by the caller (the JSON network reader); shapes,
  /// params and MACs are inferred and checked here.
  value append(op o, const std::string& module);

  /// Finishes: closes nothing silently (an open block is a programming error and throws).
  network build();

 private:
  value push(op o);
  /// Where the next block starts: at the pending glue if any (which it takes), else at the next op.
  int take_glue();

  network net_;
  int open_block_ = -1;  ///< index into net_.blocks of the block being filled, -1 if none
  int glue_first_ = -1;  ///< first op of the glue waiting for the next block, -1 if none
  std::unordered_set<std::string> names_;  ///< op names taken so far
  double total_macs_ = 0;                  ///< running sum, checked against the network's budget
};

/// `net` with its input at `size` x `size` pixels (an image network, input [C, H, W]): every
/// shape, MAC and FLOP inferred again, the ops and blocks unchanged. Throws shape_error naming
/// the first op the size does not fit (too small for a kernel, an empty output).
network with_input_size(const network& net, std::int64_t size);

}  // namespace jetperf::models
