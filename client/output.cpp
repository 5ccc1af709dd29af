#include "output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "board_csv_merge.hpp"

namespace jetperf::client {

namespace {

std::string printf_double(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// "1.500" -> "1.5", "2.000" -> "2"
std::string trim_zeros(std::string s) {
  if (s.find('.') == std::string::npos || s.find('e') != std::string::npos) return s;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

bool looks_numeric(const std::string& s) {
  if (s.empty() || s == "-") return false;
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return end && *end == '\0';
}

std::int64_t int_or(const nlohmann::json& j, const char* key, std::int64_t fallback) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<std::int64_t>() : fallback;
}

std::string text_or_dash(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return "-";
  return format_cell(*it);
}

}  // namespace

std::string format_number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (v == std::floor(v) && std::fabs(v) < 1e15) return printf_double("%.0f", v);
  const double a = std::fabs(v);
  if (a >= 1e6 || a < 1e-3) return printf_double("%.3g", v);
  if (a >= 1e4) return printf_double("%.0f", v);
  if (a >= 100) return trim_zeros(printf_double("%.1f", v));
  if (a >= 1) return trim_zeros(printf_double("%.3f", v));
  return trim_zeros(printf_double("%.4f", v));
}

std::string format_cell(const nlohmann::json& v) {
  if (v.is_null()) return "-";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer()) return std::to_string(v.get<std::int64_t>());
  if (v.is_number()) return format_number(v.get<double>());
  if (v.is_array()) {
    if (v.empty()) return "-";
    std::string out;
    for (const auto& e : v) out += (out.empty() ? "" : ",") + format_cell(e);
    return out;
  }
  return v.dump();
}

std::string format_duration(const nlohmann::json& seconds) {
  if (!seconds.is_number()) return "?";
  const double s = seconds.get<double>();
  if (!(s >= 0)) return "?";
  const auto t = static_cast<std::int64_t>(std::llround(s));
  char buf[32];
  if (t < 60)
    std::snprintf(buf, sizeof buf, "%llds", static_cast<long long>(t));
  else if (t < 3600)
    std::snprintf(buf, sizeof buf, "%lldm%02llds", static_cast<long long>(t / 60), static_cast<long long>(t % 60));
  else
    std::snprintf(buf, sizeof buf, "%lldh%02lldm", static_cast<long long>(t / 3600),
                  static_cast<long long>((t % 3600) / 60));
  return buf;
}

std::string format_table(const std::vector<std::string>& header,
                         const std::vector<std::vector<std::string>>& rows) {
  const std::size_t n = header.size();
  std::vector<std::size_t> width(n);
  std::vector<bool> numeric(n, true);
  std::vector<bool> any_number(n, false);
  for (std::size_t c = 0; c < n; ++c) width[c] = header[c].size();
  for (const auto& row : rows)
    for (std::size_t c = 0; c < n && c < row.size(); ++c) {
      width[c] = std::max(width[c], row[c].size());
      if (looks_numeric(row[c]))
        any_number[c] = true;
      else if (row[c] != "-")
        numeric[c] = false;
    }
  for (std::size_t c = 0; c < n; ++c) numeric[c] = numeric[c] && any_number[c];
  std::ostringstream out;
  auto emit = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (std::size_t c = 0; c < n; ++c) {
      const std::string cell = c < cells.size() ? cells[c] : std::string();
      const std::string pad(width[c] - std::min(width[c], cell.size()), ' ');
      if (c) line += "  ";
      line += numeric[c] ? pad + cell : cell + pad;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
  };
  emit(header);
  for (const auto& row : rows) emit(row);
  return out.str();
}

std::string format_csv(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows) {
  std::string out;
  auto emit = [&out](const std::vector<std::string>& cells) {
    for (std::size_t c = 0; c < cells.size(); ++c) out += (c ? "," : "") + csv_cell(cells[c]);
    out += '\n';
  };
  emit(header);
  for (const auto& row : rows) emit(row);
  return out;
}

std::string render_table(const std::string& format, const std::vector<std::string>& header,
                         const std::vector<std::vector<std::string>>& rows) {
  return format == "csv" ? format_csv(header, rows) : format_table(header, rows);
}

std::string format_params(const nlohmann::json& params, const std::vector<std::string>& skip) {
  if (!params.is_object()) return format_cell(params);
  const auto wanted = [&](const char* key) {
    return params.contains(key) && !params[key].is_null() &&
           std::find(skip.begin(), skip.end(), key) == skip.end();
  };
  std::vector<std::string> words;
  for (const char* key : {"device", "dtype"})
    if (wanted(key)) words.push_back(format_cell(params[key]));
  if (wanted("m") && wanted("n") && wanted("k"))
    words.push_back(format_cell(params["m"]) + "x" + format_cell(params["n"]) + "x" + format_cell(params["k"]));
  if (wanted("tensor")) {
    const auto& t = params["tensor"];
    words.push_back(std::string("tensor=") + (t.is_boolean() ? (t.get<bool>() ? "on" : "off") : format_cell(t)));
  }
  for (const char* key : {"power_mode", "gpu_freq_hz", "cpu_freq_khz", "emc_freq_hz"})
    if (wanted(key)) words.push_back(std::string(key) + "=" + format_cell(params[key]));
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out.empty() ? "-" : out;
}

