// The table of `jetperf results` over small results answers written here: which columns, which
// rows, how skipped and failed points read, and how the table fits a terminal.
#include <gtest/gtest.h>

#include <jetperf/kinds/layers/layers_columns.hpp>

#include "cli_error.hpp"
#include "result_columns.hpp"
#include "result_view.hpp"

using namespace jetperf::client;
using nlohmann::json;

namespace {

// Two finished layers points, with the daemon's column metadata.
json two_networks() {
  return json::parse(R"({
    "job": {"id": 3, "kind": "layers", "state": "succeeded"},
    "columns": [
      {"name": "index", "type": "integer", "role": "parameter", "unit": "", "description": "", "shown": false},
      {"name": "status", "type": "text", "role": "metric", "unit": "", "description": "", "shown": true},
      {"name": "network", "type": "text", "role": "parameter", "unit": "", "description": "", "shown": true},
      {"name": "batch", "type": "integer", "role": "parameter", "unit": "", "description": "", "shown": false},
      {"name": "latency_mean_s", "type": "number", "role": "metric", "unit": "s", "description": "", "shown": true},
      {"name": "power_w", "type": "number", "role": "metric", "unit": "W", "description": "", "shown": true},
      {"name": "gpu_freq_hz", "type": "integer", "role": "parameter", "unit": "Hz", "description": "", "shown": false},
      {"name": "flags", "type": "list", "role": "metric", "unit": "", "description": "", "shown": false},
      {"name": "requested", "type": "object", "role": "parameter", "unit": "", "description": "", "shown": false},
      {"name": "reason", "type": "text", "role": "metric", "unit": "", "description": "", "shown": false},
      {"name": "error", "type": "text", "role": "metric", "unit": "", "description": "", "shown": false}],
    "rows": [
      {"index": 0, "status": "ok", "network": "alexnet", "batch": 1, "latency_mean_s": 0.0012, "power_w": 3.5,
       "gpu_freq_hz": 1300000000, "flags": ["no_power", "throttled"], "requested": {"batch": 1, "dtype": "half"},
       "reason": null, "error": null},
      {"index": 1, "status": "ok", "network": "resnet18", "batch": 8, "latency_mean_s": 0.0105, "power_w": null,
       "gpu_freq_hz": 624750000, "flags": [], "requested": {}, "reason": null, "error": null}],
    "summary": {}})");
}

// Points of every status: two kinds of skip reason, one failure.
json mixed_statuses() {
  auto j = two_networks();
  const auto skipped = [](int index, const char* reason) {
    return json{{"index", index}, {"status", "skipped"}, {"network", "vgg16"}, {"batch", 1},
                {"latency_mean_s", nullptr}, {"power_w", nullptr}, {"gpu_freq_hz", 1300000000},
                {"flags", json::array()}, {"requested", json::object()}, {"reason", reason}, {"error", nullptr}};
  };
  j["rows"].push_back(skipped(2, "half needs tensor cores"));
  j["rows"].push_back(skipped(3, "no CUDA device"));
  j["rows"].push_back(skipped(4, "no CUDA device"));
  j["rows"].push_back({{"index", 5}, {"status", "failed"}, {"network", "vgg16"}, {"batch", 8},
                       {"latency_mean_s", nullptr}, {"power_w", nullptr}, {"gpu_freq_hz", 1300000000},
                       {"flags", json::array()}, {"requested", json::object()}, {"reason", nullptr},
                       {"error", "out of memory"}});
  return j;
}

std::string view(const json& results, result_view_options options = {}) {
  return format_results_view(results, options);
}

// The message of the usage error `f` throws, or "no error".
template <class F>
std::string usage_error_of(F&& f) {
  try {
    f();
  } catch (const cli_error& e) {
    return (e.code() == exit_usage ? "" : "[exit " + std::to_string(e.code()) + "] ") + std::string(e.what());
  }
  return "no error";
}

}  // namespace

TEST(result_view, default_columns_are_the_shown_ones_in_order) {
  EXPECT_EQ(view(two_networks()),
            "status  network   latency_mean_s  power_w\n"
            "ok      alexnet           0.0012      3.5\n"
            "ok      resnet18          0.0105        -\n");
}

