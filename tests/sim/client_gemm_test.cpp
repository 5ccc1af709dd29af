// `jetperf submit gemm`, `results` and `compare` against the real jetperfd on the simulated AGX
// Orin: the flags land in the stored spec, bad values come back naming spec.<field>, and a tiny
// CPU sweep runs end to end.
#include <regex>

#include <support/temp_dir.hpp>

#include "backbone_helpers.hpp"

namespace jetperf::test {
namespace {

class client_gemm : public sim_orin_suite {
 protected:
  static std::int64_t id_in(const std::string& text) { return submitted_id(text); }
};

TEST_F(client_gemm, flags_become_the_stored_spec) {
  auto r = cli({"submit", "gemm", "--device", "cpu", "--dtype", "float,double", "--sizes", "16,32x16x8", "--tensor",
                "off", "--cpu-freq", "min,max", "--gpu-freq", "624750000", "--power-mode", "MODE_30W", "--threads",
                "1", "--warmup-s", "0", "--min-time-s", "0.01", "--max-time-s", "0.05", "--target-rse", "0.5",
                "--min-samples", "2", "--duration-s", "0.02", "--boundary-s", "0", "--cooldown-s", "0", "--tag",
                "flags", "--contention-threshold", "0.25", "--max-retries", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto id = id_in(r.out);
  ASSERT_GT(id, 0) << r.out;
  // 2 dtypes x 2 sizes x 2 CPU clocks.
  EXPECT_NE(r.out.find("(gemm, 8 points, estimate"), std::string::npos) << r.out;

  r = cli({"--json", "show", std::to_string(id)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto job = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(job.is_object()) << r.out;
  const auto& spec = job["spec"];
  EXPECT_EQ(spec["device"], "cpu");
  EXPECT_EQ(spec["dtypes"], nlohmann::json({"float", "double"}));
  EXPECT_EQ(spec["sizes"], nlohmann::json::parse(R"([{"m":16,"n":16,"k":16},{"m":32,"n":16,"k":8}])"));
  EXPECT_EQ(spec["tensor"], nlohmann::json({false}));
  ASSERT_TRUE(spec["cpu_freqs"].is_array()) << spec.dump();
  ASSERT_EQ(spec["cpu_freqs"].size(), 2u) << spec.dump();
  EXPECT_LT(spec["cpu_freqs"][0].get<std::int64_t>(), spec["cpu_freqs"][1].get<std::int64_t>()) << spec.dump();
  EXPECT_EQ(spec["gpu_freqs"], nlohmann::json({624750000}));  // MODE_30W's cap (1300500000 is refused in it)
  EXPECT_EQ(spec["power_modes"], nlohmann::json({2}));
  EXPECT_EQ(spec["threads"], 1);
  EXPECT_EQ(spec["min_samples"], 2);
  EXPECT_DOUBLE_EQ(spec["contention_threshold"].get<double>(), 0.25);
  EXPECT_EQ(spec["max_retries"], 1);
  EXPECT_DOUBLE_EQ(spec["warmup_s"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(spec["min_time_s"].get<double>(), 0.01);
  EXPECT_DOUBLE_EQ(spec["max_time_s"].get<double>(), 0.05);
  EXPECT_DOUBLE_EQ(spec["target_rse"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(spec["duration_s"].get<double>(), 0.02);
  EXPECT_DOUBLE_EQ(spec["boundary_s"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(spec["cooldown_s"].get<double>(), 0.0);
  EXPECT_EQ(job["progress"]["total"], 8);

  // Leave the board free for the next test.
  cli({"cancel", std::to_string(id)});
  http_client http(daemon_->port());
  EXPECT_NE(wait_state(http, id, {"succeeded", "failed", "cancelled"}, std::chrono::seconds(30)), "running");
}

TEST_F(client_gemm, bad_flag_values_name_the_spec_field) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--sizes", "0:10:1"}, "spec.sizes"},
      {{"--dtype", "int8"}, "spec.dtypes"},
      {{"--gpu-freq", "123"}, "spec.gpu_freqs"},
      {{"--cpu-freq", "fastest"}, "spec.cpu_freqs"},
      {{"--power-mode", "NO_SUCH_MODE"}, "spec.power_modes"},
      {{"--min-time-s", "-1"}, "spec.min_time_s"},
      {{"--min-samples", "0"}, "spec.min_samples"},
      {{"--contention-threshold", "0"}, "spec.contention_threshold"},
      {{"--max-retries", "1.5"}, "spec.max_retries"},
      {{"--max-retries", "11"}, "spec.max_retries"},
  };
  for (const auto& [flags, field] : cases) {
    std::vector<std::string> args{"submit", "gemm", "--device", "cpu"};
    args.insert(args.end(), flags.begin(), flags.end());
    const auto r = cli(args);
    EXPECT_EQ(r.exit_code, 1) << flags[0] << " " << flags[1] << ": " << r.out << r.err;
    EXPECT_NE(r.err.find("(field: " + field + ")"), std::string::npos) << r.err;
    EXPECT_EQ(line_count(r.err), 1) << r.err;
  }
  // Values the CLI itself knows are wrong are usage errors.
  auto r = cli({"submit", "gemm", "--device", "gpu"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = cli({"submit", "gemm", "--tensor", "maybe"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
}

TEST_F(client_gemm, allow_reboot_flag_lets_a_sweep_over_gated_modes_through) {
  // Every other mode of the simulated AGX Orin changes GPU power gating (default MODE_30W).
  auto r = cli({"submit", "gemm", "--device", "cpu", "--sizes", "32", "--power-mode", "all", "--dry-run"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("(field: spec.allow_reboot)"), std::string::npos) << r.err;
  r = cli({"submit", "gemm", "--device", "cpu", "--sizes", "32", "--power-mode", "all", "--allow-reboot", "--dry-run"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("\"allow_reboot\":true"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("reboots (power mode switches): 2 -> 0, 0 -> 1, 1 -> 2, 2 -> 3, 3 -> 2 (restore)"),
            std::string::npos)
      << r.out;
}

// A window shorter than what the boundaries cut holds no power reading: its point is no_power,
// not ok; the job says so in its state (none measured: failed), in watch's last line with the
// count, and watch exits non-zero. (The job used to succeed with every power empty.)
TEST_F(client_gemm, a_sweep_whose_windows_hold_no_power_reading_is_not_a_success) {
  auto r = cli({"submit", "gemm", "--device", "cpu", "--dtype", "float", "--sizes", "32,48", "--threads", "1",
                "--warmup-s", "0.01", "--min-time-s", "0.05", "--max-time-s", "0.15", "--boundary-s", "0.1",
                "--target-rse", "0.1", "--min-samples", "3", "--watch"},
               120);
  EXPECT_NE(r.exit_code, 0) << r.out << r.err;
  const auto id = id_in(r.out);
  ASSERT_GT(id, 0) << r.out;
  EXPECT_NE(r.out.find("job " + std::to_string(id) + ": failed: 2 of 2 points lack their main metrics or did not run: 2 "
                       "no_power\n"),
            std::string::npos)
      << r.out;
  r = cli({"results", std::to_string(id)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\nno_power\s+float\s+32\s+32\s+32\s+false)"))) << r.out;
  EXPECT_NE(r.out.find("points: 0 ok, 0 skipped, 0 failed, 2 no_power\n"), std::string::npos) << r.out;
}

TEST_F(client_gemm, small_cpu_sweep_end_to_end) {
  // Windows of 0.1-0.3 s with 10 ms cut from each end: every point holds power readings.
  auto r = cli({"submit", "gemm", "--device", "cpu", "--dtype", "float", "--sizes", "32,48", "--cpu-freq", "min,max",
                "--threads", "1", "--warmup-s", "0.01", "--min-time-s", "0.1", "--max-time-s", "0.3",
                "--boundary-s", "0.01", "--target-rse", "0.1", "--min-samples", "3", "--watch"},
               120);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto id = id_in(r.out);
  ASSERT_GT(id, 0) << r.out;
  EXPECT_NE(r.out.find("(gemm, 4 points, estimate"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("job " + std::to_string(id) + ": succeeded"), std::string::npos) << r.out;

  r = cli({"results", std::to_string(id)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  client_result r2;
  // Not a terminal: the kind's default columns (the gemm column table's `shown`), in full, then
  // one row per point.
  EXPECT_TRUE(std::regex_search(
      r.out, std::regex(R"(^status\s+dtype\s+m\s+n\s+k\s+tensor\s+power_mode\s+gpu_freq_hz\s+cpu_freq_khz\s+)"
                        R"(time_mean_s\s+gflops\s+power_w\s+energy_j\s+gflops_per_w\n)")))
      << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\nok\s+float\s+32\s+32\s+32\s+false)"))) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\nok\s+float\s+48\s+48\s+48\s+false)"))) << r.out;
  // Exactly the columns asked for, rows kept by value (32.0 is the number 32).
  auto picked = cli({"results", std::to_string(id), "--columns", "dtype,m", "--where", "m=32.0"});
  ASSERT_EQ(picked.exit_code, 0) << picked.err;
  EXPECT_EQ(picked.out.rfind("dtype   m\nfloat  32\nfloat  32\n(2 of 4 points match --where)\n", 0), 0u) << picked.out;
  picked = cli({"results", std::to_string(id), "--columns", "dtype,flavour"});
  EXPECT_EQ(picked.exit_code, 2) << picked.err;
  EXPECT_NE(picked.err.find("unknown column 'flavour' (known: "), std::string::npos) << picked.err;
  picked = cli({"results", std::to_string(id), "--where", "m"});
  EXPECT_EQ(picked.exit_code, 2) << picked.err;
  // The summary's most efficient setting, or why there is none (no power readings).
  r2 = cli({"--json", "results", std::to_string(id)});
  ASSERT_EQ(r2.exit_code, 0) << r2.err;
  const auto results = nlohmann::json::parse(r2.out, nullptr, false);
  ASSERT_TRUE(results.is_object()) << r2.out;
  const bool has_best = results["summary"].value("best_overall", nlohmann::json()).is_object();
  const bool concluded = r.out.find("most efficient: - (not concluded") == std::string::npos;
  if (has_best && concluded)
    EXPECT_TRUE(std::regex_search(
        r.out, std::regex(R"(\nmost efficient: float (32x32x32|48x48x48) tensor=off cpu_freq_khz=[0-9]+: [0-9.e+-]+ GFLOP/s/W \([0-9.e+-]+ GFLOP/s)")))
        << r.out;
  else if (concluded && !results["summary"].value("left_out", nlohmann::json::object()).empty())
    // A loaded host: every point with power was contended or short of its target, and it says so.
    EXPECT_NE(r.out.find("\nmost efficient: - (every point with power was left out: "), std::string::npos) << r.out;
  else if (concluded)
    EXPECT_NE(r.out.find("\nmost efficient: - (no point measured power)\n"), std::string::npos) << r.out;
  else
    EXPECT_NE(r.out.find("\ncaveat: speed not simulated"), std::string::npos) << r.out;

  r = cli({"results", std::to_string(id), "--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(line_count(r.out), 5) << r.out;

  // `show`: the spec as key: value lines, then the same most efficient line under "summary:".
  r = cli({"show", std::to_string(id)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\nspec:\n"), std::string::npos) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n  sizes: +32x32x32, 48x48x48\n)"))) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n  dtypes: +float\n)"))) << r.out;
  EXPECT_NE(r.out.find("\nsummary:\n  most efficient: "), std::string::npos) << r.out;

  r = cli({"compare", std::to_string(id), "--by", "cpu_freq_khz"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(^params\s+best_cpu_freq_khz\s+best_gflops_per_w\s+best_gflops)")))
      << r.out;
  // One row per size, each picking one of the two clocks (then caveats, if the simulator could
  // not slow the workload down for a while).
  EXPECT_EQ(line_count(r.out.substr(0, r.out.find("caveat: "))), 3) << r.out;
  // A size whose points got no power reading has no best clock, only the two values it was
  // picked from; which sizes get readings in so short a window depends on the sampler's timing.
  // Then the winner over idle (clock, GFLOP/s/W over idle) and how many points were left out.
  const std::string best = R"((?:[0-9]+\s+[0-9.e+-]+\s+[0-9.e+-]+|-\s+-\s+-)\s+(?:[0-9]+\s+[0-9.e+-]+|-\s+-)\s+[0-2])";
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\ncpu float 32x32x32 tensor=off\s+)" + best + R"(\s+2\n)")))
      << r.out;

  r = cli({"--json", "compare", std::to_string(id), "--by", "cpu_freq_khz"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_EQ(j.value("by", std::string()), "cpu_freq_khz") << r.out;
  EXPECT_EQ(j["rows"].size(), 2u) << r.out;

  // CSV: the same table, its header and one line per size, nothing around it.
  r = cli({"compare", std::to_string(id), "--by", "cpu_freq_khz", "--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("params,best_cpu_freq_khz,best_gflops_per_w,best_gflops", 0), 0u) << r.out;
  EXPECT_EQ(line_count(r.out), 3) << r.out;
  EXPECT_EQ(r.out.find("caveat"), std::string::npos) << r.out;

  r = cli({"compare", std::to_string(id), "--by", "flavour"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  // Any parameter the job swept, sizes too: one row per other setting, the size it was best at; a
  // parameter it held at one value (one dtype) is a usage error naming those it swept.
  r = cli({"compare", std::to_string(id), "--by", "m"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(^params\s+best_m\s+best_gflops_per_w)"))) << r.out;
  r = cli({"compare", std::to_string(id), "--by", "dtype"});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.err.find("it swept: cpu_freq_khz"), std::string::npos) << r.err;
  // The client says which build it is.
  r = cli({"--version"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(^jetperf [0-9]+\.[0-9]+\.[0-9]+ \([0-9a-f]+|unknown\)\n)"))) << r.out;
}

}  // namespace
}  // namespace jetperf::test
