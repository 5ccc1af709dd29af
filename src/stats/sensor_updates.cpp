#include <jetperf/stats/sensor_updates.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace jetperf::stats {

namespace {

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(pos);
  const auto hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

}  // namespace

namespace {

// Consecutive polls (prev, at) of the channel, relative to the first, split by whether the value
// changed between them.
struct poll_pairs {
  std::vector<std::pair<double, double>> changed, unchanged;
};

// Whether an update at phase + k * period falls between the two polls of `q`.
bool has_update(const std::pair<double, double>& q, double period, double phase) {
  return std::floor((q.second - phase) / period) > std::floor((q.first - phase) / period);
}

// How well updates at phase + k * period explain the polls: +1 for a change with an update
// between its polls, -1 for an unchanged pair with one (an update that moved nothing costs the
// chip's own clock too, where a channel's steps are coarse, but a wrong phase puts nearly every
// update in an unchanged pair). A half-written total adds a change no candidate explains,
// equally for all.
long score(const poll_pairs& p, double period, double phase, std::size_t from_changed, std::size_t from_unchanged) {
  long s = 0;
  for (std::size_t i = from_changed; i < p.changed.size(); ++i) s += has_update(p.changed[i], period, phase);
  for (std::size_t i = from_unchanged; i < p.unchanged.size(); ++i) s -= has_update(p.unchanged[i], period, phase);
  return s;
}

struct candidate {
  double period = 0, phase = 0;
  long score = std::numeric_limits<long>::min();
};

// score() at one period for the phases phase0 + j * step, j = 0 .. count - 1, all at once: a
// pair puts an update between its polls for the phases in (first - kP, second - kP] (some k),
// so each pair adds its +1 or -1 over a run of the grid (a difference array), in O(pairs +
// count) rather than O(pairs x count).
void score_phases(const poll_pairs& p, double period, double phase0, double step, int count, std::size_t from_changed,
                  std::size_t from_unchanged, std::vector<long>& out) {
  std::vector<long> diff(static_cast<std::size_t>(count) + 1, 0);
  const double span = step * (count - 1);
  const auto add = [&](const std::pair<double, double>& q, long w) {
    if (q.second - q.first >= period) {  // a whole period between the polls: every phase
      diff[0] += w;
      return;
    }
    const double a = q.first - phase0;
    const double lo = a - std::floor(a / period) * period;  // in [0, period)
    const double len = q.second - q.first;
    // The pieces (lo + kP, lo + len + kP] that reach the grid [0, span].
    for (double off = lo - period; off <= span; off += period) {
      const double hi = off + len;
      if (hi < 0) continue;
      const long j_lo = std::max(0L, static_cast<long>(std::floor(off / step)) + 1);
      const long j_hi = std::min(static_cast<long>(count) - 1, static_cast<long>(std::floor(hi / step)));
      if (j_lo > j_hi) continue;
      diff[static_cast<std::size_t>(j_lo)] += w;
      diff[static_cast<std::size_t>(j_hi) + 1] -= w;
    }
  };
  for (std::size_t i = from_changed; i < p.changed.size(); ++i) add(p.changed[i], 1);
  for (std::size_t i = from_unchanged; i < p.unchanged.size(); ++i) add(p.unchanged[i], -1);
  out.assign(static_cast<std::size_t>(count), 0);
  long run = 0;
  for (int j = 0; j < count; ++j) out[static_cast<std::size_t>(j)] = run += diff[static_cast<std::size_t>(j)];
}

// The best (period, phase) on a grid of `n` periods and `m` phases around `c`. Where several
// explain the polls equally, the middle one: a poll period the update period is nearly a
// multiple of leaves a whole range of periods tied on a short stretch of polls, and its edge
// (the first one met) is the worst guess for the stretches after it.
candidate search(const poll_pairs& p, candidate c, double period_span, int n, double phase_span, int m,
                 std::size_t from_changed, std::size_t from_unchanged) {
  candidate best;
  std::vector<std::pair<int, int>> tied;
  std::vector<long> scores;
  const double step = phase_span / m;
  for (int i = -n; i <= n; ++i) {
    const double period = c.period + period_span * i / n;
    if (period <= 0) continue;
    score_phases(p, period, c.phase - phase_span, step, 2 * m + 1, from_changed, from_unchanged, scores);
    for (int j = -m; j <= m; ++j) {
      const long sc = scores[static_cast<std::size_t>(j + m)];
      if (sc > best.score) best = {period, c.phase + phase_span * j / m, sc}, tied.clear();
      if (sc == best.score) tied.emplace_back(i, j);
    }
  }
  if (tied.size() > 1) {
    // The middle period of the tie, then the middle phase of those tied at it.
    const int i = tied[tied.size() / 2].first;
    std::vector<int> phases;
    for (const auto& t : tied)
      if (t.first == i) phases.push_back(t.second);
    best.period = c.period + period_span * i / n;
    best.phase = c.phase + phase_span * phases[phases.size() / 2] / m;
  }
  return best;
}

// A poll's time relative to the stream's first, in ns.
// How far a stated period may be from the chip's: half a millisecond of rounding, and more.
constexpr double k_stated_rounding_ns = 600'000;

double since_start(std::int64_t t, std::int64_t t0) { return static_cast<double>(t - t0); }

// The polls split into pairs, and the spacing of consecutive changes (the fallback nominal
// period when the configuration gives none).
struct split_polls {
  poll_pairs pairs;
  std::vector<double> change_gaps;
};

split_polls split_by_change(const std::vector<std::pair<std::int64_t, double>>& samples, std::int64_t t0) {
  split_polls out;
  double last_change = -1;
  for (std::size_t i = 1; i < samples.size(); ++i) {
    const std::pair<double, double> q{since_start(samples[i - 1].first, t0), since_start(samples[i].first, t0)};
    if (samples[i].second != samples[i - 1].second) {
      out.pairs.changed.push_back(q);
      if (last_change >= 0) out.change_gaps.push_back(q.second - last_change);
      last_change = q.second;
    } else {
      out.pairs.unchanged.push_back(q);
    }
  }
  return out;
}

// An update is located between the last poll that did not see it and the first that did: with
// no poll in between two updates there is no such pair, and no phase explains better than another.
bool poll_too_slow(const std::vector<std::pair<std::int64_t, double>>& samples, std::int64_t t0, double nominal_ns,
                   sensor_update_fit& out) {
  std::vector<double> spacing;
  spacing.reserve(samples.size());
  for (std::size_t i = 1; i < samples.size(); ++i)
    spacing.push_back(since_start(samples[i].first, t0) - since_start(samples[i - 1].first, t0));
  const double poll_ns = quantile(std::move(spacing), 0.5);
  if (poll_ns < 0.9 * nominal_ns) return false;
  char why[160];
  std::snprintf(why, sizeof why, "the sensor updates every %.3g ms but is read every %.3g ms: its updates cannot be placed",
                nominal_ns * 1e-6, poll_ns * 1e-6);
  out.unusable = why;
  out.poll_too_slow = true;
  return true;
}

// Where the pairs of the newest `changed` changes start: the coarse grids see only those, since
// a period off by one coarse step drifts a whole poll spacing over a hundred updates.
std::pair<std::size_t, std::size_t> newest(const poll_pairs& pairs, std::size_t changed) {
  const double since = pairs.changed.size() > changed ? pairs.changed[pairs.changed.size() - changed].first : 0.0;
  std::size_t u = 0;
  while (u < pairs.unchanged.size() && pairs.unchanged[u].first < since) ++u;
  return std::make_pair(pairs.changed.size() > changed ? pairs.changed.size() - changed : 0, u);
}

// The updates' clock, found as the one that best explains which polls changed: the period near
// the nominal one (the sensor's oscillator is not the CPU's, and hwmon rounds to a millisecond),
// the phase anywhere in a period. Coarse to fine, on more polls as the grid tightens.
candidate fit_clock(const poll_pairs& pairs, double nominal_ns, double span, const sensor_update_fit* previous,
                    std::int64_t t0) {
  candidate c{nominal_ns, nominal_ns / 2, 0};
  // Each finer grid spans `reach` steps of the one before either side: from scratch, ties and
  // poll jitter leave a coarse fit a step or two from the best, never exactly on it; a previous
  // fit of the same stream is within a step.
  int reach = 3;
  if (previous && previous->period_s > 0) {
    reach = 1;
    // Where the previous fit put the updates, carried to this stream's start.
    c.period = previous->period_s * 1e9;
    c.phase = std::fmod(static_cast<double>(previous->update_ns - t0), c.period);
    if (c.phase < 0) c.phase += c.period;
  } else {
    const auto a = newest(pairs, 100), b = newest(pairs, 600);
    c = search(pairs, c, nominal_ns * span, 100, nominal_ns / 2, 50, a.first, a.second);
    // A's period is relative to the stream's start but fitted to its end: every phase again.
    c = search(pairs, c, nominal_ns * span * reach / 100, 20 * reach, nominal_ns / 2, 40, b.first, b.second);
  }
  c = search(pairs, c, nominal_ns * span * reach / 2000, 20 * reach, nominal_ns / 40, 20, 0, 0);
  c = search(pairs, c, nominal_ns * span * reach / 40000, 10 * reach, nominal_ns / 800, 20, 0, 0);
  return c;
}

// Every phase between the latest poll before an update and the earliest one after it explains
// the polls equally: the update is placed in the middle of that range, not at its edge. Returns
// half the range, in ns.
double center_phase(const poll_pairs& pairs, double nominal_ns, candidate& c) {
  const double step = nominal_ns / 4000;
  double lo = c.phase, hi = c.phase;
  while (hi - c.phase < nominal_ns / 4 && score(pairs, c.period, hi + step, 0, 0) == c.score) hi += step;
  while (c.phase - lo < nominal_ns / 4 && score(pairs, c.period, lo - step, 0, 0) == c.score) lo -= step;
  c.phase = (lo + hi) / 2;
  return (hi - lo) / 2;
}

// One reading per update with a poll after it: placed at the update, with the value of the
// last poll in the first three quarters of its period (the settled value: the first poll after
// an update may read a total summed from rail files half written; a poll close to the next
// update may already read that one). Returns how late the first poll saw each update, in s.
std::vector<double> place_readings(const std::vector<std::pair<std::int64_t, double>>& samples, std::int64_t t0,
                                   const candidate& c, std::vector<power_reading>& readings) {
  const auto rel = [t0](std::int64_t t) { return since_start(t, t0); };
  std::vector<double> lateness;
  const double first_k = std::ceil((rel(samples.front().first) - c.phase) / c.period);
  std::size_t i = 0;
  for (double k = first_k;; ++k) {
    const double u = c.phase + k * c.period, next = u + c.period;
    while (i < samples.size() && rel(samples[i].first) <= u) ++i;
    if (i >= samples.size()) break;
    if (rel(samples[i].first) > next) continue;  // no poll saw this update
    std::size_t last = i;
    while (last + 1 < samples.size() && rel(samples[last + 1].first) <= u + 0.75 * c.period) ++last;
    if (rel(samples.back().first) <= next) break;  // the next update is not seen yet: the value may not have settled
    readings.push_back({t0 + static_cast<std::int64_t>(std::llround(u)), samples[last].second});
    lateness.push_back((rel(samples[i].first) - u) * 1e-9);
  }
  return lateness;
}

// How many changes have an update at phase + k * period between their polls.
std::size_t explained_changes(const poll_pairs& pairs, double period, double phase) {
  std::size_t n = 0;
  for (const auto& q : pairs.changed) n += has_update(q, period, phase);
  return n;
}

// Changes a clock of a whole multiple of the fitted period must explain, of those the fitted
// one does, to be the sensor's: all but a few changes its polls happened to straddle badly.
constexpr double k_multiple_explains = 0.97;

// The sensor's period where the fitted one is a fraction of it: a nominal period that is not the
// chip's (TX2's iio driver gives none, and the sampler's 10 ms stands in for the chip's 19.6)
// leaves the search only a clock with an update at every change and one between each pair of
// them, where the value never moves. That clock explains every change; so does the largest
// multiple of it, at one of its offsets, that is the chip's. (The chip's own clock at a coarse
// channel, whose value stays at many updates, is no fraction: a multiple of it misses the
// changes at the updates it skips.)
candidate whole_period(const poll_pairs& pairs, const candidate& c) {
  const auto base = static_cast<double>(explained_changes(pairs, c.period, c.phase));
  if (base < 3) return c;
  for (int m = 8; m >= 2; --m)
    for (int j = 0; j < m; ++j) {
      const double period = m * c.period, phase = std::fmod(c.phase + j * c.period, period);
      if (static_cast<double>(explained_changes(pairs, period, phase)) >= k_multiple_explains * base)
        return {period, phase, score(pairs, period, phase, 0, 0)};
    }
  return c;
}

// The changes with no update of the fitted clock between their polls. (Not the score's
// complement: an update whose value did not move is common where a rail's steps are coarse, a
// current steady within the chip's 8 mA, and it leaves no change to explain.)
void count_unexplained(const poll_pairs& pairs, const candidate& c, sensor_update_fit& out) {
  out.extra_changes = pairs.changed.size() - explained_changes(pairs, c.period, c.phase);
  if (out.extra_changes * 2 > pairs.changed.size()) {
    // No regular clock explains most changes (half-written totals are a few percent of them).
    out.unusable = "the sensor's updates follow no regular clock: " + std::to_string(out.extra_changes) + " of " +
                   std::to_string(pairs.changed.size()) + " changes unexplained";
    out.readings.clear();
  }
}

}  // namespace

