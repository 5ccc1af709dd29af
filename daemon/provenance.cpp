#include "provenance.hpp"


#include <jetperf/api/provenance_views.hpp>
#include <jetperf/config.hpp>
#include <jetperf/platform/sysfs_root.hpp>
#include <jetperf/telemetry/rail_role.hpp>
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

// An INA3221 hwmon channel's averaging, as its driver configures it (the Linux hwmon ABI:
// `samples` averaged per reading, `update_interval` in ms = conversion times x samples x
// channels): what each reading's window is, for an estimate that resolves below it.
void put_hwmon_averaging(nlohmann::json& channel, const platform::sysfs_root& root, const std::string& source) {
  const auto at = source.find("/hwmon/hwmon");
  if (at == std::string::npos) return;
  const auto end = source.find('/', at + 12);
  if (end == std::string::npos) return;
  const auto dir = source.substr(0, end);
  if (const auto n = root.try_read_int(dir + "/samples")) channel["averaging_samples"] = *n;
  if (const auto ms = root.try_read_int(dir + "/update_interval")) channel["update_interval_ms"] = *ms;
}

nlohmann::json sensor_part(const telemetry::sampler& sampler, const std::string& sysfs_root) {
  const platform::sysfs_root root(sysfs_root);
  nlohmann::json channels = nlohmann::json::array();
  for (const auto& c : sampler.channels()) {
    if (c.kind != telemetry::channel_kind::power) continue;
    nlohmann::json channel = {{"name", c.name}, {"source", c.source}, {"driver", power_driver_of(c.source)}};
    // The role makes a total comparable across boards whose rails are named differently.
    if (c.name.rfind("rail.", 0) == 0) channel["role"] = telemetry::rail_role(c.name.substr(5));
    else if (c.name == "power.total") channel["role"] = "total";
    put_hwmon_averaging(channel, root, c.source);
    channels.push_back(std::move(channel));
  }
  // Only what the driver states (hwmon's update_interval); where none does (L4T r32's ina3221x),
  // the board's sensor card says it (app.cpp), or nothing: the sampler's own period is not the
  // sensor's. Each point's rows carry the period it used and where it came from.
  const bool stated = sampler.update_period_stated();
  return {{"channels", channels},
          {"update_period_s", stated ? nlohmann::json(sampler.update_period_s()) : nlohmann::json()},
          {"update_period_source", stated ? nlohmann::json("nominal") : nlohmann::json()}};
}

nlohmann::json sampling_part(const telemetry::sampler& sampler) {
  const auto h = sampler.health();
  return {{"period_s", h.period_s},           {"achieved_rate_hz", h.achieved_rate_hz},
          {"jitter_p50_s", h.jitter_p50_s},   {"jitter_p99_s", h.jitter_p99_s},
          {"missed_ticks", h.missed_ticks},   {"ticks", h.ticks}};
}

}  // namespace

std::string power_driver_of(const std::string& source) {
  if (source.find("/power1_input") != std::string::npos) return "ina238 (hwmon)";
  if (source.find("/hwmon") != std::string::npos) return "ina3221 (hwmon)";
  if (source.find("iio:device") != std::string::npos) return "ina3221 (iio)";
  if (source.rfind("/", 0) == 0) return "sysfs";
  return source;
}

nlohmann::json job_provenance(const board_selection& board, const telemetry::sampler* sampler,
                              const platform::board_fidelity* fidelity) {
  nlohmann::json j;
  j["board"] = board_part(board);
  j["jetperf"] = {{"version", JETPERF_VERSION}, {"commit", JETPERF_GIT_COMMIT}};
  if (sampler) {
    j["power_sensor"] = sensor_part(*sampler, board.sysfs_root);
    j["sampling"] = sampling_part(*sampler);
  }
  // Asked each time (a job records it at its start and end): the CUDA plugin's versions appear
  // once CUDA work has loaded it, and only then.
  j["backends"] = api::backend_versions_json(workloads::loaded_backend_versions());
  j["simulation"] = api::fidelity_json(fidelity ? fidelity->describe() : platform::fidelity_summary{});
  return j;
}

}  // namespace jetperf::daemon
