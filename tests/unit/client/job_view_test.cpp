// `jetperf show` over jobs written here: the header as before, the spec as key: value lines and
// the summary read by kind.
#include <gtest/gtest.h>

#include <jetperf/kinds/layers/layers_columns.hpp>

#include "job_view.hpp"

using namespace jetperf::client;
using nlohmann::json;

TEST(job_view, gemm_job_with_spec_lines_and_best_settings) {
  const auto job = json::parse(R"({
    "id": 7, "kind": "gemm", "state": "succeeded", "progress": {"done": 4, "total": 4},
    "estimate_s": 125, "tags": ["sweep", "cpu"], "created_at": "2024-05-01T10:00:00Z",
    "started_at": "2024-05-01T10:00:01Z", "finished_at": "2024-05-01T10:02:07Z", "error": null,
    "spec": {"device": "cpu", "dtypes": ["float", "double"], "sizes": [{"m": 16, "n": 16, "k": 16},
             {"m": 32, "n": 16, "k": 8}], "tensor": [false], "cpu_freqs": [1190400, 2201600], "gpu_freqs": [],
             "threads": 1, "min_time_s": 0.01},
    "summary": {
      "best_overall": {"dtype": "float", "m": 32, "n": 16, "k": 8,
                       "params": {"device": "cpu", "dtype": "float", "m": 32, "n": 16, "k": 8, "tensor": false,
                                  "cpu_freq_khz": 2201600},
                       "gflops": 4.5, "gflops_per_w": 1.5, "power_w": 3},
      "best_per_dtype_size": [
        {"dtype": "float", "m": 16, "n": 16, "k": 16,
         "params": {"device": "cpu", "dtype": "float", "m": 16, "n": 16, "k": 16, "tensor": false,
                    "cpu_freq_khz": 1190400},
         "gflops": 2.25, "gflops_per_w": 1.125, "power_w": 2},
        {"dtype": "float", "m": 32, "n": 16, "k": 8,
         "params": {"device": "cpu", "dtype": "float", "m": 32, "n": 16, "k": 8, "tensor": false,
                    "cpu_freq_khz": 2201600},
         "gflops": 4.5, "gflops_per_w": 1.5, "power_w": 3}]}})");
  EXPECT_EQ(format_job_view(job),
            "id:        7\n"
            "kind:      gemm\n"
            "state:     succeeded\n"
            "progress:  4/4 points\n"
            "estimate:  2m05s\n"
            "tags:      sweep,cpu\n"
            "created:   2024-05-01T10:00:00Z\n"
            "started:   2024-05-01T10:00:01Z\n"
            "finished:  2024-05-01T10:02:07Z\n"
            "spec:\n"
            "  cpu_freqs:  1190400, 2201600\n"
            "  device:     cpu\n"
            "  dtypes:     float, double\n"
            "  gpu_freqs:  -\n"
            "  min_time_s: 0.01\n"
            "  sizes:      16x16x16, 32x16x8\n"
            "  tensor:     false\n"
            "  threads:    1\n"
            "summary:\n"
            "  most efficient: float 32x16x8 tensor=off cpu_freq_khz=2201600: 1.5 GFLOP/s/W (4.5 GFLOP/s at 3 W)\n"
            "  best per dtype and size:\n"
            "    float 16x16x16 tensor=off cpu_freq_khz=1190400: 1.125 GFLOP/s/W (2.25 GFLOP/s at 2 W)\n"
            "    float 32x16x8 tensor=off cpu_freq_khz=2201600: 1.5 GFLOP/s/W (4.5 GFLOP/s at 3 W)\n");
}