sensor_update_fit fit_sensor_updates(const std::vector<std::pair<std::int64_t, double>>& samples, double nominal_period_s,
                                     const sensor_update_fit* previous) {
  sensor_update_fit out;
  out.nominal_period_s = nominal_period_s;
  if (samples.empty()) return out;
  const std::int64_t t0 = samples.front().first;
  const split_polls polls = split_by_change(samples, t0);
  const poll_pairs& pairs = polls.pairs;
  out.changes = pairs.changed.size();
  if (pairs.changed.size() < 3) return out;

  // Without a configured period, the changes' median spacing, searched more widely.
  double nominal_ns = nominal_period_s * 1e9;
  // Around a stated period: hwmon's update_interval is whole milliseconds (8.5 ms says 9), and a
  // chip's oscillator is a few percent off its nominal rate.
  double span = nominal_ns > 0 ? std::max(0.05, k_stated_rounding_ns / nominal_ns) : 0.05;
  if (!(nominal_ns > 0)) {
    nominal_ns = quantile(polls.change_gaps, 0.5);
    span = 0.3;
  }
  if (!(nominal_ns > 0)) return out;
  if (poll_too_slow(samples, t0, nominal_ns, out)) return out;
  candidate c = whole_period(pairs, fit_clock(pairs, nominal_ns, span, previous, t0));
  // A multiple found: the chip's period is the scale of the phase search from here.
  if (c.period > 1.5 * nominal_ns) nominal_ns = c.period;
  out.phase_uncertainty_s = center_phase(pairs, nominal_ns, c) * 1e-9;
  out.period_s = c.period * 1e-9;
  out.update_ns = t0 + static_cast<std::int64_t>(std::llround(c.phase));

  const std::vector<double> lateness = place_readings(samples, t0, c, out.readings);
  count_unexplained(pairs, c, out);
  out.lateness_median_s = quantile(lateness, 0.5);
  out.lateness_iqr_s = quantile(lateness, 0.75) - quantile(lateness, 0.25);
  return out;
}

}  // namespace jetperf::stats
