// `jetperf submit layers`: every layer of zoo networks (--model) and user networks (--network
// FILE) measured in isolation on each device, plus each whole network, under each board
// setting. Flags map one to one onto the spec fields the daemon validates
// (src/workloads/layers_spec.cpp); values it can name are passed on as given.
#include "cli_error.hpp"
#include "flag_lists.hpp"
#include "submit_kind.hpp"

namespace jetperf::client {

namespace {

// A user network file: one JSON object in the layout of proto/network.schema.json. The daemon
// checks the layers; here only that the file is readable JSON, so a typo names the file.
nlohmann::json read_network_file(const std::string& path) {
  auto j = nlohmann::json::parse(read_input(path, "network file"), nullptr, false);
  if (j.is_discarded()) throw cli_error(exit_usage, "network file '" + path + "' is not valid JSON");
  if (!j.is_object())
    throw cli_error(exit_usage, "network file '" + path + "' must hold one JSON object (proto/network.schema.json)");
  return j;
}

class layers_kind final : public submit_kind {
 public:
  std::string name() const override { return "layers"; }
  std::string description() const override {
    return "Profile DNNs layer by layer (latency and power per layer) on the GPU and the CPU";
  }

  void add_flags(CLI::App& app) override {
    models_ = app.add_option("--model", models_v_, "Zoo networks, a comma list (spec.models; see `jetperf models`)");
    networks_ = app.add_option("--network", network_files_,
                               "A user network JSON file (proto/network.schema.json); repeatable (spec.networks)");
    devices_ = app.add_option("--device", devices_v_, "cuda, cpu or cuda,cpu (spec.devices; default cuda when the board has one)");
    granularity_ = app.add_option("--granularity", granularity_v_, "block or op (spec.granularity; default block)")
                       ->check(CLI::IsMember({"block", "op"}));
    dtype_ = app.add_option("--dtype", dtype_v_, "float, half or float,half: every layer runs in each (spec.dtype; default float)");
    batch_ = app.add_option("--batch", batch_v_, "Batch sizes, a comma list: every layer runs at each (spec.batch; default 1)");
    input_size_ = app.add_option("--input-size", input_size_v_,
                                 "Input sizes in pixels for the zoo networks, a comma list (spec.input_size; default each "
                                 "network's published resolution, see `jetperf models`)");
    protocol_ = app.add_option("--protocol", protocol_v_,
                               "adaptive (each layer runs --latency-samples times, over a power window that ends once power's "
                               "RSE <= --target-rse, within --min-time-s..--max-time-s), fixed (DNN stats' fixed windows) or "
                               "in_context (every layer's power and energy from end-to-end runs of the whole network, "
                               "until each is within --target-half-width or --max-time-s) (spec.protocol)")
                    ->check(CLI::IsMember({"adaptive", "fixed", "in_context"}));
    for (auto& f : integers_) f.add_to(app);
    for (auto& n : numbers_) n.add_to(app);
    sensor_samples_ = app.add_option("--sensor-samples", sensor_samples_v_,
                                     "The power sensors' averaging count for each point, put back after it: a count the "
                                     "board offers (INA3221: 1, 4, 16, ... 1024), auto (the shortest window the sampler can "
                                     "place; in_context's default) or as_is (spec.sensor_samples)");
    no_end_to_end_ = app.add_flag("--no-end-to-end", "Skip the whole-network point of each network (spec.end_to_end)");
    board_.add_to(app);
  }

