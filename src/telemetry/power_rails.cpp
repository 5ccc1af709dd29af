#include <jetperf/telemetry/power_rails.hpp>

#include <algorithm>
#include <cmath>
#include <set>

#include <jetperf/platform/sysfs_paths.hpp>
#include <jetperf/telemetry/rail_role.hpp>

namespace jetperf::telemetry {
namespace {

bool starts_with(const std::string& s, const std::string& p) { return s.compare(0, p.size(), p) == 0; }

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\r' || s.back() == '\t')) s.pop_back();
  std::size_t i = s.find_first_not_of(" \t");
  return i == std::string::npos ? std::string() : s.substr(i);
}

// r32 ina3221x: rail_name_K + in_powerK_input (mW), K from 0.
void add_iio(const platform::sysfs_root& root, const std::string& dir, std::vector<rail_desc>& out) {
  for (int k = 0; k < 8; ++k) {
    auto name = root.try_read(dir + "/rail_name_" + std::to_string(k));
    if (!name) continue;
    std::string label = trim(*name);
    if (label.empty() || label == "NC") continue;
    rail_desc r;
    r.name = label;
    r.driver = rail_driver::iio;
    r.power_path = dir + "/in_power" + std::to_string(k) + "_input";
    out.push_back(std::move(r));
  }
}

// mainline ina3221 hwmon: inK_label/inK_input/currK_input for K = 1..3. in7 is the sum of shunt
// voltages, not a rail; in4..6 are shunt voltages without labels.
void add_hwmon(const platform::sysfs_root& root, const std::string& dir, std::vector<rail_desc>& out) {
  // Linux hwmon ABI: update_interval in milliseconds (ina3221: conversion times x samples x channels).
  std::optional<double> interval_s;
  if (const auto ms = root.try_read_int(dir + "/update_interval"); ms && *ms > 0 && *ms < 60000)
    interval_s = static_cast<double>(*ms) / 1e3;
  for (int k = 1; k <= 3; ++k) {
    std::string K = std::to_string(k);
    auto label = root.try_read(dir + "/in" + K + "_label");
    if (!label) continue;
    std::string name = trim(*label);
    if (name.empty() || name == "NC") continue;
    if (!root.exists(dir + "/curr" + K + "_input")) continue;
    rail_desc r;
    r.name = name;
    r.driver = rail_driver::hwmon;
    r.voltage_path = dir + "/in" + K + "_input";
    r.current_path = dir + "/curr" + K + "_input";
    r.update_interval_s = interval_s;
    out.push_back(std::move(r));
  }
}

// INA238 (Linux ina238 hwmon driver): in1_input bus mV, curr1_input mA, power1_input uW, no label.
// jtop names Thor's carrier monitor VIN, as tegrastats does (PR #900; WendyOS PR #1316's line).
void add_ina238(const platform::sysfs_root& root, const std::string& dev, std::vector<rail_desc>& out) {
  for (const auto& h : root.list(dev + "/hwmon")) {
    const std::string dir = dev + "/hwmon/" + h;
    if (!starts_with(h, "hwmon") || !root.exists(dir + "/power1_input")) continue;
    rail_desc r;
    r.name = "VIN";
    r.driver = rail_driver::hwmon_power;
    r.power_path = dir + "/power1_input";
    r.voltage_path = dir + "/in1_input";
    r.current_path = dir + "/curr1_input";
    out.push_back(std::move(r));
    return;
  }
}

void add_device(const platform::sysfs_root& root, const std::string& dev, std::vector<rail_desc>& out) {
  for (const auto& entry : root.list(dev)) {
    if (starts_with(entry, "iio:device")) {
      add_iio(root, dev + "/" + entry, out);
    } else if (entry == "hwmon") {
      for (const auto& h : root.list(dev + "/hwmon")) {
        if (starts_with(h, "hwmon")) add_hwmon(root, dev + "/hwmon/" + h, out);
      }
    }
  }
}

}  // namespace

std::vector<rail_desc> discover_rails(const platform::sysfs_root& root) {
  std::vector<rail_desc> out;
  std::set<std::string> seen;  // resolved device paths: both walks can reach the same chip
  std::vector<std::string> ina238;
  const std::string devices = platform::paths::i2c_devices;
  for (const auto& dev : root.list(devices)) {
    std::string path = devices + "/" + dev;
    auto name = root.try_read(path + "/name");
    if (!name) continue;
    const bool is_3221 = name->find("ina3221") != std::string::npos;
    if (!is_3221 && name->find("ina238") == std::string::npos) continue;
    std::string key = root.resolve(path).value_or(path);
    if (!seen.insert(key).second) continue;
    if (is_3221) add_device(root, path, out);
    else ina238.push_back(path);
  }
  const std::string drivers = platform::paths::ina3221x_driver;
  for (const auto& dev : root.list(drivers)) {
    std::string path = drivers + "/" + dev;
    if (!root.is_directory(path) || dev.find('-') == std::string::npos) continue;
    std::string key = root.resolve(path).value_or(path);
    if (!seen.insert(key).second) continue;
    add_device(root, path, out);
  }
  // After the module's INA3221 channels: the carrier's input, the total.
  for (const auto& path : ina238) add_ina238(root, path, out);
  for (auto& r : out) r.role = rail_role(r.name);
  return out;
}

std::optional<double> rails_update_interval_s(const std::vector<rail_desc>& rails) {
  std::optional<double> slowest;
  for (const auto& r : rails)
    if (r.update_interval_s && (!slowest || *r.update_interval_s > *slowest)) slowest = r.update_interval_s;
  return slowest;
}

std::optional<std::size_t> input_rail_index(const std::vector<rail_desc>& rails) {
  // VIN first: on Thor it measures the whole board, module rails included (jtop PR #900).
  for (const char* name : {"VIN", "VDD_IN", "POM_5V_IN"})
    for (std::size_t i = 0; i < rails.size(); ++i)
      if (rails[i].name == name) return i;
  return std::nullopt;
}

std::vector<std::string> rail_sanity_warnings(const std::vector<rail_desc>& rails,
                                              const std::vector<double>& watts) {
  std::vector<std::string> warnings;
  for (std::size_t i = 0; i < rails.size() && i < watts.size(); ++i) {
    if (std::isnan(watts[i])) {
      warnings.push_back("rail " + rails[i].name + " could not be read");
    } else if (watts[i] < 0 || watts[i] > 200) {
      warnings.push_back("rail " + rails[i].name + " reads an implausible " + std::to_string(watts[i]) + " W");
    }
  }
  auto input = input_rail_index(rails);
  if (input && *input < watts.size() && !std::isnan(watts[*input])) {
    double sum = 0;
    for (std::size_t i = 0; i < rails.size() && i < watts.size(); ++i) {
      if (i != *input && !std::isnan(watts[i])) sum += watts[i];
    }
    double in = watts[*input];
    if (sum > in * 1.1 + 0.5) {
      warnings.push_back("sub-rails sum to " + std::to_string(sum) + " W, more than the input rail " +
                         rails[*input].name + " (" + std::to_string(in) +
                         " W): rail labels or units may be wrong");
    }
  }
  return warnings;
}

}  // namespace jetperf::telemetry
