// The runner's side of power modes that need a reboot: journal the job's point, reboot, resume it
// at the next start when the board booted in that mode; fail the point when the spec does not
// allow it; stay interrupted when the board comes back in another mode.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <thread>

#include "support/json_workload.hpp"
#include "support/json_kind.hpp"
#include <jetperf/store/cell_json.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/jobs/allow_reboot.hpp>
#include <jetperf/jobs/job_service.hpp>
#include <jetperf/jobs/job_state.hpp>
#include <jetperf/platform/reboot_required.hpp>
#include <jetperf/store/reboot_journal.hpp>
#include <support/temp_dir.hpp>

using namespace jetperf;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

// One point per listed power mode; the point records the mode the board read back.
class modes_workload final : public test::json_kind {
 public:
  std::string kind() const { return "modes"; }
  json parse(const record& spec, const platform::board_offer&) const {
    return {{"modes", jetperf::to_json(spec.at("modes"))}, {"allow_reboot", bool_field(spec, jobs::allow_reboot_field())}};
  }
  std::vector<json> expand(const json& spec) const {
    std::vector<json> p;
    for (const auto& m : spec["modes"]) p.push_back({{"power_mode", m}});
    return p;
  }
  measure::point_result run_point(measure::point_context& ctx, const json&, const json& point) {
    platform::board_setting s;
    s.power_mode = point["power_mode"].get<std::int64_t>();
    measure::point_result r;
    r.metrics = row_of(nlohmann::json{{"power_mode", *ctx.board->apply(s).power_mode}});
    return r;
  }
};

// Modes 0..2 with TPC masks 0, 248, 240: every switch between them needs a reboot. A reboot
// records the pending mode; boot() is what the machine does before the daemon starts again.
class gated_board final : public platform::board_settings {
 public:
  platform::board_offer offered() const override { return {}; }
  void arm(std::int64_t) override { ++arms; }
  platform::board_setting apply(const platform::board_setting& s) override {
    if (s.power_mode && *s.power_mode != mode)
      throw platform::reboot_required(*s.power_mode, "mode " + std::to_string(*s.power_mode) +
                                                         " needs a reboot; set allow_reboot in the job's spec");
    return s;
  }
  void restore() override { ++restores; }
  // On the runner thread, after the job is stored interrupted: the test, which polls that state,
  // reads `reboots` only once `reboots_done` says the push is complete (a read during the push's
  // reallocation crashed under qemu on arm64).
  void reboot_into(std::int64_t m) override {
    reboots.push_back(pending = m);
    reboots_done.store(reboots.size(), std::memory_order_release);
  }
  std::optional<std::int64_t> rearm(std::int64_t) override {
    ++rearms;
    return mode;
  }
  void boot() { mode = pending; }

  std::int64_t mode = 2, pending = 2;
  std::vector<std::int64_t> reboots;
  std::atomic<std::size_t> reboots_done{0};
  int arms = 0, rearms = 0, restores = 0;
};

struct fixture {
  test::temp_dir dir;
  std::unique_ptr<store::database> db;
  jobs::workload_registry registry;
  event_hub hub;
  gated_board board;
  std::unique_ptr<jobs::job_service> service;

  fixture() {
    registry.add(jobs::make_workload(modes_workload{}));
    open();
  }
  // A daemon start on the same database (the process after the boot).
  void open() {
    service.reset();
    db.reset();
    db = std::make_unique<store::database>(dir.file("jetperf.db"));
    service = std::make_unique<jobs::job_service>(*db, registry, hub, &board, nullptr);
    service->start();
  }
  // Waits until the job is finished or waits for a reboot (the board has one more pending).
  store::job_record wait_settled(std::int64_t id, std::size_t reboots_before) {
    const auto until = std::chrono::steady_clock::now() + 20s;
    for (;;) {
      auto j = service->get(id);
      const bool rebooting =
          j.state == jobs::job_state::interrupted && board.reboots_done.load(std::memory_order_acquire) > reboots_before;
      // The runner marks the job interrupted before it asks the board to reboot: an interrupted
      // job has settled only once the reboot came (reading `reboots` before it raced the push).
      const bool finished = jobs::is_terminal(j.state) && j.state != jobs::job_state::interrupted;
      if (finished || rebooting || std::chrono::steady_clock::now() > until) return j;
      std::this_thread::sleep_for(2ms);
    }
  }
};

}  // namespace