TEST(result_view, plain_string_columns_are_all_shown) {
  const auto j = json::parse(R"({
    "job": {"id": 1, "kind": "idle"},
    "columns": ["index", "status", "repeat", "power_w"],
    "rows": [{"index": 0, "status": "ok", "repeat": 0, "power_w": 4.25},
             {"index": 1, "status": "ok", "repeat": 1}],
    "summary": {}})");
  EXPECT_EQ(view(j),
            "index  status  repeat  power_w\n"
            "    0  ok           0     4.25\n"
            "    1  ok           1        -\n");
  // Selection and filters work on them alike.
  result_view_options o;
  o.columns = {"power_w", "index"};
  o.where = {"repeat=1"};
  EXPECT_EQ(view(j, o),
            "power_w  index\n"
            "-            1\n"
            "(1 of 2 points match --where)\n");
}

TEST(result_view, a_terminal_gets_what_fits_and_a_note_naming_the_rest) {
  result_view_options narrow;
  // status(6) + network(8) + latency_mean_s(14), two spaces apart: 32.
  narrow.max_width = 33;
  EXPECT_EQ(view(two_networks(), narrow),
            "status  network   latency_mean_s\n"
            "ok      alexnet           0.0012\n"
            "ok      resnet18          0.0105\n"
            "(1 column left out to fit the terminal: power_w; --wide or --columns shows them)\n");
  narrow.max_width = 20;
  EXPECT_EQ(view(two_networks(), narrow),
            "status  network\n"
            "ok      alexnet\n"
            "ok      resnet18\n"
            "(2 columns left out to fit the terminal: latency_mean_s, power_w; --wide or --columns shows them)\n");
  // The first column stays however narrow the terminal is.
  narrow.max_width = 3;
  EXPECT_EQ(view(two_networks(), narrow).substr(0, 7), "status\n");
  // Wide enough: no note.
  narrow.max_width = 80;
  EXPECT_EQ(view(two_networks(), narrow), view(two_networks()));
}

TEST(result_view, wide_prints_every_column_whatever_the_width) {
  result_view_options wide;
  wide.wide = true;
  wide.max_width = 20;
  EXPECT_EQ(view(two_networks(), wide),
            "index  status  network   batch  latency_mean_s  power_w  gpu_freq_hz  flags               "
            "requested           reason  error\n"
            "    0  ok      alexnet       1          0.0012      3.5   1300000000  no_power;throttled  "
            "batch=1;dtype=half  -       -\n"
            "    1  ok      resnet18      8          0.0105        -    624750000  -                   "
            "-                   -       -\n");
}

TEST(result_view, columns_are_exactly_those_asked_for_in_that_order) {
  result_view_options o;
  o.columns = {"power_w", "network", "flags"};
  o.max_width = 10;  // --columns is not cut to the terminal either
  EXPECT_EQ(view(two_networks(), o),
            "power_w  network   flags\n"
            "    3.5  alexnet   no_power;throttled\n"
            "      -  resnet18  -\n");
}

TEST(result_view, an_unknown_column_is_a_usage_error_naming_the_known_ones) {
  result_view_options o;
  o.columns = {"network", "latency"};
  EXPECT_EQ(usage_error_of([&] { view(two_networks(), o); }),
            "--columns: unknown column 'latency' (known: index, status, network, batch, latency_mean_s, power_w, "
            "gpu_freq_hz, flags, requested, reason, error)");
}

TEST(result_view, where_matches_text_and_numbers) {
  result_view_options o;
  o.columns = {"network", "batch"};
  o.where = {"network=resnet18"};
  EXPECT_EQ(view(two_networks(), o),
            "network   batch\n"
            "resnet18      8\n"
            "(1 of 2 points match --where)\n");
  // The same number written another way.
  o.where = {"gpu_freq_hz=1.3e9"};
  EXPECT_EQ(view(two_networks(), o),
            "network  batch\n"
            "alexnet      1\n"
            "(1 of 2 points match --where)\n");
  o.where = {"batch=8.0"};
  EXPECT_EQ(view(two_networks(), o),
            "network   batch\n"
            "resnet18      8\n"
            "(1 of 2 points match --where)\n");
  // The cell as printed: a list, a shortened number, a null.
  const std::string alexnet = "network  batch\nalexnet      1\n(1 of 2 points match --where)\n";
  const std::string resnet = "network   batch\nresnet18      8\n(1 of 2 points match --where)\n";
  o.where = {"flags=no_power;throttled"};
  EXPECT_EQ(view(two_networks(), o), alexnet);
  o.where = {"latency_mean_s=0.0105"};
  EXPECT_EQ(view(two_networks(), o), resnet);
  o.where = {"power_w=-"};
  EXPECT_EQ(view(two_networks(), o), resnet);
  o.where = {"requested=batch=1;dtype=half"};
  EXPECT_EQ(view(two_networks(), o), alexnet);
}

