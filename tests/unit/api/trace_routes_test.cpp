// GET /v1/jobs/{id}/trace through the router, without a network: the answer is a body produced
// in pieces (nothing held in `body`), whose text is the whole document of the job's spans and
// telemetry; every refusal (unknown job, bad range or counters, too many buckets or spans) is a
// plain JSON 4xx naming the field, decided before the body starts.
#include <jetperf/store/sample_store.hpp>
#include <jetperf/store/timeline_store.hpp>

#include <jetperf/api/chrome_trace.hpp>

#include "api_fixture.hpp"

namespace jetperf::test {
namespace {

using nlohmann::json;

constexpr std::int64_t k_ms = 1'000'000;

class trace_routes : public api_fixture {
 protected:
  trace_routes() {
    job_ = finished_job();
    std::vector<store::timeline_span> spans;
    for (int i = 0; i < 3000; ++i)
      spans.push_back({job_, i / 1000, i % 2 ? "runs" : "markers", "s", i * k_ms, i % 2 ? (i + 1) * k_ms : i * k_ms, json::object()});
    timeline_.add(spans);
    power_ = samples_.channel_id("rail.VDD_IN", "W", "test");
    clock_ = samples_.channel_id("clock.gpu", "Hz", "test");
    std::vector<store::sample_row> rows;
    for (std::int64_t t = 0; t <= 50'000 * k_ms; t += 10 * k_ms) {
      rows.push_back({power_, t, 2.0});
      rows.push_back({clock_, t, 1e9});
    }
    samples_.insert(job_, rows);
    auto s = base_services();
    s.samples = &samples_;
    s.timeline = &timeline_;
    router_ = std::make_unique<api::router>(std::move(s));
  }

  api::http_response get(const std::string& query = "") {
    return router_->handle(request("GET", "/v1/jobs/" + std::to_string(job_) + "/trace" + query));
  }

  store::sample_store samples_{db_};
  store::timeline_store timeline_{db_};
  std::int64_t job_ = 0, power_ = 0, clock_ = 0;
};

TEST_F(trace_routes, the_answer_streams_the_whole_document) {
  const auto res = get("?counters=power");
  ASSERT_EQ(res.status, 200) << res.body;
  ASSERT_TRUE(res.chunks);
  EXPECT_TRUE(res.body.empty());
  EXPECT_EQ(res.content_type, "application/json");
  EXPECT_EQ(header_of(res, "Content-Disposition"), "attachment; filename=\"job-" + std::to_string(job_) + "-trace.json\"");
  const auto text = drain_body(*res.chunks);

  // The same document read whole: every span, the power channel over the spans' extent.
  api::trace_document doc;
  store::timeline_query q;
  q.job_id = job_;
  doc.spans = timeline_.spans(q);
  api::trace_counter power{"rail.VDD_IN", "W", {}};
  for (const auto& s : samples_.query(job_, power_, 0, 3000 * k_ms)) power.points.emplace_back(s.t_ns, s.value);
  doc.counters.push_back(power);
  const auto j = json::parse(text);
  doc.title = j["traceEvents"][0]["args"]["name"];
  doc.metadata = j["otherData"];
  EXPECT_EQ(text, api::chrome_trace_json(doc));
  EXPECT_EQ(j["otherData"]["job"], job_);
  EXPECT_TRUE(j["otherData"]["counter_bucket_ms"].is_null());
}

TEST_F(trace_routes, a_small_export_is_streamed_too) {
  const auto res = get("?point=2&counters=none");
  ASSERT_EQ(res.status, 200) << res.body;
  ASSERT_TRUE(res.chunks);
  int spans = 0;
  const auto j = json::parse(drain_body(*res.chunks));
  for (const auto& e : j["traceEvents"]) {
    if (e["ph"] == "C") ADD_FAILURE() << "counters=none gave a counter";
    if (e["ph"] == "X" || e["ph"] == "i") {
      EXPECT_EQ(e["args"]["point"], 2);
      ++spans;
    }
  }
  EXPECT_EQ(spans, 1000);
}

TEST_F(trace_routes, refusals_are_plain_answers_naming_the_field) {
  const auto check = [](const api::http_response& res, int status, const std::string& field) {
    EXPECT_EQ(res.status, status) << res.body;
    EXPECT_FALSE(res.chunks);
    EXPECT_EQ(json_of(res)["error"]["field"], field) << res.body;
  };
  check(router_->handle(request("GET", "/v1/jobs/999/trace")), 404, "id");
  check(get("?from=5&to=4"), 400, "to");
  check(get("?point=1&from=4"), 400, "point");
  // A point the job does not have is no such thing, not an empty trace (as /samples answers).
  check(get("?point=999"), 404, "point");
  check(get("?counters=some"), 400, "counters");
  // 1 ms buckets over the 50 s of samples are too many; over the spans' 3 s they are not.
  check(get("?counter_ms=1&from=0&to=100000000000"), 400, "bucket_ms");
  EXPECT_EQ(get("?counter_ms=1").status, 200);
}

TEST_F(trace_routes, more_than_a_million_spans_is_refused_before_the_body) {
  std::vector<store::timeline_span> spans(1'000'000 - 3000 + 1, {job_, 5, "runs", "r", 0, 1, json::object()});
  timeline_.add(spans);
  const auto res = get();
  EXPECT_EQ(res.status, 400) << res.body;
  EXPECT_FALSE(res.chunks);
  EXPECT_EQ(json_of(res)["error"]["code"], "too_large");
  EXPECT_EQ(json_of(res)["error"]["field"], "to");
  // One point of it is fine.
  EXPECT_EQ(get("?point=1").status, 200);
}

}  // namespace
}  // namespace jetperf::test
