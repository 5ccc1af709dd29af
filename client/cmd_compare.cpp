// jetperf compare ID --by PARAM: a job's points compared along one parameter (a gemm job: tensor
// cores on vs off, or the most efficient value of a clock or power mode for each other setting).
// The table is the one the job's kind declares for PARAM (GET /v1/kinds/{kind}, compare_views):
// the client knows no kind's comparisons.
#include <iostream>

#include "cli_error.hpp"
#include "command.hpp"
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
      : app_(parent.add_subcommand("compare", "Compare a job's points along one parameter")) {
    app_->add_option("id", id_, "Job id")->required()->check(job_id_check());
    app_->add_option("--by", by_,
                     "the parameter: those the job's kind declares (GET /v1/kinds); a gemm job: tensor, a clock "
                     "(gpu_freq_hz, cpu_freq_khz, emc_freq_hz), power_mode, dtype, device, m, n, k or repeat")
        ->required();
  }
  CLI::App* app() const override { return app_; }
  bool prints_table() const override { return true; }

  int run(context& ctx) override {
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

  CLI::App* app_;
  std::int64_t id_ = 0;
  std::string by_;
};

}  // namespace

std::unique_ptr<command> make_compare_command(CLI::App& parent) { return std::make_unique<compare_command>(parent); }

}  // namespace jetperf::client
