#include "result_view.hpp"

#include <algorithm>
#include <utility>

#include "output.hpp"
#include "provenance_view.hpp"
#include "result_columns.hpp"
#include "row_filter.hpp"
#include "summary_view.hpp"

namespace jetperf::client {

namespace {

using nlohmann::json;

// Rows as objects keyed by column name (an old daemon could send arrays in column order).
std::vector<json> rows_of(const json& results, const std::vector<result_column>& columns) {
  std::vector<json> out;
  const auto it = results.find("rows");
  if (it == results.end() || !it->is_array()) return out;
  for (const auto& r : *it) {
    if (r.is_object()) {
      out.push_back(r);
    } else if (r.is_array()) {
      json row = json::object();
      for (std::size_t c = 0; c < columns.size() && c < r.size(); ++c) row[columns[c].name] = r[c];
      out.push_back(std::move(row));
    }
  }
  return out;
}

std::string cell_text(const json& row, const std::string& key) {
  const auto it = row.find(key);
  return it == row.end() ? std::string("-") : format_result_cell(*it);
}

std::string points(std::size_t n) { return std::to_string(n) + (n == 1 ? " point" : " points"); }

// Distinct texts with how often each came, most frequent first (ties in first-seen order).
class tally {
 public:
  /// `missing` names the texts that were null ("-").
  explicit tally(std::string missing) : missing_(std::move(missing)) {}
  void add(const std::string& text) {
    for (auto& [t, n] : counts_)
      if (t == text) {
        ++n;
        return;
      }
    counts_.emplace_back(text, 1);
  }
  // 8 "no CUDA device", 4 "half needs tensor cores"
  std::string text() const {
    auto sorted = counts_;
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::string out;
    for (const auto& [t, n] : sorted)
      out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + (t == "-" ? missing_ : "\"" + t + "\"");
    return out;
  }

