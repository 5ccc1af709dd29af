// The layers workload over the reference backend and synthetic telemetry with known power:
// latency and power per layer, the end-to-end row, both protocols, and the seed's layout.
#include <jetperf/store/cell_json.hpp>
#include <jetperf/kinds/layers/layers_kind.hpp>

#include <algorithm>
#include <climits>
#include <map>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <jetperf/stats/student_t.hpp>

#include "support/json_workload.hpp"

#include <jetperf/common/clock.hpp>
#include <jetperf/models/zoo.hpp>
#include <jetperf/workloads/layer_backends.hpp>
#include <jetperf/kinds/layers/layers_columns.hpp>
#include <jetperf/kinds/layers/layers_results.hpp>
#include <jetperf/kinds/layers/layers_spec.hpp>
#include <jetperf/measure/kernel_runs.hpp>
#include <jetperf/measure/point_columns.hpp>

#include "../declared_columns.hpp"
#include "../spec_json.hpp"
#include "support/fake_sources.hpp"
#include "support/playback_tracer.hpp"

using nlohmann::json;
using jetperf::test::fake_board;
using jetperf::test::fake_source;
using namespace jetperf::workloads;
using namespace jetperf::kinds;

namespace {

// The board draws 5 W at rest and 9 W while a point runs its layer (reference backend underneath):
// from a point's first run to its last (plus 20 ms of sensor lag) the power source reads busy.
// Gaps between runs, however long a loaded machine (ctest -j2) makes them, stay busy, as a real
// board would not notice a descheduled loop either.
std::vector<std::pair<std::int64_t, std::int64_t>> g_busy;
bool g_new_point = true;
// The "GPU" the busy backend says it runs on, when a test gives it one.
jetperf::test::playback_tracer* g_tracer = nullptr;
// Whether the busy backend times its ops one by one (as in_context needs) when a test asks.
bool g_time_ops = false;
constexpr std::int64_t k_slack_ns = 20000000;

void record_busy(std::int64_t t0, std::int64_t t1) {
  if (!g_new_point && !g_busy.empty())
    g_busy.back().second = t1;
  else
    g_busy.emplace_back(t0, t1);
  g_new_point = false;
}

double busy_power(std::int64_t t) {
  auto it = std::upper_bound(g_busy.begin(), g_busy.end(), std::make_pair(t, INT64_MAX));
  if (it == g_busy.begin()) return 5.0;
  --it;
  return t <= it->second + k_slack_ns ? 9.0 : 5.0;
}

class busy_backend final : public layer_backend {
 public:
  busy_backend() : inner_(make_reference_layer_backend()) {}
  std::string name() const override { return "busy+" + inner_->name(); }
  std::optional<std::string> supports(const jetperf::models::network& n, const jetperf::models::layer& l,
                                      gemm_dtype d) const override {
    return inner_->supports(n, l, d);
  }
  void prepare(const jetperf::models::network& n, const jetperf::models::layer& l, std::int64_t b,
               gemm_dtype d) override {
    inner_->prepare(n, l, b, d);
    g_new_point = true;
  }
  void run_once() override {
    const auto t0 = jetperf::monotonic_ns();
    inner_->run_once();
    record_busy(t0, jetperf::monotonic_ns());
  }
  void sync() override {
    inner_->sync();
  }
  double timed_run_s() override {
    const auto t0 = jetperf::monotonic_ns();
    const double s = inner_->timed_run_s();
    record_busy(t0, jetperf::monotonic_ns());
    if (g_tracer) g_tracer->launch(t0, jetperf::monotonic_ns());
    return s;
  }
  std::vector<op_span> timed_run_ops() override {
    if (!g_time_ops) return {};
    const auto t0 = jetperf::monotonic_ns();
    auto spans = inner_->timed_run_ops();
    record_busy(t0, jetperf::monotonic_ns());
    return spans;
  }
  std::map<int, std::string> op_kernels() const override { return g_time_ops ? inner_->op_kernels() : std::map<int, std::string>{}; }
  kernel_tracer* tracer() override { return g_tracer; }
  void set_input(std::size_t i, const std::vector<float>& v) override { inner_->set_input(i, v); }
  std::vector<float> output() override { return inner_->output(); }