TEST(result_view, several_wheres_must_all_match) {
  result_view_options o;
  o.columns = {"network"};
  o.where = {"status=ok", "batch=1"};
  EXPECT_EQ(view(two_networks(), o),
            "network\n"
            "alexnet\n"
            "(1 of 2 points match --where)\n");
  o.where = {"status=ok", "batch=2"};
  EXPECT_EQ(view(two_networks(), o),
            "network\n"
            "(0 of 2 points match --where)\n");
}

TEST(result_view, malformed_or_unknown_where_is_a_usage_error) {
  result_view_options o;
  o.where = {"network"};
  EXPECT_EQ(usage_error_of([&] { view(two_networks(), o); }), "--where expects KEY=VALUE, got 'network'");
  o.where = {"=alexnet"};
  EXPECT_EQ(usage_error_of([&] { view(two_networks(), o); }), "--where expects KEY=VALUE, got '=alexnet'");
  o.where = {"status=ok", "model=alexnet"};
  EXPECT_EQ(usage_error_of([&] { view(two_networks(), o); }),
            "--where: unknown column 'model' (known: index, status, network, batch, latency_mean_s, power_w, "
            "gpu_freq_hz, flags, requested, reason, error)");
}

TEST(result_view, skipped_points_fold_into_one_counted_line) {
  EXPECT_EQ(view(mixed_statuses()),
            "status  network   latency_mean_s  power_w  error\n"
            "ok      alexnet           0.0012      3.5  -\n"
            "ok      resnet18          0.0105        -  -\n"
            "failed  vgg16                  -        -  out of memory\n"
            "skipped: 3 points (2 \"no CUDA device\", 1 \"half needs tensor cores\")\n"
            "failed: 1 point\n");
}

TEST(result_view, skipped_points_are_rows_when_asked_about) {
  result_view_options o;
  o.where = {"status=skipped"};
  EXPECT_EQ(view(mixed_statuses(), o),
            "status   network  latency_mean_s  power_w  reason\n"
            "skipped  vgg16    -               -        half needs tensor cores\n"
            "skipped  vgg16    -               -        no CUDA device\n"
            "skipped  vgg16    -               -        no CUDA device\n"
            "(3 of 6 points match --where)\n");
  result_view_options with_reason;
  with_reason.columns = {"index", "status", "reason"};
  EXPECT_EQ(view(mixed_statuses(), with_reason),
            "index  status   reason\n"
            "    0  ok       -\n"
            "    1  ok       -\n"
            "    2  skipped  half needs tensor cores\n"
            "    3  skipped  no CUDA device\n"
            "    4  skipped  no CUDA device\n"
            "    5  failed   -\n"
            "failed: 1 point (1 \"out of memory\")\n");
}

TEST(result_view, wide_lists_skipped_points_as_rows_with_their_reason) {
  result_view_options o;
  o.wide = true;
  const auto text = view(mixed_statuses(), o);
  EXPECT_EQ(text.find("skipped:"), std::string::npos) << text;
  EXPECT_NE(text.find("\n    3  skipped  vgg16"), std::string::npos) << text;
  EXPECT_NE(text.find("no CUDA device"), std::string::npos) << text;
  // The error is in the table, so the count line does not repeat it.
  EXPECT_EQ(text.substr(text.rfind("\n", text.size() - 2)), "\nfailed: 1 point\n") << text;
}

