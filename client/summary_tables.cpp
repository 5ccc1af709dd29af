#include "summary_tables.hpp"

#include "output.hpp"

namespace jetperf::client {

namespace {

using nlohmann::json;

std::string text_of(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

summary_format format_of(const std::string& name) {
  if (name == "setting") return summary_format::setting;
  if (name == "fraction") return summary_format::fraction;
  if (name == "params") return summary_format::params;
  if (name == "count") return summary_format::count;
  return summary_format::value;
}

summary_source source_of(const std::string& name) {
  if (name == "parent") return summary_source::parent;
  if (name == "key") return summary_source::key;
  return summary_source::row;
}

// The value at a dotted path ("over_idle.gflops_per_w"); null where any step is missing.
json at_path(const json& j, const std::string& path) {
  const json* at = &j;
  std::size_t start = 0;
  while (true) {
    const auto dot = path.find('.', start);
    const auto it = at->find(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (it == at->end()) return json();
    at = &*it;
    if (dot == std::string::npos) return *at;
    start = dot + 1;
  }
}

// "cpu_freq_khz=115200,gpu_freq_hz=..." for a setting's non-null values ("as is" when none).
std::string setting_text(const json& setting) {
  std::string out;
  if (setting.is_object())
    for (const auto& kv : setting.items())
      if (!kv.value().is_null()) out += (out.empty() ? "" : ",") + kv.key() + "=" + format_cell(kv.value());
  return out.empty() ? "as is" : out;
}

// A row as the columns read it: the row itself, the row it is nested in, and its member name.
struct row_place {
  const json& row;
  const json& parent;
  const std::string& key;
};

std::string cell_text(const summary_column& c, const row_place& at) {
  if (c.source == summary_source::key) return at.key;
  const json& from = c.source == summary_source::parent ? at.parent : at.row;
  const auto value = at_path(from, c.path);
  switch (c.format) {
    case summary_format::setting: return setting_text(value);
    case summary_format::fraction: return format_cell(value) + "/" + format_cell(at_path(from, c.of));
    case summary_format::params: return format_params(c.path.empty() ? from : value, {c.of});
    case summary_format::count: return value.is_array() ? std::to_string(value.size()) : "-";
    case summary_format::value: break;
  }
  return format_cell(value);
}

std::vector<std::string> row_cells(const summary_table& table, const row_place& at) {
  std::vector<std::string> cells;
  for (const auto& c : table.columns) cells.push_back(cell_text(c, at));
  return cells;
}

summary_table table_of(const json& t) {
  summary_table table{text_of(t, "name"), text_of(t, "title"), text_of(t, "rows"), text_of(t, "nested"), {},
                      text_of(t, "empty_text")};
  const auto cols = t.find("columns");
  if (cols != t.end() && cols->is_array())
    for (const auto& c : *cols)
      if (c.is_object())
        table.columns.push_back({text_of(c, "header"), text_of(c, "path"), text_of(c, "unit"),
                                 format_of(text_of(c, "format")), source_of(text_of(c, "source")), text_of(c, "of")});
  return table;
}

void replace_all(std::string& text, const std::string& what, const std::string& with) {
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + with.size()))
    text.replace(at, what.size(), with);
}

}  // namespace

std::vector<summary_table> parse_summary_tables(const nlohmann::json& kind) {
  std::vector<summary_table> out;
  const auto it = kind.find("summary_tables");
  if (it == kind.end() || !it->is_array()) return out;
  for (const auto& t : *it)
    if (t.is_object()) out.push_back(table_of(t));
  return out;
}

std::vector<compare_view> parse_compare_views(const nlohmann::json& kind) {
  std::vector<compare_view> out;
  const auto it = kind.find("compare_views");
  if (it == kind.end() || !it->is_array()) return out;
  for (const auto& v : *it) {
    if (!v.is_object() || !v.contains("table") || !v["table"].is_object()) continue;
    compare_view view{{}, table_of(v["table"])};
    for (const auto& name : v.value("by", json::array()))
      if (name.is_string()) view.by.push_back(name.get<std::string>());
    out.push_back(std::move(view));
  }
  return out;
}

summary_table with_by(summary_table table, const std::string& by) {
  replace_all(table.empty_text, "{by}", by);
  for (auto& c : table.columns)
    for (auto* text : {&c.header, &c.path, &c.of}) replace_all(*text, "{by}", by);
  return table;
}

std::vector<const summary_table*> tables_in(const std::vector<summary_table>& tables, const nlohmann::json& summary) {
  std::vector<const summary_table*> out;
  if (!summary.is_object()) return out;
  for (const auto& t : tables) {
    const auto it = summary.find(t.rows);
    if (it != summary.end() && it->is_array()) out.push_back(&t);
  }
  return out;
}

std::string format_summary_table(const summary_table& table, const nlohmann::json& summary, const std::string& format) {
  std::vector<std::vector<std::string>> rows;
  const std::string no_key;
  const auto list = summary.find(table.rows);
  if (list != summary.end() && list->is_array()) {
    for (const auto& r : *list) {
      if (!r.is_object()) continue;
      if (table.nested.empty()) {
        rows.push_back(row_cells(table, {r, json::object(), no_key}));
        continue;
      }
      const auto members = r.find(table.nested);
      if (members == r.end() || !members->is_object()) continue;
      for (const auto& m : members->items()) rows.push_back(row_cells(table, {m.value(), r, m.key()}));
    }
  }
  std::vector<std::string> header;
  for (const auto& c : table.columns) header.push_back(c.header);
  if (format == "csv") return format_csv(header, rows);
  if (rows.empty()) return table.empty_text.empty() ? std::string() : table.empty_text + "\n";
  return (table.title.empty() ? std::string() : table.title + ":\n") + format_table(header, rows);
}

}  // namespace jetperf::client