 private:
  std::unique_ptr<layer_backend> inner_;
};

json tiny_net() {
  return json::parse(R"({"name": "tiny", "input": [3, 16, 16], "layers": [
      {"name": "conv", "type": "conv2d", "out_channels": 8, "kernel": 3, "padding": 1, "block": "stem"},
      {"name": "relu", "type": "relu", "block": "stem"},
      {"name": "gap", "type": "adaptive_avg_pool", "output_size": 1},
      {"name": "flatten", "type": "flatten"},
      {"name": "fc", "type": "linear", "out_features": 4}]})");
}

class layers_workload_test : public ::testing::Test {
 protected:
  void SetUp() override {
    g_busy.clear();
    g_new_point = true;
    g_tracer = nullptr;
    g_time_ops = false;
    workload_.emplace(make_layers_kind([](const std::string& device, std::string* why) -> std::unique_ptr<layer_backend> {
      if (device == "cpu") return std::make_unique<busy_backend>();
      *why = "skipped: no CUDA device (test)";
      return nullptr;
    }));
    source_.power = busy_power;
    ctx_.job_id = 7;
    ctx_.board = &board_;
    ctx_.telemetry = &source_;
  }

  // The rows as JSON for the assertions; typed_ gets them as the views read them.
  std::vector<json> run_all(const json& spec_in) {
    spec_ = workload_->normalize(spec_in, board_.offered());
    std::vector<json> rows;
    typed_.clear();
    for (const auto& p : workload_->expand(spec_)) {
      ctx_.index = static_cast<std::int64_t>(rows.size());
      const auto r = workload_->run_point(ctx_, spec_, p);
      EXPECT_EQ(undeclared(r.metrics), "") << p.dump();
      rows.push_back({{"params", p}, {"metrics", jetperf::to_json(r.metrics)}, {"status", r.status}});
      typed_.push_back({ctx_.index, r.status, jetperf::record_of(p), r.metrics});
    }
    return rows;
  }

  // Every column of the row and of each of its layer rows declared and of its declared type.
  std::string undeclared(jetperf::row metrics) const {
    const auto* items = metrics.find(layers::cols::layer_rows.name);
    std::string out;
    if (items) {
      EXPECT_TRUE(items->is_list());
      for (const auto& item : items->as_list()) {
        EXPECT_TRUE(item.is_record());
        const auto why = jetperf::test::undeclared_keys(**workload_, jetperf::row(item.as_record()));
        if (!why.empty()) out += "layer row: " + why + ";";
      }
      metrics.erase(layers::cols::layer_rows.name);
    }
    return out + jetperf::test::undeclared_keys(**workload_, metrics);
  }

  json summary() const { return jetperf::to_json(summarize_layers(typed_)); }
  nlohmann::ordered_json dnnstats() const { return jetperf::to_ordered_json(layers_dnnstats(typed_)); }

  std::optional<jetperf::test::json_workload> workload_;
  fake_board board_;
  fake_source source_;
  jetperf::measure::point_context ctx_;
  json spec_;
  std::vector<jetperf::jobs::point_row> typed_;
};

json quick(const json& extra = json::object()) {
  json s = {{"networks", json::array({tiny_net()})}, {"latency_samples", 20}, {"warmup_runs", 2},
            {"min_time_s", 0.05}, {"max_time_s", 1.0}, {"target_rse", 0.5}, {"boundary_s", 0.005}};
  for (auto it = extra.begin(); it != extra.end(); ++it) s[it.key()] = it.value();
  return s;
}

}  // namespace

