// jetperf rerun ID: submits a job's stored spec again, exactly (the normalized spec, user networks
// included, and its tags), as a new job: the way to repeat a measurement later or elsewhere.
#include <iostream>

#include "cli_error.hpp"
#include "command.hpp"
#include "output.hpp"

namespace jetperf::client {

namespace {

class rerun_command final : public command {
 public:
  explicit rerun_command(CLI::App& parent)
      : app_(parent.add_subcommand("rerun", "Submit a job's stored spec again, as a new job")) {
    app_->add_option("id", id_, "Job id")->required()->check(job_id_check());
    app_->add_flag("--watch", watch_, "Follow the new job until it ends (exit 0 only if it succeeded)");
  }
  CLI::App* app() const override { return app_; }

  int run(context& ctx) override {
    const auto old = ctx.call("GET", "/v1/jobs/" + std::to_string(id_));
    const nlohmann::json request{{"kind", old.value("kind", std::string())},
                                 {"spec", old.value("spec", nlohmann::json::object())},
                                 {"tags", old.value("tags", nlohmann::json::array())}};
    const auto job = ctx.call("POST", "/v1/jobs", request.dump());
    const auto id = job.value("id", std::int64_t{0});
    if (ctx.config().json)
      std::cout << job.dump(2) << std::endl;
    else
      std::cout << "submitted job " << id << " (rerun of job " << id_ << ", " << request["kind"].get<std::string>()
                << ", estimate " << format_duration(job.value("estimate_s", nlohmann::json())) << ")" << std::endl;
    if (!watch_) return exit_ok;
    if (id <= 0) throw cli_error(exit_failure, "the server's answer carries no job id");
    return watch_job(ctx, id);
  }

 private:
  CLI::App* app_;
  std::int64_t id_ = 0;
  bool watch_ = false;
};

}  // namespace

std::unique_ptr<command> make_rerun_command(CLI::App& parent) { return std::make_unique<rerun_command>(parent); }

}  // namespace jetperf::client
