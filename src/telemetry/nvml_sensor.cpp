#include <jetperf/telemetry/nvml_sensor.hpp>

#include <dlfcn.h>

#include <cmath>
#include <functional>
#include <limits>

#include <spdlog/spdlog.h>

#include <jetperf/common/errors.hpp>

namespace jetperf::telemetry {
namespace {

// The few NVML ABI pieces we use, from nvml.h (stable since NVML 5): return 0 = NVML_SUCCESS.
using nvml_return = int;
using nvml_device = void*;
struct nvml_utilization {
  unsigned int gpu;
  unsigned int memory;
};
constexpr int nvml_clock_sm = 1;
constexpr int nvml_clock_mem = 2;
constexpr int nvml_temperature_gpu = 0;

using fn_void = nvml_return (*)();
using fn_count = nvml_return (*)(unsigned int*);
using fn_handle = nvml_return (*)(unsigned int, nvml_device*);
using fn_name = nvml_return (*)(nvml_device, char*, unsigned int);
using fn_uint = nvml_return (*)(nvml_device, unsigned int*);
using fn_ull = nvml_return (*)(nvml_device, unsigned long long*);
using fn_clock = nvml_return (*)(nvml_device, int, unsigned int*);
using fn_temp = nvml_return (*)(nvml_device, int, unsigned int*);
using fn_util = nvml_return (*)(nvml_device, nvml_utilization*);

}  // namespace

struct nvml_sensor::impl {
  void* lib = nullptr;
  fn_void shutdown = nullptr;
  // One reader per channel: returns NaN when the query fails this tick.
  std::vector<channel_info> channels;
  std::vector<std::function<double()>> readers;
  std::vector<int> power_channels;

  template <typename F>
  F sym(const char* name) {
    return reinterpret_cast<F>(::dlsym(lib, name));
  }
  ~impl() {
    if (shutdown) shutdown();
    if (lib) ::dlclose(lib);
  }
};

nvml_sensor::nvml_sensor(const std::string& library) : impl_(std::make_unique<impl>()) {
  impl_->lib = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!impl_->lib) throw unavailable("NVML not available: " + std::string(::dlerror()));
  auto init = impl_->sym<fn_void>("nvmlInit_v2");
  auto count_fn = impl_->sym<fn_count>("nvmlDeviceGetCount_v2");
  auto handle_fn = impl_->sym<fn_handle>("nvmlDeviceGetHandleByIndex_v2");
  if (!init || !count_fn || !handle_fn) throw unavailable("NVML library " + library + " lacks nvmlInit_v2/GetCount_v2/GetHandleByIndex_v2");
  if (int rc = init(); rc != 0) throw unavailable("nvmlInit_v2 failed with " + std::to_string(rc));
  impl_->shutdown = impl_->sym<fn_void>("nvmlShutdown");
  unsigned int count = 0;
  if (count_fn(&count) != 0) throw unavailable("nvmlDeviceGetCount_v2 failed");

  auto name_fn = impl_->sym<fn_name>("nvmlDeviceGetName");
  auto power_fn = impl_->sym<fn_uint>("nvmlDeviceGetPowerUsage");
  auto energy_fn = impl_->sym<fn_ull>("nvmlDeviceGetTotalEnergyConsumption");
  auto clock_fn = impl_->sym<fn_clock>("nvmlDeviceGetClockInfo");
  auto app_clock_fn = impl_->sym<fn_clock>("nvmlDeviceGetApplicationsClock");
  auto temp_fn = impl_->sym<fn_temp>("nvmlDeviceGetTemperature");
  auto util_fn = impl_->sym<fn_util>("nvmlDeviceGetUtilizationRates");
  const double nan = std::numeric_limits<double>::quiet_NaN();

  for (unsigned int i = 0; i < count; ++i) {
    nvml_device dev = nullptr;
    if (handle_fn(i, &dev) != 0) continue;
    nvml_device_info info;
    char name[96] = {0};
    info.name = name_fn && name_fn(dev, name, sizeof name) == 0 ? name : "gpu" + std::to_string(i);
    std::string p = "nvml.gpu" + std::to_string(i);
    std::string src = "nvml:" + info.name;
    auto add = [&](std::string ch, const char* unit, channel_kind kind, std::function<double()> r) {
      // Probe once: a query that does not answer now (NotSupported) never will.
      if (std::isnan(r())) return false;
      impl_->channels.push_back({std::move(ch), unit, kind, src});
      impl_->readers.push_back(std::move(r));
      return true;
    };
    if (power_fn) {
      info.power = add(p + ".power", "W", channel_kind::power, [=] {
        unsigned int mw = 0;
        return power_fn(dev, &mw) == 0 ? mw / 1000.0 : nan;
      });
      if (info.power) impl_->power_channels.push_back(static_cast<int>(impl_->channels.size() - 1));
    }
    if (energy_fn) {
      info.energy = add(p + ".energy", "J", channel_kind::other, [=] {
        unsigned long long mj = 0;
        return energy_fn(dev, &mj) == 0 ? static_cast<double>(mj) / 1000.0 : nan;
      });
    }
    if (clock_fn) {
      bool sm = add("clock." + p + ".sm", "Hz", channel_kind::clock, [=] {
        unsigned int mhz = 0;
        return clock_fn(dev, nvml_clock_sm, &mhz) == 0 ? mhz * 1e6 : nan;
      });
      bool mem = add("clock." + p + ".mem", "Hz", channel_kind::clock, [=] {
        unsigned int mhz = 0;
        return clock_fn(dev, nvml_clock_mem, &mhz) == 0 ? mhz * 1e6 : nan;
      });
      info.clocks = sm || mem;
    }
    if (app_clock_fn) {
      add("clock." + p + ".app_sm", "Hz", channel_kind::clock, [=] {
        unsigned int mhz = 0;
        return app_clock_fn(dev, nvml_clock_sm, &mhz) == 0 ? mhz * 1e6 : nan;
      });
    }
    if (temp_fn) {
      info.temperature = add("temp." + p, "C", channel_kind::temperature, [=] {
        unsigned int c = 0;
        return temp_fn(dev, nvml_temperature_gpu, &c) == 0 ? static_cast<double>(c) : nan;
      });
    }
    if (util_fn) {
      info.utilisation = add("util." + p, "%", channel_kind::utilisation, [=] {
        nvml_utilization u{};
        return util_fn(dev, &u) == 0 ? static_cast<double>(u.gpu) : nan;
      });
      add("util." + p + ".mem", "%", channel_kind::utilisation, [=] {
        nvml_utilization u{};
        return util_fn(dev, &u) == 0 ? static_cast<double>(u.memory) : nan;
      });
    }
    spdlog::info("telemetry: NVML {} power={} energy={} clocks={} temp={} util={}", info.name, info.power,
                 info.energy, info.clocks, info.temperature, info.utilisation);
    devices_.push_back(std::move(info));
  }
}

nvml_sensor::~nvml_sensor() = default;

std::vector<channel_info> nvml_sensor::channels() const { return impl_->channels; }

void nvml_sensor::read(std::int64_t, double* values) {
  for (std::size_t i = 0; i < impl_->readers.size(); ++i) values[i] = impl_->readers[i]();
}

std::optional<int> nvml_sensor::total_power_channel() const {
  // A single-GPU power reading is the only total NVML can give; with several GPUs there is none.
  if (impl_->power_channels.size() == 1) return impl_->power_channels.front();
  return std::nullopt;
}

}  // namespace jetperf::telemetry