TEST_F(layers_workload_test, every_block_gets_latency_power_and_energy) {
  const auto rows = run_all(quick());
  ASSERT_EQ(rows.size(), 4u);  // stem, gap, (flatten +) fc, end to end
  const auto net = network_of_spec(jetperf::record_of(spec_), "tiny");
  const auto layers = jetperf::models::layers_of(net, jetperf::models::granularity::block);
  double sum = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    const auto& m = rows[i]["metrics"];
    ASSERT_EQ(rows[i]["status"], "ok") << m.dump();
    EXPECT_EQ(m["layer_name"], layers[i].name);
    EXPECT_EQ(m["macs"], layers[i].macs);
    EXPECT_EQ(m["params"], layers[i].params);
    EXPECT_GE(m["latency_count"].get<int>(), 20);
    EXPECT_GT(m["latency_mean_s"].get<double>(), 0);
    EXPECT_LE(m["latency_min_s"].get<double>(), m["latency_median_s"].get<double>());
    // Known power: 9 W busy, 5 W at rest; rail VDD_GPU is 40% of the total in fake_source.
    EXPECT_NEAR(m["power_w"].get<double>(), 9.0, 0.5) << m.dump();
    EXPECT_DOUBLE_EQ(m["idle_power_w"].get<double>(), 5.0);
    EXPECT_NEAR(m["rail_VDD_GPU_w"].get<double>(), 0.4 * m["power_w"].get<double>(), 1e-9);
    EXPECT_NEAR(m["energy_j"].get<double>(), m["power_w"].get<double>() * m["latency_mean_s"].get<double>(), 1e-12);
    EXPECT_NEAR(m["dynamic_energy_j"].get<double>(),
                (m["power_w"].get<double>() - 5.0) * m["latency_mean_s"].get<double>(), 1e-12);
    sum += m["latency_mean_s"].get<double>();
  }
  EXPECT_EQ(rows[0]["metrics"]["input_shapes"], "[1, 3, 16, 16]");
  EXPECT_EQ(rows[0]["metrics"]["output_shape"], "[1, 8, 16, 16]");
  EXPECT_EQ(rows[1]["metrics"]["output_shape"], "[1, 8, 1, 1]");  // gap's own output
  EXPECT_EQ(rows[2]["metrics"]["input_shapes"], "[1, 8, 1, 1]");  // fc flattens it first
  const auto& e2e = rows[3]["metrics"];
  EXPECT_EQ(e2e["layer_index"], -1);
  EXPECT_EQ(e2e["macs"], net.macs());
  EXPECT_EQ(e2e["functional_layer_count"], net.functional_layer_count());
  EXPECT_NEAR(e2e["layer_latency_sum_s"].get<double>(), sum, 1e-15);
  EXPECT_NEAR(e2e["layers_over_end_to_end"].get<double>(), sum / e2e["latency_mean_s"].get<double>(), 1e-12);

  const auto summary = this->summary();
  ASSERT_EQ(summary["networks"].size(), 1u);
  const auto& s = summary["networks"][0];
  EXPECT_EQ(s["layers"], 3);
  EXPECT_EQ(s["layers_measured"], 3);
  EXPECT_NEAR(s["layer_latency_sum_s"].get<double>(), sum, 1e-15);
  EXPECT_DOUBLE_EQ(s["end_to_end_latency_s"].get<double>(), e2e["latency_mean_s"].get<double>());
}

TEST_F(layers_workload_test, a_gpu_backends_kernels_of_a_few_runs_after_the_window_go_on_the_timeline) {
  jetperf::test::playback_tracer tracer;
  g_tracer = &tracer;
  std::vector<jetperf::measure::timeline_span> spans;
  ctx_.timeline = [&](jetperf::measure::timeline_span s) { spans.push_back(std::move(s)); };
  const auto rows = run_all(quick());
  g_tracer = nullptr;
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(tracer.starts, 4u);  // once per point, after its window
  EXPECT_FALSE(tracer.tracing);
  std::map<std::int64_t, std::vector<jetperf::measure::timeline_span>> traced, kernels, timed;
  for (const auto& s : spans) {
    const auto point = s.point_index;
    if (s.track == "kernels") kernels[point].push_back(s);
    if (s.track == "runs" && jetperf::to_json(s.args).value("kernel_trace", false)) traced[point].push_back(s);
    if (s.track == "runs" && !s.args.contains("kernel_trace")) timed[point].push_back(s);
  }
  ASSERT_EQ(traced.size(), 4u);
  for (const auto& [point, runs] : traced) {
    ASSERT_EQ(runs.size(), jetperf::measure::k_kernel_traced_runs) << point;
    ASSERT_EQ(kernels[point].size(), 2 * runs.size()) << point;
    // After the window: no timed run of the point overlaps a traced one.
    for (const auto& t : timed[point]) EXPECT_LE(t.t_end_ns, runs.front().t_start_ns) << point;
    for (const auto& k : kernels[point]) {
      const auto& run = runs.at(jetperf::to_json(k.args)["run"].get<std::size_t>());
      EXPECT_GE(k.t_start_ns, run.t_start_ns);
      EXPECT_LE(k.t_end_ns, run.t_end_ns);
    }
  }
}

