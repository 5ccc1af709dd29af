// jetperf resume ID: queues an interrupted job again (POST /v1/jobs/{id}/resume); it goes on
// after its last finished point. Any other state is a 409 (exit 1).
#include <iostream>

#include "cli_error.hpp"
#include "command.hpp"
#include "output.hpp"

namespace jetperf::client {

namespace {

class resume_command final : public command {
 public:
  explicit resume_command(CLI::App& parent)
      : app_(parent.add_subcommand("resume", "Queue an interrupted job again; it resumes after its last finished point")) {
    app_->add_option("id", id_, "Job id")->required()->check(job_id_check());
    app_->add_flag("--watch", watch_, "Follow the job until it ends (exit 0 only if it succeeded)");
  }
  CLI::App* app() const override { return app_; }

  int run(context& ctx) override {
    const auto j = ctx.call("POST", "/v1/jobs/" + std::to_string(id_) + "/resume");
    if (ctx.config().json)
      std::cout << j.dump(2) << std::endl;
    else
      std::cout << "job " << id_ << ": " << (j.contains("state") ? format_cell(j["state"]) : "queued") << std::endl;
    return watch_ ? watch_job(ctx, id_) : exit_ok;
  }

 private:
  CLI::App* app_;
  std::int64_t id_ = 0;
  bool watch_ = false;
};

}  // namespace

std::unique_ptr<command> make_resume_command(CLI::App& parent) { return std::make_unique<resume_command>(parent); }

}  // namespace jetperf::client
