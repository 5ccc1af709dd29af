// The oneDNN layer backend: every op of a layer is its own primitive (no fusion), executed in
// order on one CPU stream. Activation layouts propagate from the convolutions (nhwc or nChw16c
// on AVX-512) with reorder steps where an op needs another layout (onednn_op_plan.hpp);
// external inputs and output() are plain NCHW / NC. Weights come from layer_data.hpp and are
// reordered once in prepare into the layout each primitive chose (format_tag::any).
#include <jetperf/common/clock.hpp>
#include <jetperf/common/work_activity.hpp>
#include <jetperf/config.hpp>
#include <jetperf/workloads/layer_backends.hpp>

#if JETPERF_HAS_ONEDNN
#include <dlfcn.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <jetperf/backend/detail/half_bits.hpp>
#include <jetperf/backend/detail/layer_wiring.hpp>
#include <jetperf/backend/layer_data.hpp>

#include "onednn_op_plan.hpp"
#endif

namespace jetperf::workloads {

#if JETPERF_HAS_ONEDNN
namespace {

using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

// Copies floats into a memory of type f32 or f16 (plain layout, same element order).
void write_floats(const dnnl::memory& m, const float* values, std::size_t count) {
  void* h = m.get_data_handle();
  if (m.get_desc().data_type() == dt::f16) {
    auto* p = static_cast<std::uint16_t*>(h);
    for (std::size_t i = 0; i < count; ++i) p[i] = detail::float_to_half_bits(values[i]);
  } else {
    std::memcpy(h, values, count * sizeof(float));
  }
}

std::vector<float> read_floats(const dnnl::memory& m, std::size_t count) {
  std::vector<float> out(count);
  const void* h = m.get_data_handle();
  if (m.get_desc().data_type() == dt::f16) {
    const auto* p = static_cast<const std::uint16_t*>(h);
    for (std::size_t i = 0; i < count; ++i) out[i] = detail::half_bits_to_float(p[i]);
  } else {
    std::memcpy(out.data(), h, count * sizeof(float));
  }
  return out;
}

// oneDNN here runs on OpenMP; omp_set_num_threads is looked up at run time (libdnnl brings
// libgomp in) so that jetperf does not link OpenMP itself. It applies to the calling thread, so
// set_threads must be called on the thread that runs the layer. Other threading runtimes (TBB,
// threadpool) keep their library default.
void set_omp_threads(int threads) {
#if DNNL_CPU_THREADING_RUNTIME == DNNL_RUNTIME_OMP
  using set_fn = void (*)(int);
  using get_fn = int (*)();
  static const auto set = reinterpret_cast<set_fn>(dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
  static const auto get = reinterpret_cast<get_fn>(dlsym(RTLD_DEFAULT, "omp_get_max_threads"));
  // 0 restores what OpenMP chose before jetperf changed it (OMP_NUM_THREADS or every core).
  static const int library_default = get ? get() : 0;
  if (!set) return;
  if (threads > 0) {
    set(threads);
  } else if (library_default > 0) {
    set(library_default);
  }
#else
  (void)threads;
#endif
}

class onednn_layer_backend final : public layer_backend {
 public:
  onednn_layer_backend() : engine_(dnnl::engine::kind::cpu, 0), stream_(engine_) {}

  std::string name() const override { return "onednn"; }

  std::optional<std::string> supports(const models::network& net, const models::layer& l,
                                      gemm_dtype dtype) const override {
    if (dtype == gemm_dtype::double_) return "not supported by oneDNN: double";
    const dt type = dtype == gemm_dtype::half ? dt::f16 : dt::f32;
    try {
      const auto wiring = detail::wire_layer(net, l);
      std::vector<dnnl::memory::desc> in_mds, out_mds;
      for (std::size_t k = 0; k < l.inputs.size(); ++k) in_mds.push_back(input_desc(net, l, k, 1, type));
      for (int i = l.first; i < l.last; ++i) {
        const auto& o = net.ops[static_cast<std::size_t>(i)];
        std::vector<dnnl::memory::desc> mds;
        for (const auto& s : wiring[static_cast<std::size_t>(i - l.first)])
          mds.push_back(s.external ? in_mds[static_cast<std::size_t>(s.index)]
                                   : out_mds[static_cast<std::size_t>(s.index - l.first)]);
        if (auto why = plan_or_reason(o, mds, 1, type, [&](const onednn::op_plan& p) { out_mds.push_back(p.dst); }))
          return why;
      }
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::nullopt;
  }

  // Builds every op in one pass (no separate supports() pass, which would create every
  // descriptor twice); an op that cannot run throws its supports() reason.
  void prepare(const models::network& net, const models::layer& l, std::int64_t batch, gemm_dtype dtype) override {
    if (batch <= 0) throw std::invalid_argument("batch must be positive");
    if (dtype == gemm_dtype::double_) throw layer_unsupported("not supported by oneDNN: double");
    const auto wiring = detail::wire_layer(net, l);
    steps_.clear(), inputs_.clear(), outputs_.clear(), input_sizes_.clear(), conversions_.clear();
    input_conversions_.clear();
    ran_ = false;
    const dt type = dtype == gemm_dtype::half ? dt::f16 : dt::f32;
    try {
      for (std::size_t i = 0; i < l.inputs.size(); ++i) {
        inputs_.emplace_back(onednn::plain_desc(l.input_shapes[i], batch, type), engine_);
        input_sizes_.push_back(static_cast<std::size_t>(models::elements(l.input_shapes[i]) * batch));
        const auto values = make_layer_input(l.input_shapes[i], batch, l.first, i);
        write_floats(inputs_.back(), values.data(), values.size());
      }
      for (int i = l.first; i < l.last; ++i) {
        const auto& o = net.ops[static_cast<std::size_t>(i)];
        std::vector<dnnl::memory> produced;
        std::vector<dnnl::memory::desc> produced_mds;
        for (const auto& s : wiring[static_cast<std::size_t>(i - l.first)]) {
          const auto k = static_cast<std::size_t>(s.index);
          produced.push_back(s.external ? inputs_[k] : outputs_[static_cast<std::size_t>(s.index - l.first)]);
          // An external input is planned in the layout its producer writes inside the whole
          // network (converted once, not in the timed runs), so the op gets the implementation
          // the network gives it: a pooling fed plain NCHW gets oneDNN's slow reference one.
          produced_mds.push_back(s.external ? input_desc(net, l, k, batch, type) : produced.back().get_desc());
        }
        const auto before = steps_.size();
        if (auto why = plan_or_reason(o, produced_mds, batch, type,
                                      [&](const onednn::op_plan& p) { add_op(o, i, p, produced); }))
          throw layer_unsupported(*why);
        const double intensity = models::op_macs_per_byte(net, i, batch, type == dt::f16 ? 2 : 4);
        for (auto k = before; k < steps_.size(); ++k) {
          steps_[k].op = i;
          steps_[k].macs_per_byte = intensity;
          steps_[k].reorder = steps_[k].prim.get_kind() == dnnl::primitive::kind::reorder && steps_[k].args.count(DNNL_ARG_FROM) &&
                              k + 1 < steps_.size();
          steps_[k].impl = impl_of(steps_[k].prim);
        }
      }
      output_size_ = static_cast<std::size_t>(models::elements(l.output_shape) * batch);
      output_plain_ = onednn::plain_desc(l.output_shape, batch, type);
      stream_.wait();
    } catch (const std::exception&) {
      steps_.clear(), inputs_.clear(), outputs_.clear(), conversions_.clear(), input_conversions_.clear();
      throw;
    }
  }

  void run_once() override {
    if (outputs_.empty()) throw std::logic_error("onednn layer backend: run_once before prepare");
    for (auto& s : steps_) {
      activity::begin_work(s.macs_per_byte);
      s.prim.execute(stream_, s.args);
    }
    activity::end_work();
    ran_ = true;
  }

  void sync() override { stream_.wait(); }

  std::vector<op_span> timed_run_ops() override {
    if (outputs_.empty()) throw std::logic_error("onednn layer backend: run_once before prepare");
    std::vector<op_span> spans;
    for (auto& s : steps_) {
      const auto start = monotonic_ns();
      activity::begin_work(s.macs_per_byte);
      s.prim.execute(stream_, s.args);
      // CPU primitives run synchronously (the OpenMP runtime) and end when execute returns.
      const auto end = monotonic_ns();
      // A reorder before an op belongs to that op (as it would inside the whole network).
      if (!spans.empty() && spans.back().op == s.op) spans.back().end_ns = end;
      else spans.push_back({s.op, start, end});
    }
    activity::end_work();
    ran_ = true;
    return spans;
  }

  std::map<int, std::string> op_kernels() const override {
    std::map<int, std::string> out;
    for (const auto& s : steps_) {
      auto& k = out[s.op];
      if (s.reorder) {
        if (k.find("+reorder") == std::string::npos) k += "+reorder";
      } else {
        k = s.impl + (k.find("+reorder") != std::string::npos ? "+reorder" : "");
      }
    }
    return out;
  }

  void set_input(std::size_t i, const std::vector<float>& values) override {
    detail::check_set_input(i, inputs_.size(), i < inputs_.size() ? input_sizes_[i] : 0, values.size());
    stream_.wait();
    write_floats(inputs_[i], values.data(), values.size());
    for (auto& c : input_conversions_)
      if (c.first.get_data_handle() == inputs_[i].get_data_handle()) convert_now(c.first, c.second);
    ran_ = false;
  }

  std::vector<float> output() override {
    if (outputs_.empty()) throw std::logic_error("onednn layer backend: output before prepare");
    if (!ran_) run_once();
    // The last op may have written a blocked layout; the caller gets plain NCHW / NC.
    dnnl::memory plain = outputs_.back();
    if (plain.get_desc() != output_plain_) {
      plain = dnnl::memory(output_plain_, engine_);
      dnnl::reorder(outputs_.back(), plain).execute(stream_, outputs_.back(), plain);
    }
    stream_.wait();
    return read_floats(plain, output_size_);
  }

  void set_threads(int threads) override { set_omp_threads(threads); }

 private:
  struct step {
    dnnl::primitive prim;
    std::unordered_map<int, dnnl::memory> args;
    int op = -1;           ///< the op it belongs to (a layout reorder: the op that reads it)
    bool reorder = false;
    std::string impl;      ///< oneDNN's impl_info_str
    double macs_per_byte = 0;  ///< its op's arithmetic intensity, for a simulated board's power
  };

  // The layout input `k` of `l` has inside the whole network: its producer's destination as
  // planned over the network's ops in order; plain NCHW / NC for the network's own input, or
  // where the network cannot be planned that far.
  dnnl::memory::desc input_desc(const models::network& net, const models::layer& l, std::size_t k, std::int64_t batch,
                                dt type) const {
    const auto plain = onednn::plain_desc(l.input_shapes[k], batch, type);
    const int producer = l.inputs[k];
    if (producer == models::k_network_input) return plain;
    const auto& dsts = network_dsts(net, batch, type);
    const auto p = static_cast<std::size_t>(producer);
    return p < dsts.size() && dsts[p].dims() == plain.dims() ? dsts[p] : plain;
  }

  // Each op's destination layout in the whole network at `batch` and `type`, planned once per
  // network (descriptors only: nothing runs); it stops at the first op oneDNN cannot plan.
  const std::vector<dnnl::memory::desc>& network_dsts(const models::network& net, std::int64_t batch, dt type) const {
    const auto key = net.name + "/" + std::to_string(net.ops.size()) + "/" + std::to_string(batch) + "/" +
                     std::to_string(static_cast<int>(type));
    if (const auto it = network_dsts_.find(key); it != network_dsts_.end()) return it->second;
    auto& dsts = network_dsts_[key];
    const auto whole = models::whole_network(net);
    try {
      const auto wiring = detail::wire_layer(net, whole);
      for (int i = whole.first; i < whole.last; ++i) {
        std::vector<dnnl::memory::desc> srcs;
        for (const auto& s : wiring[static_cast<std::size_t>(i - whole.first)])
          srcs.push_back(s.external ? onednn::plain_desc(whole.input_shapes[static_cast<std::size_t>(s.index)], batch, type)
                                    : dsts[static_cast<std::size_t>(s.index)]);
        if (plan_or_reason(net.ops[static_cast<std::size_t>(i)], srcs, batch, type,
                           [&](const onednn::op_plan& p) { dsts.push_back(p.dst); }))
          break;
      }
    } catch (const std::exception&) {
      // A network that does not wire: every input stays plain.
    }
    return dsts;
  }

  // What oneDNN chose to run a primitive with ("brg:avx512_core", "jit:uni", "ref:any").
  static std::string impl_of(const dnnl::primitive& p) {
    const char* text = nullptr;
    if (dnnl_primitive_desc_query(p.get_primitive_desc(), dnnl_query_impl_info_str, 0, &text) != dnnl_success || !text)
      return "unknown";
    return text;
  }

  // Plans `o` and hands the plan to `use`; the skip reason when oneDNN cannot run it.
  template <typename Use>
  std::optional<std::string> plan_or_reason(const models::op& o, const std::vector<dnnl::memory::desc>& srcs,
                                            std::int64_t batch, dt type, Use&& use) const {
    try {
      use(onednn::plan_op(o, srcs, batch, type, engine_));
    } catch (const onednn::unsupported_op& e) {
      return std::string("not supported by oneDNN: ") + e.what();
    } catch (const dnnl::error& e) {
      if (type == dt::f16) return "not supported by this CPU's oneDNN: f16 " + models::to_string(o.type);
      return "not supported by oneDNN: " + models::to_string(o.type) + " " + o.name + " (" + e.what() + ")";
    }
    return std::nullopt;
  }

  // The weights in the primitive's chosen layout and type, from layer_data's f32 values.
  dnnl::memory reordered(const std::vector<float>& values, const dnnl::memory::desc& user,
                         const dnnl::memory::desc& wanted) {
    dnnl::memory src(user, engine_);
    std::memcpy(src.get_data_handle(), values.data(), values.size() * sizeof(float));
    if (user == wanted) return src;
    dnnl::memory dst(wanted, engine_);
    dnnl::reorder(src, dst).execute(stream_, src, dst);
    return dst;
  }

  // `src` in the layout a primitive chose: itself, or a buffer refreshed by a reorder step.
  // Two consumers wanting the same conversion (a block input read by conv1 and by the
  // downsample) share one reorder: its buffer is written before either runs.
  dnnl::memory layout_in(const dnnl::memory& src, const dnnl::memory::desc& wanted) {
    if (src.get_desc() == wanted) return src;
    for (const auto& c : conversions_) {
      if (c.first.get_data_handle() == src.get_data_handle() && c.first.get_desc() == src.get_desc() &&
          c.second.get_desc() == wanted)
        return c.second;
    }
    dnnl::memory converted(wanted, engine_);
    if (is_external(src)) {
      // A layer input is data that stays put: it is converted once here (and again by
      // set_input), as if the layer before had written it in this layout, so the timed runs do
      // not pay a reorder that the same layer inside the whole network would not pay.
      convert_now(src, converted);
      input_conversions_.emplace_back(src, converted);
    } else {
      steps_.push_back({dnnl::reorder(src, converted), {{DNNL_ARG_FROM, src}, {DNNL_ARG_TO, converted}}});
    }
    conversions_.emplace_back(src, converted);
    return converted;
  }

  bool is_external(const dnnl::memory& m) const {
    for (const auto& in : inputs_)
      if (in.get_data_handle() == m.get_data_handle()) return true;
    return false;
  }

  void convert_now(dnnl::memory from, dnnl::memory to) {  // handles: copies are cheap
    dnnl::reorder(from, to).execute(stream_, from, to);
    stream_.wait();
  }

  dnnl::memory filled(const dnnl::memory::desc& md, const std::vector<float>& values) {
    dnnl::memory m(md, engine_);
    std::memcpy(m.get_data_handle(), values.data(), values.size() * sizeof(float));
    return m;
  }

  dnnl::memory f32_vector(const std::vector<float>& values) {
    dnnl::memory m({{static_cast<std::int64_t>(values.size())}, dt::f32, tag::x}, engine_);
    std::memcpy(m.get_data_handle(), values.data(), values.size() * sizeof(float));
    return m;
  }

  void add_op(const models::op& o, int index, const onednn::op_plan& plan, const std::vector<dnnl::memory>& produced) {
    using models::op_type;
    // Each input in the layout the op reads, through a reorder step where its producer differs.
    std::vector<dnnl::memory> srcs;
    for (std::size_t k = 0; k < produced.size(); ++k) srcs.push_back(layout_in(produced[k], plan.inputs[k]));
    if (plan.kind == onednn::op_kind::alias) {
      outputs_.emplace_back(plan.dst, engine_, srcs[0].get_data_handle());
      return;
    }
    dnnl::memory dst(plan.dst, engine_);
    outputs_.push_back(dst);
    const dnnl::primitive_desc_base& pd = plan.pds.front();
    if (plan.kind == onednn::op_kind::slice) {
      dnnl::memory view(plan.view, engine_, srcs[0].get_data_handle());
      steps_.push_back({dnnl::primitive(pd.get()), {{DNNL_ARG_FROM, view}, {DNNL_ARG_TO, dst}}});
      return;
    }
    std::unordered_map<int, dnnl::memory> args{{DNNL_ARG_DST, dst}};
    switch (o.type) {
      case op_type::conv2d:
      case op_type::linear: {
        const op_weights w = make_op_weights(o, index);
        args[DNNL_ARG_SRC] = srcs[0];
        args[DNNL_ARG_WEIGHTS] = reordered(w.weight, plan.user_weights, pd.query_md(dnnl::query::weights_md, 0));
        if (o.bias) args[DNNL_ARG_BIAS] = reordered(w.bias, plan.user_bias, pd.query_md(dnnl::query::weights_md, 1));
        break;
      }
      case op_type::batch_norm: {
        const op_weights w = make_op_weights(o, index);
        if (plan.scale_shift) {
          std::vector<float> scale(w.weight.size()), shift(w.weight.size());
          for (std::size_t c = 0; c < scale.size(); ++c) {
            scale[c] = w.weight[c] / std::sqrt(w.running_var[c] + static_cast<float>(o.eps));
            shift[c] = w.bias[c] - w.running_mean[c] * scale[c];
          }
          const dnnl::memory::desc per_channel({1, static_cast<std::int64_t>(scale.size()), 1, 1}, dt::f32, tag::nchw);
          args[DNNL_ARG_SRC_0] = srcs[0];
          args[DNNL_ARG_SRC_1] = filled(per_channel, scale);
          args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1] = filled(per_channel, shift);
          break;
        }
        args[DNNL_ARG_SRC] = srcs[0];
        args[DNNL_ARG_SCALE] = f32_vector(w.weight);
        args[DNNL_ARG_SHIFT] = f32_vector(w.bias);
        args[DNNL_ARG_MEAN] = f32_vector(w.running_mean);
        args[DNNL_ARG_VARIANCE] = f32_vector(w.running_var);
        break;
      }
      case op_type::add:
      case op_type::mul:
        args[DNNL_ARG_SRC_0] = srcs[0];
        args[DNNL_ARG_SRC_1] = srcs[1];
        break;
      case op_type::concat:
        for (std::size_t k = 0; k < srcs.size(); ++k) args[DNNL_ARG_MULTIPLE_SRC + static_cast<int>(k)] = srcs[k];
        break;
      default:
        args[DNNL_ARG_SRC] = srcs[0];
        break;
    }
    steps_.push_back({dnnl::primitive(pd.get()), std::move(args)});
    // Later passes (hardsigmoid's clip) run in place on the output.
    for (std::size_t k = 1; k < plan.pds.size(); ++k)
      steps_.push_back({dnnl::primitive(plan.pds[k].get()), {{DNNL_ARG_SRC, dst}, {DNNL_ARG_DST, dst}}});
  }

  dnnl::engine engine_;
  dnnl::stream stream_;
  std::vector<step> steps_;
  std::vector<dnnl::memory> inputs_;
  std::vector<std::size_t> input_sizes_;
  std::vector<dnnl::memory> outputs_;
  std::vector<std::pair<dnnl::memory, dnnl::memory>> conversions_;  ///< (source, converted) reorders
  std::vector<std::pair<dnnl::memory, dnnl::memory>> input_conversions_;  ///< those of layer inputs, done untimed
  std::size_t output_size_ = 0;
  dnnl::memory::desc output_plain_;
  /// network_dsts' plans, by network, batch and type.
  mutable std::map<std::string, std::vector<dnnl::memory::desc>> network_dsts_;
  bool ran_ = false;
};

}  // namespace
#endif

std::unique_ptr<layer_backend> make_onednn_layer_backend(std::string* why) {
#if JETPERF_HAS_ONEDNN
  try {
    return std::make_unique<onednn_layer_backend>();
  } catch (const std::exception& e) {
    if (why) *why = std::string("oneDNN CPU engine unavailable: ") + e.what();
    return nullptr;
  }
#else
  if (why) *why = "not supported by this build (no oneDNN)";
  return nullptr;
#endif
}

}  // namespace jetperf::workloads
