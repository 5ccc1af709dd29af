// jetperf tegrastats parse FILE [--format jsonl|csv] [-o OUT]: converts a tegrastats log offline, with the
// daemon's own parser (the client links jetperf::tegrastats, src/tegrastats/). Needs no
// daemon. A field the parser does not know (a newer tegrastats) is kept in the record's "unparsed"
// and the line still converts; stderr gets a summary per file:
//   FILE: N lines, P parsed, U fields unparsed, E errors
//   FILE: unparsed NAME: COUNT           (the first 10 names; then "FILE: unparsed, other names: COUNT")
//   FILE:LINE: MESSAGE                   (the first 10 lines with no readable field at all, then
//                                         "FILE: ... K more lines with errors")
// The exit code is 1 only when some line held no readable field at all.
#include <fstream>
#include <iostream>

#include <jetperf/tegrastats/tegrastats_parser.hpp>

#include "cli_error.hpp"
#include "command.hpp"
#include "tegrastats_json.hpp"

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
    parse_->add_option("-o,--output", output_, "Write to this file instead of stdout")->transform(dash_is_stdout());
  }
  CLI::App* app() const override { return app_; }

  static void report(const std::string& name, const telemetry::tegrastats_parse_result& result) {
    constexpr std::size_t k_listed = 10;
    std::cerr << name << ": " << result.lines << " lines, " << result.records.size() << " parsed, "
              << result.unparsed_fields << " fields unparsed, " << result.errors.size() << " errors\n";
    const auto& names = result.unparsed_names.counts();
    for (std::size_t i = 0; i < names.size() && i < k_listed; ++i) {
      std::cerr << name << ": unparsed " << names[i].first << ": " << names[i].second << '\n';
    }
    std::uint64_t other = result.unparsed_names.untracked();
    for (std::size_t i = k_listed; i < names.size(); ++i) other += names[i].second;
    if (other > 0) std::cerr << name << ": unparsed, other names: " << other << '\n';
    for (std::size_t i = 0; i < result.errors.size() && i < k_listed; ++i) {
      std::cerr << name << ":" << result.errors[i].line << ": " << result.errors[i].message << '\n';
    }
    if (result.errors.size() > k_listed) {
      std::cerr << name << ": ... " << result.errors.size() - k_listed << " more lines with errors\n";
    }
  }

  int run(context&) override {
    telemetry::tegrastats_parse_result result;
    if (file_ == "-") {
      result = telemetry::parse_tegrastats_stream(std::cin);
    } else {
      std::ifstream in(file_);
      if (!in) throw cli_error(exit_usage, "cannot read " + file_);
      result = telemetry::parse_tegrastats_stream(in);
    }
    std::ofstream file;
    if (!output_.empty()) {
      file.open(output_, std::ios::binary | std::ios::trunc);
      if (!file) throw cli_error(exit_usage, "cannot write '" + output_ + "'");
    }
    std::ostream& out = output_.empty() ? std::cout : file;
    if (format_ == "csv") {
      telemetry::write_tegrastats_csv(result.records, out);
    } else {
      write_tegrastats_jsonl(result.records, out);
    }
    out.flush();
    if (!out) throw cli_error(exit_usage, "cannot write '" + (output_.empty() ? std::string("stdout") : output_) + "'");
    report(file_ == "-" ? "<stdin>" : file_, result);
    return result.errors.empty() ? exit_ok : exit_failure;
  }

 private:
  CLI::App* app_;
  CLI::App* parse_ = nullptr;
  std::string file_;
  std::string format_ = "jsonl";
  std::string output_;
};

}  // namespace

std::unique_ptr<command> make_tegrastats_command(CLI::App& parent) {
  return std::make_unique<tegrastats_command>(parent);
}

}  // namespace jetperf::client
