// jetperf pin ID / jetperf unpin ID: POST / DELETE /v1/jobs/{id}/pin. A pinned job keeps its
// samples at full rate past retention_full_days and retention_days.
#include <iostream>

#include "command.hpp"
#include "output.hpp"

namespace jetperf::client {

namespace {

class pin_command final : public command {
 public:
  pin_command(CLI::App& parent, bool pin)
      : app_(parent.add_subcommand(pin ? "pin" : "unpin",
                                   pin ? "Keep a job's samples at full rate whatever their age"
                                       : "Let retention downsample and then drop a job's samples again")),
        pin_(pin) {
    app_->add_option("id", id_, "Job id")->required()->check(job_id_check());
  }
  CLI::App* app() const override { return app_; }

  int run(context& ctx) override {
    const auto j = ctx.call(pin_ ? "POST" : "DELETE", "/v1/jobs/" + std::to_string(id_) + "/pin");
    if (ctx.config().json) {
      std::cout << j.dump(2) << '\n';
      return 0;
    }
    std::cout << "job " << id_ << ": " << (j.value("pinned", false) ? "pinned" : "not pinned") << " (samples "
              << (j.contains("samples") ? format_cell(j["samples"]) : "full") << ")\n";
    return 0;
  }

 private:
  CLI::App* app_;
  bool pin_;
  std::int64_t id_ = 0;
};

}  // namespace

std::unique_ptr<command> make_pin_command(CLI::App& parent) { return std::make_unique<pin_command>(parent, true); }
std::unique_ptr<command> make_unpin_command(CLI::App& parent) { return std::make_unique<pin_command>(parent, false); }

}  // namespace jetperf::client
