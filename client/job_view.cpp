#include "job_view.hpp"

#include <algorithm>
#include <cstdint>
#include <sstream>

#include "output.hpp"
#include "provenance_view.hpp"
#include "summary_view.hpp"

namespace jetperf::client {

namespace {

using nlohmann::json;

std::int64_t int_or(const json& j, const char* key, std::int64_t fallback) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<std::int64_t>() : fallback;
}

std::string text_or_dash(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return "-";
  return format_cell(*it);
}

// 0 for a scalar, 1 for a list or object of scalars, and so on.
int depth(const json& v) {
  if (!v.is_structured()) return 0;
  int d = 0;
  for (const auto& e : v) d = std::max(d, depth(e));
  return d + 1;
}

bool is_size(const json& v) {
  return v.is_object() && v.size() == 3 && v.contains("m") && v.contains("n") && v.contains("k");
}

// A flat object: a size as "MxNxK", anything else as "k=v k=v".
std::string flat_object(const json& v) {
  if (is_size(v)) return format_cell(v["m"]) + "x" + format_cell(v["n"]) + "x" + format_cell(v["k"]);
  std::string out;
  for (const auto& [k, e] : v.items()) out += (out.empty() ? "" : " ") + k + "=" + format_cell(e);
  return out.empty() ? "-" : out;
}

// "1 user network (tiny_net, 5 layers)": a network's layer list is too long to print here
// (`jetperf --json show` has it).
bool is_network_list(const json& v) {
  return v.is_array() && !v.empty() && std::all_of(v.begin(), v.end(), [](const json& n) {
           return n.is_object() && n.contains("layers") && n["layers"].is_array();
         });
}

std::string network_list(const json& v) {
  std::string names;
  for (const auto& n : v) {
    const auto layers = n["layers"].size();
    names += (names.empty() ? "" : "; ") + (n.contains("name") ? format_cell(n["name"]) : std::string("?")) + ", " +
             std::to_string(layers) + (layers == 1 ? " layer" : " layers");
  }
  return std::to_string(v.size()) + (v.size() == 1 ? " user network (" : " user networks (") + names + ")";
}

std::string spec_value(const json& v) {
  if (is_network_list(v)) return network_list(v);
  if (v.is_array() && v.empty()) return "-";
  if (depth(v) > 2 || (v.is_object() && depth(v) > 1)) return v.dump();
  if (v.is_object()) {
    std::string out;
    for (const auto& [k, e] : v.items()) out += (out.empty() ? "" : ", ") + k + "=" + format_cell(e);
    return out.empty() ? "-" : out;
  }
  if (v.is_array()) {
    std::string out;
    for (const auto& e : v) out += (out.empty() ? "" : ", ") + (e.is_object() ? flat_object(e) : e.is_array() ? e.dump() : format_cell(e));
    return out;
  }
  return format_cell(v);
}

}  // namespace

std::string format_spec(const nlohmann::json& spec, const std::string& indent) {
  if (!spec.is_object() || spec.empty()) return indent + "-\n";
  std::size_t width = 0;
  for (const auto& [k, v] : spec.items()) width = std::max(width, k.size());
  std::string out;
  for (const auto& [k, v] : spec.items())
    out += indent + k + ":" + std::string(width - k.size() + 1, ' ') + spec_value(v) + "\n";
  return out;
}

std::string format_job_view(const nlohmann::json& job, const std::vector<summary_table>& summary_tables) {
  std::ostringstream out;
  const auto progress = job.value("progress", json::object());
  out << "id:        " << text_or_dash(job, "id") << '\n'
      << "kind:      " << text_or_dash(job, "kind") << '\n'
      << "state:     " << text_or_dash(job, "state") << '\n'
      << "progress:  " << int_or(progress, "done", 0) << "/" << int_or(progress, "total", 0) << " points";
  if (progress.contains("eta_s") && progress["eta_s"].is_number()) {
    out << ", eta " << format_duration(progress["eta_s"]);
    const auto basis = format_eta_basis(progress.value("eta_basis", json()));
    if (!basis.empty()) out << ' ' << basis;
  }
  out << '\n'
      << "estimate:  " << format_duration(job.value("estimate_s", json())) << '\n'
      << "tags:      " << text_or_dash(job, "tags") << '\n'
      << "created:   " << text_or_dash(job, "created_at") << '\n'
      << "started:   " << text_or_dash(job, "started_at") << '\n'
      << "finished:  " << text_or_dash(job, "finished_at") << '\n';
  if (job.contains("error") && !job["error"].is_null() && job["error"] != "")
    out << "error:     " << format_cell(job["error"]) << '\n';
  out << "spec:\n" << format_spec(job.value("spec", json::object()));
  const auto kind = job.contains("kind") && job["kind"].is_string() ? job["kind"].get<std::string>() : std::string();
  out << format_show_summary(kind, job.value("summary", json()), summary_tables);
  const auto provenance = format_provenance(job.value("provenance", json::object()));
  if (!provenance.empty()) out << "provenance:\n" << indent_lines(provenance, "  ");
  return out.str();
}

}  // namespace jetperf::client
