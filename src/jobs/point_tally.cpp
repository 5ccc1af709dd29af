#include <jetperf/jobs/point_tally.hpp>

namespace jetperf::jobs {
namespace {

std::string text_of(const nlohmann::json& metrics, const char* key) {
  if (metrics.is_object() && metrics.contains(key) && metrics[key].is_string()) return metrics[key].get<std::string>();
  return "(no reason given)";
}

std::string most_common(const std::map<std::string, std::int64_t>& reasons) {
  std::string best;
  std::int64_t n = 0;
  for (const auto& r : reasons)
    if (r.second > n) {
      best = r.first;
      n = r.second;
    }
  return best;
}

}  // namespace

point_tally tally_points(const std::vector<store::point_record>& points) {
  point_tally t;
  for (const auto& p : points) {
    if (p.status == "failed") {
      ++t.failed;
      ++t.fail_reasons[text_of(p.metrics, "error")];
    } else if (p.status == "skipped") {
      ++t.skipped;
      ++t.skip_reasons[text_of(p.metrics, "reason")];
    } else {
      ++t.ok;
      const auto f = p.metrics.is_object() ? p.metrics.value("flags", nlohmann::json::array()) : nlohmann::json();
      if (f.is_array())
        for (const auto& flag : f)
          if (flag.is_string()) ++t.flags[flag.get<std::string>()];
    }
  }
  return t;
}

nlohmann::json point_tally::to_json() const {
  return {{"ok", ok}, {"skipped", skipped}, {"failed", failed},
          {"skip_reasons", skip_reasons}, {"fail_reasons", fail_reasons}, {"flags", flags}};
}

std::vector<std::string> point_tally::caveats() const {
  std::vector<std::string> out;
  auto it = flags.find("speed_not_simulated");
  if (it != flags.end())
    out.push_back("speed not simulated on " + std::to_string(it->second) + " of " + std::to_string(ok) +
                  " points: they ran at host speed whatever the simulated clock, so comparisons across clocks "
                  "cover power only");
  it = flags.find("speed_threads_approx");
  if (it != flags.end())
    out.push_back("speed approximate on " + std::to_string(it->second) + " of " + std::to_string(ok) +
                  " points: several threads ran under a simulated clock below its highest, and threads held to "
                  "time slices wait for each other longer than a board's cores do, so their slowdown is "
                  "exaggerated; compare clocks with threads=1");
  return out;
}

std::string point_tally::shortfall() const {
  const auto total = ok + skipped + failed;
  if (failed > 0)
    return std::to_string(failed) + " of " + std::to_string(total) + " points failed (most often: " +
           most_common(fail_reasons) + ")";
  if (ok == 0 && skipped > 0)
    return "no point was measured: all " + std::to_string(skipped) + " were skipped (most often: " +
           most_common(skip_reasons) + ")";
  return {};
}

}  // namespace jetperf::jobs
