// jetperf trace attach JOB FILE [--offset-ns N] [--force] [--iteration-label PATTERN | --iteration-op NAME]
//                     [--format table|csv|json] [-o OUT]
// Uploads a trace the job's program wrote (torch.profiler's export_chrome_trace) to the daemon,
// streamed from disk, and prints how the daemon aligned its clock with the job's (method,
// offset, uncertainty, matches) and the energy per top-level op, per op and per kernel that the
// job's power samples give over their intervals, with the share of the run the trace covers. A
// trace that does not belong to the job (outside its run, phases its markers did not see) is
// refused unless --force, which keeps it marked unverified. Exit codes: 0 attached, 1 refused by
// the daemon (not the job's, no way to align, a malformed trace, too large), 2 usage, 3 no
// connection.
#include <iostream>
#include <sstream>

#include "cli_error.hpp"
#include "output.hpp"
#include "trace_subcommands.hpp"

namespace jetperf::client {

namespace {

using nlohmann::json;

std::string energy_cell(const json& row) {
  if (!row["energy_j"].is_number()) return "-";
  std::string s = format_number(row["energy_j"].get<double>());
  if (row["uncertainty_j"].is_number()) s += " ± " + format_number(row["uncertainty_j"].get<double>());
  return s;
}

void print_table(std::ostream& out, const std::string& title, const json& rows, std::size_t limit) {
  if (!rows.is_array() || rows.empty()) return;
  out << "\n" << title << ":\n";
  std::vector<std::vector<std::string>> cells;
  for (const auto& r : rows) {
    if (cells.size() == limit) break;
    std::string flags;
    const auto flag = [&flags](const std::string& f) { flags += (flags.empty() ? "" : " ") + f; };
    if (r.value("label", false)) flag("label");
    if (r.value("unverified", false)) flag("unverified");
    if (r.value("short_intervals", 0) > 0) flag("short:" + std::to_string(r["short_intervals"].get<long>()));
    if (r.value("outside_samples", 0) > 0) flag("outside:" + std::to_string(r["outside_samples"].get<long>()));
    cells.push_back({format_cell(r["name"]), format_cell(r["count"]), format_cell(r["time_s"]), energy_cell(r),
                     format_cell(r.value("self_energy_j", json())), format_cell(r["power_w"]), flags});
  }
  out << format_table({"name", "count", "time_s", "energy_j", "self_energy_j", "power_w", "flags"}, cells);
  if (rows.size() > limit) out << "(" << rows.size() - limit << " more rows: --format csv or json for all)\n";
}

std::string as_table(const json& answer) {
  std::ostringstream out;
  const auto& a = answer["alignment"];
  out << "job " << answer["job_id"] << ": trace " << answer["n"] << " (" << answer["bytes"] << " bytes, "
      << answer.value("events", 0) << " events)\n";
  out << "alignment: " << a["method"].get<std::string>() << ", offset " << a["offset_ns"] << " ns ± "
      << a["uncertainty_ns"] << " ns";
  if (a["method"] == "markers") out << ", " << a["matched"] << " of " << a["phases"] << " phases matched";
  out << " (" << a.value("detail", "") << ")\n";
  if (!a.value("verified", true)) {
    out << "UNVERIFIED (attached with --force): ";
    for (const auto& r : a.value("unverified_reasons", json::array())) out << r.get<std::string>() << "; ";
    out << "\n";
  }
  const auto& e = answer["energy"];
  out << "power: " << (e["channel"].is_string() ? e["channel"].get<std::string>() : std::string("none stored"))
      << ", sensor period " << format_number(e.value("sensor_period_s", 0.0)) << " s\n";
  const auto c = e.value("coverage", json());
  if (c.is_object()) {
    out << "coverage of the run: " << format_number(100 * c["time_share"].get<double>()) << "% of its "
        << format_number(c["run_s"].get<double>()) << " s";
    if (c["energy_share"].is_number())
      out << ", " << format_number(100 * c["energy_share"].get<double>()) << "% of its "
          << format_number(c["run_energy_j"].get<double>()) << " J";
    out << " (the rest is outside the trace's top-level ops: start-up, imports, what it did not record)\n";
  }
  const auto it = e.value("iterations", json());
  if (it.is_object() && it.value("count", 0) > 0) {
    out << "iterations (" << it["source"].get<std::string>() << "): " << it["count"] << ", host runtime "
        << format_number(it["host_runtime_s"].get<double>()) << " s, mean " << format_number(it["mean_s"].get<double>())
        << " s";
    if (it["energy_per_iteration_j"].is_number())
      out << ", " << format_number(it["energy_per_iteration_j"].get<double>()) << " J per iteration";
    out << "\n";
  }
  print_table(out, "top-level ops", e["top_level"], 20);
  print_table(out, "ops", e["ops"], 30);
  print_table(out, "kernels", e["kernels"], 30);
  return out.str();
}

class trace_attach_command final : public command {
 public:
  explicit trace_attach_command(CLI::App& group)
      : app_(group.add_subcommand("attach", "Upload a trace the job's program wrote: energy per op and per kernel")) {
    app_->add_option("JOB", job_, "The finished job whose program wrote the trace")->required()->check(job_id_check());
    app_->add_option("FILE", file_, "Chrome trace JSON (torch.profiler's export_chrome_trace)")->required();
    app_->add_option("--offset-ns", offset_ns_, "daemon_t = trace_t + offset, in ns (overrides the daemon's alignment)");
    app_->add_flag("--force", force_,
                   "Attach a trace that does not belong to the job (outside its run, phases its markers did not see), "
                   "its figures marked unverified");
    auto* label = app_->add_option("--iteration-label", iteration_label_,
                                   "The step label that marks one iteration, `*` any text, `?` one character "
                                   "(default: ProfilerStep#N, else '## iteration N ##')");
    label->check([](const std::string& v) { return v.empty() ? std::string("an empty pattern matches nothing") : std::string(); });
    app_->add_option("--iteration-op", iteration_op_, "An op or label, by its exact name, that marks one iteration")
        ->excludes(label);
    app_->add_option("--format", format_, "table (default), csv or json")->check(CLI::IsMember({"table", "csv", "json"}));
    app_->add_option("-o,--output", output_, "Write to this file instead of stdout")->transform(dash_is_stdout());
  }
  CLI::App* app() const override { return app_; }