 private:
  std::string missing_;
  std::vector<std::pair<std::string, std::size_t>> counts_;
};

// How many of `widths` fit side by side (two spaces apart) in `max_width`; at least one.
std::size_t columns_that_fit(const std::vector<std::size_t>& widths, int max_width) {
  std::size_t used = 0;
  for (std::size_t c = 0; c < widths.size(); ++c) {
    const std::size_t next = used + (c ? 2 : 0) + widths[c];
    if (c > 0 && next > static_cast<std::size_t>(max_width)) return c;
    used = next;
  }
  return widths.size();
}

bool has_flag(const json& row, const char* flag) {
  const auto flags = row.find("flags");
  return flags != row.end() && flags->is_array() && std::find(flags->begin(), flags->end(), flag) != flags->end();
}

json number_or_null(const json& row, const char* key) {
  const auto it = row.find(key);
  return it != row.end() && it->is_number() ? *it : json();
}

// A gemm row as the summary names a winner: its parameter columns, its GFLOP/s per watt drawn and
// over idle.
json winner_of(const json& row, const std::vector<result_column>& columns) {
  json params = json::object();
  for (const auto& c : columns)
    if (c.role == "parameter" && c.type != "object" && c.name != "index" && row.contains(c.name))
      params[c.name] = row.at(c.name);
  json w = {{"params", params},
            {"gflops", number_or_null(row, "gflops")},
            {"gflops_per_w", number_or_null(row, "gflops_per_w")},
            {"power_w", number_or_null(row, "power_w")},
            {"dynamic_power_w", number_or_null(row, "dynamic_power_w")},
            {"gflops_per_dynamic_w", json()}};
  if (w["gflops"].is_number() && w["dynamic_power_w"].is_number() && w["dynamic_power_w"].get<double>() > 0)
    w["gflops_per_dynamic_w"] = w["gflops"].get<double>() / w["dynamic_power_w"].get<double>();
  return w;
}

// The gemm summary's verdicts over the rows --where kept, by the daemon's rule (gemm_compare.cpp:
// points with GFLOP/s per watt, implausible, contended and rse_unmet ones left out and counted): the footer
// must not name a winner from rows the table does not show.
json gemm_verdicts_over(const std::vector<const json*>& rows, const std::vector<result_column>& columns, json summary) {
  json best, best_dynamic;  // winner_of() of the best rows so far
  json left_out = json::object();
  const auto beats = [](const json& w, const json& current, const char* key) {
    return w[key].is_number() && (current.is_null() || w[key].get<double>() > current[key].get<double>());
  };
  for (const json* row : rows) {
    if (!number_or_null(*row, "gflops_per_w").is_number()) continue;
    const char* why = cell_text(*row, "status") == "implausible" ? "implausible"
                      : has_flag(*row, "contended")               ? "contended"
                      : has_flag(*row, "rse_unmet")               ? "rse_unmet"
                                                                  : nullptr;
    if (why) {
      left_out[why] = left_out.value(why, 0) + 1;
      continue;
    }
    auto w = winner_of(*row, columns);
    if (beats(w, best_dynamic, "gflops_per_dynamic_w")) best_dynamic = w;
    if (beats(w, best, "gflops_per_w")) best = std::move(w);
  }
  summary["best_overall"] = best;
  summary["best_overall_over_idle"] = best_dynamic;
  summary["left_out"] = left_out;
  summary.erase("best_per_dtype_size");
  summary.erase("repeats");
  return summary;
}

}  // namespace

std::string format_results_view(const nlohmann::json& results, const result_view_options& options) {
  const auto columns = parse_result_columns(results);
  const row_filter filter(options.where, columns);
  auto selected = select_columns(columns, options.columns, options.wide);
  const auto has_column = [&](const std::string& name) {
    return std::any_of(columns.begin(), columns.end(), [&](const result_column& c) { return c.name == name; });
  };
  const auto is_selected = [&](const std::string& name) {
    return std::find(selected.begin(), selected.end(), name) != selected.end();
  };

  // Skipped points are rarely news: one counted line, unless the person asked about them.
  const bool fold_skipped = !filter.constrains("status") && !is_selected("reason");
  const auto all_rows = rows_of(results, columns);
  std::vector<const json*> shown_rows, matched_rows;
  std::size_t matched = 0, skipped = 0, skipped_rows = 0, failed = 0;
  bool speed_not_simulated = false;
  tally skip_reasons("with no reason"), errors("with no message");
  for (const auto& row : all_rows) {
    if (!filter.matches(row)) continue;
    ++matched;
    matched_rows.push_back(&row);
    const auto flags = row.find("flags");
    if (flags != row.end() && flags->is_array())
      speed_not_simulated = speed_not_simulated || std::find(flags->begin(), flags->end(), "speed_not_simulated") != flags->end();
    const auto status = cell_text(row, "status");
    if (status == "skipped" && fold_skipped) {
      ++skipped;
      skip_reasons.add(cell_text(row, "reason"));
      continue;
    }
    if (status == "skipped") ++skipped_rows;
    if (status == "failed") {
      ++failed;
      errors.add(cell_text(row, "error"));
    }
    shown_rows.push_back(&row);
  }
  // Failed points are the news: their error goes at the end of a selection we chose, and so does
  // the reason of skipped points listed as rows.
  const bool explicit_columns = !options.columns.empty();
  const auto append = [&](bool wanted, const std::string& name) {
    if (wanted && !explicit_columns && has_column(name) && !is_selected(name)) selected.push_back(name);
  };
  append(skipped_rows > 0, "reason");
  append(failed > 0, "error");

  std::vector<std::vector<std::string>> cells;
  for (const auto* row : shown_rows) {
    std::vector<std::string> line;
    for (const auto& name : selected) line.push_back(cell_text(*row, name));
    cells.push_back(std::move(line));
  }

  std::vector<std::string> left_out;
  const int limit = explicit_columns || options.wide ? 0 : options.max_width;
  if (limit > 0 && !selected.empty()) {
    std::vector<std::size_t> widths;
    for (std::size_t c = 0; c < selected.size(); ++c) {
      std::size_t w = selected[c].size();
      for (const auto& line : cells) w = std::max(w, line[c].size());
      widths.push_back(w);
    }
    const auto fit = columns_that_fit(widths, limit);
    left_out.assign(selected.begin() + static_cast<std::ptrdiff_t>(fit), selected.end());
    selected.resize(fit);
    for (auto& line : cells) line.resize(fit);
  }

  std::string out = selected.empty() ? std::string("(no columns)\n") : format_table(selected, cells);
  if (!left_out.empty()) {
    std::string names;
    for (const auto& n : left_out) names += (names.empty() ? "" : ", ") + n;
    out += "(" + std::to_string(left_out.size()) + (left_out.size() == 1 ? " column" : " columns") +
           " left out to fit the terminal: " + names + "; --wide or --columns shows them)\n";
  }
  if (!filter.empty()) out += "(" + std::to_string(matched) + " of " + points(all_rows.size()) + " match --where)\n";
  if (skipped > 0) out += "skipped: " + points(skipped) + " (" + skip_reasons.text() + ")\n";
  if (failed > 0) {
    out += "failed: " + points(failed);
    // Said here when the table does not show it.
    if (has_column("error") && !is_selected("error")) out += " (" + errors.text() + ")";
    out += "\n";
  }
  const auto job = results.value("job", json::object());
  const auto kind = job.is_object() ? job.value("kind", std::string()) : std::string();
  auto summary = results.value("summary", json::object());
  if (!filter.empty() && kind == "gemm" && summary.is_object() && summary.contains("best_overall")) {
    summary = gemm_verdicts_over(matched_rows, columns, std::move(summary));
    out += "(the verdicts below are over the " + points(matched) + " matching --where)\n";
  }
  return out + format_results_summary(kind, summary, options.summary_tables) +
         provenance_board_line(results.value("provenance", json::object()), speed_not_simulated);
}

}  // namespace jetperf::client