TEST_F(layers_workload_test, dnnstats_has_the_seed_layout_in_milliwatts) {
  const auto rows = run_all(quick({{"end_to_end", false}}));
  const auto d = dnnstats();
  ASSERT_TRUE(d.contains("tiny")) << d.dump();
  ASSERT_TRUE(d["tiny"].contains("cpu"));
  const auto& cpu = d["tiny"]["cpu"];
  ASSERT_EQ(cpu["power"].size(), 3u);
  ASSERT_EQ(cpu["latency"].size(), 3u);
  for (int i = 0; i < 3; ++i) {
    const auto k = std::to_string(i);
    const auto& m = rows[static_cast<std::size_t>(i)]["metrics"];
    EXPECT_DOUBLE_EQ(cpu["power"][k]["VDD_GPU"].get<double>(), m["rail_VDD_GPU_w"].get<double>() * 1e3);
    EXPECT_DOUBLE_EQ(cpu["latency"][k].get<double>(), m["latency_mean_s"].get<double>());
  }
}

TEST_F(layers_workload_test, fixed_protocol_times_latency_samples_then_a_fixed_window) {
  const auto rows = run_all(quick({{"protocol", "fixed"}, {"window_s", 0.1}, {"boundary_s", 0.02}, {"gap_s", 0.01},
                                   {"end_to_end", false}, {"granularity", "op"}}));
  ASSERT_EQ(rows.size(), 5u);  // every op of tiny
  for (const auto& row : rows) {
    const auto& m = row["metrics"];
    ASSERT_EQ(row["status"], "ok") << m.dump();
    EXPECT_EQ(m["protocol"], "fixed");
    EXPECT_EQ(m["latency_count"], 20);
    EXPECT_EQ(m["stop_reason"], "fixed_duration");
    EXPECT_GE(m["window_s"].get<double>(), 0.14);
    EXPECT_LT(m["window_s"].get<double>(), 0.5);
  }
}

// An in_context point holds its layers' rows after its own: every column of each declared, a
// layer's shapes and work its own, the network's measurements null there.
TEST_F(layers_workload_test, an_in_context_point_holds_a_declared_row_per_layer) {
  g_time_ops = true;
  const auto rows = run_all(quick({{"protocol", "in_context"}, {"max_time_s", 0.5}}));
  g_time_ops = false;
  ASSERT_FALSE(rows.empty());
  const auto& last = typed_.back();
  ASSERT_EQ(last.params.at("layer_index").integer(), -1);
  const auto items = last.metrics.get(layers::cols::layer_rows);
  ASSERT_TRUE(items) << rows.back().dump();
  const auto net = network_of_spec(jetperf::record_of(spec_), "tiny");
  const auto layers = jetperf::models::layers_of(net, jetperf::models::granularity::block);
  // One row per layer, then one per merged group.
  ASSERT_GE(items->size(), layers.size() + 1);
  EXPECT_TRUE(items->front().as_record().empty());
  EXPECT_TRUE(last.metrics.get(layers::cols::estimator));
  std::size_t merged = 0;
  for (std::size_t i = 1; i <= layers.size(); ++i) {
    const jetperf::row item((*items)[i].as_record());
    EXPECT_EQ(item.get(layers::cols::layer_index), static_cast<std::int64_t>(i - 1));
    EXPECT_EQ(item.get(layers::cols::macs), layers[i - 1].macs);
    EXPECT_TRUE(item.has(layers::cols::kernels) && !item.get(layers::cols::kernels));  // null: the network's
    EXPECT_TRUE(item.get(layers::cols::layer_resolution));
    if (item.get(layers::cols::layer_resolution) == std::string("merged")) {
      ++merged;
      EXPECT_FALSE(item.get(jetperf::measure::cols::power_w));  // its group's row has it
    }
  }
  for (std::size_t i = layers.size() + 1; i < items->size(); ++i) {
    const jetperf::row group((*items)[i].as_record());
    EXPECT_EQ(group.get(layers::cols::layer_resolution), std::string("group"));
    EXPECT_FALSE(group.get(layers::cols::layer_index));
    EXPECT_TRUE(group.get(jetperf::measure::cols::power_w));
  }
  EXPECT_EQ(items->size() > layers.size() + 1, merged > 0);
}

