// jetperf compare ID --by PARAM: a job's points compared along one parameter (a gemm job: tensor
// cores on vs off, or the most efficient value of a clock or power mode for each other setting).
// The table is the one the job's kind declares for PARAM (GET /v1/kinds/{kind}, compare_views):
// the client knows no kind's comparisons.
// jetperf compare A B: two jobs of one kind, point by point (GET /v1/compare), exiting 1 when a
// metric of B regressed against A beyond the noise and --threshold, as nvbench's script does.
#include <iostream>

#include "cli_error.hpp"
#include "command.hpp"
#include "job_comparison_view.hpp"
#include "output.hpp"
#include "summary_tables.hpp"
#include "summary_view.hpp"

namespace jetperf::client {

namespace {

// The view the job's kind declares for `by`; a usage error naming the ones it has when none.
summary_table compare_table_for(context& ctx, const std::string& kind, const std::string& by) {
  const auto views = parse_compare_views(ctx.call("GET", "/v1/kinds/" + url_encode(kind)));
  if (const auto* view = find_compare_view(views, by)) return with_by(view->table, by);
  std::string known;
  for (const auto& v : views)
    for (const auto& name : v.by) known += (known.empty() ? "" : ", ") + name;
  if (known.empty()) throw cli_error(exit_usage, "jobs of kind '" + kind + "' have no comparisons");
  throw cli_error(exit_usage, "--by: a " + kind + " job compares by " + known + ", not '" + by + "'");
}

class compare_command final : public command {
 public:
  explicit compare_command(CLI::App& parent)
      : app_(parent.add_subcommand("compare",
                                   "Compare a job's points along one parameter (--by), or two jobs point by point")) {
    app_->add_option("id", id_, "Job id (with B: the baseline)")->required()->check(job_id_check());
    auto* other = app_->add_option("other", other_id_, "B: a second job of the same kind, compared against the first")
                      ->check(job_id_check());
    auto* by = app_->add_option("--by", by_,
                                "the parameter: those the job's kind declares (GET /v1/kinds); a gemm job: tensor, a "
                                "clock (gpu_freq_hz, cpu_freq_khz, emc_freq_hz), power_mode, dtype, device, m, n, k or "
                                "repeat");
    by->excludes(other);
    app_->add_option("--threshold", threshold_,
                     "with B: the relative change (0.05 = 5%) below which a difference beyond the noise still reads "
                     "same; the command exits 1 when a metric of B is slower by more")
        ->check(CLI::Range(0.0, 10.0))
        ->needs(other);
  }
  CLI::App* app() const override { return app_; }
  bool prints_table() const override { return true; }

  int run(context& ctx) override {
    if (other_id_ > 0) return run_two_jobs(ctx);
    if (by_.empty()) throw cli_error(exit_usage, "compare: give --by PARAM (one job) or a second job id (two jobs)");
    const auto job = ctx.call("GET", "/v1/jobs/" + std::to_string(id_));
    const auto table = compare_table_for(ctx, job.value("kind", std::string()), by_);
    const auto j = compare_or_usage_error(ctx);
    if (ctx.config().json)
      std::cout << j.dump(2) << '\n';
    else if (ctx.config().format == "csv")
      std::cout << format_summary_table(table, j, "csv");
    else
      std::cout << format_summary_table(table, j) << caveat_lines(j);
    return 0;
  }

 private:
  // The daemon refuses a parameter this job did not sweep (400 naming by, with the ones it did):
  // a usage error, as a parameter the kind cannot compare by is.
  nlohmann::json compare_or_usage_error(context& ctx) const {
    const auto reply = ctx.http().request("GET", "/v1/jobs/" + std::to_string(id_) + "/compare?by=" + url_encode(by_));
    if (reply.status == 400) {
      const auto e = nlohmann::json::parse(reply.body, nullptr, false);
      const auto& err = e.is_object() && e.contains("error") ? e["error"] : nlohmann::json();
      if (err.is_object() && err.value("field", std::string()) == "by")
        throw cli_error(exit_usage, "--by: " + err.value("message", std::string("not a parameter of this job")));
    }
    throw_if_error(reply);
    auto j = nlohmann::json::parse(reply.body, nullptr, false);
    if (j.is_discarded()) throw cli_error(exit_failure, "the server sent invalid JSON for the comparison");
    return j;
  }

  int run_two_jobs(context& ctx) const {
    const auto j = ctx.call("GET", "/v1/compare?a=" + std::to_string(id_) + "&b=" + std::to_string(other_id_) +
                                       "&threshold=" + std::to_string(threshold_));
    if (ctx.config().json)
      std::cout << j.dump(2) << '\n';
    else
      std::cout << format_job_comparison(j, ctx.config().format);
    return j.value("regressions", 0) > 0 ? exit_failure : exit_ok;
  }

  CLI::App* app_;
  std::int64_t id_ = 0;
  std::int64_t other_id_ = 0;
  std::string by_;
  double threshold_ = 0.05;
};

}  // namespace

std::unique_ptr<command> make_compare_command(CLI::App& parent) { return std::make_unique<compare_command>(parent); }

}  // namespace jetperf::client