TEST(job_reboot, allowed_reboots_journal_the_point_and_the_next_start_resumes_there) {
  fixture f;
  const auto id = f.service->submit("modes", jetperf::test::spec_of({{"modes", {0, 1, 2}}, {"allow_reboot", true}}), {}).id;
  for (std::int64_t want = 0; want < 2; ++want) {
    auto j = f.wait_settled(id, static_cast<std::size_t>(want));
    ASSERT_EQ(j.state, jobs::job_state::interrupted) << j.error;
    EXPECT_NE(j.error.find("reboot into power mode " + std::to_string(want)), std::string::npos) << j.error;
    ASSERT_EQ(f.board.reboots.back(), want);
    EXPECT_EQ(j.points_done, want);
    // Journaled before the reboot; nothing restored; no later job would start in this process.
    const auto pending = store::reboot_journal(*f.db).pending();
    ASSERT_TRUE(pending);
    EXPECT_EQ(pending->job_id, id);
    EXPECT_EQ(pending->point_index, want);
    EXPECT_EQ(pending->power_mode, want);
    EXPECT_EQ(f.board.restores, 0);
    f.board.boot();
    f.open();
  }
  // Points 0 and 1 rebooted; point 2 (mode 2 from 1) reboots too.
  auto j = f.wait_settled(id, 2);
  ASSERT_EQ(j.state, jobs::job_state::interrupted) << j.error;
  f.board.boot();
  f.open();
  j = f.wait_settled(id, 3);
  ASSERT_EQ(j.state, jobs::job_state::succeeded) << j.error;
  EXPECT_EQ(j.error, "");
  EXPECT_EQ(f.board.reboots, (std::vector<std::int64_t>{0, 1, 2}));
  EXPECT_EQ(f.board.rearms, 3);
  EXPECT_EQ(f.board.restores, 1);
  EXPECT_FALSE(store::reboot_journal(*f.db).pending());
  const auto points = f.service->points(id);
  ASSERT_EQ(points.size(), 3u);
  for (std::int64_t i = 0; i < 3; ++i) {
    EXPECT_EQ(points[i].status, "ok");
    EXPECT_EQ(points[i].metrics["power_mode"], i);
  }
  std::vector<std::string> kinds;
  for (const auto& e : store::job_store(*f.db).events(id))
    if (e.type == "reboot" || e.type == "rebooted") kinds.push_back(e.type + ":" + e.data["index"].dump());
  EXPECT_EQ(kinds, (std::vector<std::string>{"reboot:0", "rebooted:0", "reboot:1", "rebooted:1", "reboot:2",
                                             "rebooted:2"}));
}

TEST(job_reboot, without_allow_reboot_the_point_fails_naming_the_field) {
  fixture f;
  const auto id = f.service->submit("modes", jetperf::test::spec_of({{"modes", {0, 2}}}), {}).id;
  const auto j = f.wait_settled(id, 0);
  // Point 1 (the current mode) ran, point 0 failed: the job says so.
  ASSERT_EQ(j.state, jobs::job_state::partial) << j.error;
  EXPECT_NE(j.error.find("1 of 2 points failed"), std::string::npos) << j.error;
  const auto points = f.service->points(id);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].status, "failed");
  EXPECT_NE(points[0].metrics["error"].get<std::string>().find("allow_reboot"), std::string::npos);
  EXPECT_EQ(points[1].status, "ok");
  EXPECT_TRUE(f.board.reboots.empty());
  EXPECT_FALSE(store::reboot_journal(*f.db).pending());
}

TEST(job_reboot, a_board_back_in_another_mode_leaves_the_job_interrupted_and_restores) {
  fixture f;
  const auto id = f.service->submit("modes", jetperf::test::spec_of({{"modes", {0}}, {"allow_reboot", true}}), {}).id;
  ASSERT_EQ(f.wait_settled(id, 0).state, jobs::job_state::interrupted);
  // No boot happened (jetperfd restarted on its own): the board is still in mode 2.
  f.open();
  const auto j = f.service->get(id);
  EXPECT_EQ(j.state, jobs::job_state::interrupted);
  EXPECT_NE(j.error.find("came back in power mode 2 instead of 0"), std::string::npos) << j.error;
  EXPECT_EQ(f.board.restores, 1);
  EXPECT_FALSE(store::reboot_journal(*f.db).pending());
}
