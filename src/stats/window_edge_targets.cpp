#include <jetperf/stats/window_edge_targets.hpp>

#include <cmath>

namespace jetperf::stats {

void run_offsets::add_run(const std::vector<layer_span>& spans) {
  if (spans.empty()) return;
  const auto t0 = spans.front().start_ns;
  for (const auto& s : spans) {
    const auto l = static_cast<std::size_t>(s.layer);
    if (l >= n_.size()) continue;
    start_[l] += static_cast<double>(s.start_ns - t0);
    end_[l] += static_cast<double>(s.end_ns - t0);
    ++n_[l];
  }
}

double run_offsets::start_ns(int layer) const {
  const auto l = static_cast<std::size_t>(layer);
  return n_.at(l) ? start_[l] / static_cast<double>(n_[l]) : std::nan("");
}

double run_offsets::end_ns(int layer) const {
  const auto l = static_cast<std::size_t>(layer);
  return n_.at(l) ? end_[l] / static_cast<double>(n_[l]) : std::nan("");
}

std::vector<edge_target> edge_targets(const layer_power_result& estimate, const run_offsets& offsets,
                                      double target_rel, double margin_ns) {
  std::vector<edge_target> out;
  for (const auto& u : estimate.units) {
    const double rel = u.rel_half_width();
    if (rel <= target_rel || !std::isfinite(rel)) continue;
    double from = INFINITY, to = -INFINITY;
    for (int l : u.layers) {
      if (!offsets.seen(l)) continue;
      from = std::min(from, offsets.start_ns(l));
      to = std::max(to, offsets.end_ns(l));
    }
    if (!(from <= to)) continue;
    out.push_back({std::max(0.0, from - margin_ns), to + margin_ns});
  }
  return out;
}

std::int64_t delay_for_update_at(std::int64_t now_ns, double offset_ns, std::int64_t update_ns, double period_ns) {
  // The first update at or after now + offset, less now + offset.
  const double since = std::fmod(static_cast<double>(now_ns - update_ns) + offset_ns, period_ns);
  const double wait = since <= 0 ? -since : period_ns - since;
  return static_cast<std::int64_t>(std::llround(std::fmod(wait, period_ns)));
}

}  // namespace jetperf::stats
