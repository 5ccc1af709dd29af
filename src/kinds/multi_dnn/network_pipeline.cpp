#include <jetperf/kinds/multi_dnn/network_pipeline.hpp>

#include <algorithm>
#include <chrono>

#include <jetperf/backend/layer_data.hpp>

namespace jetperf::kinds {

namespace {

double seconds_between(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

}  // namespace

std::optional<std::string> network_pipeline::prepare(const models::network& net, const network_mapping& n,
                                                     std::int64_t batch, workloads::gemm_dtype dtype,
                                                     const stage_backend_factory& backends) {
  network_ = n.network;
  stages_.clear();
  const auto blocks = models::layers_of(net, models::granularity::block);
  for (std::size_t i = 0; i < n.stages.size(); ++i) {
    stage st;
    st.device = n.stages[i].device;
    st.first_block = n.first_block(i);
    st.last_block = n.last_block(i);
    st.layer = models::make_layer(net, blocks.at(static_cast<std::size_t>(st.first_block)).first,
                                  blocks.at(static_cast<std::size_t>(st.last_block - 1)).last);
    st.layer.index = static_cast<int>(i);
    st.layer.name = n.network + "[" + std::to_string(st.first_block) + ":" + std::to_string(st.last_block) + "]";
    std::string why;
    st.backend = backends(st.device, &why);
    if (!st.backend) return n.network + " stage " + std::to_string(i) + " on " + st.device + ": " + why;
    try {
      st.backend->prepare(net, st.layer, batch, dtype);
    } catch (const workloads::layer_unsupported& e) {
      return n.network + " stage " + std::to_string(i) + " on " + st.device + ": " + e.what();
    }
    stages_.push_back(std::move(st));
  }
  // What crosses into each stage: the image into a first stage on the GPU (uploaded every
  // inference, as the seed's runs did), the tensor a split leaves into every later stage. The
  // buffer comes from the GPU side where there is one, so it is page-locked.
  for (std::size_t i = 0; i < stages_.size(); ++i) {
    auto& st = stages_[i];
    const bool gpu = st.device == "cuda";
    if (i == 0 && !gpu) continue;
    st.input_count = static_cast<std::size_t>(batch * models::elements(st.layer.input_shapes.at(0)));
    auto* owner = gpu || i == 0 ? st.backend.get() : stages_[i - 1].backend.get();
    st.input = owner->host_buffer(st.input_count);
    if (i == 0) {
      const auto image = workloads::make_layer_input(st.layer.input_shapes[0], batch, st.layer.first, 0);
      std::copy(image.begin(), image.end(), st.input.get());
    }
  }
  return std::nullopt;
}

void network_pipeline::set_threads(int threads) {
  for (auto& st : stages_) st.backend->set_threads(threads);
}

void network_pipeline::run_once(std::vector<measure::stage_timing>& out) {
  out.resize(stages_.size());
  for (std::size_t i = 0; i < stages_.size(); ++i) {
    auto& st = stages_[i];
    const auto t0 = std::chrono::steady_clock::now();
    if (st.input) {
      if (i > 0) stages_[i - 1].backend->read_output(st.input.get(), st.input_count);
      st.backend->write_input(0, st.input.get(), st.input_count);
    }
    const auto t1 = std::chrono::steady_clock::now();
    st.backend->run_once();
    st.backend->sync();
    const auto t2 = std::chrono::steady_clock::now();
    out[i] = {seconds_between(t1, t2), st.input ? seconds_between(t0, t1) : -1.0};
  }
}

}  // namespace jetperf::kinds