namespace {

// "<params>: <per watt> GFLOP/s/W<qualifier> (<gflops> GFLOP/s at <power> W<qualifier>)": a
// winner by the watts drawn, or by the watts over idle.
std::string format_winner(const nlohmann::json& best, const char* per_w_key, const char* power_key,
                          const std::string& qualifier) {
  if (!best.is_object()) return "-";
  const auto params = best.value("params", best);
  std::string out = format_params(params, {"device"}) + ": " + format_cell(best.value(per_w_key, nlohmann::json())) +
                    " GFLOP/s/W" + qualifier + " (" + format_cell(best.value("gflops", nlohmann::json())) + " GFLOP/s";
  const auto power = best.value(power_key, nlohmann::json());
  if (power.is_number()) out += " at " + format_number(power.get<double>()) + " W" + qualifier;
  return out + ")";
}

}  // namespace

std::string format_best_setting(const nlohmann::json& best) {
  return format_winner(best, "gflops_per_w", "power_w", "");
}

std::string format_best_over_idle(const nlohmann::json& best) {
  return format_winner(best, "gflops_per_dynamic_w", "dynamic_power_w", " over idle");
}

namespace {

// The count a basis names ("points" or "jobs"), or -1.
std::int64_t basis_count(const nlohmann::json& basis, const char* key) {
  return basis.contains(key) && basis[key].is_number_integer() ? basis[key].get<std::int64_t>() : -1;
}

std::string plural(std::int64_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string basis_source(const nlohmann::json& basis) {
  return basis.is_object() && basis.contains("source") && basis["source"].is_string() ? basis["source"].get<std::string>()
                                                                                        : std::string();
}

}  // namespace

std::string format_eta_basis(const nlohmann::json& basis) {
  const auto source = basis_source(basis);
  if (source == "pace" && basis_count(basis, "points") >= 0)
    return "from the pace of " + plural(basis_count(basis, "points"), "finished point", "finished points");
  if (source == "cost_model" && basis_count(basis, "jobs") >= 0)
    return "from the cost model (learned from " + plural(basis_count(basis, "jobs"), "job", "jobs") + " on this board)";
  if (source == "static") return "from the kind's static model";
  return source.empty() ? std::string() : "from " + source;
}

std::string format_eta_basis_brief(const nlohmann::json& basis) {
  const auto source = basis_source(basis);
  if (source == "pace" && basis_count(basis, "points") >= 0)
    return "pace of " + plural(basis_count(basis, "points"), "point", "points");
  if (source == "cost_model" && basis_count(basis, "jobs") >= 0)
    return "cost model, " + plural(basis_count(basis, "jobs"), "job", "jobs");
  if (source == "static") return "static model";
  return source;
}

std::string progress_line(std::int64_t id, std::int64_t done, std::int64_t total, const nlohmann::json& eta_s,
                          const nlohmann::json& eta_basis) {
  const auto basis = format_eta_basis(eta_basis);
  return "job " + std::to_string(id) + ": " + std::to_string(done) + "/" + std::to_string(total) +
         " points, eta " + format_duration(eta_s) + (basis.empty() ? "" : " " + basis);
}

std::string progress_bar(std::int64_t id, std::int64_t done, std::int64_t total, const nlohmann::json& eta_s,
                         int width, const nlohmann::json& eta_basis) {
  const double fraction = total > 0 ? std::min(1.0, static_cast<double>(done) / static_cast<double>(total)) : 0.0;
  char pct[16];
  std::snprintf(pct, sizeof pct, "%3d%%", static_cast<int>(fraction * 100.0));
  const std::string prefix = "job " + std::to_string(id) + " [";
  const auto basis = format_eta_basis_brief(eta_basis);
  const std::string suffix = "] " + std::string(pct) + "  " + std::to_string(done) + "/" + std::to_string(total) +
                             "  eta " + format_duration(eta_s) + (basis.empty() ? "" : " (" + basis + ")");
  const int bar = std::max(10, width - static_cast<int>(prefix.size() + suffix.size()) - 1);
  const int filled = static_cast<int>(fraction * bar);
  return prefix + std::string(static_cast<std::size_t>(filled), '#') +
         std::string(static_cast<std::size_t>(bar - filled), '.') + suffix;
}

std::string format_job_list(const nlohmann::json& list, const std::string& format) {
  std::vector<std::vector<std::string>> rows;
  const auto jobs = list.value("jobs", nlohmann::json::array());
  for (const auto& j : jobs) {
    const auto progress = j.value("progress", nlohmann::json::object());
    rows.push_back({text_or_dash(j, "id"), text_or_dash(j, "kind"), text_or_dash(j, "state"),
                    std::to_string(int_or(progress, "done", 0)) + "/" + std::to_string(int_or(progress, "total", 0)),
                    text_or_dash(j, "created_at"), text_or_dash(j, "tags")});
  }
  std::string out = render_table(format, {"ID", "KIND", "STATE", "POINTS", "CREATED", "TAGS"}, rows);
  if (format == "csv") return out;
  const auto total = int_or(list, "total", static_cast<std::int64_t>(jobs.size()));
  if (total > static_cast<std::int64_t>(jobs.size()))
    out += "(" + std::to_string(jobs.size()) + " of " + std::to_string(total) + " jobs; use --limit/--offset)\n";
  return out;
}

}  // namespace jetperf::client