TEST(result_view, skipped_points_with_no_reason_are_counted_too) {
  auto j = mixed_statuses();
  j["rows"][2]["reason"] = nullptr;
  result_view_options o;
  o.columns = {"network"};
  EXPECT_EQ(view(j, o),
            "network\n"
            "alexnet\n"
            "resnet18\n"
            "vgg16\n"
            "skipped: 3 points (2 \"no CUDA device\", 1 with no reason)\n"
            "failed: 1 point (1 \"out of memory\")\n");
}

TEST(result_view, failed_points_keep_their_error_while_it_fits) {
  result_view_options o;
  o.max_width = 50;
  // The error column comes last, so a narrow terminal drops it first; the count line says it.
  EXPECT_EQ(view(mixed_statuses(), o),
            "status  network   latency_mean_s  power_w\n"
            "ok      alexnet           0.0012      3.5\n"
            "ok      resnet18          0.0105        -\n"
            "failed  vgg16                  -        -\n"
            "(1 column left out to fit the terminal: error; --wide or --columns shows them)\n"
            "skipped: 3 points (2 \"no CUDA device\", 1 \"half needs tensor cores\")\n"
            "failed: 1 point (1 \"out of memory\")\n");
}

TEST(result_view, lists_objects_and_nulls_read_as_cells) {
  result_view_options o;
  o.columns = {"flags", "requested", "reason"};
  EXPECT_EQ(view(two_networks(), o),
            "flags               requested           reason\n"
            "no_power;throttled  batch=1;dtype=half  -\n"
            "-                   -                   -\n");
}

TEST(result_view, cells_of_each_json_type) {
  EXPECT_EQ(format_result_cell(json()), "-");
  EXPECT_EQ(format_result_cell(json::array()), "-");
  EXPECT_EQ(format_result_cell(json::parse(R"(["a", 2, true])")), "a;2;true");
  EXPECT_EQ(format_result_cell(json::parse(R"({"b": 1, "a": "x"})")), "a=x;b=1");
  EXPECT_EQ(format_result_cell(json::parse(R"({"a": {"b": 1}})")), R"(a={"b":1})");
  EXPECT_EQ(format_result_cell(json(1.5e-7)), "1.5e-07");
  EXPECT_EQ(format_result_cell(json(false)), "false");
}

TEST(result_view, gemm_ends_with_the_most_efficient_setting) {
  const auto j = json::parse(R"({
    "job": {"id": 7, "kind": "gemm"},
    "columns": [
      {"name": "index", "type": "integer", "role": "parameter", "shown": false},
      {"name": "dtype", "type": "text", "role": "parameter", "shown": true},
      {"name": "m", "type": "integer", "role": "parameter", "shown": true},
      {"name": "gflops", "type": "number", "role": "metric", "unit": "GFLOP/s", "shown": true},
      {"name": "gflops_per_w", "type": "number", "role": "metric", "unit": "GFLOP/s/W", "shown": true}],
    "rows": [{"index": 0, "dtype": "float", "m": 256, "gflops": 45.6, "gflops_per_w": 12.3},
             {"index": 1, "dtype": "float", "m": 512, "gflops": 80.25, "gflops_per_w": null}],
    "summary": {"best_overall": {"dtype": "float", "m": 256, "n": 256, "k": 256,
                                 "params": {"device": "cpu", "dtype": "float", "m": 256, "n": 256, "k": 256,
                                            "cpu_freq_khz": 1984000},
                                 "gflops": 45.6, "gflops_per_w": 12.3, "power_w": 3.7},
                "best_per_dtype_size": []}})");
  EXPECT_EQ(view(j),
            "dtype    m  gflops  gflops_per_w\n"
            "float  256    45.6          12.3\n"
            "float  512   80.25             -\n"
            "\n"
            "most efficient: float 256x256x256 cpu_freq_khz=1984000: 12.3 GFLOP/s/W (45.6 GFLOP/s at 3.7 W)\n");
  auto none = j;
  none["summary"]["best_overall"] = nullptr;
  const auto text = view(none);
  EXPECT_EQ(text.substr(text.find("\n\n")), "\n\nmost efficient: - (no point measured power)\n");
}