  void fill_spec(nlohmann::json& spec) const override {
    if (models_->count()) spec["models"] = string_list(models_v_);
    if (networks_->count()) {
      // Appended to the networks of a --spec file, in the order given.
      if (!spec.contains("networks") || !spec["networks"].is_array()) spec["networks"] = nlohmann::json::array();
      for (const auto& path : network_files_) spec["networks"].push_back(read_network_file(path));
    }
    if (devices_->count()) spec["devices"] = string_list(devices_v_);
    if (granularity_->count()) spec["granularity"] = granularity_v_;
    if (dtype_->count()) spec["dtype"] = string_list(dtype_v_);
    if (batch_->count()) spec["batch"] = id_list(batch_v_);
    if (input_size_->count()) spec["input_size"] = id_list(input_size_v_);
    if (protocol_->count()) spec["protocol"] = protocol_v_;
    for (const auto& f : integers_)
      if (f.given()) spec[f.field] = f.value;
    for (const auto& n : numbers_)
      if (n.given()) spec[n.field] = n.value;
    if (sensor_samples_->count()) {
      // A count goes as a number; the daemon names what it does not accept.
      const bool digits = !sensor_samples_v_.empty() &&
                          sensor_samples_v_.find_first_not_of("0123456789") == std::string::npos && sensor_samples_v_.size() < 10;
      spec["sensor_samples"] = digits ? nlohmann::json(std::stoll(sensor_samples_v_)) : nlohmann::json(sensor_samples_v_);
    }
    if (no_end_to_end_->count()) spec["end_to_end"] = false;
    board_.fill(spec);
  }

 private:
  CLI::Option *models_ = nullptr, *networks_ = nullptr, *devices_ = nullptr, *granularity_ = nullptr,
              *dtype_ = nullptr, *batch_ = nullptr, *input_size_ = nullptr, *protocol_ = nullptr,
              *no_end_to_end_ = nullptr, *sensor_samples_ = nullptr;
  std::string sensor_samples_v_;
  std::string models_v_, devices_v_, granularity_v_, dtype_v_, batch_v_, input_size_v_, protocol_v_;
  std::vector<std::string> network_files_;
  board_axis_flags board_;
  // Ranges are checked by the daemon (one place, one message naming spec.<field>).
  integer_flag integers_[4] = {
      {"--repeats", "repeats",
       "Run the whole job this many times; the summary gives each network's mean and 95% interval across repeats "
       "(spec.repeats; default 1)"},
      {"--latency-samples", "latency_samples", "Timed runs per layer (spec.latency_samples; default 100)"},
      {"--warmup-runs", "warmup_runs",
       "Untimed runs before each layer, or of the whole network in_context (spec.warmup_runs; default 5, in_context 1)"},
      {"--threads", "threads", "CPU backend threads, 0 = all cores (spec.threads)"},
  };
  number_flag numbers_[11] = {
      {"--window-s", "window_s", "fixed: seconds of power sampling per layer (spec.window_s)"},
      {"--boundary-s", "boundary_s", "Seconds trimmed from each end of the power window (spec.boundary_s)"},
      {"--gap-s", "gap_s", "fixed: idle seconds between layers (spec.gap_s)"},
      {"--target-rse", "target_rse",
       "adaptive: end a layer's power window once the relative standard error of its mean power is at most this "
       "(power only) (spec.target_rse)"},
      {"--latency-target-rse", "latency_target_rse",
       "adaptive: also require the mean latency's relative standard error to be at most this (default: latency is "
       "--latency-samples runs, not a stop criterion) (spec.latency_target_rse)"},
      {"--min-time-s", "min_time_s", "adaptive: shortest timed window per layer (spec.min_time_s)"},
      {"--max-time-s", "max_time_s",
       "adaptive: longest timed window per layer (default 5); in_context: longest run of end-to-end runs per network "
       "(default 2, 10 at op granularity) (spec.max_time_s)"},
      {"--target-half-width", "target_half_width",
       "in_context: run until every layer's 95% energy interval is within this fraction of its energy (spec."
       "target_half_width; default 0.05)"},
      {"--cooldown-s", "cooldown_s", "Idle seconds before each point (spec.cooldown_s)"},
      contention_threshold_flag(),
      max_retries_flag(),
  };
};

}  // namespace

std::unique_ptr<submit_kind> make_layers_submit_kind() { return std::make_unique<layers_kind>(); }

}  // namespace jetperf::client
