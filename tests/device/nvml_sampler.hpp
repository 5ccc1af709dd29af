#pragma once
// The machine's own GPU power sensor for the device tests: NVML's channels sampled every
// millisecond and kept for job 1, the outside truth the tests hold jetperf's figures against.
#include <memory>
#include <string>
#include <vector>

#include <jetperf/common/errors.hpp>
#include <jetperf/telemetry/nvml_sensor.hpp>
#include <jetperf/telemetry/sampler.hpp>

namespace jetperf::test {

/// A started sampler over NVML, job 1 set; nullptr with `why` ("skipped: ...") where NVML is
/// missing or device 0 gives no power (or, with `need_energy`, no energy counter).
inline std::unique_ptr<telemetry::sampler> start_nvml_sampler(bool need_energy, std::string* why) {
  std::unique_ptr<telemetry::nvml_sensor> nvml;
  try {
    nvml = std::make_unique<telemetry::nvml_sensor>();
  } catch (const unavailable& e) {
    *why = std::string("skipped: no NVML (") + e.what() + ")";
    return nullptr;
  }
  if (!nvml->devices().at(0).power || (need_energy && !nvml->devices().at(0).energy)) {
    *why = need_energy ? "skipped: this GPU's NVML gives no power or energy counter" : "skipped: this GPU's NVML gives no power";
    return nullptr;
  }
  std::vector<std::unique_ptr<telemetry::sensor>> sensors;
  sensors.push_back(std::move(nvml));
  telemetry::sampler_config sc;
  sc.period_ns = 1'000'000;
  auto sampler = std::make_unique<telemetry::sampler>(std::move(sensors), sc);
  sampler->start();
  sampler->set_job(1);
  return sampler;
}

}  // namespace jetperf::test
