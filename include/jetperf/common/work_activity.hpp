#pragma once
// What the workload threads are doing, op by op, for a simulated board's power model: a CPU's
// power depends on the work it does (dense convolutions switch far more logic per cycle than an
// element-wise op), which no thread CPU clock shows. The layer backends say when each op starts
// and how dense it is (multiply-accumulates per byte moved); the rail simulator reads it back per
// sensor window. A real board measures this itself, so nothing reads it there, and a note costs
// one relaxed atomic load until a simulator enables the log.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace jetperf::activity {

/// Whether anything reads the log (a simulated board in this process). Counted: each enable()
/// needs its disable().
bool enabled();
void enable();
void disable();

/// From now on the calling thread runs work of `macs_per_byte` (an op's arithmetic intensity).
void begin_work(double macs_per_byte);
/// The calling thread's work ended (a run finished, the thread waits).
void end_work();
/// As begin_work / end_work at time `t_ns` (CLOCK_MONOTONIC), on behalf of thread `source` (tests).
void note(std::int64_t t_ns, int source, std::optional<double> macs_per_byte);

/// What the noting threads did in [from_ns, to_ns], read in one pass over the log.
struct work_in_window {
  /// Each thread that worked in it: the share of the time it was working.
  std::map<int, double> shares;
  /// The mean of `f(macs_per_byte)` over it, weighted by the time each thread worked; nullopt
  /// when no thread worked.
  std::optional<double> mean;
  /// Every thread the log knows (one that noted work, and has not been forgotten): its work is
  /// what it noted, so one with no share did none in the window.
  std::set<int> noting;
};
work_in_window work_between(std::int64_t from_ns, std::int64_t to_ns, const std::function<double(double)>& f);

/// From when on work_between answers exactly (CLOCK_MONOTONIC): the oldest note the log still
/// keeps, once it has had to drop older ones; the lowest int64 before that.
std::int64_t exact_since_ns();

}  // namespace jetperf::activity
