// Shape inference with torch's formulas, the per-op checks, unique names and block bookkeeping.
#include <jetperf/models/network_builder.hpp>

#include <algorithm>
#include <stdexcept>

namespace jetperf::models {

namespace {

/// torch class of a leaf module, used as the type of the block a lone op forms.
std::string torch_class(op_type t) {
  switch (t) {
    case op_type::conv2d: return "Conv2d";
    case op_type::linear: return "Linear";
    case op_type::batch_norm: return "BatchNorm2d";
    case op_type::relu: return "ReLU";
    case op_type::relu6: return "ReLU6";
    case op_type::sigmoid: return "Sigmoid";
    case op_type::hardswish: return "Hardswish";
    case op_type::hardsigmoid: return "Hardsigmoid";
    case op_type::silu: return "SiLU";
    case op_type::max_pool: return "MaxPool2d";
    case op_type::avg_pool: return "AvgPool2d";
    case op_type::adaptive_avg_pool: return "AdaptiveAvgPool2d";
    case op_type::dropout: return "Dropout";
    case op_type::flatten: return "Flatten";
    case op_type::add: return "add";
    case op_type::mul: return "mul";
    case op_type::concat: return "cat";
    case op_type::channel_shuffle: return "channel_shuffle";
    case op_type::chunk: return "chunk";
  }
  return to_string(t);
}

/// Largest MAC count an op, and a whole network, may have; far below int64's limit.
constexpr double k_max_count = 1e17;
/// Largest channel count a concatenation may produce.
constexpr std::int64_t k_max_dim = std::int64_t{1} << 24;

void require(bool ok, const op& o, const std::string& message) {
  if (!ok) throw shape_error(o.name, message);
}

void require_image(const op& o, const shape& s, const char* what = "input") {
  require(s.size() == 3, o, std::string(what) + " must be [C, H, W], got " + format_shape(s));
  require(s[0] >= 1 && s[1] >= 1 && s[2] >= 1, o, std::string(what) + " has an empty dimension: " + format_shape(s));
}

void require_inputs(const op& o, std::size_t n) {
  require(o.input_shapes.size() == n, o,
          "takes " + std::to_string(n) + " input(s), got " + std::to_string(o.input_shapes.size()));
}

void require_window(const op& o) {
  require(o.kernel_h >= 1 && o.kernel_w >= 1, o, "kernel must be >= 1");
  require(o.stride_h >= 1 && o.stride_w >= 1, o, "stride must be >= 1");
  require(o.pad_h >= 0 && o.pad_w >= 0, o, "padding must be >= 0");
  require(o.dilation >= 1, o, "dilation must be >= 1");
}

/// torch's conv output size: floor((in + 2p - d(k-1) - 1) / s) + 1.
std::int64_t conv_out(std::int64_t in, std::int64_t k, std::int64_t s, std::int64_t p, std::int64_t d) {
  const std::int64_t span = in + 2 * p - d * (k - 1) - 1;
  if (span < 0) return 0;
  return span / s + 1;
}

/// torch's pooling_output_shape: ceil_mode rounds up, but the last window must start inside
/// the input or the left padding.
std::int64_t pool_out(std::int64_t in, std::int64_t k, std::int64_t s, std::int64_t p, std::int64_t d, bool ceil_mode) {
  const std::int64_t span = in + 2 * p - d * (k - 1) - 1 + (ceil_mode ? s - 1 : 0);
  if (span < 0) return 0;
  std::int64_t out = span / s + 1;
  if (ceil_mode && (out - 1) * s >= in + p) --out;
  return out;
}

void infer_conv(op& o) {
  require_inputs(o, 1);
  const shape& in = o.input_shapes[0];
  require_image(o, in);
  require_window(o);
  require(o.groups >= 1, o, "groups must be >= 1");
  require(o.out_channels >= 1, o, "out_channels must be >= 1");
  require(in[0] % o.groups == 0, o,
          "input channels " + std::to_string(in[0]) + " are not divisible by groups " + std::to_string(o.groups));
  require(o.out_channels % o.groups == 0, o,
          "out_channels " + std::to_string(o.out_channels) + " are not divisible by groups " +
              std::to_string(o.groups));
  const std::int64_t h = conv_out(in[1], o.kernel_h, o.stride_h, o.pad_h, o.dilation);
  const std::int64_t w = conv_out(in[2], o.kernel_w, o.stride_w, o.pad_w, o.dilation);
  require(h >= 1 && w >= 1, o, "output would be empty for input " + format_shape(in));
  o.output_shape = {o.out_channels, h, w};
  // Checked in floating point first so that absurd user networks cannot overflow the counts.
  const double per_out_d = static_cast<double>(in[0] / o.groups) * static_cast<double>(o.kernel_h * o.kernel_w);
  require(per_out_d * static_cast<double>(o.out_channels) * static_cast<double>(h * w) < k_max_count, o,
          "is too large to count (over 1e17 MACs)");
  const std::int64_t per_out = (in[0] / o.groups) * o.kernel_h * o.kernel_w;
  o.params = o.out_channels * per_out + (o.bias ? o.out_channels : 0);
  o.macs = o.out_channels * h * w * per_out;
  o.flops = 2 * o.macs;
}

void infer_linear(op& o) {
  require_inputs(o, 1);
  const shape& in = o.input_shapes[0];
  require(in.size() == 1, o, "input must be [F] (flatten first), got " + format_shape(in));
  require(in[0] >= 1, o, "input has no features");
  require(o.out_channels >= 1, o, "out_features must be >= 1");
  require(static_cast<double>(in[0]) * static_cast<double>(o.out_channels) < k_max_count, o,
          "is too large to count (over 1e17 MACs)");
  o.output_shape = {o.out_channels};
  o.params = in[0] * o.out_channels + (o.bias ? o.out_channels : 0);
  o.macs = in[0] * o.out_channels;
  o.flops = 2 * o.macs;
}

void infer_pool(op& o) {
  require_inputs(o, 1);
  const shape& in = o.input_shapes[0];
  require_image(o, in);
  require_window(o);
  // The layer backends pool without dilation (cuDNN has none), so no op may ask for it.
  require(o.dilation == 1, o, "pooling with dilation is not supported");
  // torch: "pad should be at most half of effective kernel size".
  require(o.pad_h * 2 <= o.kernel_h && o.pad_w * 2 <= o.kernel_w, o, "padding must be at most half of the kernel size");
  const std::int64_t h = pool_out(in[1], o.kernel_h, o.stride_h, o.pad_h, 1, o.ceil_mode);
  const std::int64_t w = pool_out(in[2], o.kernel_w, o.stride_w, o.pad_w, 1, o.ceil_mode);
  require(h >= 1 && w >= 1, o, "output would be empty for input " + format_shape(in));
  o.output_shape = {in[0], h, w};
  o.flops = elements(o.output_shape);
}

void infer_adaptive(op& o) {
  require_inputs(o, 1);
  const shape& in = o.input_shapes[0];
  require_image(o, in);
  require(o.kernel_h >= 1 && o.kernel_w >= 1, o, "output_size must be >= 1");
  o.output_shape = {in[0], o.kernel_h, o.kernel_w};
  o.flops = elements(o.output_shape);
}

void infer_elementwise(op& o) {
  require_inputs(o, 1);
  const shape& in = o.input_shapes[0];
  require(!in.empty() && elements(in) >= 1, o, "input is empty: " + format_shape(in));
  o.output_shape = in;
  o.flops = o.type == op_type::dropout ? 0 : elements(in);
}

void infer_batch_norm(op& o) {
  require_inputs(o, 1);
  require_image(o, o.input_shapes[0]);
  require(o.eps > 0, o, "eps must be > 0");
  o.output_shape = o.input_shapes[0];
  o.params = 2 * o.output_shape[0];  // weight and bias; running statistics are buffers
  o.flops = elements(o.output_shape);
}

void infer_add(op& o) {
  require_inputs(o, 2);
  require(o.input_shapes[0] == o.input_shapes[1], o,
          "cannot add shapes " + format_shape(o.input_shapes[0]) + " and " + format_shape(o.input_shapes[1]));
  require(elements(o.input_shapes[0]) >= 1 && !o.input_shapes[0].empty(), o, "input is empty");
  o.output_shape = o.input_shapes[0];
  o.flops = elements(o.output_shape);
}

void infer_mul(op& o) {
  require_inputs(o, 2);
  const shape& x = o.input_shapes[0];
  const shape& s = o.input_shapes[1];
  require_image(o, x);
  require(s == shape{x[0], 1, 1}, o, "scale must be [" + std::to_string(x[0]) + ", 1, 1] for input " + format_shape(x) +
                                         ", got " + format_shape(s));
  o.output_shape = x;
  o.flops = elements(x);
}

void infer_concat(op& o) {
  require(!o.input_shapes.empty(), o, "concat needs at least one input");
  std::int64_t channels = 0;
  for (const auto& s : o.input_shapes) {
    require_image(o, s);
    require(s[1] == o.input_shapes[0][1] && s[2] == o.input_shapes[0][2], o,
            "cannot concatenate " + format_shape(o.input_shapes[0]) + " and " + format_shape(s) + " along channels (H, W differ)");
    // Bounded like every other dimension, so a chain of self-concatenations cannot overflow.
    require(static_cast<double>(channels) + static_cast<double>(s[0]) <= static_cast<double>(k_max_dim), o,
            "concatenation would have more than " + std::to_string(k_max_dim) + " channels");
    channels += s[0];
  }
  o.output_shape = {channels, o.input_shapes[0][1], o.input_shapes[0][2]};
  o.flops = elements(o.output_shape);
}

void infer_shuffle(op& o) {
  require_inputs(o, 1);
  const shape& in = o.input_shapes[0];
  require_image(o, in);
  require(o.groups >= 1, o, "groups must be >= 1");
  require(in[0] % o.groups == 0, o,
          "channels " + std::to_string(in[0]) + " are not divisible by groups " + std::to_string(o.groups));
  o.output_shape = in;
  o.flops = elements(in);
}

void infer_chunk(op& o) {
  require_inputs(o, 1);
  const shape& in = o.input_shapes[0];
  require_image(o, in);
  require(o.groups >= 1, o, "parts must be >= 1");
  require(in[0] % o.groups == 0, o,
          "channels " + std::to_string(in[0]) + " are not divisible into " + std::to_string(o.groups) + " parts");
  require(o.chunk_index >= 0 && o.chunk_index < o.groups, o,
          "chunk index " + std::to_string(o.chunk_index) + " is not in [0, " + std::to_string(o.groups) + ")");
  o.output_shape = {in[0] / o.groups, in[1], in[2]};
  o.flops = 0;  // a view, like flatten
}

void infer_flatten(op& o) {
  require_inputs(o, 1);
  const shape& in = o.input_shapes[0];
  require(!in.empty() && elements(in) >= 1, o, "input is empty: " + format_shape(in));
  o.output_shape = {elements(in)};
  o.flops = 0;
}

void infer(op& o) {
  o.params = o.macs = o.flops = 0;
  switch (o.type) {
    case op_type::conv2d: infer_conv(o); return;
    case op_type::linear: infer_linear(o); return;
    case op_type::batch_norm: infer_batch_norm(o); return;
    case op_type::relu:
    case op_type::relu6:
    case op_type::sigmoid:
    case op_type::hardswish:
    case op_type::hardsigmoid:
    case op_type::silu:
    case op_type::dropout: infer_elementwise(o); return;
    case op_type::max_pool:
    case op_type::avg_pool: infer_pool(o); return;
    case op_type::adaptive_avg_pool: infer_adaptive(o); return;
    case op_type::add: infer_add(o); return;
    case op_type::mul: infer_mul(o); return;
    case op_type::concat: infer_concat(o); return;
    case op_type::channel_shuffle: infer_shuffle(o); return;
    case op_type::chunk: infer_chunk(o); return;
    case op_type::flatten: infer_flatten(o); return;
  }
  throw shape_error(o.name, "unknown op type");
}

op make(const std::string& name, op_type type, std::vector<int> inputs, std::string module) {
  op o;
  o.name = name;
  o.type = type;
  o.inputs = std::move(inputs);
  o.module = std::move(module);
  return o;
}

}  // namespace

network_builder::network_builder(std::string name, shape input_shape) {
  net_.name = std::move(name);
  net_.input_shape = std::move(input_shape);
  if (net_.input_shape.empty() || elements(net_.input_shape) < 1 ||
      std::any_of(net_.input_shape.begin(), net_.input_shape.end(), [](std::int64_t d) { return d < 1; })) {
    throw shape_error("input", "network input must have dimensions >= 1, got " + format_shape(net_.input_shape));
  }
}

const shape& network_builder::shape_of(value v) const {
  if (v == k_network_input) return net_.input_shape;
  if (v < 0 || v >= static_cast<int>(net_.ops.size())) {
    throw std::out_of_range("no op " + std::to_string(v) + " in network " + net_.name);
  }
  return net_.ops[static_cast<std::size_t>(v)].output_shape;
}

void network_builder::begin_block(const std::string& name, const std::string& type) {
  if (open_block_ >= 0) {
    throw std::logic_error("begin_block(" + name + "): block " +
                           net_.blocks[static_cast<std::size_t>(open_block_)].name + " is still open");
  }
  // Pending glue runs at the start of the block, as the seed runs it before the layer.
  const int at = take_glue();
  net_.blocks.push_back(block{name, type, at, static_cast<int>(net_.ops.size())});
  open_block_ = static_cast<int>(net_.blocks.size()) - 1;
}

int network_builder::take_glue() {
  const int first = glue_first_ >= 0 ? glue_first_ : static_cast<int>(net_.ops.size());
  glue_first_ = -1;
  return first;
}

void network_builder::end_block() {
  if (open_block_ < 0) throw std::logic_error("end_block without begin_block");
  const block& b = net_.blocks[static_cast<std::size_t>(open_block_)];
  if (b.first == b.last) throw std::logic_error("block " + b.name + " has no ops");
  open_block_ = -1;
}

network_builder::value network_builder::push(op o) {
  // A module called again (a shared ReLU) gets "#2", "#3", ...; names stay unique.
  auto taken = [this](const std::string& n) { return names_.count(n) > 0; };
  if (taken(o.name)) {
    const std::string base = o.name;
    for (int k = 2;; ++k) {
      o.name = base + "#" + std::to_string(k);
      if (!taken(o.name)) break;
    }
  }
  const int index = static_cast<int>(net_.ops.size());
  o.input_shapes.clear();
  for (int in : o.inputs) {
    if (in != k_network_input && (in < 0 || in >= index)) {
      throw shape_error(o.name, "input " + std::to_string(in) + " is not an earlier op");
    }
    o.input_shapes.push_back(shape_of(in));
  }
  infer(o);
  // One budget for the whole network, so that the sums of MACs and FLOPs (network, layer) can
  // never overflow however many large ops a user network chains.
  require(total_macs_ + static_cast<double>(o.macs) < k_max_count, o,
          "the network would exceed " + std::to_string(static_cast<std::int64_t>(k_max_count)) + " MACs");
  total_macs_ += static_cast<double>(o.macs);
  names_.insert(o.name);

  if (open_block_ >= 0) {
    net_.blocks[static_cast<std::size_t>(open_block_)].last = index + 1;
  } else if (o.module.empty()) {
    // A functional step outside any block (flatten, mean, densenet's F.relu) is glue between two
    // modules: it waits for the block after it, so the block before ends in its module's output.
    if (glue_first_ < 0) glue_first_ = index;
  } else {
    net_.blocks.push_back(block{o.name, torch_class(o.type), take_glue(), index + 1});
  }
  net_.ops.push_back(std::move(o));
  return index;
}

network_builder::value network_builder::conv2d(const std::string& name, value in, std::int64_t out_channels,
                                               const conv_options& c) {
  op o = make(name, op_type::conv2d, {in}, name);
  o.out_channels = out_channels;
  o.kernel_h = o.kernel_w = c.kernel;
  o.stride_h = o.stride_w = c.stride;
  o.pad_h = o.pad_w = c.padding;
  o.groups = c.groups;
  o.dilation = c.dilation;
  o.bias = c.bias;
  return push(std::move(o));
}

network_builder::value network_builder::linear(const std::string& name, value in, std::int64_t out_features,
                                               bool bias) {
  op o = make(name, op_type::linear, {in}, name);
  o.out_channels = out_features;
  o.bias = bias;
  return push(std::move(o));
}

network_builder::value network_builder::batch_norm(const std::string& name, value in, double eps) {
  op o = make(name, op_type::batch_norm, {in}, name);
  o.eps = eps;
  return push(std::move(o));
}

network_builder::value network_builder::activation(const std::string& name, op_type type, value in,
                                                   const std::optional<std::string>& module) {
  switch (type) {
    case op_type::relu:
    case op_type::relu6:
    case op_type::sigmoid:
    case op_type::hardswish:
    case op_type::hardsigmoid:
    case op_type::silu: break;
    default: throw std::invalid_argument(name + ": " + to_string(type) + " is not an activation");
  }
  return push(make(name, type, {in}, module.value_or(name)));
}

network_builder::value network_builder::max_pool(const std::string& name, value in, std::int64_t kernel,
                                                 std::int64_t stride, std::int64_t padding, bool ceil_mode) {
  op o = make(name, op_type::max_pool, {in}, name);
  o.kernel_h = o.kernel_w = kernel;
  o.stride_h = o.stride_w = stride;
  o.pad_h = o.pad_w = padding;
  o.ceil_mode = ceil_mode;
  return push(std::move(o));
}

network_builder::value network_builder::avg_pool(const std::string& name, value in, std::int64_t kernel,
                                                 std::int64_t stride, std::int64_t padding, bool ceil_mode,
                                                 bool count_include_pad) {
  op o = make(name, op_type::avg_pool, {in}, name);
  o.kernel_h = o.kernel_w = kernel;
  o.stride_h = o.stride_w = stride;
  o.pad_h = o.pad_w = padding;
  o.ceil_mode = ceil_mode;
  o.count_include_pad = count_include_pad;
  return push(std::move(o));
}

network_builder::value network_builder::adaptive_avg_pool(const std::string& name, value in, std::int64_t out_hw,
                                                          bool is_module) {
  op o = make(name, op_type::adaptive_avg_pool, {in}, is_module ? name : std::string());
  // The output size rides in kernel_h/kernel_w (an adaptive pool has no fixed kernel).
  o.kernel_h = o.kernel_w = out_hw;
  return push(std::move(o));
}

network_builder::value network_builder::dropout(const std::string& name, value in, bool is_module) {
  return push(make(name, op_type::dropout, {in}, is_module ? name : std::string()));
}

network_builder::value network_builder::add(const std::string& name, value a, value b) {
  return push(make(name, op_type::add, {a, b}, {}));
}

network_builder::value network_builder::mul(const std::string& name, value x, value scale) {
  return push(make(name, op_type::mul, {x, scale}, {}));
}

network_builder::value network_builder::concat(const std::string& name, const std::vector<value>& parts) {
  return push(make(name, op_type::concat, parts, {}));
}

network_builder::value network_builder::channel_shuffle(const std::string& name, value in, std::int64_t groups) {
  op o = make(name, op_type::channel_shuffle, {in}, {});
  o.groups = groups;
  return push(std::move(o));
}

network_builder::value network_builder::chunk(const std::string& name, value in, int parts, int index) {
  op o = make(name, op_type::chunk, {in}, {});
  o.groups = parts;
  o.chunk_index = index;
  return push(std::move(o));
}

network_builder::value network_builder::flatten(const std::string& name, value in) {
  return push(make(name, op_type::flatten, {in}, {}));
}

network_builder::value network_builder::append(op o, const std::string& module) {
  o.module = module;
  return push(std::move(o));
}

network network_builder::build() {
  if (open_block_ >= 0) {
    throw std::logic_error("build(): block " + net_.blocks[static_cast<std::size_t>(open_block_)].name +
                           " is still open");
  }
  if (net_.ops.empty()) throw std::logic_error("build(): network " + net_.name + " has no ops");
  if (glue_first_ >= 0) {
    // Glue at the very end has no block after it: it closes the last block (or, in a network of
    // functional steps only, is the one block).
    const int first = take_glue();
    const int end = static_cast<int>(net_.ops.size());
    if (net_.blocks.empty()) {
      const op& o = net_.ops[static_cast<std::size_t>(first)];
      net_.blocks.push_back(block{o.name, torch_class(o.type), first, end});
    } else {
      net_.blocks.back().last = end;
    }
  }
  return std::move(net_);
}

network with_input_size(const network& net, std::int64_t size) {
  if (net.input_shape.size() != 3)
    throw shape_error("input", "only an image input [C, H, W] has a size, got " + format_shape(net.input_shape));
  network_builder b(net.name, {net.input_shape[0], size, size});
  for (const op& o : net.ops) b.append(o, o.module);
  network out = b.build();
  // Same ops at the same indices: the blocks are the original's (the builder would make each
  // op outside a begin_block a block of its own).
  out.blocks = net.blocks;
  return out;
}

}  // namespace jetperf::models
