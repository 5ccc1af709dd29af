#pragma once
// One network of a multi-DNN mapping, ready to run: a layer backend per stage, prepared with the
// stage's blocks as one layer, and the host buffers its data crosses a split through. One
// inference runs the stages in order; the data crossing into a stage is copied for real (the
// stage before's output read back, written into this stage's input: pinned memory and
// cudaMemcpyAsync on a GPU backend) and that copy is the stage's transfer time. The mapping's
// networks run together under the protocol measure/protocols/concurrent.hpp.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/backend/gemm_dtype.hpp>
#include <jetperf/backend/layer_backend.hpp>
#include <jetperf/kinds/multi_dnn/mapping.hpp>
#include <jetperf/measure/protocols/concurrent.hpp>
#include <jetperf/models/network.hpp>

namespace jetperf::kinds {

/// A backend for a device ("cpu", "cuda"); nullptr with `why` when there is none (no GPU, ...).
using stage_backend_factory =
    std::function<std::unique_ptr<workloads::layer_backend>(const std::string& device, std::string* why)>;

class network_pipeline final : public measure::concurrent_pipeline {
 public:
  struct stage {
    std::string device;
    int first_block = 0, last_block = 0;  ///< blocks [first, last), 0-based
    models::layer layer;                  ///< the stage's ops as one layer
    std::unique_ptr<workloads::layer_backend> backend;
    std::shared_ptr<float> input;  ///< host copy of what crosses into the stage (null: nothing does)
    std::size_t input_count = 0;
  };

  /// Builds and prepares every stage of `n` on `net` (the zoo network, blocks from
  /// layers_of(net, block)). Returns a reason to skip the mapping (no backend for a device, a
  /// layer the backend cannot run) or nullopt; throws on other failures.
  std::optional<std::string> prepare(const models::network& net, const network_mapping& n, std::int64_t batch,
                                     workloads::gemm_dtype dtype, const stage_backend_factory& backends);
  /// CPU threads of the stages' backends (call on the thread that runs the pipeline).
  void set_threads(int threads) override;
  /// Runs one inference through every stage; `out` gets one timing per stage.
  void run_once(std::vector<measure::stage_timing>& out) override;

  const std::vector<stage>& stages() const { return stages_; }
  const std::string& network() const { return network_; }
  const std::string& name() const override { return network_; }
  std::size_t stage_count() const override { return stages_.size(); }

 private:
  std::string network_;
  std::vector<stage> stages_;
};

}  // namespace jetperf::kinds
