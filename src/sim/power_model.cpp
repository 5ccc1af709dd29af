#include <jetperf/sim/power_model.hpp>

#include <algorithm>

namespace jetperf::sim {
namespace {

double dyn(double f, double fmin, double fmax, double v0) {
  if (fmax <= 0) return 0;
  double x = fmax > fmin ? std::clamp((f - fmin) / (fmax - fmin), 0.0, 1.0) : 1.0;
  double v = v0 + (1 - v0) * x;
  return (f / fmax) * v * v;
}

}  // namespace

double domain_power::rail(rail_kind k) const {
  switch (k) {
    case rail_kind::input: return input;
    case rail_kind::cpu: return cpu;
    case rail_kind::gpu: return gpu;
    case rail_kind::soc: return soc;
    case rail_kind::ddr: return ddr;
    case rail_kind::cv: return cv;
    case rail_kind::sys5v: return sys5v;
    case rail_kind::wifi: return wifi;
    case rail_kind::gpu_soc: return gpu + soc;
    case rail_kind::cpu_cv: return cpu + cv;
    case rail_kind::cpu_gpu_cv: return cpu + gpu + cv;
    case rail_kind::cpu_soc_mss: return cpu + soc + ddr;
    case rail_kind::nc: return 0;
  }
  return 0;
}

double intensity_factor(double macs_per_byte) {
  const double ai = std::max(0.0, macs_per_byte);
  return 0.55 + 0.9 * ai / (ai + 8.0);
}

domain_power compute_power(const board_profile& p, const board_load& l) {
  const auto& c = p.power;
  domain_power d;
  size_t core = 0;
  for (const auto& cl : p.clusters) {
    const double fmin = static_cast<double>(cl.freqs_khz.front()), fmax = static_cast<double>(cl.freqs_khz.back());
    for (size_t i = 0; i < cl.cores.size(); ++i, ++core) {
      const int n = cl.cores[i];
      if (n >= static_cast<int>(l.online.size()) || !l.online[n]) continue;
      const double f = n < static_cast<int>(l.core_khz.size()) ? static_cast<double>(l.core_khz[n]) : fmin;
      const double u = n < static_cast<int>(l.core_util.size()) ? l.core_util[n] : 0.0;
      d.cpu += c.cpu_core_static_mw + c.cpu_core_max_mw * dyn(f, fmin, fmax, c.v_min_ratio) * u * l.cpu_intensity;
    }
  }
  if (l.gpu_powered && !p.gpu_freqs_hz.empty()) {
    const double gated = std::clamp(static_cast<double>(l.gpu_gated_tpcs) / std::max(1, c.gpu_tpcs), 0.0, 1.0);
    d.gpu = c.gpu_static_mw + c.gpu_max_mw *
                                  dyn(static_cast<double>(l.gpu_hz), static_cast<double>(p.gpu_freqs_hz.front()),
                                      static_cast<double>(p.gpu_freqs_hz.back()), c.v_min_ratio) *
                                  (0.1 + 0.9 * l.gpu_load) * (1 - gated);
  }
  const double emc_frac = p.emc_freqs_hz.empty() ? 0 : static_cast<double>(l.emc_hz) / p.emc_freqs_hz.back();
  d.ddr = c.ddr_static_mw + c.emc_max_mw * emc_frac * (0.2 + 0.8 * l.emc_util);
  d.soc = c.soc_static_mw * (0.85 + 0.15 * emc_frac);
  d.cv = c.cv_static_mw;
  d.wifi = c.wifi_mw;
  d.sys5v = c.sys5v_mw > 0 ? c.sys5v_mw + 0.03 * (d.cpu + d.gpu) : 0;
  d.input = (d.cpu + d.gpu + d.soc + d.ddr + d.cv + d.wifi) / c.input_efficiency + c.input_base_mw;
  return d;
}

double board_total_mw(const board_profile& p, const domain_power& d) {
  double sum = 0;
  for (const auto& chip : p.ina)
    for (const auto& ch : chip.channels) {
      if (ch.kind == rail_kind::input) return d.input;
      sum += d.rail(ch.kind);
    }
  return sum;
}

}  // namespace jetperf::sim
