#pragma once
// A real job_service over an in-memory store with the idle workload and a power source (a
// constant 7.5 W: an idle point without a power reading is no_power, not ok), behind a router
// with a known token. The runner is not started unless a test calls service.start().
#include <memory>
#include <string>

#include "support/json_workload.hpp"
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <jetperf/api/openapi.hpp>
#include <jetperf/api/router.hpp>
#include <jetperf/common/event_hub.hpp>
#include <jetperf/kinds/idle/idle_kind.hpp>
#include <jetperf/jobs/job_service.hpp>
#include <jetperf/jobs/workload_registry.hpp>
#include <jetperf/store/database.hpp>
#include <jetperf/store/job_store.hpp>
#include <support/fake_sources.hpp>

namespace jetperf::test {

inline const std::string k_token = "s3cret-token_0123456789";

class api_fixture : public ::testing::Test {
 protected:
  api_fixture() {
    registry_.add(kinds::make_idle_kind());
    service_ = std::make_unique<jobs::job_service>(db_, registry_, hub_, nullptr, &power_);
  }

  /// What every route needs: the job service, the event hub and the token.
  api::services base_services() {
    api::services s;
    s.jobs = service_.get();
    s.hub = &hub_;
    s.auth.token = k_token;
    return s;
  }

  api::router& make_router(bool require_for_reads = false) {
    auto s = base_services();
    s.auth.require_for_reads = require_for_reads;
    s.health_extra = [] { return nlohmann::json{{"board", "test-board"}, {"status", "overridden?"}}; };
    router_ = std::make_unique<api::router>(std::move(s));
    return *router_;
  }

  api::router& router() {
    if (!router_) make_router();
    return *router_;
  }

  static api::http_request request(const std::string& method, const std::string& target, const std::string& body = {},
                                   bool with_token = true, const std::string& content_type = "application/json") {
    api::http_request r;
    r.method = method;
    r.target = target;
    r.body = body;
    if (with_token) r.headers["authorization"] = "Bearer " + k_token;
    if (!body.empty() || method == "POST") r.headers["content-type"] = content_type;
    return r;
  }

  api::http_response call(const std::string& method, const std::string& target, const std::string& body = {}) {
    return router().handle(request(method, target, body));
  }

  /// A streamed body's text (it can be read once).
  static std::string drain_body(api::body_source& source) {
    std::string text, piece;
    for (bool more = true; more;) {
      piece.clear();
      more = source.next(piece);
      text += piece;
    }
    return text;
  }
  /// The answer's JSON, streamed or not (a streamed one is read up by this).
  static nlohmann::json json_of(const api::http_response& res) {
    return nlohmann::json::parse(res.chunks ? drain_body(*res.chunks) : res.body);
  }

  static std::string header_of(const api::http_response& res, const std::string& name) {
    for (const auto& h : res.headers)
      if (h.first == name) return h.second;
    return {};
  }

  std::int64_t job_count() {
    std::int64_t total = -1;
    service_->list(store::job_filter{}, &total);
    return total;
  }

  /// Stores an idle job that ran and succeeded (in the store, not through the service); its id.
  std::int64_t finished_job() {
    store::job_store raw(db_);
    const auto id = raw.insert("idle", nlohmann::json::object(), {}, 1, 1.0);
    raw.set_state(id, store::job_state::running);
    raw.set_state(id, store::job_state::succeeded);
    return id;
  }

  /// Submits an idle job through the service (not the API) and returns its id.
  std::int64_t submit_idle(nlohmann::json spec = nlohmann::json::object(), std::vector<std::string> tags = {}) {
    return service_->submit("idle", jetperf::test::spec_of(spec), tags).id;
  }

  static nlohmann::json contract() { return nlohmann::json::parse(api::openapi_json()); }

  fake_source power_;
  store::database db_{":memory:"};
  jobs::workload_registry registry_;
  event_hub hub_;
  std::unique_ptr<jobs::job_service> service_;
  std::unique_ptr<api::router> router_;
};

}  // namespace jetperf::test
