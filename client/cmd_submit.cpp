// jetperf submit KIND: builds the spec from --spec FILE, then the kind's flags, then --set
// key=value (later wins), and POSTs it. --watch follows the job; --dry-run only validates.
#include <iostream>

#include "cli_error.hpp"
#include "command.hpp"
#include "flag_lists.hpp"
#include "output.hpp"
#include "submit_kind.hpp"

namespace jetperf::client {

namespace {

// "a.b=3" sets spec["a"]["b"] = 3.
void apply_set(nlohmann::json& spec, const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw cli_error(exit_usage, "--set expects key=value, got '" + assignment + "'");
  std::string pointer;
  const std::string key = assignment.substr(0, eq);
  std::size_t start = 0;
  for (;;) {
    const auto dot = key.find('.', start);
    const std::string part = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (part.empty()) throw cli_error(exit_usage, "--set: bad key '" + key + "'");
    pointer += "/" + part;
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  spec[nlohmann::json::json_pointer(pointer)] = parse_flag_value(assignment.substr(eq + 1));
}

class submit_command final : public command {
 public:
  explicit submit_command(CLI::App& parent)
      : app_(parent.add_subcommand("submit", "Submit a job: submit KIND [kind flags] [--spec FILE] [--set k=v]")),
        kinds_(make_submit_kinds()) {
    app_->add_option("kind", kind_, "Job kind without its own flags here (use --spec/--set)");
    app_->add_option("--spec", spec_file_, "JSON spec file ('-' = stdin); may also be a whole {kind,spec,tags} request");
    app_->add_option("--set", sets_, "Set a spec field: key=value (value parsed as JSON when it can be); repeatable");
    app_->add_option("--tag", tags_, "Tag the job; repeatable");
    app_->add_flag("--watch", watch_, "Follow the job until it ends (exit 0 only if it succeeded)");
    app_->add_flag("--dry-run", dry_run_, "Validate and estimate only; submit nothing");
    app_->require_subcommand(0, 1);
    for (auto& k : kinds_) {
      CLI::App* sub = app_->add_subcommand(k->name(), k->description());
      // --tag, --watch, --spec ... after the kind name belong to `submit`.
      sub->fallthrough();
      k->add_flags(*sub);
    }
  }
  CLI::App* app() const override { return app_; }

  int run(context& ctx) override {
    std::string kind = kind_;
    const submit_kind* flags = nullptr;
    for (auto& k : kinds_)
      if (app_->got_subcommand(k->name())) {
        kind = k->name();
        flags = k.get();
      }

    nlohmann::json spec = nlohmann::json::object();
    std::vector<std::string> tags;
    if (!spec_file_.empty()) {
      const auto text = read_input(spec_file_, "spec file");
      auto file = nlohmann::json::parse(text, nullptr, false);
      if (file.is_discarded() || !file.is_object())
        throw cli_error(exit_usage, "spec file '" + spec_file_ + "' is not a JSON object");
      if (file.contains("spec") && file["spec"].is_object()) {
        if (file.contains("kind") && file["kind"].is_string()) {
          const auto file_kind = file["kind"].get<std::string>();
          if (!kind.empty() && kind != file_kind)
            throw cli_error(exit_usage, "spec file is for kind '" + file_kind + "', not '" + kind + "'");
          kind = file_kind;
        }
        if (file.contains("tags") && file["tags"].is_array())
          for (const auto& t : file["tags"])
            if (t.is_string()) tags.push_back(t.get<std::string>());
        spec = file["spec"];
      } else {
        spec = std::move(file);
      }
    }
    if (kind.empty()) throw cli_error(exit_usage, "submit needs a job kind (e.g. `jetperf submit idle`)");
    if (flags) flags->fill_spec(spec);
    for (const auto& s : sets_) apply_set(spec, s);
    tags.insert(tags.end(), tags_.begin(), tags_.end());

    nlohmann::json request{{"kind", kind}, {"spec", spec}, {"tags", tags}};
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
  std::vector<std::unique_ptr<submit_kind>> kinds_;
  std::string kind_;
  std::string spec_file_;
  std::vector<std::string> sets_;
  std::vector<std::string> tags_;
  bool watch_ = false;
  bool dry_run_ = false;
};

}  // namespace

std::unique_ptr<command> make_submit_command(CLI::App& parent) { return std::make_unique<submit_command>(parent); }

}  // namespace jetperf::client
