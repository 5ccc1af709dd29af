// jetperf trace analyze FILE.json [--format table|csv|json] [-o OUT] [--batch-size N]
//                                 [--iteration-label PATTERN | --iteration-op NAME] [--cpu-event-overhead US] ...
// The breakdown of a PyTorch profiler trace (export_chrome_trace; Kineto's or the legacy form),
// computed here with the daemon's own library (jetperf::traces): per-op CPU and device time as
// key_averages() reports them, per-kernel time, seed 004's host overheads T1..T5, iterations and
// QPS. Needs no daemon. Exit codes: 0 analysed, 1 the file is not a trace we can read (the message
// names the event and field), 2 a usage error or a file that cannot be read or written.
#include <iostream>
#include <sstream>

#include <jetperf/common/errors.hpp>
#include <jetperf/traces/breakdown_writers.hpp>
#include <jetperf/traces/trace_analysis.hpp>
#include <jetperf/traces/trace_reader.hpp>

#include "cli_error.hpp"
#include "trace_subcommands.hpp"

namespace jetperf::client {

namespace {

class trace_analyze_command final : public command {
 public:
  explicit trace_analyze_command(CLI::App& group)
      : app_(group.add_subcommand("analyze", "Op, kernel and host-overhead (T1..T5) breakdown of a trace file")) {
    app_->add_option("FILE", file_, "Chrome trace JSON from torch.profiler's export_chrome_trace")->required();
    app_->add_option("--format", format_, "table (default), csv or json")->check(CLI::IsMember({"table", "csv", "json"}));
    app_->add_option("-o,--output", output_, "Write to this file instead of stdout")->transform(dash_is_stdout());
    app_->add_option("--batch-size", batch_size_, "Samples per iteration: prints QPS")->check(CLI::PositiveNumber);
    auto* label = app_->add_option("--iteration-label", options_.iteration_label,
                                   "The step label that marks one iteration, `*` any text, `?` one character "
                                   "(e.g. '## iteration * ##'; default: ProfilerStep#N, else '## iteration N ##')");
    label->check([](const std::string& v) { return v.empty() ? std::string("an empty pattern matches nothing") : std::string(); });
    app_->add_option("--iteration-op", options_.iteration_op,
                     "An op or label, by its exact name, that marks one iteration")
        ->excludes(label);
    auto& m = options_.model;
    app_->add_option("--cpu-event-overhead", m.cpu_event_overhead_us,
                     "Profiler cost per host event, us (the DLRM trace analysis' CPU_EVENT_OVERHEAD, default 2)")
        ->check(CLI::NonNegativeNumber);
    app_->add_option("--gpu-event-overhead", m.gpu_event_overhead_us,
                     "Profiler cost per device event, us (GPU_EVENT_OVERHEAD, default 4)")
        ->check(CLI::NonNegativeNumber);
    app_->add_option("--kernel-launch-length", m.kernel_launch_length_us,
                     "One launch call without profiling, us (KERNEL_LAUNCH_LENGTH, default 10)")
        ->check(CLI::NonNegativeNumber);
  }
  CLI::App* app() const override { return app_; }

  int run(context& ctx) override {
    const std::string format = format_.empty() ? ctx.config().format : format_;
    if (batch_size_ > 0) options_.batch_size = batch_size_;
    traces::trace_breakdown breakdown;
    try {
      breakdown = traces::analyze_trace(traces::read_trace_file(file_), options_);
    } catch (const validation_error& e) {
      // A file we cannot open is a usage error; one we can open but not read as a trace is not.
      if (e.field() == "file") throw cli_error(exit_usage, e.what());
      throw cli_error(exit_failure, file_ + ": " + (e.field().empty() ? "" : e.field() + ": ") + e.what());
    }
    std::ostringstream out;
    if (format == "csv") {
      traces::write_breakdown_csv(breakdown, out);
    } else if (format == "json") {
      traces::write_breakdown_json(breakdown, out);
    } else {
      traces::write_breakdown_table(breakdown, out);
    }
    if (output_.empty()) {
      std::cout << out.str();
      std::cout.flush();
    } else {
      write_text_file(output_, out.str());
    }
    return exit_ok;
  }

 private:
  CLI::App* app_;
  std::string file_;
  std::string format_;  ///< "": the global --format
  std::string output_;
  long batch_size_ = 0;
  traces::analysis_options options_;
};

}  // namespace

std::unique_ptr<command> make_trace_analyze_command(CLI::App& trace_group) {
  return std::make_unique<trace_analyze_command>(trace_group);
}

}  // namespace jetperf::client
