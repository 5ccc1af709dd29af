#pragma once
// The `layers` job spec (layer-wise DNN profiling, the seed 001 dataset generator): validated
// field by field (validation_error "spec.<field>"), expanded into one point per layer of each
// network on each device, plus one end-to-end point per network, under each board setting.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/common/spec_fields.hpp>
#include <jetperf/kinds/layers/user_networks.hpp>
#include <jetperf/measure/contention.hpp>
#include <jetperf/measure/sensor_averaging_scope.hpp>
#include <jetperf/platform/board_setting.hpp>
#include <jetperf/models/network.hpp>

namespace jetperf::kinds {

/// Largest job accepted (points).
constexpr std::size_t k_max_layers_points = 100000;

/// A normalized layers spec, typed: what the points and the protocol read.
struct layers_spec {
  std::vector<std::string> models;  ///< network names, zoo and user
  nlohmann::json networks = nlohmann::json::array();  ///< the user networks (proto/network.schema.json)
  std::vector<std::string> devices;
  std::string granularity, protocol;
  std::vector<std::string> dtypes;        ///< spec.dtype: every layer runs in each
  std::vector<std::int64_t> batches;      ///< spec.batch: every layer runs at each
  /// spec.input_size: the zoo networks run at each (pixels); empty: each at its published
  /// resolution. User networks keep their own input shape.
  std::vector<std::int64_t> input_sizes;
  std::int64_t repeats = 1;               ///< times the whole sweep runs (outermost)
  std::int64_t latency_samples = 0, warmup_runs = 0, threads = 0;
  double window_s = 0, boundary_s = 0, gap_s = 0, target_rse = 0, min_time_s = 0, max_time_s = 0, cooldown_s = 0;
  double target_half_width = 0.05;  ///< in_context: each layer's energy interval, relative
  std::optional<double> latency_target_rse;  ///< adaptive: a latency RSE criterion too, when set
  measure::sensor_samples_request sensor_samples;  ///< the sensors' averaging for each point
  bool end_to_end = true;
  measure::contention_policy contention;  ///< contention_threshold, max_retries
  nlohmann::json board_axes = nlohmann::json::object();  ///< power_modes, emc/gpu/cpu_freqs (null = as is)
  /// The normalized spec as stored: what the points, the network lookups and the estimate read
  /// until they take this struct's members.
  nlohmann::json normalized;

  /// A stored spec (the output of normalize_layers_spec): already validated at submission.
  static layers_spec stored(const nlohmann::json& normalized);
  bool fixed() const { return protocol == "fixed"; }
  bool in_context() const { return protocol == "in_context"; }
  /// Seconds of the idle baseline measured once per distinct setting (at most: in_context's is
  /// k_in_context_idle_readings of a sensor updating every `sensor_update_s`, when known).
  double idle_baseline_s(double sensor_update_s = 0) const;
};

/// Sensor readings in in_context's idle baseline (within 0.1-0.25 s).
constexpr double k_in_context_idle_readings = 30;

const std::vector<spec_field>& layers_spec_fields();

/// Validates `spec` against the board (board_settings::offered(), or {} without a board) and
/// returns it normalized: models as a list of names, networks as validated JSON objects, devices
/// as a list, every default filled in. A batch whose largest layer does not fit the device's
/// memory is refused (spec.batch), a user network with a bad layer names it (spec.networks[i].layers[j]).
nlohmann::json normalize_layers_spec(const nlohmann::json& spec, const platform::board_offer& offered);

/// The points of a normalized spec: repeat outermost, then board setting, network, input size,
/// batch, dtype, device and layer index (the end-to-end point, layer_index -1, after each
/// network's layers).
std::vector<nlohmann::json> expand_layers_spec(const nlohmann::json& spec);

/// The network named `name` in a normalized spec: a user network from spec.networks, else the
/// zoo's at `input_size` pixels (nullopt: its published resolution).
models::network network_of_spec(const nlohmann::json& spec, const std::string& name,
                                std::optional<std::int64_t> input_size = std::nullopt);
/// The same over the spec's networks indexed once, for callers that look up many networks.
models::network network_of_spec(const user_networks& users, const std::string& name,
                                std::optional<std::int64_t> input_size = std::nullopt);

/// The resolution a zoo network was published at (224, efficientnet_b1 240, b2 288); nullopt for
/// a user network.
std::optional<std::int64_t> published_input_size(const nlohmann::json& spec, const std::string& name);

/// "cuda" -> "gpu", "cpu" -> "cpu": the device keys of the seed's processed layout.
std::string dnnstats_device_key(const std::string& device);

}  // namespace jetperf::kinds
