// jetperf cancel ID: DELETE /v1/jobs/{id}; a finished job is a 409 (exit 1).
#include <iostream>

#include "command.hpp"
#include "output.hpp"

namespace jetperf::client {

namespace {

class cancel_command final : public command {
 public:
  explicit cancel_command(CLI::App& parent) : app_(parent.add_subcommand("cancel", "Cancel a queued or running job")) {
    app_->add_option("id", id_, "Job id")->required()->check(job_id_check());
  }
  CLI::App* app() const override { return app_; }

  int run(context& ctx) override {
    const auto j = ctx.call("DELETE", "/v1/jobs/" + std::to_string(id_));
    if (ctx.config().json)
      std::cout << j.dump(2) << '\n';
    else
      std::cout << "job " << id_ << ": " << (j.contains("state") ? format_cell(j["state"]) : "cancelled") << '\n';
    return 0;
  }

 private:
  CLI::App* app_;
  std::int64_t id_ = 0;
};

}  // namespace

std::unique_ptr<command> make_cancel_command(CLI::App& parent) { return std::make_unique<cancel_command>(parent); }

}  // namespace jetperf::client
