// jetperf tegrastats parse FILE [--format jsonl|csv]: converts a tegrastats log offline, with the
// daemon's own parser (src/telemetry/tegrastats_parser.cpp is compiled into the client). Needs no
// daemon. Unparseable lines go to stderr with their line numbers and make the exit code 1.
#include <fstream>
#include <iostream>

#include <jetperf/telemetry/tegrastats_parser.hpp>

#include "cli_error.hpp"
#include "command.hpp"

namespace jetperf::client {

namespace {

class tegrastats_command final : public command {
 public:
  explicit tegrastats_command(CLI::App& parent)
      : app_(parent.add_subcommand("tegrastats", "Work with tegrastats logs (offline)")) {
    app_->require_subcommand(1);
    parse_ = app_->add_subcommand("parse", "Convert a tegrastats log to JSON lines or CSV");
    parse_->add_option("FILE", file_, "tegrastats output, one sample per line ('-' for stdin)")->required();
    parse_->add_option("--format", format_, "jsonl (default) or csv")->check(CLI::IsMember({"jsonl", "csv"}));
  }
  CLI::App* app() const override { return app_; }

  int run(context&) override {
    telemetry::tegrastats_parse_result result;
    if (file_ == "-") {
      result = telemetry::parse_tegrastats_stream(std::cin);
    } else {
      std::ifstream in(file_);
      if (!in) throw cli_error(exit_usage, "cannot read " + file_);
      result = telemetry::parse_tegrastats_stream(in);
    }
    if (format_ == "csv") {
      telemetry::write_tegrastats_csv(result.records, std::cout);
    } else {
      telemetry::write_tegrastats_jsonl(result.records, std::cout);
    }
    std::cout.flush();
    for (const auto& e : result.errors) {
      std::cerr << file_ << ":" << e.line << ": " << e.message << '\n';
    }
    return result.errors.empty() ? exit_ok : exit_failure;
  }

 private:
  CLI::App* app_;
  CLI::App* parse_ = nullptr;
  std::string file_;
  std::string format_ = "jsonl";
};

}  // namespace

std::unique_ptr<command> make_tegrastats_command(CLI::App& parent) {
  return std::make_unique<tegrastats_command>(parent);
}

}  // namespace jetperf::client
