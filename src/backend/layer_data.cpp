// Deterministic weights and inputs shared by every layer backend: a counter-based generator
// (splitmix64 of seed + index) gives the same numbers on every platform and in any fill order.
#include <jetperf/backend/layer_data.hpp>

#include <cmath>
#include <stdexcept>

namespace jetperf::workloads {

namespace {

std::uint64_t splitmix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Which tensor of an op a seed is for, so weight and bias of one op never share a stream.
enum class tensor_kind : std::uint64_t { weight = 1, bias = 2, mean = 3, var = 4, input = 5 };

std::uint64_t seed_of(std::int64_t a, std::uint64_t b, tensor_kind kind) {
  return splitmix64(splitmix64(static_cast<std::uint64_t>(a) ^ 0x6a09e667f3bcc909ull) ^
                    (b * 0x100000001b3ull) ^ (static_cast<std::uint64_t>(kind) << 56));
}

std::vector<float> uniform(std::int64_t n, std::uint64_t seed, float lo, float hi) {
  std::vector<float> v(static_cast<std::size_t>(n));
  fill_uniform(v, seed, lo, hi);
  return v;
}

}  // namespace

void fill_uniform(std::vector<float>& out, std::uint64_t seed, float lo, float hi) {
  const std::uint64_t base = splitmix64(seed);
  // 24 random bits times a 24-bit float width is exact in double, so the value does not depend
  // on whether the compiler fuses the multiply-add (aarch64 does): one rounding, to float.
  constexpr double scale = 1.0 / 16777216.0;
  const double width = static_cast<double>(hi) - static_cast<double>(lo);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double u = static_cast<double>(splitmix64(base + i) >> 40) * scale;
    out[i] = static_cast<float>(static_cast<double>(lo) + width * u);
  }
}

op_weights make_op_weights(const models::op& o, int op_index) {
  op_weights w;
  switch (o.type) {
    case models::op_type::conv2d: {
      if (o.input_shapes.empty() || o.input_shapes[0].empty() || o.groups <= 0)
        throw std::invalid_argument(o.name + ": conv2d without an input shape");
      const std::int64_t cin_per_group = o.input_shapes[0][0] / o.groups;
      const std::int64_t fan_in = cin_per_group * o.kernel_h * o.kernel_w;
      const float bound = 1.0f / std::sqrt(static_cast<float>(fan_in));
      w.weight = uniform(o.out_channels * fan_in, seed_of(op_index, 0, tensor_kind::weight), -bound, bound);
      if (o.bias) w.bias = uniform(o.out_channels, seed_of(op_index, 0, tensor_kind::bias), -0.1f, 0.1f);
      break;
    }
    case models::op_type::linear: {
      if (o.input_shapes.empty() || o.input_shapes[0].empty())
        throw std::invalid_argument(o.name + ": linear without an input shape");
      const std::int64_t fan_in = models::elements(o.input_shapes[0]);
      const float bound = 1.0f / std::sqrt(static_cast<float>(fan_in));
      w.weight = uniform(o.out_channels * fan_in, seed_of(op_index, 0, tensor_kind::weight), -bound, bound);
      if (o.bias) w.bias = uniform(o.out_channels, seed_of(op_index, 0, tensor_kind::bias), -0.1f, 0.1f);
      break;
    }
    case models::op_type::batch_norm: {
      if (o.input_shapes.empty() || o.input_shapes[0].empty())
        throw std::invalid_argument(o.name + ": batch_norm without an input shape");
      const std::int64_t c = o.input_shapes[0][0];
      w.weight = uniform(c, seed_of(op_index, 0, tensor_kind::weight), 0.5f, 1.5f);
      w.bias = uniform(c, seed_of(op_index, 0, tensor_kind::bias), -0.1f, 0.1f);
      w.running_mean = uniform(c, seed_of(op_index, 0, tensor_kind::mean), -0.1f, 0.1f);
      w.running_var = uniform(c, seed_of(op_index, 0, tensor_kind::var), 0.5f, 1.5f);
      break;
    }
    default:
      break;
  }
  return w;
}

std::vector<float> make_layer_input(const models::shape& s, std::int64_t batch, int first_op, std::size_t input_index) {
  if (batch <= 0) throw std::invalid_argument("batch must be positive");
  return uniform(models::elements(s) * batch, seed_of(first_op, input_index, tensor_kind::input), -1.0f, 1.0f);
}

}  // namespace jetperf::workloads
