// The reference layer backend: runs a layer's ops one by one with detail::run_reference_op,
// keeping every op's output. Half runs in float on values rounded to half precision (inputs,
// weights and every op's output), which is what a half kernel with float accumulation computes.
#include <jetperf/common/clock.hpp>
#include <jetperf/common/work_activity.hpp>
#include <jetperf/workloads/layer_backends.hpp>

#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include <jetperf/backend/detail/half_bits.hpp>
#include <jetperf/backend/detail/layer_wiring.hpp>
#include <jetperf/backend/layer_data.hpp>
#include <jetperf/workloads/detail/reference_ops.hpp>

namespace jetperf::workloads {

namespace {

void round_to_half(std::vector<float>& v) {
  for (float& x : v) x = detail::half_bits_to_float(detail::float_to_half_bits(x));
}

class reference_layer_backend final : public layer_backend {
 public:
  std::string name() const override { return "reference"; }

  std::optional<std::string> supports(const models::network& net, const models::layer& l,
                                      gemm_dtype dtype) const override {
    if (dtype == gemm_dtype::double_) return "not supported by the reference layers: double";
    try {
      detail::wire_layer(net, l);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::nullopt;
  }

  void prepare(const models::network& net, const models::layer& l, std::int64_t batch, gemm_dtype dtype) override {
    if (dtype == gemm_dtype::double_) throw layer_unsupported("not supported by the reference layers: double");
    if (batch <= 0) throw std::invalid_argument("batch must be positive");
    wiring_ = detail::wire_layer(net, l);  // std::invalid_argument when the layer does not fit the network
    ops_.assign(net.ops.begin() + l.first, net.ops.begin() + l.last);
    first_ = l.first;
    batch_ = batch;
    intensity_.clear();
    for (int op = l.first; op < l.last; ++op) intensity_.push_back(models::op_macs_per_byte(net, op, batch, 4));
    half_ = dtype == gemm_dtype::half;
    weights_.clear();
    for (std::size_t k = 0; k < ops_.size(); ++k) {
      weights_.push_back(make_op_weights(ops_[k], first_ + static_cast<int>(k)));
      if (half_) {
        auto& w = weights_.back();
        round_to_half(w.weight), round_to_half(w.bias), round_to_half(w.running_mean), round_to_half(w.running_var);
      }
    }
    inputs_.clear();
    for (std::size_t i = 0; i < l.inputs.size(); ++i)
      inputs_.push_back(make_layer_input(l.input_shapes[i], batch, l.first, i));
    if (half_)
      for (auto& in : inputs_) round_to_half(in);
    outputs_.assign(ops_.size(), {});
    ran_ = false;
  }

  void run_once() override { run_ops(nullptr); }

  void sync() override {}

  std::vector<op_span> timed_run_ops() override {
    std::vector<op_span> spans;
    run_ops(&spans);
    return spans;
  }

  std::map<int, std::string> op_kernels() const override {
    std::map<int, std::string> out;
    for (std::size_t k = 0; k < ops_.size(); ++k) out[first_ + static_cast<int>(k)] = "reference";
    return out;
  }

  void set_input(std::size_t i, const std::vector<float>& values) override {
    detail::check_set_input(i, inputs_.size(), i < inputs_.size() ? inputs_[i].size() : 0, values.size());
    inputs_[i] = values;
    if (half_) round_to_half(inputs_[i]);
    ran_ = false;
  }

  std::vector<float> output() override {
    if (ops_.empty()) throw std::logic_error("reference layer backend: output before prepare");
    if (!ran_) run_once();
    return outputs_.back();
  }

 private:
  // Every op in order; each one's start and end into `spans` when given.
  void run_ops(std::vector<op_span>* spans) {
    if (ops_.empty()) throw std::logic_error("reference layer backend: run_once before prepare");
    std::vector<const float*> srcs;
    for (std::size_t k = 0; k < ops_.size(); ++k) {
      srcs.clear();
      for (const auto& s : wiring_[k]) {
        srcs.push_back(s.external ? inputs_[static_cast<std::size_t>(s.index)].data()
                                  : outputs_[static_cast<std::size_t>(s.index - first_)].data());
      }
      const auto start = spans ? monotonic_ns() : 0;
      activity::begin_work(intensity_[k]);
      detail::run_reference_op(ops_[k], batch_, srcs, weights_[k], outputs_[k]);
      if (half_) round_to_half(outputs_[k]);
      if (spans) spans->push_back({first_ + static_cast<int>(k), start, monotonic_ns()});
    }
    activity::end_work();
    ran_ = true;
  }

  std::vector<models::op> ops_;
  std::vector<std::vector<detail::op_source>> wiring_;
  std::vector<op_weights> weights_;
  std::vector<std::vector<float>> inputs_;
  std::vector<std::vector<float>> outputs_;
  std::vector<double> intensity_;  ///< each op's MACs per byte, for a simulated board's power
  int first_ = 0;
  std::int64_t batch_ = 1;
  bool half_ = false;
  bool ran_ = false;
};

}  // namespace

std::unique_ptr<layer_backend> make_reference_layer_backend() { return std::make_unique<reference_layer_backend>(); }

}  // namespace jetperf::workloads