TEST(job_view, layers_job_with_user_networks_and_the_networks_table) {
  const auto job = json::parse(R"({
    "id": 12, "kind": "layers", "state": "failed", "progress": {"done": 3, "total": 10, "eta_s": null},
    "estimate_s": 40, "tags": [], "created_at": "2024-05-02T08:00:00Z", "started_at": "2024-05-02T08:00:02Z",
    "finished_at": "2024-05-02T08:00:30Z", "error": "interrupted by a restart",
    "spec": {"models": ["resnet18"], "devices": ["cpu", "cuda"], "granularity": "op", "batch": 2,
             "end_to_end": true,
             "networks": [{"name": "tiny_net", "input": [3, 32, 32], "layers": [
                {"name": "conv1", "type": "conv2d", "out_channels": 8, "kernel": 3},
                {"name": "relu", "type": "relu"},
                {"name": "fc", "type": "linear", "out_features": 10}]}]},
    "summary": {"networks": [
      {"network": "resnet18", "device": "cpu", "setting": "as_is", "granularity": "op", "layers": 5,
       "layers_measured": 4, "layer_latency_sum_s": 0.05, "end_to_end_latency_s": null,
       "layers_over_end_to_end": null, "layer_energy_sum_j": null},
      {"network": "tiny_net", "device": "cpu", "setting": "cpu_freq_khz=2201600", "granularity": "op",
       "layers": 3, "layers_measured": 3, "layer_latency_sum_s": 0.00021, "end_to_end_latency_s": 0.0002,
       "layers_over_end_to_end": 1.05, "layer_energy_sum_j": 0.0006, "end_to_end_energy_j": 0.00055,
       "end_to_end_power_w": 2.75}]}})");
  EXPECT_EQ(format_job_view(job, jetperf::kinds::layers_summary_tables()),
            "id:        12\n"
            "kind:      layers\n"
            "state:     failed\n"
            "progress:  3/10 points\n"
            "estimate:  40s\n"
            "tags:      -\n"
            "created:   2024-05-02T08:00:00Z\n"
            "started:   2024-05-02T08:00:02Z\n"
            "finished:  2024-05-02T08:00:30Z\n"
            "error:     interrupted by a restart\n"
            "spec:\n"
            "  batch:       2\n"
            "  devices:     cpu, cuda\n"
            "  end_to_end:  true\n"
            "  granularity: op\n"
            "  models:      resnet18\n"
            "  networks:    1 user network (tiny_net, 3 layers)\n"
            "summary:\n"
            "  network   device  setting               layers  end_to_end_s  layers/e2e  layer_energy_j  "
            "end_to_end_j\n"
            "  resnet18  cpu     as_is                 4/5                -           -               -  "
            "           -\n"
            "  tiny_net  cpu     cpu_freq_khz=2201600  3/3           0.0002        1.05          0.0006  "
            "     0.00055\n");
}

TEST(job_view, spec_values_by_shape) {
  const auto spec = json::parse(R"({
    "duration_s": 0.5, "label": "x", "nothing": null, "flat": {"a": 1, "b": "y"},
    "deep": {"a": {"b": [1, 2]}}, "shapes": [[3, 32, 32], [1, 10]],
    "points": [{"gpu": 1, "cpu": 2}],
    "networks": [{"name": "a", "layers": [{}]}, {"name": "b", "layers": [{}, {}]}]})");
  EXPECT_EQ(format_spec(spec),
            "  deep:       {\"a\":{\"b\":[1,2]}}\n"
            "  duration_s: 0.5\n"
            "  flat:       a=1, b=y\n"
            "  label:      x\n"
            "  networks:   2 user networks (a, 1 layer; b, 2 layers)\n"
            "  nothing:    -\n"
            "  points:     cpu=2 gpu=1\n"
            "  shapes:     [3,32,32], [1,10]\n");
  EXPECT_EQ(format_spec(json::object()), "  -\n");
}

TEST(job_view, other_kinds_summarize_as_key_values_and_a_running_job_has_none) {
  auto job = json::parse(R"({"id": 2, "kind": "idle", "state": "running", "progress": {"done": 1, "total": 3,
    "eta_s": 4}, "estimate_s": 6, "tags": ["a"], "created_at": "t0", "started_at": "t1", "finished_at": null,
    "spec": {"duration_s": 2, "repeats": 3}, "summary": {}})");
  EXPECT_EQ(format_job_view(job),
            "id:        2\n"
            "kind:      idle\n"
            "state:     running\n"
            "progress:  1/3 points, eta 4s\n"
            "estimate:  6s\n"
            "tags:      a\n"
            "created:   t0\n"
            "started:   t1\n"
            "finished:  -\n"
            "spec:\n"
            "  duration_s: 2\n"
            "  repeats:    3\n");
  job["summary"] = {{"power_w", 4.25}, {"channels", {"VDD_IN", "VDD_GPU"}}};
  const auto text = format_job_view(job);
  EXPECT_EQ(text.substr(text.find("summary:")), "summary:\n  channels: VDD_IN,VDD_GPU\n  power_w: 4.25\n");
}
