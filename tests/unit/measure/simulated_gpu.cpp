#include "simulated_gpu.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include <jetperf/telemetry/nvml_sensor.hpp>

namespace jetperf::measure::testing {

namespace {

// The true power as constant pieces (start, power) from 0, each until the next; its integral.
struct power_truth {
  std::vector<std::int64_t> start;
  std::vector<double> watts;
  std::vector<double> joules_before;  ///< the integral up to each piece's start

  void add(std::int64_t t, double w) {
    if (!start.empty() && start.back() == t) {
      watts.back() = w;
      return;
    }
    joules_before.push_back(start.empty() ? 0.0 : joules_before.back() + watts.back() * static_cast<double>(t - start.back()) * 1e-9);
    start.push_back(t);
    watts.push_back(w);
  }
  double energy_until(std::int64_t t) const {
    if (start.empty() || t <= start.front()) return 0;
    const auto i = static_cast<std::size_t>(std::upper_bound(start.begin(), start.end(), t) - start.begin()) - 1;
    return joules_before[i] + watts[i] * static_cast<double>(t - start[i]) * 1e-9;
  }
  double mean(std::int64_t from, std::int64_t to) const { return (energy_until(to) - energy_until(from)) / (static_cast<double>(to - from) * 1e-9); }
};

// The runs: each op's kernels, the truth, and each layer's time-weighted power.
std::int64_t lay_out_runs(const simulated_gpu_config& c, std::mt19937_64& rng, power_truth& truth,
                          simulated_gpu_result& out) {
  std::uniform_real_distribution<double> unit(0, 1);
  const auto clock_error = static_cast<std::int64_t>((2 * unit(rng) - 1) * c.clock_error_ns);
  const auto period_ns = static_cast<std::int64_t>(c.period_s * 1e9);
  std::vector<double> layer_j(c.layers, 0.0), layer_s(c.layers, 0.0);
  std::int64_t t = 1'000'000'000;  // a second of rest first: the sensors' clocks are fitted there too
  truth.add(0, c.idle_w);
  const auto end = t + static_cast<std::int64_t>(c.length_s * 1e9);
  while (t < end) {
    std::vector<stats::op_kernels> run;
    for (std::size_t o = 0; o < c.ops.size(); ++o) {
      const auto& op = c.ops[o];
      const double d = op.duration_s * (1 + c.duration_jitter * (2 * unit(rng) - 1));
      const auto d_ns = static_cast<std::int64_t>(d * 1e9);
      truth.add(t, op.power_w);
      stats::op_kernels k{static_cast<int>(o), {}};
      // Its kernels, each followed by a launch gap of 3-8 us (in the op's own time).
      std::int64_t at = t;
      for (int i = 0; i < op.kernels; ++i) {
        const auto gap = static_cast<std::int64_t>(3000 + 5000 * unit(rng));
        const auto len = std::max<std::int64_t>(1000, d_ns / op.kernels - gap);
        k.kernels.emplace_back(at + clock_error, at + len + clock_error);
        at += len + gap;
      }
      // The run's last op ends with its last kernel.
      if (o + 1 == c.ops.size()) at = k.kernels.back().second - clock_error;
      layer_j[static_cast<std::size_t>(op.layer)] += op.power_w * static_cast<double>(at - t) * 1e-9;
      layer_s[static_cast<std::size_t>(op.layer)] += static_cast<double>(at - t) * 1e-9;
      run.push_back(std::move(k));
      t = at;
    }
    out.runs.push_back(std::move(run));
    truth.add(t, c.between_w);
    t += static_cast<std::int64_t>((c.pause_periods + unit(rng)) * static_cast<double>(period_ns));
  }
  truth.add(t, c.idle_w);
  for (std::size_t l = 0; l < c.layers; ++l) out.true_layer_w.push_back(layer_s[l] > 0 ? layer_j[l] / layer_s[l] : 0);
  return t + 1'000'000'000;
}

struct fake_library {
  void* lib = nullptr;
  void (*set_power)(unsigned int) = nullptr;
  void (*set_energy)(unsigned long long) = nullptr;
  explicit fake_library(const std::string& path) : lib(::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
    if (!lib) throw std::runtime_error("fake NVML not loaded: " + path);
    set_power = reinterpret_cast<void (*)(unsigned int)>(::dlsym(lib, "fake_nvml_set_power_mw"));
    set_energy = reinterpret_cast<void (*)(unsigned long long)>(::dlsym(lib, "fake_nvml_set_energy_mj"));
    if (!set_power || !set_energy) throw std::runtime_error("fake NVML lacks its setters: " + path);
  }
  ~fake_library() { ::dlclose(lib); }
};

int channel(const std::vector<telemetry::channel_info>& ch, const std::string& name) {
  for (std::size_t i = 0; i < ch.size(); ++i)
    if (ch[i].name == name) return static_cast<int>(i);
  throw std::runtime_error("fake NVML has no channel " + name);
}

}  // namespace

simulated_gpu_result simulate_gpu(const simulated_gpu_config& c, std::uint64_t seed, const std::string& fake_nvml_path) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  std::normal_distribution<double> noise(0, c.noise_w);
  simulated_gpu_result out;
  power_truth truth;
  const auto end = lay_out_runs(c, rng, truth, out);
  out.true_energy_j = truth.energy_until(end);

  fake_library fake(fake_nvml_path);
  telemetry::nvml_sensor sensor(fake_nvml_path);
  const auto ch = sensor.channels();
  const auto power_ch = static_cast<std::size_t>(channel(ch, "nvml.gpu0.power"));
  const auto energy_ch = static_cast<std::size_t>(channel(ch, "nvml.gpu0.energy"));
  std::vector<double> values(ch.size());

  // Each sensor's next update on its own clock (host time), and the value it will show.
  const double period_ns = c.period_s * (1 + c.drift) * 1e9, counter_ns = c.counter_period_s * (1 - c.drift / 2) * 1e9;
  const auto window_ns = static_cast<std::int64_t>(c.window_s * 1e9);
  double next_power = period_ns * unit(rng) + static_cast<double>(window_ns), next_counter = counter_ns * unit(rng);
  const auto latency = static_cast<std::int64_t>(c.latency_s * 1e9);
  const unsigned long long counter_base = 5'000'000'000ULL;  // mJ since the driver loaded
  fake.set_power(static_cast<unsigned int>(c.idle_w * 1000));
  fake.set_energy(counter_base);
  for (double t = 0; t < static_cast<double>(end); t += c.poll_s * 1e9 * (0.9 + 0.2 * unit(rng))) {
    const auto now = static_cast<std::int64_t>(t);
    for (; next_power + static_cast<double>(latency) <= t; next_power += period_ns) {
      const auto at = static_cast<std::int64_t>(next_power);
      out.power_updates.push_back(at);
      const double w = truth.mean(at - window_ns, at) + noise(rng);
      fake.set_power(static_cast<unsigned int>(std::lround(std::max(0.0, w) * 1000)));
    }
    for (; next_counter + static_cast<double>(latency) <= t; next_counter += counter_ns) {
      const double j = truth.energy_until(static_cast<std::int64_t>(next_counter));
      fake.set_energy(counter_base + static_cast<unsigned long long>(std::floor(j * 1000)));
    }
    sensor.read(now, values.data());
    out.polls.power_w.emplace_back(now, values[power_ch]);
    out.polls.energy_j.emplace_back(now, values[energy_ch]);
  }
  return out;
}

}  // namespace jetperf::measure::testing
