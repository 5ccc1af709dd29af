// jetperf trace ID -o FILE.json | trace SUBCOMMAND: a job's timeline exported as a Chrome trace,
// or work on PyTorch/Kineto traces. The group only dispatches: each subcommand is its own file
// (trace_subcommands.hpp); adding one is a file and a line in the constructor.
#include <utility>
#include <vector>

#include "cli_error.hpp"
#include "command.hpp"
#include "trace_subcommands.hpp"

namespace jetperf::client {

namespace {

class trace_command final : public command {
 public:
  explicit trace_command(CLI::App& parent)
      : app_(parent.add_subcommand("trace", "Export a job's timeline (trace ID -o FILE.json), or analyze a trace file")),
        export_(*app_) {
    app_->require_subcommand(0, 1);
    subcommands_.push_back(make_trace_analyze_command(*app_));
    subcommands_.push_back(make_trace_attach_command(*app_));
  }
  CLI::App* app() const override { return app_; }
  bool prints_table() const override {
    for (const auto& s : subcommands_)
      if (s->app()->parsed()) return true;
    return false;
  }

  int run(context& ctx) override {
    for (auto& s : subcommands_)
      if (s->app()->parsed()) return s->run(ctx);
    if (export_.id > 0) return export_trace(ctx, export_);
    throw cli_error(exit_usage, "trace needs a job id (trace ID -o FILE.json) or a subcommand (see jetperf trace --help)");
  }

 private:
  CLI::App* app_;
  trace_export_flags export_;
  std::vector<std::unique_ptr<command>> subcommands_;
};

}  // namespace

std::unique_ptr<command> make_trace_command(CLI::App& parent) { return std::make_unique<trace_command>(parent); }

}  // namespace jetperf::client
