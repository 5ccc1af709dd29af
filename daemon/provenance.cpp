#include "provenance.hpp"

#include <mutex>

#include <jetperf/config.hpp>
#include <jetperf/workloads/backend_versions.hpp>

namespace jetperf::daemon {
namespace {

nlohmann::json board_part(const board_selection& board) {
  nlohmann::json j = board.identity();
  j.erase("sim_dir");
  if (board.controller) {
    const auto& info = board.controller->info();
    j["model"] = info.model;
    j["module"] = info.module;
    j["soc"] = info.soc;
    j["l4t"] = info.l4t;
    j["jetpack"] = info.jetpack;
  }
  return j;
}

nlohmann::json sensor_part(const telemetry::sampler& sampler) {
  nlohmann::json channels = nlohmann::json::array();
  for (const auto& c : sampler.channels()) {
    if (c.kind != telemetry::channel_kind::power) continue;
    channels.push_back({{"name", c.name}, {"source", c.source}, {"driver", power_driver_of(c.source)}});
  }
  return {{"channels", channels}, {"update_period_s", sampler.update_period_s()}};
}

nlohmann::json sampling_part(const telemetry::sampler& sampler) {
  const auto h = sampler.health();
  return {{"period_s", h.period_s},           {"achieved_rate_hz", h.achieved_rate_hz},
          {"jitter_p50_s", h.jitter_p50_s},   {"jitter_p99_s", h.jitter_p99_s},
          {"missed_ticks", h.missed_ticks},   {"ticks", h.ticks}};
}

}  // namespace

std::string power_driver_of(const std::string& source) {
  if (source.find("/hwmon") != std::string::npos) return "ina3221 (hwmon)";
  if (source.find("iio:device") != std::string::npos) return "ina3221 (iio)";
  if (source.rfind("/", 0) == 0) return "sysfs";
  return source;
}

nlohmann::json job_provenance(const board_selection& board, const telemetry::sampler* sampler,
                              const platform::board_fidelity* fidelity) {
  static std::once_flag once;
  static nlohmann::json backends;
  std::call_once(once, [] { backends = workloads::backend_versions(); });

  nlohmann::json j;
  j["board"] = board_part(board);
  j["jetperf"] = {{"version", JETPERF_VERSION}, {"commit", JETPERF_GIT_COMMIT}};
  if (sampler) {
    j["power_sensor"] = sensor_part(*sampler);
    j["sampling"] = sampling_part(*sampler);
  }
  j["backends"] = backends;
  j["simulation"] = fidelity ? fidelity->describe() : nlohmann::json{{"simulated", false}};
  return j;
}

}  // namespace jetperf::daemon
