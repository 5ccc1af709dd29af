// jetperf results ID: the job's points as a table, CSV or JSON, to stdout or a file; for layer-wise
// jobs also dnnstats, the seed's processed layout (JSON).
#include <fstream>
#include <iostream>

#include "cli_error.hpp"
#include "command.hpp"
#include "output.hpp"

namespace jetperf::client {

namespace {

class results_command final : public command {
 public:
  explicit results_command(CLI::App& parent) : app_(parent.add_subcommand("results", "Print a job's results")) {
    app_->add_option("id", id_, "Job id")->required()->check(CLI::PositiveNumber);
    app_->add_option("--format", format_,
                     "table, csv, json or dnnstats (layers jobs) (default: table; json with --json)")
        ->check(CLI::IsMember({"table", "csv", "json", "dnnstats"}));
    app_->add_option("-o,--output", output_, "Write to this file instead of stdout");
  }
  CLI::App* app() const override { return app_; }

  int run(context& ctx) override {
    std::string format = format_.empty() ? (ctx.config().json ? "json" : "table") : format_;
    const std::string base = "/v1/jobs/" + std::to_string(id_) + "/results";
    std::string text;
    if (format == "csv") {
      text = ctx.call_text(base + "?format=csv");
    } else if (format == "dnnstats") {
      // The kind's own layout: printed as the daemon builds it (400 naming format for other kinds).
      text = ctx.call("GET", base + "?format=dnnstats").dump(2) + "\n";
    } else {
      const auto j = ctx.call("GET", base + "?format=json");
      // Only a terminal gets its columns limited; a file or a pipe gets them all.
      text = format == "json" ? j.dump(2) + "\n" : format_results_table(j, output_.empty() ? stdout_terminal_width() : 0);
    }
    if (output_.empty()) {
      std::cout << text;
      return 0;
    }
    std::ofstream out(output_, std::ios::binary);
    out << text;
    out.close();
    if (!out) throw cli_error(exit_usage, "cannot write '" + output_ + "'");
    return 0;
  }

 private:
  CLI::App* app_;
  std::int64_t id_ = 0;
  std::string format_;
  std::string output_;
};

}  // namespace

std::unique_ptr<command> make_results_command(CLI::App& parent) { return std::make_unique<results_command>(parent); }

}  // namespace jetperf::client