TEST_F(layers_workload_test, a_device_without_backend_is_skipped_with_the_reason) {
  const auto rows = run_all(quick({{"devices", "cuda"}}));
  ASSERT_EQ(rows.size(), 4u);
  for (const auto& row : rows) {
    EXPECT_EQ(row["status"], "skipped");
    EXPECT_EQ(row["metrics"]["reason"], "skipped: no CUDA device (test)");
  }
}

TEST_F(layers_workload_test, a_layer_the_backend_cannot_prepare_is_skipped_with_its_reason) {
  // Every layer of tiny but its fc prepares; the fc says why it cannot.
  class refusing_backend final : public layer_backend {
   public:
    std::string name() const override { return "refusing"; }
    std::optional<std::string> supports(const jetperf::models::network&, const jetperf::models::layer&,
                                        gemm_dtype) const override {
      return std::nullopt;
    }
    void prepare(const jetperf::models::network& n, const jetperf::models::layer& l, std::int64_t b,
                 gemm_dtype d) override {
      if (l.name == "fc") throw layer_unsupported("not supported here: Linear");
      inner_->prepare(n, l, b, d);
    }
    void run_once() override { inner_->run_once(); }
    void sync() override { inner_->sync(); }
    void set_input(std::size_t i, const std::vector<float>& v) override { inner_->set_input(i, v); }
    std::vector<float> output() override { return inner_->output(); }

   private:
    std::unique_ptr<layer_backend> inner_ = make_reference_layer_backend();
  };
  workload_.emplace(make_layers_kind([](const std::string&, std::string*) -> std::unique_ptr<layer_backend> {
    return std::make_unique<refusing_backend>();
  }));
  const auto rows = run_all(quick({{"end_to_end", false}}));
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0]["status"], "ok");
  EXPECT_EQ(rows[1]["status"], "ok");
  EXPECT_EQ(rows[2]["status"], "skipped");
  EXPECT_EQ(rows[2]["metrics"]["reason"], "not supported here: Linear");
  EXPECT_EQ(rows[2]["metrics"]["layer_name"], "fc");
}

// The dry run says what will be skipped before anything runs: a device with no backend, and the
// layers whose ops the backend cannot run in the point's dtype, counted per reason.
TEST_F(layers_workload_test, the_dry_run_foresees_the_skips_the_run_would_make) {
  class no_half_fc final : public layer_backend {
   public:
    std::string name() const override { return "no_half_fc"; }
    std::optional<std::string> supports(const jetperf::models::network&, const jetperf::models::layer& l,
                                        gemm_dtype d) const override {
      if (d == gemm_dtype::half && l.name == "fc") return std::string("no half linear here");
      return std::nullopt;
    }
    void prepare(const jetperf::models::network&, const jetperf::models::layer&, std::int64_t, gemm_dtype) override {}
    void run_once() override {}
    void sync() override {}
    void set_input(std::size_t, const std::vector<float>&) override {}
    std::vector<float> output() override { return {}; }
  };
  workload_.emplace(make_layers_kind([](const std::string& device, std::string* why) -> std::unique_ptr<layer_backend> {
    if (device == "cpu") return std::make_unique<no_half_fc>();
    *why = "no CUDA device (test)";
    return nullptr;
  }));
  const auto spec = workload_->normalize(
      quick({{"dtype", {"float", "half"}}, {"gpu_freqs", "min,max"}, {"devices", {"cpu", "cuda"}}, {"end_to_end", false}}),
      board_.offered());
  const auto points = workload_->expand(spec);
  ASSERT_EQ(points.size(), 2u * 2u * 2u * 3u);  // devices x dtypes x clocks x layers
  const auto skips = workload_->foreseen_skips(spec, points);
  ASSERT_EQ(skips.size(), 2u);
  EXPECT_EQ(skips.at("no CUDA device (test)"), 12u);
  EXPECT_EQ(skips.at("no half linear here"), 2u);  // fc in half, at both clocks
}

