#include <jetperf/traces/trace_alignment.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>

#include <jetperf/common/errors.hpp>

namespace jetperf::traces {

namespace {

// Epoch nanoseconds after 2001-09-09: no CLOCK_MONOTONIC (uptime) or profile-relative time gets
// there, every CLOCK_REALTIME stamp of a trace does.
constexpr std::int64_t k_epoch_floor_ns = 1'000'000'000'000'000'000;
// Trace times are microseconds with at most three decimals: 1 us covers Kineto's and older
// exporters' rounding.
constexpr std::int64_t k_trace_rounding_ns = 1000;
// Differences computed while trying shifts, per name: past it only the unshifted match is tried.
constexpr std::size_t k_max_shift_work = 20'000'000;

std::int64_t median_of(std::vector<std::int64_t> v) {
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  if (v.size() % 2) return *mid;
  const auto lower = *std::max_element(v.begin(), mid);
  return lower + (*mid - lower) / 2;
}

struct marker_fit {
  std::vector<std::int64_t> differences;  // daemon_t - trace_t at each begin and end
  std::size_t matched = 0, trace_events = 0;
};

// Trace events that can stand for a marked phase: host-side ones (a record_function label, an
// op), never device work or its annotations, which lag on the device's timeline.
bool can_mark(event_category c) {
  return c != event_category::kernel && c != event_category::memcpy && c != event_category::memset &&
         c != event_category::gpu_user_annotation;
}

// Per name, the trace's events and the daemon's phases in start order. When the trace holds
// fewer (a profiler schedule records only some steps), every shift of the trace's run along the
// daemon's is tried and the one whose differences spread least is kept.
marker_fit fit_markers(const trace& t, const std::vector<reference_phase>& phases) {
  std::map<std::string, std::vector<const reference_phase*>> by_name;
  for (const auto& p : phases) by_name[p.name].push_back(&p);
  std::map<std::string, std::vector<const trace_event*>> events;
  for (const auto& e : t.events) {
    if (!can_mark(e.category)) continue;
    auto it = by_name.find(t.name_of(e));
    if (it != by_name.end()) events[it->first].push_back(&e);
  }
  marker_fit fit;
  for (auto& [name, evs] : events) {
    auto& ref = by_name[name];
    std::sort(ref.begin(), ref.end(), [](const auto* a, const auto* b) { return a->t_start_ns < b->t_start_ns; });
    std::sort(evs.begin(), evs.end(), [](const auto* a, const auto* b) { return a->ts_ns < b->ts_ns; });
    fit.trace_events += evs.size();
    const std::size_t n = std::min(evs.size(), ref.size());
    std::size_t shifts_ref = ref.size() - n, shifts_ev = evs.size() - n;
    if ((shifts_ref + shifts_ev + 1) * n > k_max_shift_work) shifts_ref = shifts_ev = 0;
    std::vector<std::int64_t> best;
    std::int64_t best_spread = std::numeric_limits<std::int64_t>::max();
    for (std::size_t sr = 0; sr <= shifts_ref; ++sr) {
      for (std::size_t se = 0; se <= shifts_ev; ++se) {
        std::vector<std::int64_t> d;
        d.reserve(2 * n);
        for (std::size_t i = 0; i < n; ++i) {
          d.push_back(ref[sr + i]->t_start_ns - evs[se + i]->ts_ns);
          d.push_back(ref[sr + i]->t_end_ns - evs[se + i]->end_ns());
        }
        const auto [lo, hi] = std::minmax_element(d.begin(), d.end());
        if (*hi - *lo < best_spread) {
          best_spread = *hi - *lo;
          best = std::move(d);
        }
      }
    }
    fit.matched += n;
    fit.differences.insert(fit.differences.end(), best.begin(), best.end());
  }
  return fit;
}

}  // namespace

const char* to_string(alignment_method m) {
  switch (m) {
    case alignment_method::explicit_offset: return "explicit";
    case alignment_method::markers: return "markers";
    case alignment_method::base_time: return "base_time";
  }
  return "explicit";
}

alignment align_trace(const trace& t, const alignment_input& in) {
  alignment a;
  a.phases = in.phases.size();
  if (in.offset_ns) {
    a.method = alignment_method::explicit_offset;
    a.offset_ns = *in.offset_ns;
    a.detail = "offset given with the upload";
    return a;
  }
  const auto fit = fit_markers(t, in.phases);
  a.trace_events = fit.trace_events;
  a.matched = fit.matched;
  if (fit.matched > 0) {
    a.method = alignment_method::markers;
    a.offset_ns = median_of(fit.differences);
    std::vector<std::int64_t> deviations;
    for (auto d : fit.differences) deviations.push_back(std::llabs(d - a.offset_ns));
    const auto mad = static_cast<double>(median_of(deviations));
    a.uncertainty_ns = std::max(in.marker_latency_ns, static_cast<std::int64_t>(std::ceil(1.4826 * mad)));
    a.detail = std::to_string(fit.matched) + " trace events matched to the job's phases by name and order";
    return a;
  }
  const bool epoch_stamps = !t.events.empty() && std::all_of(t.events.begin(), t.events.end(), [](const trace_event& e) {
    return e.ts_ns >= k_epoch_floor_ns;
  });
  if (in.clocks && (t.base_time_ns > 0 || epoch_stamps)) {
    a.method = alignment_method::base_time;
    const std::int64_t base = t.base_time_ns > 0 ? t.base_time_ns : 0;
    a.offset_ns = base - in.clocks->realtime_minus_monotonic_ns;
    a.uncertainty_ns = std::llabs(in.clocks->drift_ns) + in.clocks->read_ns + k_trace_rounding_ns;
    a.detail = t.base_time_ns > 0 ? "ts relative to baseTimeNanoseconds (CLOCK_REALTIME)"
                                  : "ts in CLOCK_REALTIME epoch microseconds";
    return a;
  }
  std::string why = "no way to align the trace with the job: ";
  why += in.phases.empty() ? "the job marked no phases" : "no event of the trace is named like a phase the job marked";
  if (t.base_time_ns > 0 || epoch_stamps)
    why += ", and the job has no clock reading to map the trace's wall-clock times";
  else
    why += ", and the trace has neither baseTimeNanoseconds nor epoch timestamps";
  throw validation_error("offset_ns", why + "; give the offset (--offset-ns, daemon_t = trace_t + offset)", "no_alignment");
}

}  // namespace jetperf::traces
