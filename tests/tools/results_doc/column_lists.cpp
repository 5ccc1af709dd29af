#include "column_lists.hpp"

#include <stdexcept>

#include <jetperf/common/columns.hpp>
#include <jetperf/kinds/command/command_policy.hpp>

#include <kinds.hpp>

namespace jetperf::test::results_doc {

namespace {

std::string open_marker(const std::string& kind) { return "<!-- columns:" + kind + " -->"; }
std::string close_marker(const std::string& kind) { return "<!-- /columns:" + kind + " -->"; }

// A table cell's text: '|' would end the cell, '<' and '>' would read as HTML ("rail <NAME>").
std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else out += c;
  }
  return out;
}

}  // namespace

std::string column_list_markdown(const jobs::workload& kind) {
  std::string out = "\n<!-- generated from the kind's column table (GET /v1/kinds/" + kind.kind() +
                    "); do not edit, run: " + k_regenerate_command + " -->\n\n"
                    "| column | type | unit | role | description |\n"
                    "| --- | --- | --- | --- | --- |\n";
  // The rail placeholder as GET /v1/kinds names it: one such column per rail of the board.
  for (const auto& c : output_columns(kind.columns(), {"<NAME>"})) {
    const std::string role = std::string(to_string(c.role)) + (c.main ? " (main)" : "");
    out += "| `" + c.name + "` | " + to_string(c.type) + " | " + cell(c.unit) + " | " + role + " | " +
           cell(c.description) + " |\n";
  }
  return out + "\n";
}

std::optional<std::string> block_of(const std::string& doc, const std::string& kind) {
  const auto open = doc.find(open_marker(kind));
  if (open == std::string::npos) return std::nullopt;
  const auto start = open + open_marker(kind).size();
  const auto close = doc.find(close_marker(kind), start);
  if (close == std::string::npos) return std::nullopt;
  return doc.substr(start, close - start);
}

std::string with_block(const std::string& doc, const std::string& kind, const std::string& body) {
  const auto open = doc.find(open_marker(kind));
  const auto close = open == std::string::npos ? open : doc.find(close_marker(kind), open);
  if (close == std::string::npos)
    throw std::runtime_error("no column list for kind '" + kind + "': add the lines " + open_marker(kind) + " and " +
                             close_marker(kind) + " to its section of docs/results.md");
  const auto start = open + open_marker(kind).size();
  return doc.substr(0, start) + body + doc.substr(close);
}

std::vector<std::string> stale_kinds(const std::string& doc, const jobs::workload_registry& registry) {
  std::vector<std::string> out;
  for (const auto& kind : registry.kinds())
    if (block_of(doc, kind) != column_list_markdown(registry.get(kind))) out.push_back(kind);
  return out;
}

jobs::workload_registry daemon_kinds() {
  jobs::workload_registry registry;
  daemon::register_kinds(registry, kinds::command_policy{});
  return registry;
}

}  // namespace jetperf::test::results_doc