TEST(result_view, gemm_says_the_winner_over_idle_and_what_the_verdict_left_out) {
  auto j = json::parse(R"({
    "job": {"id": 7, "kind": "gemm"},
    "columns": [{"name": "dtype", "type": "text", "role": "parameter", "shown": true}],
    "rows": [{"dtype": "float"}],
    "summary": {"best_overall": {"params": {"dtype": "float", "m": 512, "n": 512, "k": 512, "cpu_freq_khz": 1728000},
                                 "gflops": 50, "gflops_per_w": 8.3, "power_w": 6},
                "best_overall_over_idle": {"params": {"dtype": "float", "m": 512, "n": 512, "k": 512,
                                                      "cpu_freq_khz": 729600},
                                           "gflops": 20, "gflops_per_dynamic_w": 40, "dynamic_power_w": 0.5},
                "left_out": {"contended": 1, "rse_unmet": 2}, "best_per_dtype_size": []}})");
  const auto text = view(j);
  EXPECT_EQ(text.substr(text.find("\n\n")),
            "\n\nmost efficient: float 512x512x512 cpu_freq_khz=1728000: 8.3 GFLOP/s/W (50 GFLOP/s at 6 W)\n"
            "most efficient over idle: float 512x512x512 cpu_freq_khz=729600: 40 GFLOP/s/W over idle (20 GFLOP/s at "
            "0.5 W over idle)\n"
            "left out of the verdict: 1 contended, 2 rse_unmet (contended: other processes took CPU time from the "
            "window; rse_unmet: short of its precision target)\n");
  j["summary"]["best_overall"] = nullptr;
  j["summary"]["best_overall_over_idle"] = nullptr;
  const auto none = view(j);
  EXPECT_EQ(none.substr(none.find("\n\n")),
            "\n\nmost efficient: - (every point with power was left out: 1 contended, 2 rse_unmet)\n");
}

