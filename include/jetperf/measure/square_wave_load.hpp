#pragma once
// The sensor card's own load: the CPU (or the GPU, through a device step) busy, then idle, in halves of a known length, so that the
// power channels' readings hold steps at times the card knows (stats/sensor_card.hpp). The
// load threads spin through each busy half at the lowest priority, the first noting each edge as
// it crosses it, while the calling thread keeps the schedule. The busy halves are noted as work (common/work_activity),
// which a simulated board's rails follow, as a real board's follow the cores.
#include <functional>
#include <string>
#include <vector>

#include <jetperf/stats/sensor_card.hpp>

namespace jetperf::measure {

struct square_wave_plan {
  double lead_s = 0.3;        ///< idle before the first edge (the levels' first stretch)
  double half_period_s = 0.1;  ///< length of each busy and idle half
  int edges = 30;              ///< busy/idle changes, from a rising one
  int threads = 1;             ///< busy threads (CPU load; one thread drives a device_step)
  /// The load on another device (the GPU's half, kinds/sensor): called over and over through
  /// each busy half by one load thread, each call a short stretch of the device's work (a few
  /// milliseconds) that returns when it is done; false, with its reason, ends the wave. The
  /// thread's CPU work is not noted (work_activity): it sleeps while the device works. Empty:
  /// the load threads spin on the CPU.
  std::function<bool(std::string* why)> device_step;
};

/// Runs the plan and ends idle one half after the last edge; returns the edges as they happened.
/// `cancelled` is polled every few milliseconds: a cancelled wave stops at once, with the edges
/// made so far. Throws std::runtime_error with the step's reason when a device_step fails (after
/// the wave has stopped and its threads ended).
std::vector<stats::load_edge> run_square_wave(const square_wave_plan& plan, const std::function<bool()>& cancelled);

}  // namespace jetperf::measure