  int run(context& ctx) override {
    std::string target = "/v1/jobs/" + std::to_string(job_) + "/traces";
    std::string query;
    if (app_->count("--offset-ns")) query += "&offset_ns=" + std::to_string(offset_ns_);
    if (force_) query += "&force=true";
    if (!iteration_label_.empty()) query += "&iteration_label=" + url_encode(iteration_label_);
    if (!iteration_op_.empty()) query += "&iteration_op=" + url_encode(iteration_op_);
    if (!query.empty()) target += "?" + query.substr(1);
    const auto reply = ctx.http().upload(target, file_, "application/json");
    throw_if_error(reply);
    const auto answer = json::parse(reply.body);
    const std::string format = format_.empty() ? ctx.config().format : format_;
    std::string text;
    if (format == "json") {
      text = answer.dump(2) + "\n";
    } else if (format == "csv") {
      text = ctx.call_text("/v1/jobs/" + std::to_string(job_) + "/traces/" + std::to_string(answer["n"].get<long>()) +
                           "?format=csv");
    } else {
      text = as_table(answer);
    }
    if (output_.empty()) {
      std::cout << text;
      std::cout.flush();
    } else {
      write_text_file(output_, text);
    }
    return exit_ok;
  }

 private:
  CLI::App* app_;
  long job_ = 0;
  std::string file_;
  long long offset_ns_ = 0;
  bool force_ = false;
  std::string iteration_label_, iteration_op_;
  std::string format_;  ///< "": the global --format
  std::string output_;
};

}  // namespace

std::unique_ptr<command> make_trace_attach_command(CLI::App& group) {
  return std::make_unique<trace_attach_command>(group);
}

}  // namespace jetperf::client