// The issue's sweep: the job-wide winner is the 2.2 GHz point of size 256; asked for size 512
// only, the footer names 512's own winner and what it left out, never a row the table hides.
TEST(result_view, where_takes_the_verdicts_over_the_rows_it_keeps) {
  const auto j = json::parse(R"({
    "job": {"id": 7, "kind": "gemm"},
    "columns": [
      {"name": "index", "type": "integer", "role": "parameter", "shown": false},
      {"name": "dtype", "type": "text", "role": "parameter", "shown": true},
      {"name": "m", "type": "integer", "role": "parameter", "shown": true},
      {"name": "n", "type": "integer", "role": "parameter", "shown": false},
      {"name": "k", "type": "integer", "role": "parameter", "shown": false},
      {"name": "cpu_freq_khz", "type": "integer", "role": "parameter", "shown": true},
      {"name": "requested", "type": "object", "role": "parameter", "shown": false},
      {"name": "gflops", "type": "number", "role": "metric", "shown": true},
      {"name": "gflops_per_w", "type": "number", "role": "metric", "shown": true},
      {"name": "power_w", "type": "number", "role": "metric", "shown": false},
      {"name": "dynamic_power_w", "type": "number", "role": "metric", "shown": false},
      {"name": "flags", "type": "list", "role": "metric", "shown": false}],
    "rows": [
      {"index": 0, "dtype": "float", "m": 256, "n": 256, "k": 256, "cpu_freq_khz": 2201600, "requested": {}, "gflops": 60, "gflops_per_w": 20, "power_w": 3, "dynamic_power_w": 1, "flags": []},
      {"index": 1, "dtype": "float", "m": 512, "n": 512, "k": 512, "cpu_freq_khz": 2201600, "requested": {}, "gflops": 27, "gflops_per_w": 9, "power_w": 3, "dynamic_power_w": 1.5, "flags": ["contended"]},
      {"index": 2, "dtype": "float", "m": 512, "n": 512, "k": 512, "cpu_freq_khz": 729600, "requested": {}, "gflops": 24, "gflops_per_w": 8, "power_w": 3, "dynamic_power_w": 0.4, "flags": []},
      {"index": 3, "dtype": "float", "m": 512, "n": 512, "k": 512, "cpu_freq_khz": 1497600, "requested": {}, "gflops": 42, "gflops_per_w": 10.5, "power_w": 4, "dynamic_power_w": 2, "flags": []}],
    "summary": {"best_overall": {"params": {"dtype": "float", "m": 256, "n": 256, "k": 256, "cpu_freq_khz": 2201600}, "gflops": 60,
                                 "gflops_per_w": 20, "power_w": 3},
                "left_out": {"contended": 1}, "best_per_dtype_size": []}})");
  result_view_options o;
  o.where = {"m=512"};
  const auto text = view(j, o);
  EXPECT_NE(text.find("(the verdicts below are over the 3 points matching --where)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("most efficient: float 512x512x512 cpu_freq_khz=1497600: 10.5 GFLOP/s/W (42 GFLOP/s at 4 W)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("most efficient over idle: float 512x512x512 cpu_freq_khz=729600: 60 GFLOP/s/W over idle"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("left out of the verdict: 1 contended"), std::string::npos) << text;
  EXPECT_EQ(text.find("256x256x256"), std::string::npos) << text;
  // Without --where: the job's own summary, as the daemon gave it.
  EXPECT_NE(view(j).find("most efficient: float 256x256x256 cpu_freq_khz=2201600: 20 GFLOP/s/W"), std::string::npos) << view(j);
}

TEST(result_view, counts_points_states_caveats_and_where_the_numbers_come_from) {
  auto j = json::parse(R"({
    "job": {"id": 7, "kind": "gemm"},
    "columns": [{"name": "dtype", "type": "text", "role": "parameter", "shown": true}],
    "rows": [{"dtype": "float"}],
    "summary": {"best_overall": {"dtype": "float", "m": 256, "n": 256, "k": 256,
                                 "params": {"cpu_freq_khz": 115200}, "gflops": 45.6, "gflops_per_w": 12.3,
                                 "power_w": 3.7},
                "points": {"ok": 2, "skipped": 1, "failed": 1, "skip_reasons": {"no CUDA device": 1},
                           "fail_reasons": {"out of memory": 1}, "flags": {"speed_not_simulated": 2}},
                "caveats": ["speed not simulated on 2 of 2 points: power only"]},
    "provenance": {"board": {"board": "sim:orin-agx", "module": "AGX Orin", "l4t": "36.4.3"},
                   "simulation": {"simulated": true, "speed_simulated": false}}})");
  const auto text = view(j);
  // The lowest clock is not called most efficient when the clocks did not change speed.
  EXPECT_EQ(text.substr(text.find("\n\n")),
            "\n\nmost efficient: - (not concluded: speed was not simulated, so settings compare power only)\n"
            "points: 2 ok, 1 skipped, 1 failed\n"
            "  failed x1: out of memory\n"
            "  skipped x1: no CUDA device\n"
            "caveat: speed not simulated on 2 of 2 points: power only\n"
            "measured on sim:orin-agx (AGX Orin, L4T 36.4.3): simulated board; power is modelled and speed is NOT "
            "simulated (power-only comparisons)\n");
  j["provenance"]["simulation"]["speed_simulated"] = true;
  j["summary"]["points"]["flags"] = json::object();
  const auto simulated = view(j);
  EXPECT_NE(simulated.find("most efficient: cpu_freq_khz=115200: 12.3 GFLOP/s/W"), std::string::npos) << simulated;
  EXPECT_NE(simulated.find("CPU speed follows the simulated clock\n"), std::string::npos) << simulated;
  // A board that simulates speed, with rows that say theirs was not (a command job's program):
  // the line does not claim the clock set their speed.
  j["rows"] = json::parse(R"([{"dtype": "float", "flags": ["speed_not_simulated"]}])");
  const auto flagged = view(j);
  EXPECT_EQ(flagged.find("CPU speed follows the simulated clock"), std::string::npos) << flagged;
  EXPECT_NE(flagged.find("rows flagged speed_not_simulated did NOT follow the simulated clock"), std::string::npos)
      << flagged;
}

