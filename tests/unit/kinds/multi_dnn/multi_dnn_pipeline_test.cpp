// One network of a multi-DNN mapping as the concurrent protocol runs it (network_pipeline, a
// measure::concurrent_pipeline): a stage per split, each on the backend of its device; a split's
// data is the stage before's output, copied and timed; a failing backend fails the inference.
// (The protocol itself, its window and its counts: tests/unit/measure/concurrent_protocol_test.cpp.)
#include <jetperf/kinds/multi_dnn/network_pipeline.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>

#include <jetperf/models/zoo.hpp>

using namespace jetperf;
using namespace jetperf::kinds;

namespace {

// A backend whose output is its input plus one, that counts its runs and the threads it was
// given, and that can be told to fail on a run.
class counting_backend final : public workloads::layer_backend {
 public:
  explicit counting_backend(int fail_on = -1) : fail_on_(fail_on) {}
  std::string name() const override { return "counting"; }
  std::optional<std::string> supports(const models::network&, const models::layer&, workloads::gemm_dtype) const override {
    return std::nullopt;
  }
  void prepare(const models::network&, const models::layer& l, std::int64_t batch, workloads::gemm_dtype) override {
    in_.assign(static_cast<std::size_t>(batch * models::elements(l.input_shapes.at(0))), 0.0f);
    out_ = static_cast<std::size_t>(batch * models::elements(l.output_shape));
  }
  void run_once() override {
    if (++runs == fail_on_) throw std::runtime_error("device lost");
  }
  void sync() override {}
  void set_input(std::size_t, const std::vector<float>& v) override {
    EXPECT_EQ(v.size(), in_.size());
    in_ = v;
  }
  std::vector<float> output() override { return std::vector<float>(out_, in_.empty() ? 1.0f : in_[0] + 1.0f); }
  void set_threads(int threads) override { threads_set = threads; }

  std::vector<float> in_;
  int runs = 0;
  int threads_set = 0;

 private:
  int fail_on_;
  std::size_t out_ = 0;
};

struct prepared {
  network_pipeline pipeline;
  std::vector<counting_backend*> made;
  std::vector<std::string> devices_asked;
};

void prepare(prepared& p, const std::string& net, std::vector<mapping_stage> stages, int fail_on = -1) {
  const stage_backend_factory factory = [&p, fail_on](const std::string& device, std::string*) {
    p.devices_asked.push_back(device);
    auto be = std::make_unique<counting_backend>(fail_on);
    p.made.push_back(be.get());
    return std::unique_ptr<workloads::layer_backend>(std::move(be));
  };
  const auto why = p.pipeline.prepare(models::build_model(net), {net, std::move(stages)}, 1,
                                      workloads::gemm_dtype::single, factory);
  ASSERT_FALSE(why) << *why;
}

}  // namespace

TEST(multi_dnn_pipeline, a_split_copies_the_stage_befores_output_into_the_next_and_times_it) {
  prepared p;
  prepare(p, "resnet18", {{5, "cpu"}, {14, "cpu"}});
  measure::concurrent_pipeline& as_protocol_sees_it = p.pipeline;
  EXPECT_EQ(as_protocol_sees_it.name(), "resnet18");
  ASSERT_EQ(as_protocol_sees_it.stage_count(), 2u);
  EXPECT_EQ(p.devices_asked, (std::vector<std::string>{"cpu", "cpu"}));
  EXPECT_EQ(p.pipeline.stages()[0].layer.name, "resnet18[0:5]");
  EXPECT_EQ(p.pipeline.stages()[1].layer.name, "resnet18[5:14]");

  as_protocol_sees_it.set_threads(3);
  std::vector<measure::stage_timing> t;
  as_protocol_sees_it.run_once(t);
  as_protocol_sees_it.run_once(t);
  EXPECT_EQ(p.made[0]->threads_set, 3);
  EXPECT_EQ(p.made[1]->threads_set, 3);
  EXPECT_EQ(p.made[0]->runs, 2);
  EXPECT_EQ(p.made[1]->runs, 2);
  ASSERT_EQ(t.size(), 2u);
  // Nothing crosses into a first stage on the CPU; the cut's data crosses into the second.
  EXPECT_EQ(t[0].transfer_s, -1.0);
  EXPECT_GE(t[1].transfer_s, 0.0);
  EXPECT_GE(t[0].inference_s, 0.0);
  // What crossed is the first stage's output (its input plus one): layer1's output, layer2's input.
  EXPECT_EQ(p.made[1]->in_.size(), 64u * 56 * 56);
  EXPECT_FLOAT_EQ(p.made[1]->in_.at(0), 1.0f);
}

TEST(multi_dnn_pipeline, a_backend_that_fails_fails_the_inference) {
  prepared p;
  prepare(p, "alexnet", {{21, "cpu"}}, /*fail_on=*/2);
  std::vector<measure::stage_timing> t;
  p.pipeline.run_once(t);
  EXPECT_THROW(p.pipeline.run_once(t), std::runtime_error);
}

TEST(multi_dnn_pipeline, a_device_without_a_backend_skips_the_mapping_with_the_reason) {
  network_pipeline pipeline;
  const stage_backend_factory none = [](const std::string&, std::string* why) {
    *why = "no CUDA device";
    return std::unique_ptr<workloads::layer_backend>();
  };
  const auto why = pipeline.prepare(models::build_model("alexnet"), {"alexnet", {{21, "cuda"}}}, 1,
                                    workloads::gemm_dtype::single, none);
  ASSERT_TRUE(why);
  EXPECT_EQ(*why, "alexnet stage 0 on cuda: no CUDA device");
}
