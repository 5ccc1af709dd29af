// Retention on a real daemon (issue "Everyday costs"): with retention_full_days a fraction of a
// day, a finished job's samples are downsampled to one record per channel and second by the
// background pass while a pinned job keeps every sample, /v1/health reports the store's size,
// and the downsampled samples still summarise to the same per-second means.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>

#include <support/daemon_process.hpp>
#include <support/eventually.hpp>
#include <support/finished_job.hpp>
#include <support/http_client.hpp>
#include <support/temp_dir.hpp>

namespace jetperf::test {
namespace {

using nlohmann::json;

json get(http_client& http, const std::string& target) {
  const auto res = http.request("GET", target);
  EXPECT_EQ(res.status, 200) << target << ": " << res.body;
  return json::parse(res.body);
}

// Every power.total sample of a job, paging through.
std::size_t power_samples(http_client& http, const std::string& id) {
  std::size_t n = 0;
  std::string after;
  for (int page = 0; page < 1000; ++page) {
    const auto j = get(http, "/v1/jobs/" + id + "/samples?channel=power.total&limit=100000" + (after.empty() ? "" : "&after=" + after));
    n += j["samples"].size();
    if (!j["next_after"].is_string()) break;
    after = j["next_after"].get<std::string>();
  }
  return n;
}

TEST(retention, old_samples_are_downsampled_in_the_background_and_pinned_jobs_kept_whole) {
  temp_dir sim;
  // Full rate for 0.00006 days (5.2 s) after a job ends; dropped after a day.
  daemon_process d({"--board", "sim:orin-agx", "--sim-dir", sim.path(), "--log-level", "info",
                    "--retention-full-days", "0.00006", "--retention-days", "1"});
  http_client http(d.port());
  // Pinned as soon as it ends (its age is then well below the full-rate days).
  const auto kept = run_job(d, http, "idle", {{"duration_s", 2.0}, {"repeats", 1}});
  const auto pin = http.request("POST", "/v1/jobs/" + kept.id + "/pin", "", {{"Authorization", "Bearer " + d.token()}});
  ASSERT_EQ(pin.status, 200) << pin.body;
  const auto aged = run_job(d, http, "idle", {{"duration_s", 2.0}, {"repeats", 1}});
  const auto full_kept = power_samples(http, kept.id);
  const auto full_aged = power_samples(http, aged.id);
  const auto before = get(http, "/v1/jobs/" + aged.id + "/samples?channel=power.total&bucket_ms=1000")["buckets"];
  ASSERT_GT(full_aged, 150u);  // 2 s at 100 Hz and more

  ASSERT_TRUE(eventually(
      [&] { return get(http, "/v1/jobs/" + aged.id).value("retention", json::object()).value("samples", "") == "downsampled"; },
      std::chrono::seconds(30)))
      << get(http, "/v1/jobs/" + aged.id).dump();
  // One record per second of the job (a few seconds), each the second's mean; min, max and
  // count still answered per bucket, equal to what the full-rate samples gave.
  const auto records = power_samples(http, aged.id);
  EXPECT_LE(records, 6u);
  EXPECT_GE(records, 2u);
  const auto after = get(http, "/v1/jobs/" + aged.id + "/samples?channel=power.total&bucket_ms=1000")["buckets"];
  ASSERT_EQ(after.size(), before.size());
  for (std::size_t i = 0; i < after.size(); ++i) {
    EXPECT_EQ(after[i]["t_ns"], before[i]["t_ns"]);
    EXPECT_EQ(after[i]["count"], before[i]["count"]);
    EXPECT_NEAR(after[i]["mean"].get<double>(), before[i]["mean"].get<double>(), 1e-9);
    EXPECT_DOUBLE_EQ(after[i]["min"].get<double>(), before[i]["min"].get<double>());
    EXPECT_DOUBLE_EQ(after[i]["max"].get<double>(), before[i]["max"].get<double>());
  }
  EXPECT_EQ(get(http, "/v1/jobs/" + aged.id + "/samples?channel=power.total&limit=1")["retention"], "downsampled");
  // The results are untouched.
  EXPECT_EQ(get(http, "/v1/jobs/" + aged.id + "/results")["rows"], aged.results["rows"]);

  // The pinned job keeps every sample.
  EXPECT_EQ(power_samples(http, kept.id), full_kept);
  EXPECT_EQ(get(http, "/v1/jobs/" + kept.id)["retention"], (json{{"pinned", true}, {"samples", "full"}}));

  const auto health = get(http, "/v1/health");
  ASSERT_TRUE(health.contains("storage")) << health.dump();
  EXPECT_GT(health["storage"]["database_bytes"].get<std::int64_t>(), 100000);
  EXPECT_GT(health["storage"]["disk_free_bytes"].get<std::int64_t>(), 0);
  EXPECT_GT(health["storage"]["full_rate_days"].get<double>(), 0.0);  // the pinned job's
  EXPECT_DOUBLE_EQ(health["storage"]["retention_full_days"].get<double>(), 0.00006);
  EXPECT_NE(http.request("GET", "/metrics").body.find("\njetperf_database_bytes "), std::string::npos);
}

}  // namespace
}  // namespace jetperf::test
