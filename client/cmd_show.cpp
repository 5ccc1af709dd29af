// jetperf show ID: one job in full: its header, its spec as key: value lines and its summary read
// by kind (--json: the API's JSON as is).
#include <iostream>

#include "command.hpp"
#include "job_view.hpp"

namespace jetperf::client {

namespace {

class show_command final : public command {
 public:
  explicit show_command(CLI::App& parent) : app_(parent.add_subcommand("show", "Show one job: its state, spec and summary")) {
    app_->add_option("id", id_, "Job id")->required()->check(job_id_check());
  }
  CLI::App* app() const override { return app_; }

  int run(context& ctx) override {
    const auto j = ctx.call("GET", "/v1/jobs/" + std::to_string(id_));
    if (ctx.config().json)
      std::cout << j.dump(2) << '\n';
    else
      std::cout << format_job_view(j, kind_summary_tables(ctx, j.value("kind", std::string())));
    return 0;
  }

 private:
  CLI::App* app_;
  std::int64_t id_ = 0;
};

}  // namespace

std::unique_ptr<command> make_show_command(CLI::App& parent) { return std::make_unique<show_command>(parent); }

}  // namespace jetperf::client
