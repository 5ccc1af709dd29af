// `jetperf submit multi_dnn` (alias multinet): seed 001's multi-DNN mappings, explicit
// (--mapping FILE) or drawn by the seed's generator (--networks, --num-networks, --samples,
// --device-priorities, --seed, ...), each run concurrently under each board setting. Flags map
// one to one onto the spec fields the daemon validates (src/kinds/multi_dnn/multi_dnn_spec.cpp).
#include "cli_error.hpp"
#include "flag_lists.hpp"
#include "submit_kind.hpp"

namespace jetperf::client {

namespace {

// The mappings of a file: one mapping in the seed's form, a list of them, or the seed's processed
// documents (each with its "mapping"), so a dataset's own files can be measured again.
void append_mappings(const std::string& path, nlohmann::json& out) {
  const auto j = nlohmann::json::parse(read_input(path, "mapping file"), nullptr, false);
  if (j.is_discarded()) throw cli_error(exit_usage, "mapping file '" + path + "' is not valid JSON");
  const auto one = [&](const nlohmann::json& m) {
    if (!m.is_object())
      throw cli_error(exit_usage, "mapping file '" + path + "' must hold mappings as objects, e.g. "
                                  "{\"resnet50\": {\"8\": \"cpu\", \"22\": \"cuda\"}}");
    out.push_back(m.contains("mapping") ? m["mapping"] : m);
  };
  if (j.is_array()) {
    for (const auto& m : j) one(m);
  } else if (j.is_object() && j.contains("mappings") && j["mappings"].is_array()) {
    for (const auto& m : j["mappings"]) one(m);
  } else {
    one(j);
  }
}

class multi_dnn_kind final : public submit_kind {
 public:
  std::string name() const override { return "multi_dnn"; }
  std::string description() const override {
    return "Run several DNNs at once, split into CPU and GPU stages (the multi-DNN mappings of the DNN stats dataset generator): throughput, "
           "stage times, power";
  }

  void add_flags(CLI::App& app) override {
    app.alias("multinet");
    mappings_ = app.add_option("--mapping", mapping_files_,
                               "A JSON file of mappings in DNN stats' form ({\"resnet50\": {\"8\": \"cpu\", \"22\": "
                               "\"cuda\"}}, a list of them, or DNN stats' processed files); repeatable (spec.mappings)");
    networks_ = app.add_option("--networks", networks_v_, "The generator's zoo networks, a comma list (spec.networks; default the zoo)");
    num_networks_ = app.add_option("--num-networks", num_networks_v_, "Networks per generated mapping, N or LO:HI (spec.num_networks)");
    priorities_ = app.add_option("--device-priorities", priorities_v_,
                                 "Device odds, e.g. cpu=0.4,cuda=0.6 (spec.device_priorities; default equal)");
    dtype_ = app.add_option("--dtype", dtype_v_, "float or half (spec.dtype)")->check(CLI::IsMember({"float", "half"}));
    protocol_ = app.add_option("--protocol", protocol_v_,
                               "adaptive (stop once every network's throughput and the power meet --target-rse) or fixed "
                               "(DNN stats' --window-s windows) (spec.protocol)")
                    ->check(CLI::IsMember({"adaptive", "fixed"}));
    single_ = app.add_flag("--single-networks", "Also each network alone on each device (class A) (spec.single_networks)");
    gpu_only_ = app.add_flag("--gpu-only-maps", "Also each set whole on the GPU (class B) (spec.gpu_only_maps)");
    pin_ = app.add_flag("--pin", "Pin each network's CPU threads to cores of its own (spec.pin)");
    for (auto& f : integers_) f.add_to(app);
    for (auto& n : numbers_) n.add_to(app);
    board_.add_to(app);
  }

  void fill_spec(nlohmann::json& spec) const override {
    if (mappings_->count()) {
      // Appended to the mappings of a --spec file, in the order given.
      if (!spec.contains("mappings") || !spec["mappings"].is_array()) spec["mappings"] = nlohmann::json::array();
      for (const auto& path : mapping_files_) append_mappings(path, spec["mappings"]);
    }
    if (networks_->count()) spec["networks"] = string_list(networks_v_);
    if (num_networks_->count()) spec["num_networks"] = num_networks_v_;
    if (priorities_->count()) spec["device_priorities"] = priorities_v_;
    if (dtype_->count()) spec["dtype"] = dtype_v_;
    if (protocol_->count()) spec["protocol"] = protocol_v_;
    if (single_->count()) spec["single_networks"] = true;
    if (gpu_only_->count()) spec["gpu_only_maps"] = true;
    if (pin_->count()) spec["pin"] = true;
    for (const auto& f : integers_)
      if (f.given()) spec[f.field] = f.value;
    for (const auto& n : numbers_)
      if (n.given()) spec[n.field] = n.value;
    board_.fill(spec);
  }

 private:
  CLI::Option *mappings_ = nullptr, *networks_ = nullptr, *num_networks_ = nullptr, *priorities_ = nullptr,
              *dtype_ = nullptr, *protocol_ = nullptr, *single_ = nullptr, *gpu_only_ = nullptr, *pin_ = nullptr;
  std::vector<std::string> mapping_files_;
  std::string networks_v_, num_networks_v_, priorities_v_, dtype_v_, protocol_v_;
  board_axis_flags board_;
  // Ranges are checked by the daemon (one place, one message naming spec.<field>).
  integer_flag integers_[8] = {
      {"--samples", "samples", "Generated mappings per set of networks (spec.samples; default 20 without --mapping)"},
      {"--sets", "sets", "Sets of networks drawn per network count (spec.sets)"},
      {"--max-split-networks", "max_split_networks", "Networks a generated mapping may split, -1 = all (spec.max_split_networks)"},
      {"--seed", "seed", "Generator seed: the same mappings on every board and mode (spec.seed)"},
      {"--batch", "batch", "Images per inference (spec.batch)"},
      {"--threads", "threads", "CPU threads of each network (spec.threads)"},
      {"--warmup-runs", "warmup_runs", "Inferences of each network before the window (spec.warmup_runs)"},
      {"--repeats", "repeats", "Run the whole job this many times (spec.repeats)"},
  };
  number_flag numbers_[8] = {
      {"--window-s", "window_s", "fixed: the window per mapping, boundaries included (spec.window_s)"},
      {"--boundary-s", "boundary_s", "Seconds trimmed from each end of the power window (spec.boundary_s)"},
      {"--target-rse", "target_rse", "adaptive: throughput and power RSE to reach (spec.target_rse)"},
      {"--min-time-s", "min_time_s", "adaptive: shortest window (spec.min_time_s)"},
      {"--max-time-s", "max_time_s", "adaptive: longest window (spec.max_time_s)"},
      {"--cooldown-s", "cooldown_s", "Idle seconds before each mapping (spec.cooldown_s)"},
      contention_threshold_flag(),
      max_retries_flag(),
  };
};

}  // namespace

std::unique_ptr<submit_kind> make_multi_dnn_submit_kind() { return std::make_unique<multi_dnn_kind>(); }

}  // namespace jetperf::client