TEST_F(layers_workload_test, board_settings_are_applied_and_reported) {
  const auto rows = run_all(quick({{"gpu_freqs", "min,max"}, {"end_to_end", false}}));
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(rows[0]["metrics"]["gpu_freq_hz"], 300000000);
  EXPECT_EQ(rows[5]["metrics"]["gpu_freq_hz"], 900000000);
  const auto d = dnnstats();
  // Two settings: keyed by setting first.
  ASSERT_TRUE(d.contains("gpu_freq_hz=300000000")) << d.dump();
  EXPECT_EQ(d["gpu_freq_hz=900000000"]["tiny"]["cpu"]["latency"].size(), 3u);
}

TEST_F(layers_workload_test, a_zoo_network_runs_at_the_input_size_asked_for) {
  const auto rows = run_all({{"models", "mobilenet_v3_small"}, {"input_size", 32}, {"end_to_end", false},
                             {"latency_samples", 2}, {"warmup_runs", 0}, {"min_time_s", 0.0}, {"max_time_s", 0.2},
                             {"target_rse", 1.0}, {"boundary_s", 0.0}});
  ASSERT_FALSE(rows.empty());
  for (const auto& r : rows) {
    ASSERT_EQ(r["status"], "ok") << r.dump();
    EXPECT_EQ(r["metrics"]["input_size"], 32);
  }
  EXPECT_EQ(rows[0]["metrics"]["input_shapes"], "[1, 3, 32, 32]");
  // The MACs are those of the network at 32 pixels, not at its published 224.
  const auto at32 = jetperf::models::build_model("mobilenet_v3_small", 32);
  EXPECT_EQ(rows[0]["metrics"]["macs"], jetperf::models::layers_of(at32, jetperf::models::granularity::block)[0].macs);
}

TEST_F(layers_workload_test, repeats_and_batches_are_rows_of_their_own_and_the_summary_compares_repeats) {
  const auto rows = run_all(quick({{"batch", {1, 2}}, {"repeats", 2}}));
  // (stem, gap, fc, end to end) x 2 batches x 2 repeats.
  ASSERT_EQ(rows.size(), 16u);
  EXPECT_EQ(rows[0]["metrics"]["repeat"], 0);
  EXPECT_EQ(rows[4]["metrics"]["batch"], 2);
  EXPECT_EQ(rows[8]["metrics"]["repeat"], 1);
  // Each run's end-to-end row adds up its own layers, not the other batch's or repeat's.
  for (const std::size_t e2e : {3u, 7u, 11u, 15u}) {
    const auto& m = rows[e2e]["metrics"];
    double sum = 0;
    for (std::size_t i = e2e - 3; i < e2e; ++i) sum += rows[i]["metrics"]["latency_mean_s"].get<double>();
    EXPECT_NEAR(m["layer_latency_sum_s"].get<double>(), sum, 1e-15) << e2e;
  }
  const auto summary = this->summary();
  EXPECT_EQ(summary["networks"].size(), 4u);
  ASSERT_EQ(summary["repeats"].size(), 2u);  // one per batch
  for (const auto& r : summary["repeats"]) {
    EXPECT_EQ(r["end_to_end_latency_s"]["n"], 2);
    EXPECT_LE(r["end_to_end_latency_s"]["ci95_low"].get<double>(), r["end_to_end_latency_s"]["mean"].get<double>());
    EXPECT_TRUE(r["repeats_disagree"].is_boolean());
    EXPECT_TRUE(r["layers_over_end_to_end"].is_object());
  }
  // dnnstats keeps every run apart: the batch and the repeat join the setting's key.
  const auto d = dnnstats();
  EXPECT_EQ(d.size(), 4u) << d.dump();
  EXPECT_TRUE(d.contains("as_is,batch=2,repeat=1")) << d.dump();
}

