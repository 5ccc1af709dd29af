// The board's sensor card as GET /v1/board shows it, from a sensor job's stored points: the CPU's
// wave is the card, the GPU's (where the job made one) sits beside it as gpu_channels.
#include <jetperf/api/sensor_card_view.hpp>

#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "support/json_kind.hpp"
#include "support/json_workload.hpp"
#include <jetperf/common/clock.hpp>
#include <jetperf/jobs/job_service.hpp>
#include <jetperf/jobs/job_state.hpp>
#include <jetperf/store/database.hpp>
#include <support/temp_dir.hpp>

using namespace jetperf;
using nlohmann::json;

namespace {

// A `sensor` kind whose points are the loads the spec lists, each with one channel row whose
// update period tells the loads apart (cpu 1 ms, gpu 100 ms).
class stored_card_kind final : public test::json_kind {
 public:
  std::string kind() const { return "sensor"; }
  json parse(const record& spec, const platform::board_offer&) const { return to_json(spec); }
  const column_table& columns() const {
    static const column_table table{{{"load", column_type::text, column_role::parameter, "", "", true, false},
                                     {"read_p50_us", column_type::number, column_role::metric, "us", "", true, true}},
                                    false,
                                    "channels"};
    return table;
  }
  std::vector<json> expand(const json& spec) const {
    std::vector<json> out;
    for (const auto& l : spec["loads"]) out.push_back({{"load", l}});
    return out;
  }
  std::vector<double> estimate_points_s(const json&, const std::vector<json>& points, const measure::estimate_context&) const {
    return std::vector<double>(points.size(), 0.0);
  }
  measure::point_result run_point(measure::point_context&, const json&, const json& point) {
    const bool gpu = point["load"] == "gpu";
    measure::point_result r;
    r.metrics = row_of(json{{"read_p50_us", 3.0},
                            {"channels", json::array({{{"channel", "rail.VDD_IN"}, {"update_period_ms", gpu ? 100.0 : 1.0}}})}});
    return r;
  }
};

json card_after_a_job_of(const json& loads) {
  test::temp_dir dir;
  jobs::workload_registry registry;
  registry.add(jobs::make_workload(stored_card_kind{}));
  event_hub hub;
  store::database db(dir.file("jetperf.db"));
  jobs::job_service service(db, registry, hub, nullptr, nullptr, {});
  service.start();
  const auto job = service.submit("sensor", test::spec_of({{"loads", loads}}), {});
  for (int i = 0; i < 2000 && !jobs::is_terminal(service.get(job.id).state); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(service.get(job.id).state, jobs::job_state::succeeded);
  const auto card = api::latest_sensor_card(service, {"", ""}, wall_ns());
  service.stop();
  return card ? *card : json();
}

TEST(sensor_card_view, the_cpus_wave_is_the_card_and_the_gpus_sits_beside_it) {
  const auto card = card_after_a_job_of({"gpu", "cpu"});
  ASSERT_TRUE(card.is_object());
  ASSERT_EQ(card["channels"].size(), 1u);
  EXPECT_EQ(card["channels"][0]["update_period_ms"], 1.0);  // the cpu point, though listed second
  ASSERT_TRUE(card.contains("gpu_channels"));
  EXPECT_EQ(card["gpu_channels"][0]["update_period_ms"], 100.0);
  EXPECT_EQ(card["read_p50_us"], 3.0);
}

TEST(sensor_card_view, a_card_without_a_gpu_wave_has_no_gpu_channels) {
  const auto card = card_after_a_job_of({"cpu"});
  ASSERT_TRUE(card.is_object());
  EXPECT_EQ(card["channels"][0]["update_period_ms"], 1.0);
  EXPECT_FALSE(card.contains("gpu_channels"));
}

}  // namespace
