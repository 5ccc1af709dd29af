// `jetperf submit idle`: the board at rest, the baseline for every power figure.
#include "submit_kind.hpp"

namespace jetperf::client {

namespace {

class idle_kind final : public submit_kind {
 public:
  std::string name() const override { return "idle"; }
  std::string description() const override { return "Measure the board at rest (baseline power)"; }

  void add_flags(CLI::App& app) override {
    duration_ = app.add_option("-d,--duration", duration_s_, "Seconds per repeat (spec.duration_s, default 1)")
                    ->check(CLI::PositiveNumber);
    repeats_ = app.add_option("-r,--repeats", repeats_n_, "Number of points (spec.repeats, default 1)")
                   ->check(CLI::PositiveNumber);
  }

  void fill_spec(nlohmann::json& spec) const override {
    if (duration_->count() > 0) spec["duration_s"] = duration_s_;
    if (repeats_->count() > 0) spec["repeats"] = repeats_n_;
  }

 private:
  CLI::Option* duration_ = nullptr;
  CLI::Option* repeats_ = nullptr;
  double duration_s_ = 0;
  std::int64_t repeats_n_ = 0;
};

}  // namespace

std::unique_ptr<submit_kind> make_idle_submit_kind() { return std::make_unique<idle_kind>(); }

}  // namespace jetperf::client