namespace {

using jetperf::jobs::point_row;

// A network run of two layers and its end-to-end row, with latency means and their spread.
std::vector<point_row> run_rows(int repeat, double layer_s, double e2e_s, double std_s) {
  std::vector<point_row> rows;
  const auto row = [&](int index, double mean) {
    const jetperf::record p{{"network", "n"}, {"device", "cpu"}, {"layer_index", index}, {"repeat", repeat},
                            {"dtype", "float"}, {"batch", 1}, {"input_size", nullptr}};
    jetperf::row m;
    m.set(layers::cols::latency_mean_s, mean);
    m.set(layers::cols::latency_std_s, std_s);
    m.set(layers::cols::latency_count, 100);
    return point_row{static_cast<std::int64_t>(rows.size()), "ok", p, m};
  };
  rows.push_back(row(0, layer_s));
  rows.push_back(row(1, layer_s));
  rows.push_back(row(-1, e2e_s));
  return rows;
}

std::vector<point_row> joined(std::vector<point_row> a, const std::vector<point_row>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

json summary_of(const std::vector<point_row>& rows) { return jetperf::to_json(summarize_layers(rows)); }

}  // namespace

TEST(layers_results, repeats_that_disagree_beyond_their_noise_are_flagged_and_the_ratio_too) {
  // Two repeats that agree: 1 ms layers, 2 ms end to end, each mean known to 1 us.
  const auto same = summary_of(joined(run_rows(0, 1e-3, 2e-3, 1e-5), run_rows(1, 1.0001e-3, 2.0001e-3, 1e-5)));
  ASSERT_EQ(same["repeats"].size(), 1u);
  EXPECT_FALSE(same["repeats"][0]["repeats_disagree"].get<bool>()) << same.dump(1);
  EXPECT_NEAR(same["repeats"][0]["layers_over_end_to_end"]["mean"].get<double>(), 1.0, 1e-3);
  // The second repeat's layers ran 50% slower while the network did not: the layer sum and
  // layers_over_end_to_end disagree far beyond their standard errors.
  const auto drift = summary_of(joined(run_rows(0, 1e-3, 2e-3, 1e-5), run_rows(1, 1.5e-3, 2e-3, 1e-5)));
  ASSERT_EQ(drift["repeats"].size(), 1u);
  const auto& r = drift["repeats"][0];
  EXPECT_TRUE(r["repeats_disagree"].get<bool>()) << r.dump(1);
  EXPECT_TRUE(r["layers_over_end_to_end"]["disagree"].get<bool>());
  EXPECT_FALSE(r["end_to_end_latency_s"]["disagree"].get<bool>());
  EXPECT_NEAR(r["layers_over_end_to_end"]["mean"].get<double>(), 1.25, 1e-9);
  // One repeat alone has nothing to compare.
  EXPECT_FALSE(summary_of(run_rows(0, 1e-3, 2e-3, 1e-5)).contains("repeats"));
}

// Across repeats every interval is of a time or a ratio of times: none reaches below zero, and
// layers_over_end_to_end's comes from its parts' (the layers' sum over the end-to-end latency),
// never symmetric around it (two repeats of ratio 1 and 6 gave -28.3 .. 35.3).
TEST(layers_results, repeat_intervals_never_reach_below_zero_and_the_ratios_comes_from_its_parts) {
  const auto wide = summary_of(joined(run_rows(0, 1e-3, 2e-3, 1e-5), run_rows(1, 3e-3, 1e-3, 1e-5)));
  ASSERT_EQ(wide["repeats"].size(), 1u);
  const auto& w = wide["repeats"][0];
  EXPECT_DOUBLE_EQ(w["end_to_end_latency_s"]["ci95_low"].get<double>(), 0) << w.dump(1);
  EXPECT_DOUBLE_EQ(w["layer_latency_sum_s"]["ci95_low"].get<double>(), 0);
  EXPECT_DOUBLE_EQ(w["layers_over_end_to_end"]["ci95_low"].get<double>(), 0);
  EXPECT_TRUE(w["layers_over_end_to_end"]["ci95_high"].is_null());  // the latency's interval reaches zero
  EXPECT_NEAR(w["layers_over_end_to_end"]["mean"].get<double>(), 4e-3 / 1.5e-3, 1e-9);
  // Closer repeats: the ratio's bounds are the sum's low over the latency's high and back.
  const auto close = summary_of(joined(run_rows(0, 1e-3, 2e-3, 1e-5), run_rows(1, 1.1e-3, 2.1e-3, 1e-5)));
  const auto& c = close["repeats"][0];
  const double sum_half = jetperf::stats::t95(1) * 0.2e-3 / std::sqrt(2.0) / std::sqrt(2.0);
  const double e2e_half = jetperf::stats::t95(1) * 0.1e-3 / std::sqrt(2.0) / std::sqrt(2.0);
  EXPECT_NEAR(c["layers_over_end_to_end"]["ci95_low"].get<double>(), (2.1e-3 - sum_half) / (2.05e-3 + e2e_half), 1e-9)
      << c.dump(1);
  EXPECT_NEAR(c["layers_over_end_to_end"]["ci95_high"].get<double>(), (2.1e-3 + sum_half) / (2.05e-3 - e2e_half), 1e-9);
}

// The summary of an in_context job counts its layers from the point's own layer rows (it said
// "layers 0/0" with 14 layers resolved), a layer without a figure as not measured, and the
// network's row stands even where a layer made the point unresolvable.
TEST(layers_results, an_in_context_point_counts_its_layers_and_their_energy) {
  const json params = {{"network", "net"}, {"device", "cpu"}, {"layer_index", -1}, {"cpu_freq_khz", 2201600}};
  const json row = {
      {"metrics",
       {{"protocol", "in_context"},
        {"latency_mean_s", 0.010},
        {"power_w", 8.0},
        {"energy_j", 0.08},
        {"layer_energy_sum_j", 0.07},
        {"layer_rows",
         {json::object(),
          {{"layer_index", 0}, {"latency_mean_s", 0.004}, {"power_w", 8.5}, {"layer_resolution", "resolved"}},
          {{"layer_index", 1}, {"latency_mean_s", 0.005}, {"power_w", nullptr}, {"layer_resolution", "merged"}},
          {{"layer_index", 2}, {"latency_mean_s", 0.001}, {"power_w", nullptr}, {"layer_resolution", "unresolvable"}},
          {{"layer_index", 3}, {"latency_mean_s", nullptr}, {"layer_resolution", "runs_nothing"}},
          // A merged layer is measured through its group; the group row is no layer of its own.
          {{"layer_index", nullptr}, {"latency_mean_s", 0.005}, {"power_w", 7.9}, {"layer_resolution", "group"}}}}}}};
  const auto summary =
      summary_of({point_row{0, "unresolvable", jetperf::record_of(params), jetperf::row_of(row["metrics"])}});
  ASSERT_EQ(summary["networks"].size(), 1u);
  const auto& n = summary["networks"][0];
  EXPECT_EQ(n["layers"], 3);
  EXPECT_EQ(n["layers_measured"], 2);
  EXPECT_NEAR(n["layer_latency_sum_s"].get<double>(), 0.009, 1e-15);
  EXPECT_DOUBLE_EQ(n["layer_energy_sum_j"].get<double>(), 0.07);
  EXPECT_DOUBLE_EQ(n["end_to_end_latency_s"].get<double>(), 0.010);
  // Not every layer measured: no layers/end-to-end ratio.
  EXPECT_TRUE(n["layers_over_end_to_end"].is_null()) << n.dump();
}
