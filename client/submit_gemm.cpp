// `jetperf submit gemm`: a matrix-multiply sweep over sizes, dtypes, tensor cores, power modes and
// clocks. Flags map one to one onto the spec fields the daemon validates
// (src/workloads/gemm_spec.cpp); values are passed on as given so that the daemon's message
// (naming spec.<field> and the valid values) is the one a person sees.
#include "flag_lists.hpp"
#include "submit_kind.hpp"

namespace jetperf::client {

namespace {

class gemm_kind final : public submit_kind {
 public:
  std::string name() const override { return "gemm"; }
  std::string description() const override {
    return "Sweep a matrix multiply over sizes, dtypes, tensor cores, power modes and clocks";
  }

  void add_flags(CLI::App& app) override {
    device_ = app.add_option("--device", device_v_, "cuda or cpu (spec.device; default cuda when the board has one)")
                  ->check(CLI::IsMember({"cuda", "cpu"}));
    dtype_ = app.add_option("--dtype", dtype_v_, "Comma list of half, float, double (spec.dtypes; default float)");
    sizes_ = app.add_option("--sizes", sizes_v_,
                            "from:to:step, a comma list of N or MxNxK (spec.sizes; default 128:2048:128)");
    tensor_ = app.add_option("--tensor", tensor_v_, "on, off or both (spec.tensor; default both on cuda, off on cpu)")
                  ->check(CLI::IsMember({"on", "off", "both"}));
    board_.add_to(app);
    threads_ = app.add_option("--threads", threads_v_, "CPU backend threads, 0 = all cores (spec.threads)");
    min_samples_ = app.add_option("--min-samples", min_samples_v_, "Fewest timed runs per point (spec.min_samples)");
    repeats_ = app.add_option("--repeats", repeats_v_,
                              "Run the whole sweep this many times; the summary gives each setting's mean and 95% "
                              "interval across repeats (spec.repeats; default 1)");
    for (auto& n : numbers_) n.add_to(app);
  }

  void fill_spec(nlohmann::json& spec) const override {
    if (device_->count()) spec["device"] = device_v_;
    if (dtype_->count()) spec["dtypes"] = string_list(dtype_v_);
    // The daemon parses every size form; the text goes as written.
    if (sizes_->count()) spec["sizes"] = sizes_v_;
    if (tensor_->count()) spec["tensor"] = tensor_v_;
    board_.fill(spec);
    if (threads_->count()) spec["threads"] = threads_v_;
    if (min_samples_->count()) spec["min_samples"] = min_samples_v_;
    if (repeats_->count()) spec["repeats"] = repeats_v_;
    for (const auto& n : numbers_)
      if (n.given()) spec[n.field] = n.value;
  }

 private:
  CLI::Option *device_ = nullptr, *dtype_ = nullptr, *sizes_ = nullptr, *tensor_ = nullptr;
  CLI::Option *threads_ = nullptr, *min_samples_ = nullptr, *repeats_ = nullptr;
  board_axis_flags board_;
  std::string device_v_, dtype_v_, sizes_v_, tensor_v_;
  std::int64_t threads_v_ = 0, min_samples_v_ = 0, repeats_v_ = 0;
  // Ranges are checked by the daemon (one place, one message naming spec.<field>).
  number_flag numbers_[9] = {
      {"--warmup-s", "warmup_s", "Seconds of untimed runs before each point (spec.warmup_s)"},
      {"--min-time-s", "min_time_s", "Shortest timed window per point (spec.min_time_s)"},
      {"--max-time-s", "max_time_s", "Longest timed window per point (spec.max_time_s)"},
      {"--target-rse", "target_rse", "Adaptive window: end a point once the relative standard errors of both its mean time and its mean "
       "power are at most this (spec.target_rse)"},
      {"--duration-s", "duration_s", "Fixed window per point instead of adaptive stopping (spec.duration_s)"},
      {"--boundary-s", "boundary_s", "Seconds trimmed from each end of the power window (spec.boundary_s)"},
      {"--cooldown-s", "cooldown_s", "Idle seconds before each point (spec.cooldown_s)"},
      contention_threshold_flag(),
      max_retries_flag(),
  };
};

}  // namespace

std::unique_ptr<submit_kind> make_gemm_submit_kind() { return std::make_unique<gemm_kind>(); }

}  // namespace jetperf::client
