#include "submit_spec_flags.hpp"

#include "cli_error.hpp"
#include "flag_lists.hpp"

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

}  // namespace

submit_spec_flags::submit_spec_flags(CLI::App& app) : app_(&app), kinds_(make_submit_kinds()) {
  app.add_option("kind", kind_, "Job kind without its own flags here (use --spec/--set)");
  app.add_option("--spec", spec_file_, "JSON spec file ('-' = stdin); may also be a whole {kind,spec,tags} request");
  app.add_option("--set", sets_, "Set a spec field: key=value (value parsed as JSON when it can be); repeatable");
  app.add_option("--tag", tags_, "Tag the job; repeatable");
  app.require_subcommand(0, 1);
  for (auto& k : kinds_) {
    CLI::App* sub = app.add_subcommand(k->name(), k->description());
    // --tag, --watch, --spec ... after the kind name belong to the parent.
    sub->fallthrough();
    k->add_flags(*sub);
  }
}

job_request submit_spec_flags::build() const {
  job_request r;
  r.kind = kind_;
  const submit_kind* flags = nullptr;
  for (const auto& k : kinds_)
    if (app_->got_subcommand(k->name())) {
      r.kind = k->name();
      flags = k.get();
    }
  if (!spec_file_.empty()) {
    const auto text = read_input(spec_file_, "spec file");
    auto file = nlohmann::json::parse(text, nullptr, false);
    if (file.is_discarded() || !file.is_object())
      throw cli_error(exit_usage, "spec file '" + spec_file_ + "' is not a JSON object");
    if (file.contains("spec") && file["spec"].is_object()) {
      if (file.contains("kind") && file["kind"].is_string()) {
        const auto file_kind = file["kind"].get<std::string>();
        if (!r.kind.empty() && r.kind != file_kind)
          throw cli_error(exit_usage, "spec file is for kind '" + file_kind + "', not '" + r.kind + "'");
        r.kind = file_kind;
      }
      if (file.contains("tags") && file["tags"].is_array())
        for (const auto& t : file["tags"])
          if (t.is_string()) r.tags.push_back(t.get<std::string>());
      r.spec = file["spec"];
    } else {
      r.spec = std::move(file);
    }
  }
  if (r.kind.empty()) throw cli_error(exit_usage, "submit needs a job kind (e.g. `jetperf submit idle`)");
  if (flags) flags->fill_spec(r.spec);
  for (const auto& s : sets_) apply_set(r.spec, s);
  r.tags.insert(r.tags.end(), tags_.begin(), tags_.end());
  return r;
}

}  // namespace jetperf::client
