// jetperf jobs: the job list, filtered like GET /v1/jobs.
#include <iostream>

#include "command.hpp"
#include "output.hpp"

namespace jetperf::client {

namespace {

class jobs_command final : public command {
 public:
  explicit jobs_command(CLI::App& parent) : app_(parent.add_subcommand("jobs", "List jobs (newest first)")) {
    app_->add_option("--state", state_, "Only jobs in this state (queued, running, succeeded, partial, failed, cancelled, interrupted)");
    app_->add_option("--kind", kind_, "Only jobs of this kind");
    app_->add_option("--tag", tag_, "Only jobs carrying this tag");
    app_->add_option("--limit", limit_, "At most this many jobs")->check(CLI::PositiveNumber);
    app_->add_option("--offset", offset_, "Skip this many jobs")->check(CLI::NonNegativeNumber);
  }
  CLI::App* app() const override { return app_; }
  bool prints_table() const override { return true; }

  int run(context& ctx) override {
    std::string query;
    auto add = [&query](const char* key, const std::string& value) {
      if (value.empty()) return;
      query += (query.empty() ? "?" : "&") + std::string(key) + "=" + url_encode(value);
    };
    add("state", state_);
    add("kind", kind_);
    add("tag", tag_);
    if (limit_ > 0) add("limit", std::to_string(limit_));
    if (offset_ > 0) add("offset", std::to_string(offset_));
    const auto j = ctx.call("GET", "/v1/jobs" + query);
    if (ctx.config().json)
      std::cout << j.dump(2) << '\n';
    else
      std::cout << format_job_list(j, ctx.config().format);
    return 0;
  }

 private:
  CLI::App* app_;
  std::string state_, kind_, tag_;
  std::int64_t limit_ = 0;
  std::int64_t offset_ = 0;
};

}  // namespace

std::unique_ptr<command> make_jobs_command(CLI::App& parent) { return std::make_unique<jobs_command>(parent); }

}  // namespace jetperf::client
