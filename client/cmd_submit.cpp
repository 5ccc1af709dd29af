// jetperf submit KIND: builds the spec from --spec FILE, then the kind's flags, then --set
// key=value (later wins), and POSTs it. --watch follows the job; --dry-run only validates.
#include <iostream>
#include <set>

#include "cli_error.hpp"
#include "command.hpp"
#include "flag_lists.hpp"
#include "output.hpp"
#include "submit_spec_flags.hpp"

namespace jetperf::client {

namespace {

class submit_command final : public command {
 public:
  explicit submit_command(CLI::App& parent)
      : app_(parent.add_subcommand("submit", "Submit a job: submit KIND [kind flags] [--spec FILE] [--set k=v]")),
        request_flags_(*app_) {
    app_->add_flag("--watch", watch_, "Follow the job until it ends (exit 0 only if it succeeded)");
    app_->add_flag("--dry-run", dry_run_, "Validate and estimate only; submit nothing");
  }
  CLI::App* app() const override { return app_; }

  // The mappings a multi_dnn job will run, each once (the points repeat them per setting and
  // repeat): "mapping 3 (gpu_only): resnet50 -> cuda, alexnet -> cuda@21+cpu".
  static void print_mappings(const nlohmann::json& dry_run) {
    std::set<std::int64_t> seen;
    for (const auto& p : dry_run.value("planned", nlohmann::json::array())) {
      const auto id = p.value("mapping_id", std::int64_t{-1});
      if (!seen.insert(id).second) continue;
      std::cout << "mapping " << id;
      if (p.contains("mapping_class")) std::cout << " (" << format_cell(p["mapping_class"]) << ")";
      std::cout << ": " << p.value("mapping", nlohmann::json()).dump() << '\n';
    }
    const auto more = dry_run.value("planned_more", std::int64_t{0});
    if (more > 0) std::cout << "(" << more << " more points not listed: --json for the first 200)\n";
  }

  int run(context& ctx) override {
    const auto built = request_flags_.build();
    const std::string& kind = built.kind;
    const nlohmann::json& spec = built.spec;
    nlohmann::json request = built.body();
    if (dry_run_) {
      request["dry_run"] = true;
      const auto j = ctx.call("POST", "/v1/jobs", request.dump());
      if (ctx.config().json) {
        std::cout << j.dump(2) << '\n';
      } else {
        std::cout << "dry run: " << kind << ", " << format_cell(j.value("points", nlohmann::json())) << " points, estimate "
                  << format_duration(j.value("estimate_s", nlohmann::json())) << '\n'
                  << "spec: " << j.value("spec", spec).dump() << '\n';
        for (const auto& w : j.value("would_skip", nlohmann::json::array()))
          std::cout << "would skip " << format_cell(w.value("points", nlohmann::json())) << " points: "
                    << w.value("reason", std::string()) << '\n';
        // Power-mode switches the board reboots for (allow_reboot), so nobody is surprised by them.
        std::string reboots;
        for (const auto& r : j.value("reboots", nlohmann::json::array()))
          reboots += (reboots.empty() ? "" : ", ") + r.value("from", nlohmann::json()).dump() + " -> " +
                     r.value("to", nlohmann::json()).dump() + (r.value("restore", false) ? " (restore)" : "");
        if (!reboots.empty()) std::cout << "reboots (power mode switches): " << reboots << '\n';
        if (kind == "multi_dnn") print_mappings(j);
      }
      return exit_ok;
    }
    const auto job = ctx.call("POST", "/v1/jobs", request.dump());
    const auto id = job.value("id", std::int64_t{0});
    if (ctx.config().json) {
      std::cout << job.dump(2) << std::endl;
    } else {
      const auto progress = job.value("progress", nlohmann::json::object());
      std::cout << "submitted job " << id << " (" << kind << ", " << progress.value("total", std::int64_t{0})
                << " points, estimate " << format_duration(job.value("estimate_s", nlohmann::json())) << ")"
                << std::endl;
    }
    if (!watch_) return exit_ok;
    if (id <= 0) throw cli_error(exit_failure, "the server's answer carries no job id");
    return watch_job(ctx, id);
  }

 private:
  CLI::App* app_;
  submit_spec_flags request_flags_;
  bool watch_ = false;
  bool dry_run_ = false;
};

}  // namespace

std::unique_ptr<command> make_submit_command(CLI::App& parent) { return std::make_unique<submit_command>(parent); }

}  // namespace jetperf::client
