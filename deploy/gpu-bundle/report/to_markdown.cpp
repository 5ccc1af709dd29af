#include "bundle_report.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace jetperf::bundle {

namespace {

using ojson = nlohmann::ordered_json;

// Four significant digits read well in a table; report.json keeps every digit.
std::string cell(const ojson& v) {
  if (v.is_null()) return "";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v.get<double>());
    return buf;
  }
  if (v.is_array() && std::all_of(v.begin(), v.end(), [](const ojson& x) { return !x.is_structured(); })) {
    std::string out;
    for (const auto& x : v) out += (out.empty() ? "" : ", ") + cell(x);
    return out;
  }
  return v.dump();
}

std::string escaped(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

// googletest's --gtest_output=json nests tests in suites: one row per test, with its result
// (a test that skipped on the GPU machine must stand out) and its first failure's first line.
ojson gtest_rows(const ojson& v) {
  ojson rows = ojson::array();
  for (const auto& suite : v["testsuites"])
    for (const auto& t : suite.value("testsuite", ojson::array())) {
      std::string failure;
      if (t.contains("failures") && !t["failures"].empty())
        failure = t["failures"][0].value("failure", "").substr(0, t["failures"][0].value("failure", "").find('\n'));
      rows.push_back({{"test", suite.value("name", "") + "." + t.value("name", "")},
                      {"result", t.contains("failures") ? "FAILED" : t.value("result", "")},
                      {"time", t.value("time", "")},
                      {"failure", failure}});
    }
  return rows;
}

const ojson* rows_of(const ojson& v) {
  if (v.is_array() && !v.empty() && std::all_of(v.begin(), v.end(), [](const ojson& x) { return x.is_object(); }))
    return &v;
  if (v.is_object() && v.contains("rows")) return rows_of(v["rows"]);
  return nullptr;
}

std::vector<std::string> scalar_columns(const ojson& rows) {
  std::vector<std::string> cols;
  for (const auto& row : rows)
    for (const auto& [k, x] : row.items())
      if (!x.is_object() && std::find(cols.begin(), cols.end(), k) == cols.end()) cols.push_back(k);
  return cols;
}

void write_table(std::ostringstream& md, const ojson& rows, std::vector<std::string> cols) {
  if (cols.empty()) cols = scalar_columns(rows);
  md << "|";
  for (const auto& c : cols) md << " " << escaped(c) << " |";
  md << "\n|";
  for (std::size_t i = 0; i < cols.size(); ++i) md << " --- |";
  md << "\n";
  for (const auto& row : rows) {
    md << "|";
    for (const auto& c : cols) md << " " << escaped(row.contains(c) ? cell(row[c]) : "") << " |";
    md << "\n";
  }
}

// An object's scalars as "a.b: value" lines; its rows (if any) go to the table instead.
void write_scalars(std::ostringstream& md, const ojson& v, const std::string& prefix) {
  for (const auto& [k, x] : v.items()) {
    const std::string key = prefix.empty() ? k : prefix + "." + k;
    if (k == "rows" && rows_of(x)) continue;
    if (x.is_object()) write_scalars(md, x, key);
    else if (!x.is_array() || !rows_of(x)) md << "- " << escaped(key) << ": " << escaped(cell(x)) << "\n";
  }
}

void write_figure(std::ostringstream& md, const figure& f) {
  md << "\n**" << escaped(f.name) << "**\n\n";
  if (f.value.is_object() && f.value.contains("testsuites") && f.value["testsuites"].is_array()) {
    for (const char* k : {"tests", "failures", "errors", "disabled", "time"})
      if (f.value.contains(k)) md << "- " << k << ": " << escaped(cell(f.value[k])) << "\n";
    md << "\n";
    write_table(md, gtest_rows(f.value), {});
    return;
  }
  if (f.value.is_object()) write_scalars(md, f.value, "");
  if (const ojson* rows = rows_of(f.value)) {
    if (f.value.is_object()) md << "\n";
    write_table(md, *rows, f.columns);
  } else if (!f.value.is_object()) {
    md << "- " << escaped(cell(f.value)) << "\n";
  }
}

// "7 steps: 5 ok, 2 skipped": each status up to its reason ("timed out (60 s)", "not run: ...").
std::string status_counts(const run_report& r) {
  std::vector<std::pair<std::string, int>> counts;
  for (const auto& s : r.steps) {
    std::string word = s.status.substr(0, s.status.find_first_of(":("));
    while (!word.empty() && word.back() == ' ') word.pop_back();
    if (word.empty()) word = "no status";
    auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == word; });
    if (it == counts.end()) counts.emplace_back(word, 1);
    else ++it->second;
  }
  std::string out = std::to_string(r.steps.size()) + " steps";
  for (std::size_t i = 0; i < counts.size(); ++i)
    out += (i == 0 ? ": " : ", ") + std::to_string(counts[i].second) + " " + counts[i].first;
  return out;
}

}  // namespace

std::string to_markdown(const run_report& r) {
  std::ostringstream md;
  md << "# jetperf GPU bundle report\n\n";
  md << (every_step_ran(r) ? "Every step ran or was skipped with its reason" : "Some steps did not run") << ": "
     << status_counts(r) << ".\n\n";
  md << "| | |\n| --- | --- |\n";
  for (const auto& [k, v] : r.environment) md << "| " << escaped(k) << " | " << escaped(v) << " |\n";
  for (const auto& s : r.steps) {
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.1f", s.seconds);
    md << "\n## " << escaped(s.name) << ": " << escaped(s.status.empty() ? "no status" : s.status) << " (" << secs
       << " s)\n\n";
    if (!s.commands.empty()) {
      md << "```\n";
      for (const auto& c : s.commands) md << c << "\n";
      md << "```\n";
    }
    for (const auto& f : s.figures) write_figure(md, f);
  }
  return md.str();
}

}  // namespace jetperf::bundle
