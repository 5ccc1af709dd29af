// Multi-DNN mappings on a real GPU: a CPU/GPU split copies its tensor through page-locked memory
// (the GPU stage's transfer time is real), and two networks with GPU stages keep the GPU busy at
// the same time (each stage has a CUDA stream of its own, so their work overlaps).
#include <gtest/gtest.h>

#include <jetperf/kinds/multi_dnn/network_pipeline.hpp>
#include <jetperf/measure/protocols/concurrent.hpp>
#include <jetperf/models/zoo.hpp>
#include <jetperf/workloads/gemm_backends.hpp>
#include <jetperf/workloads/layer_backends.hpp>

using namespace jetperf;
using namespace jetperf::kinds;

namespace {

std::optional<std::string> add(std::vector<network_pipeline>& out, const std::string& net, std::vector<mapping_stage> stages) {
  network_pipeline p;
  const stage_backend_factory factory = [](const std::string& device, std::string* why) {
    return workloads::make_layer_backend(device, why);
  };
  if (auto why = p.prepare(models::build_model(net), {net, std::move(stages)}, 1, workloads::gemm_dtype::single, factory))
    return why;
  out.push_back(std::move(p));
  return std::nullopt;
}

}  // namespace

TEST(multi_dnn_gpu, a_split_copies_through_pinned_memory_and_gpu_networks_overlap) {
  if (!workloads::cuda_device_available()) GTEST_SKIP() << "skipped: no CUDA device";
  std::vector<network_pipeline> pipelines;
  // resnet18: blocks 0-4 on the CPU, 5-13 on the GPU; alexnet and mobilenet_v2 whole on the GPU.
  for (const auto& [net, stages] : std::vector<std::pair<std::string, std::vector<mapping_stage>>>{
           {"resnet18", {{5, "cpu"}, {14, "cuda"}}}, {"alexnet", {{21, "cuda"}}}, {"mobilenet_v2", {{21, "cuda"}}}}) {
    const auto why = add(pipelines, net, stages);
    ASSERT_FALSE(why) << *why;
  }
  measure::concurrent_plan plan;
  plan.warmup_runs = 5;
  plan.fixed_s = 2.0;
  std::vector<measure::concurrent_pipeline*> running;
  for (auto& p : pipelines) running.push_back(&p);
  const measure::point_context ctx;
  const auto r = measure::concurrent_protocol(ctx, running, plan)();
  ASSERT_TRUE(r.error.empty()) << r.error;
  const auto& r18 = r.pipelines[0];
  ASSERT_EQ(r18.stages.size(), 2u);
  EXPECT_GT(r18.inferences, 10u);
  // The GPU stage receives layer1's output every inference, over PCIe or the SoC's memory.
  ASSERT_TRUE(r18.stages[1].mean_transfer_s());
  EXPECT_GT(*r18.stages[1].mean_transfer_s(), 0.0);
  EXPECT_EQ(r18.stages[1].transfers, r18.stages[1].count);
  // A first stage on the GPU uploads the image each inference.
  ASSERT_TRUE(r.pipelines[1].stages[0].mean_transfer_s());
  // Overlap in time: the networks' GPU stage runs, each timed from launch to its stream's end, add
  // up to more than the window, so they were in flight at the same time (on their own streams;
  // whether the GPU ran their kernels side by side or interleaved them is its scheduler's call).
  double gpu_busy = r18.stages[1].inference_sum_s;
  for (std::size_t i = 1; i < r.pipelines.size(); ++i) gpu_busy += r.pipelines[i].stages[0].inference_sum_s;
  EXPECT_GT(gpu_busy, r.seconds()) << "GPU busy " << gpu_busy << " s in a " << r.seconds() << " s window";
  for (const auto& n : r.pipelines) EXPECT_GT(n.inferences, 0u);
  std::cout << "resnet18 split: " << r18.inferences / r.seconds() << " inf/s, transfer "
            << *r18.stages[1].mean_transfer_s() * 1e6 << " us; alexnet " << r.pipelines[1].inferences / r.seconds()
            << " inf/s; mobilenet_v2 " << r.pipelines[2].inferences / r.seconds() << " inf/s; GPU busy " << gpu_busy
            << " s in " << r.seconds() << " s\n";
}
