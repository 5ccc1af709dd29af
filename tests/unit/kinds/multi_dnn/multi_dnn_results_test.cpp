// multi_dnn's verdicts: the best mapping by throughput, by inferences per joule and per joule over
// idle, leaving out the points a verdict must not trust (a contended window, one short of its
// precision target) and counting them once per point, not per stage row.
#include <jetperf/kinds/multi_dnn/multi_dnn_results.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <jetperf/store/cell_json.hpp>

using namespace jetperf;
using nlohmann::json;

namespace {

// One stage row of mapping `id` at point `index`.
jobs::point_row stage(std::int64_t index, std::int64_t id, double ips, double power_w, double dynamic_w,
                      std::vector<std::string> flags = {}) {
  row m;
  m.put("throughput_ips", ips);
  m.put("power_w", power_w);
  m.put("dynamic_power_w", dynamic_w);
  cell_list f;
  for (auto& s : flags) f.push_back(s);
  m.put("flags", f);
  return {index, "ok", record{{"mapping_id", id}, {"mapping_class", "C"}}, m};
}

}  // namespace

TEST(multi_dnn_results, the_verdicts_leave_out_contended_and_short_windows_and_rank_over_idle_too) {
  const std::vector<jobs::point_row> rows = {
      // Mapping 0: the fastest and most efficient on paper, but other processes took its CPU.
      stage(0, 0, 400, 8, 2, {"contended"}), stage(0, 0, 400, 8, 2, {"contended"}),
      // Mapping 1: short of its target.
      stage(1, 1, 390, 7, 1, {"max_time_reached", "rse_unmet"}),
      // Mappings 2 and 3: 2 is faster and better per joule in total, 3 per joule over idle.
      stage(2, 2, 300, 10, 4), stage(2, 2, 300, 10, 4), stage(3, 3, 250, 9, 2)};
  const auto s = to_json(cell(kinds::summarize_multi_dnn(rows)));
  EXPECT_EQ(s["measured"], 6);
  EXPECT_EQ(s["best_throughput"]["mapping_id"], 2) << s.dump();
  EXPECT_DOUBLE_EQ(s["best_throughput"]["throughput_ips"].get<double>(), 300);
  EXPECT_EQ(s["best_efficiency"]["mapping_id"], 2) << s.dump();
  EXPECT_DOUBLE_EQ(s["best_efficiency"]["inferences_per_j"].get<double>(), 30);
  EXPECT_EQ(s["best_dynamic_efficiency"]["mapping_id"], 3) << s.dump();
  EXPECT_DOUBLE_EQ(s["best_dynamic_efficiency"]["inferences_per_dynamic_j"].get<double>(), 125);
  EXPECT_DOUBLE_EQ(s["best_dynamic_efficiency"]["power_w"].get<double>(), 2);
  EXPECT_EQ(s["left_out"], (json{{"contended", 1}, {"rse_unmet", 1}})) << s.dump();

  // Nothing left out: no left_out key, and every verdict over what there is.
  const auto clean = to_json(cell(kinds::summarize_multi_dnn({stage(0, 0, 100, 5, 1)})));
  EXPECT_FALSE(clean.contains("left_out"));
  EXPECT_EQ(clean["best_efficiency"]["mapping_id"], 0);
}

// A mapping whose figures broke a physical bound (its point implausible) would win every verdict;
// it is left out and counted once, like a contended one.
TEST(multi_dnn_results, the_verdicts_leave_out_an_implausible_mapping_and_count_it) {
  auto broken = stage(0, 0, 900, 1, 0.5);
  broken.status = "implausible";
  auto broken_too = broken;
  const std::vector<jobs::point_row> rows = {broken, broken_too, stage(1, 1, 300, 10, 4)};
  const auto s = to_json(cell(kinds::summarize_multi_dnn(rows)));
  EXPECT_EQ(s["best_throughput"]["mapping_id"], 1) << s.dump();
  EXPECT_EQ(s["best_efficiency"]["mapping_id"], 1);
  EXPECT_EQ(s["best_dynamic_efficiency"]["mapping_id"], 1);
  EXPECT_EQ(s["left_out"], (json{{"implausible", 1}})) << s.dump();
}
