#include <jetperf/jobs/point_tally.hpp>

#include <set>

namespace jetperf::jobs {
namespace {

// The states of a point that ran without its main metrics, or with a figure past a physical
// bound (jobs/point_outcome.hpp).
constexpr const char* k_lacking_states[] = {"no_power", "unresolvable", "incomplete", "implausible"};
constexpr const char* k_implausible = "implausible";

std::string text_of(const row& metrics, const char* key) {
  const auto* c = metrics.find(key);
  if (c && c->is_string()) return c->as_string();
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

// The bounds a point's rows broke: its own `implausible` column's and its items' (a row list's).
std::set<std::string> bounds_of(const row& metrics) {
  std::set<std::string> out;
  const auto add = [&out](const cell* bounds) {
    if (bounds && bounds->is_record())
      for (const auto& b : bounds->as_record()) out.insert(b.first);
  };
  add(metrics.find(k_implausible));
  for (const auto& c : metrics.cells())
    if (c.second.is_list())
      for (const auto& item : c.second.as_list())
        if (item.is_record()) add(item.as_record().find(k_implausible));
  return out;
}

}  // namespace

point_tally tally_points(const std::vector<point_row>& points) {
  point_tally t;
  for (const auto& p : points) {
    if (p.status == "failed") {
      ++t.failed;
      ++t.fail_reasons[text_of(p.metrics, "error")];
    } else if (p.status == "skipped") {
      ++t.skipped;
      ++t.skip_reasons[text_of(p.metrics, "reason")];
    } else if (p.status != "ok") {
      ++t.lacking[p.status];
      if (p.status == k_implausible)
        for (const auto& b : bounds_of(p.metrics)) ++t.bounds[b];
    } else {
      ++t.ok;
      if (const auto* f = p.metrics.find("flags"))
        for (const auto& flag : f->strings()) ++t.flags[flag];
    }
  }
  return t;
}

record point_tally::to_record() const {
  record r{{"ok", ok}, {"skipped", skipped}, {"failed", failed},
           {"skip_reasons", skip_reasons}, {"fail_reasons", fail_reasons}, {"flags", flags}};
  for (const char* state : k_lacking_states) r.set(state, lacking.count(state) ? lacking.at(state) : 0);
  r.set("implausible_bounds", bounds);
  return r;
}

std::vector<std::string> point_tally::caveats() const {
  std::vector<std::string> out;
  if (const auto it = lacking.find(k_implausible); it != lacking.end()) {
    std::string which;
    for (const auto& b : bounds) which += (which.empty() ? "" : ", ") + b.first + " on " + std::to_string(b.second);
    auto measured = ok;
    for (const auto& l : lacking) measured += l.second;
    out.push_back(std::to_string(it->second) + " of " + std::to_string(measured) +
                  " measured points implausible: a figure broke a physical bound (" + which +
                  "), so it is a measurement gone wrong, not a result; the verdicts (most efficient, compare) "
                  "leave them out");
  }
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
  it = flags.find("contended");
  if (it != flags.end())
    out.push_back(std::to_string(it->second) + " of " + std::to_string(ok) +
                  " points contended: other processes took more of the workload's CPU time than allowed, "
                  "after the retries; the verdicts (most efficient, compare) leave them out");
  it = flags.find("rse_unmet");
  if (it != flags.end())
    out.push_back(std::to_string(it->second) + " of " + std::to_string(ok) +
                  " points ended short of their precision target (rse_unmet): their figures are less certain "
                  "than asked, and the verdicts (most efficient, compare) leave them out");
  return out;
}

std::string point_tally::shortfall() const {
  std::int64_t short_of = failed + skipped;
  for (const auto& l : lacking) short_of += l.second;
  if (short_of == 0) return {};
  const auto total = ok + short_of;
  // One kind of shortfall: said as before.
  if (short_of == failed)
    return std::to_string(failed) + " of " + std::to_string(total) + " points failed (most often: " +
           most_common(fail_reasons) + ")";
  if (short_of == skipped && ok == 0)
    return "no point was measured: all " + std::to_string(skipped) + " were skipped (most often: " +
           most_common(skip_reasons) + ")";
  std::string counts;
  const auto add = [&](std::int64_t n, const std::string& state) {
    if (n > 0) counts += (counts.empty() ? "" : ", ") + std::to_string(n) + " " + state;
  };
  add(failed, "failed");
  add(skipped, "skipped");
  for (const auto& l : lacking) add(l.second, l.first);
  std::string why;
  const bool implausible = lacking.count(k_implausible) > 0;
  if (failed > 0) why = " (most often failed: " + most_common(fail_reasons) + ")";
  else if (skipped > 0) why = " (most often skipped: " + most_common(skip_reasons) + ")";
  return std::to_string(short_of) + " of " + std::to_string(total) +
         (implausible ? " points lack their main metrics, broke a physical bound or did not run: "
                      : " points lack their main metrics or did not run: ") +
         counts + why;
}

}  // namespace jetperf::jobs
