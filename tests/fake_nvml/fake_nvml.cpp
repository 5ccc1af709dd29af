// A stand-in for libnvidia-ml.so.1 with known answers, loaded by path in unit_telemetry and
// unit_measure (whose simulated GPU sets its power and energy counter before each poll).
// Built twice: full, and with FAKE_NVML_MINIMAL (no power/energy/application-clock symbols).
#include <cstring>

namespace {
constexpr int ok = 0;
constexpr int not_supported = 3;
constexpr int invalid_argument = 2;
unsigned int g_power_mw = 12345;
unsigned long long g_energy_mj = 5000000ULL;
int g_inits = 0;
struct utilization {
  unsigned int gpu;
  unsigned int memory;
};
int g_device_tag = 0;
}  // namespace

extern "C" {

__attribute__((visibility("default"))) void fake_nvml_set_power_mw(unsigned int mw) { g_power_mw = mw; }
__attribute__((visibility("default"))) void fake_nvml_set_energy_mj(unsigned long long mj) { g_energy_mj = mj; }
__attribute__((visibility("default"))) int fake_nvml_init_count() { return g_inits; }

__attribute__((visibility("default"))) int nvmlInit_v2() {
  ++g_inits;
  return ok;
}
__attribute__((visibility("default"))) int nvmlShutdown() { return ok; }
__attribute__((visibility("default"))) int nvmlDeviceGetCount_v2(unsigned int* count) {
  *count = 1;
  return ok;
}
__attribute__((visibility("default"))) int nvmlDeviceGetHandleByIndex_v2(unsigned int index, void** device) {
  if (index != 0) return invalid_argument;
  *device = &g_device_tag;
  return ok;
}
__attribute__((visibility("default"))) int nvmlDeviceGetName(void*, char* name, unsigned int length) {
  std::strncpy(name, "Fake GPU", length);
  return ok;
}
#ifndef FAKE_NVML_MINIMAL
__attribute__((visibility("default"))) int nvmlDeviceGetPowerUsage(void*, unsigned int* mw) {
  *mw = g_power_mw;
  return ok;
}
__attribute__((visibility("default"))) int nvmlDeviceGetTotalEnergyConsumption(void*, unsigned long long* mj) {
  *mj = g_energy_mj;
  return ok;
}
__attribute__((visibility("default"))) int nvmlDeviceGetApplicationsClock(void*, int, unsigned int* mhz) {
  *mhz = 1300;
  return ok;
}
#endif
__attribute__((visibility("default"))) int nvmlDeviceGetClockInfo(void*, int type, unsigned int* mhz) {
  if (type == 1) {
    *mhz = 1410;
    return ok;
  }
  if (type == 2) {
    *mhz = 1215;
    return ok;
  }
  return not_supported;
}
// Like JetPack 7 power queries: the symbol exists but the query is NotSupported.
__attribute__((visibility("default"))) int nvmlDeviceGetTemperature(void*, int, unsigned int*) { return not_supported; }
__attribute__((visibility("default"))) int nvmlDeviceGetUtilizationRates(void*, utilization* u) {
  u->gpu = 42;
  u->memory = 17;
  return ok;
}
}
