#include "telemetry_setup.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <spdlog/spdlog.h>

#include <jetperf/common/clock.hpp>
#include <jetperf/platform/sysfs_root.hpp>
#include <jetperf/telemetry/clock_sensor.hpp>
#include <jetperf/telemetry/engine_sensor.hpp>
#include <jetperf/telemetry/cpu_util_sensor.hpp>
#include <jetperf/telemetry/power_rails.hpp>
#include <jetperf/telemetry/rail_sensor.hpp>
#include <jetperf/telemetry/rapl_sensor.hpp>
#include <jetperf/telemetry/tegrastats_sensor.hpp>
#include <jetperf/telemetry/thermal_sensor.hpp>

namespace jetperf::daemon {

namespace {

constexpr std::int64_t k_prune_every_ns = 60'000'000'000;  // history pruning is cheap but not free

template <typename Sensor>
void add_unless_empty(std::vector<std::unique_ptr<telemetry::sensor>>& out, std::unique_ptr<Sensor> s,
                      const char* what) {
  if (s->empty()) {
    spdlog::info("telemetry: no {}", what);
    return;
  }
  out.push_back(std::move(s));
}

}  // namespace

std::vector<std::unique_ptr<telemetry::sensor>> make_sensors(board_selection& board,
                                                             std::optional<double>* update_period_s) {
  std::optional<double> unused;
  if (!update_period_s) update_period_s = &unused;
  std::vector<std::unique_ptr<telemetry::sensor>> sensors;
  const platform::sysfs_root root(board.sysfs_root);

  // Power first: the first sensor with a total power channel provides power.total.
  if (board.nvml) sensors.push_back(std::move(board.nvml));
  const auto rails = telemetry::discover_rails(root);
  if (!rails.empty()) {
    auto rail = std::make_unique<telemetry::rail_sensor>(root, rails);
    const auto input = telemetry::input_rail_index(rails);
    spdlog::info("telemetry: {} INA3221 rails; total power = {}", rails.size(),
                 input ? "input rail " + rails[*input].name : std::string("sum of the rails"));
    rail->sanity_check();
    sensors.push_back(std::move(rail));
    *update_period_s = telemetry::rails_update_interval_s(rails);
  } else if (board.controller && board.controller->info().jetson) {
    // A Jetson whose rails cannot be read directly (permissions, unknown layout): tegrastats.
    try {
      sensors.push_back(std::make_unique<telemetry::tegrastats_sensor>(board.tegrastats_path, 100));
      *update_period_s = 0.1;  // tegrastats prints every --interval 100 ms
      spdlog::info("telemetry: rails from {}", board.tegrastats_path);
    } catch (const std::exception& e) {
      spdlog::warn("telemetry: no rails and no tegrastats ({})", e.what());
    }
  } else {
    add_unless_empty(sensors, std::make_unique<telemetry::rapl_sensor>(root), "RAPL energy counters");
  }
  add_unless_empty(sensors, std::make_unique<telemetry::thermal_sensor>(root), "thermal zones");
  add_unless_empty(sensors, std::make_unique<telemetry::clock_sensor>(root), "clocks");
  add_unless_empty(sensors, std::make_unique<telemetry::engine_sensor>(root), "engine clocks");
  // Utilisation is the running kernel's: a board tree without /proc/stat (fixtures, simulated
  // boards whose load is the host's) reads the host's.
  const platform::sysfs_root proc_root(root.exists("/proc/stat") ? board.sysfs_root : std::string("/"));
  sensors.push_back(std::make_unique<telemetry::cpu_util_sensor>(proc_root));
  return sensors;
}

telemetry::sampler_config sampler_config_of(const daemon_config& config, std::optional<double> sensor_update_s) {
  telemetry::sampler_config c;
  c.period_ns = static_cast<std::int64_t>(config.sample_period_ms) * 1'000'000;
  c.fast_period_ns = static_cast<std::int64_t>(config.fast_sample_period_ms) * 1'000'000;
  // The sensor's own period, as its driver states it, even where the sampler reads more slowly:
  // a point that places its updates (the sensor card, in_context) polls at the fastest tick.
  if (sensor_update_s) c.update_period_s = *sensor_update_s;
  c.history_period_ns = static_cast<std::int64_t>(config.history_period_ms) * 1'000'000;
  const std::uint32_t idle_ms =
      config.idle_sample_period_ms != 0
          ? config.idle_sample_period_ms
          : std::min(config.history_period_ms, std::max<std::uint32_t>(config.sample_period_ms, 100));
  c.idle_period_ns = static_cast<std::int64_t>(idle_ms) * 1'000'000;
  // About half a minute of samples in memory for measurement windows, whatever the period (4.6 MB
  // at 10 ms for 64 channels, resident only as it fills); a longer window reads its start from the
  // job's stored samples (sampler::set_archive).
  c.ring_capacity = std::max<std::size_t>(1u << 14, static_cast<std::size_t>(30'000 / config.sample_period_ms) * 64);
  return c;
}

sample_persister::sample_persister(store::sample_store& store,
                                   const std::vector<telemetry::channel_info>& channels,
                                   std::int64_t retention_ns)
    : store_(store), retention_ns_(retention_ns) {
  ids_.reserve(channels.size());
  for (const auto& c : channels) ids_.push_back(store_.channel_id(c.name, c.unit, c.source));
  for (std::size_t i = 0; i < ids_.size(); ++i) index_of_.emplace(ids_[i], static_cast<int>(i));
}

void sample_persister::operator()(std::int64_t job_id, const std::vector<telemetry::sample>& batch) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<store::sample_row> rows;
  rows.reserve(batch.size());
  for (const auto& s : batch) {
    if (!std::isfinite(s.value) || s.channel < 0 || static_cast<std::size_t>(s.channel) >= ids_.size()) continue;
    rows.push_back({ids_[static_cast<std::size_t>(s.channel)], s.t_ns, s.value});
  }
  try {
    if (!rows.empty()) store_.insert(job_id, rows);
    stored_ += rows.size();
    const std::int64_t now = monotonic_ns();
    if (job_id == 0 && now - last_prune_ns_ > k_prune_every_ns) {
      last_prune_ns_ = now;
      const auto deleted = store_.prune_history(now - retention_ns_);
      if (deleted > 0) spdlog::debug("telemetry: pruned {} history samples", deleted);
    }
  } catch (const std::exception& e) {
    // Logged for the first few failures only: a full disk would otherwise flood the log.
    if (++failures_ <= 5) spdlog::error("telemetry: {} samples of job {} not stored: {}", rows.size(), job_id, e.what());
    // A window over this stretch cannot be read back whole: say so rather than average a gap.
    if (job_id > 0 && !batch.empty()) {
      auto& lost = lost_until_.emplace(job_id, std::numeric_limits<std::int64_t>::min()).first->second;
      lost = std::max(lost, batch.back().t_ns);
    }
  }
}

std::vector<telemetry::sample> sample_persister::read(std::int64_t job_id, std::int64_t from_ns,
                                                      std::int64_t to_ns) const {
  std::vector<telemetry::sample> out;
  for (const auto& row : store_.query(job_id, std::nullopt, from_ns, to_ns)) {
    const auto it = index_of_.find(row.channel_id);
    if (it != index_of_.end()) out.push_back({it->second, row.t_ns, row.value});
  }
  return out;
}

std::int64_t sample_persister::lost_until_ns(std::int64_t job_id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = lost_until_.find(job_id);
  return it == lost_until_.end() ? std::numeric_limits<std::int64_t>::min() : it->second;
}

std::uint64_t sample_persister::stored() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stored_;
}

}  // namespace jetperf::daemon