TEST(result_view, layers_end_with_the_networks_table_and_others_with_key_values) {
  auto j = two_networks();
  j["summary"] = json::parse(R"({"networks": [
    {"network": "alexnet", "device": "cuda", "setting": "as_is", "granularity": "op", "layers": 21,
     "layers_measured": 21, "layer_latency_sum_s": 0.0131, "end_to_end_latency_s": 0.0124,
     "layers_over_end_to_end": 1.06, "layer_energy_sum_j": 0.052, "end_to_end_energy_j": 0.047}]})");
  // The networks table is the one the layers kind declares (GET /v1/kinds).
  result_view_options with_tables;
  with_tables.summary_tables = jetperf::kinds::layers_summary_tables();
  const auto text = view(j, with_tables);
  EXPECT_EQ(text.substr(text.find("\n\n")),
            "\n\nsummary:\n"
            "  network  device  setting  layers  end_to_end_s  layers/e2e  layer_energy_j  end_to_end_j\n"
            "  alexnet  cuda    as_is    21/21         0.0124        1.06           0.052         0.047\n");
  j["job"]["kind"] = "idle";
  j["summary"] = {{"power_w", 4.25}, {"samples", 120}};
  const auto idle = view(j);
  EXPECT_EQ(idle.substr(idle.find("\n\n")), "\n\nsummary:\n  power_w: 4.25\n  samples: 120\n");
}

TEST(result_view, no_rows_prints_the_header) {
  auto j = two_networks();
  j["rows"] = json::array();
  EXPECT_EQ(view(j), "status  network  latency_mean_s  power_w\n");
  j["columns"] = json::array();
  EXPECT_EQ(view(j), "(no columns)\n");
}

// A figure past a physical bound: the footer's verdict over --where leaves the implausible row out
// and says so, the points line counts it, and a repeat interval that reaches zero time says the
// rate has no upper bound rather than printing a negative lower one.
TEST(result_view, implausible_points_are_left_out_counted_and_said) {
  auto j = json::parse(R"({
    "job": {"id": 7, "kind": "gemm"},
    "columns": [
      {"name": "status", "type": "text", "role": "metric", "shown": true},
      {"name": "dtype", "type": "text", "role": "parameter", "shown": true},
      {"name": "m", "type": "integer", "role": "parameter", "shown": true},
      {"name": "cpu_freq_khz", "type": "integer", "role": "parameter", "shown": true},
      {"name": "gflops", "type": "number", "role": "metric", "shown": true},
      {"name": "gflops_per_w", "type": "number", "role": "metric", "shown": true},
      {"name": "power_w", "type": "number", "role": "metric", "shown": false},
      {"name": "flags", "type": "list", "role": "metric", "shown": false}],
    "rows": [
      {"status": "implausible", "dtype": "float", "m": 512, "cpu_freq_khz": 2201600, "gflops": 90, "gflops_per_w": 30, "power_w": 3, "flags": []},
      {"status": "ok", "dtype": "float", "m": 512, "cpu_freq_khz": 1497600, "gflops": 42, "gflops_per_w": 10.5, "power_w": 4, "flags": []}],
    "summary": {"best_overall": {"params": {"dtype": "float", "m": 512, "n": 512, "k": 512, "cpu_freq_khz": 1497600},
                                 "gflops": 42, "gflops_per_w": 10.5, "power_w": 4},
                "left_out": {"implausible": 1}, "best_per_dtype_size": [],
                "repeats": [{"dtype": "float", "m": 512, "n": 512, "k": 512,
                             "gflops": {"n": 2, "mean": 21.3, "ci95_low": 6.1, "ci95_high": null},
                             "repeats_disagree": false}],
                "points": {"ok": 1, "skipped": 0, "failed": 0, "implausible": 1}}})");
  const auto text = view(j);
  EXPECT_NE(text.find("left out of the verdict: 1 implausible (implausible: a figure broke a physical bound; "
                      "contended: "),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("21.3 GFLOP/s (6.1 .. no upper bound, n=2)"), std::string::npos) << text;
  EXPECT_NE(text.find("points: 1 ok, 0 skipped, 0 failed, 1 implausible\n"), std::string::npos) << text;
  result_view_options o;
  o.where = {"m=512"};
  const auto kept = view(j, o);
  EXPECT_NE(kept.find("cpu_freq_khz=1497600: 10.5 GFLOP/s/W"), std::string::npos) << kept;
  EXPECT_EQ(kept.find("cpu_freq_khz=2201600: 30"), std::string::npos) << kept;
  EXPECT_NE(kept.find("left out of the verdict: 1 implausible"), std::string::npos) << kept;
}
