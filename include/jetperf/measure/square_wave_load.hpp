#pragma once
// The sensor card's own load: the CPU busy, then idle, in halves of a known length, so that the
// power channels' readings hold steps at times the card knows (measure/sensor_card.hpp). The
// load threads spin through each busy half at the lowest priority, the first noting each edge as
// it crosses it, while the calling thread keeps the schedule. The busy halves are noted as work (common/work_activity),
// which a simulated board's rails follow, as a real board's follow the cores.
#include <functional>
#include <vector>

#include <jetperf/measure/sensor_card.hpp>

namespace jetperf::measure {

struct square_wave_plan {
  double lead_s = 0.3;        ///< idle before the first edge (the levels' first stretch)
  double half_period_s = 0.1;  ///< length of each busy and idle half
  int edges = 30;              ///< busy/idle changes, from a rising one
  int threads = 1;             ///< busy threads
};

/// Runs the plan and ends idle one half after the last edge; returns the edges as they happened.
/// `cancelled` is polled every few milliseconds: a cancelled wave stops at once, with the edges
/// made so far.
std::vector<load_edge> run_square_wave(const square_wave_plan& plan, const std::function<bool()>& cancelled);

}  // namespace jetperf::measure
