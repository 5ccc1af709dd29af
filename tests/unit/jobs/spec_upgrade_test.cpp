// Each stored job carries its kind's spec version; a job stored in an older form is upgraded by
// its kind's one upgrade() when it runs (or resumes), and a new job stores the current version.
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include <jetperf/store/cell_json.hpp>
#include <jetperf/common/event_hub.hpp>
#include <jetperf/jobs/job_service.hpp>
#include <jetperf/jobs/workload_registry.hpp>
#include <jetperf/store/database.hpp>
#include <jetperf/store/job_store.hpp>

#include "support/json_workload.hpp"
#include "support/json_kind.hpp"

namespace jetperf {
namespace {

using nlohmann::json;

// Version 1 named its point count "n"; version 2 calls it "points".
class versioned_kind final : public test::json_kind {
 public:
  std::string kind() const { return "versioned"; }
  std::int64_t spec_version() const { return 2; }
  record upgrade(record spec, std::int64_t from) const {
    upgrades_seen->push_back(from);
    if (const auto* n = spec.find("n"); from < 2 && n) {
      spec.set("points", *n);
      spec.erase("n");
    }
    return spec;
  }
  json parse(const record& spec, const platform::board_offer&) const {
    return {{"points", integer_field(spec, "points", 1, 10, 1)}};
  }
  std::vector<json> expand(const json& spec) const {
    std::vector<json> p;
    for (int i = 0; i < spec.at("points").get<int>(); ++i) p.push_back({{"i", i}});
    return p;
  }
  measure::point_result run_point(measure::point_context&, const json&, const json& point) {
    measure::point_result r;
    r.metrics = row_of(nlohmann::json{{"i", point.at("i")}});
    return r;
  }

  std::shared_ptr<std::vector<std::int64_t>> upgrades_seen = std::make_shared<std::vector<std::int64_t>>();
};

struct fixture {
  store::database db{":memory:"};
  jobs::workload_registry registry;
  event_hub hub;
  std::shared_ptr<std::vector<std::int64_t>> upgrades;
  std::unique_ptr<jobs::job_service> service;

  fixture() {
    versioned_kind k;
    upgrades = k.upgrades_seen;
    registry.add(jobs::make_workload(std::move(k)));
    service = std::make_unique<jobs::job_service>(db, registry, hub, nullptr, nullptr);
  }
  store::job_record finished(std::int64_t id) {
    for (int i = 0; i < 2000 && !jobs::is_terminal(service->get(id).state); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return service->get(id);
  }
};

TEST(spec_upgrade, a_job_stored_in_an_older_form_runs_as_its_kind_upgrades_it) {
  fixture f;
  const auto id = store::job_store(f.db).insert("versioned", {{"n", 3}}, {}, 3, 0.0, 1);
  EXPECT_EQ(f.service->get(id).spec_version, 1);
  f.service->start();
  EXPECT_EQ(f.finished(id).state, jobs::job_state::succeeded);
  EXPECT_EQ(f.service->points(id).size(), 3u) << "read as version 1: n = 3 points";
  EXPECT_EQ(*f.upgrades, (std::vector<std::int64_t>{1}));
  EXPECT_EQ(f.service->get(id).spec, (json{{"n", 3}})) << "the stored spec stays as it was stored";
  f.service->stop();
}

TEST(spec_upgrade, a_new_job_stores_the_current_version_and_is_not_upgraded) {
  fixture f;
  const auto id = f.service->submit("versioned", jetperf::test::spec_of({{"points", 2}}), {}).id;
  EXPECT_EQ(f.service->get(id).spec_version, 2);
  f.service->start();
  EXPECT_EQ(f.finished(id).state, jobs::job_state::succeeded);
  EXPECT_EQ(f.service->points(id).size(), 2u);
  EXPECT_TRUE(f.upgrades->empty());
  f.service->stop();
}

TEST(spec_upgrade, jobs_stored_before_versions_read_as_version_0) {
  fixture f;
  const auto id = store::job_store(f.db).insert("versioned", {{"n", 1}}, {}, 1, 0.0);
  EXPECT_EQ(f.service->get(id).spec_version, 0);
  f.service->start();
  EXPECT_EQ(f.finished(id).state, jobs::job_state::succeeded);
  EXPECT_EQ(*f.upgrades, (std::vector<std::int64_t>{0}));
  f.service->stop();
}

}  // namespace
}  // namespace jetperf
