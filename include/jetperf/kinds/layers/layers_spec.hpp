#pragma once
// The `layers` job spec (layer-wise DNN profiling, the seed 001 dataset generator): validated
// field by field (validation_error "spec.<field>"), expanded into one point per layer of each
// network on each device, plus one end-to-end point per network, under each board setting.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/common/cell.hpp>
#include <jetperf/common/spec_fields.hpp>
#include <jetperf/kinds/layers/user_networks.hpp>
#include <jetperf/measure/contention.hpp>
#include <jetperf/measure/sensor_averaging_scope.hpp>
#include <jetperf/platform/board_setting.hpp>
#include <jetperf/models/network.hpp>

namespace jetperf::kinds {

/// Largest job accepted (points).
constexpr std::size_t k_max_layers_points = 100000;
/// The version of the stored form layers_spec::to_record writes (jobs store it; 0: stored before
/// versions, which upgrade() reads).
constexpr std::int64_t k_layers_spec_version = 1;

struct layers_spec {
  std::vector<std::string> models;  ///< network names: the zoo's, then the user networks'
  user_networks networks;           ///< spec.networks as given (proto/network.schema.json), by name
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
  record board_axes;  ///< power_modes, emc/gpu/cpu_freqs (null = as is)
  std::optional<cell> tags;  ///< as the request gave them (stored as given)

  /// Validates `spec` against the board (board_settings::offered(), or {} without a board):
  /// models as a list of names or a comma-separated string, each name once; user networks
  /// checked layer by layer (spec.networks[i].layers[j]); every default filled in. A batch whose
  /// largest layer does not fit the device's memory is refused (spec.batch), and so is a job of
  /// more than k_max_layers_points points (named after its largest axis).
  static layers_spec parse(const record& spec, const platform::board_offer& offered);
  /// A stored spec (the output of to_record): already validated at submission.
  static layers_spec stored(const record& normalized);
  /// A spec stored in an older form (`from_version` < k_layers_spec_version; 0: before versions)
  /// in the current one: the one place the layers kind reads its old forms.
  static record upgrade(record stored, std::int64_t from_version);
  /// The spec as stored: models as a list of names (the user networks' after the zoo's), networks
  /// as given, devices as a list, input_size null for "each at its published resolution", every
  /// default filled in. A stored spec parses to itself (jetperf rerun).
  record to_record() const;

  bool fixed() const { return protocol == "fixed"; }
  bool in_context() const { return protocol == "in_context"; }
  /// Seconds of the idle baseline measured once per distinct setting (at most: in_context's is
  /// k_in_context_idle_readings of a sensor updating every `sensor_update_s`, when known).
  double idle_baseline_s(double sensor_update_s = 0) const;
};

/// Sensor readings in in_context's idle baseline (within 0.1-0.25 s).
constexpr double k_in_context_idle_readings = 30;

const std::vector<spec_field>& layers_spec_fields();

/// One point: a layer of a network (or the whole network, end to end) on a device, in one dtype,
/// batch and input size, under a board setting, in one repeat of the job.
struct layers_point {
  platform::board_setting setting;
  std::int64_t repeat = 0;
  std::string network, device, granularity;
  int layer_index = -1;  ///< the layer's index at `granularity`; -1: the whole network end to end
  std::string layer_name, layer_type;
  std::int64_t batch = 1;
  std::string dtype;
  /// Pixels a zoo network runs at; nullopt: a user network, at its own input shape.
  std::optional<std::int64_t> input_size;

  bool end_to_end() const { return layer_index < 0; }
  /// The board setting's keys (null where unset), repeat, network, device, granularity,
  /// layer_index, layer_name, layer_type, batch, dtype and input_size (null: a user network's
  /// own): as stored.
  record to_record() const;
  /// A stored point read back (trusted: its spec was validated at submission). A point stored
  /// before input_size existed has none: its zoo network ran at 224 pixels, a user network at
  /// its own shape. One stored before repeat existed is repeat 0.
  static layers_point of(const record& point);
};

/// The points: repeat outermost, then board setting, network, input size, batch, dtype, device
/// and layer index (the end-to-end point, layer_index -1, after each network's layers).
std::vector<layers_point> expand(const layers_spec& spec);

/// The network named `name`: a user network, else the zoo's at `input_size` pixels (nullopt: its
/// published resolution).
models::network network_of_spec(const user_networks& users, const std::string& name,
                                std::optional<std::int64_t> input_size = std::nullopt);
/// The same in a stored spec (its networks indexed for this one call).
models::network network_of_spec(const record& spec, const std::string& name,
                                std::optional<std::int64_t> input_size = std::nullopt);

/// The resolution a zoo network was published at (224, efficientnet_b1 240, b2 288); nullopt for
/// a user network of the stored spec `spec`.
std::optional<std::int64_t> published_input_size(const record& spec, const std::string& name);

/// "cuda" -> "gpu", "cpu" -> "cpu": the device keys of the seed's processed layout.
std::string dnnstats_device_key(const std::string& device);

}  // namespace jetperf::kinds
