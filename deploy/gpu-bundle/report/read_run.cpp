#include "bundle_report.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace jetperf::bundle {

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string trim(std::string s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    if (!trim(l).empty()) out.push_back(trim(l));
  return out;
}

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(trim(text));
  for (std::string c; std::getline(in, c, ',');)
    if (!trim(c).empty()) out.push_back(trim(c));
  return out;
}

std::vector<fs::path> sorted_entries(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<figure> read_figures(const fs::path& dir) {
  std::vector<figure> out;
  for (const auto& p : sorted_entries(dir)) {
    if (p.extension() != ".json") continue;
    figure f;
    f.name = p.stem().string();
    // A command killed by its step's timeout may leave half a file: keep the text, say so.
    try {
      f.value = nlohmann::ordered_json::parse(slurp(p));
    } catch (const nlohmann::json::parse_error& e) {
      f.value = {{"unparsable", p.filename().string() + ": " + e.what()}};
    }
    const fs::path cols = fs::path(p).replace_extension(".columns");
    if (fs::exists(cols)) f.columns = split_commas(slurp(cols));
    out.push_back(std::move(f));
  }
  return out;
}

step read_step(const fs::path& dir) {
  step s;
  s.name = dir.filename().string();
  s.status = fs::exists(dir / "status") ? trim(slurp(dir / "status")) : "";
  if (fs::exists(dir / "seconds")) {
    const std::string text = trim(slurp(dir / "seconds"));
    try {
      s.seconds = text.empty() ? 0.0 : std::stod(text);
    } catch (const std::exception&) {
      throw std::runtime_error((dir / "seconds").string() + ": not a number: '" + text + "'");
    }
  }
  if (fs::exists(dir / "commands")) s.commands = lines(slurp(dir / "commands"));
  s.figures = read_figures(dir / "figures");
  return s;
}

}  // namespace

run_report read_run(const std::string& dir) {
  run_report r;
  for (const auto& l : lines(slurp(fs::path(dir) / "environment.txt"))) {
    const auto colon = l.find(':');
    if (colon == std::string::npos) continue;
    r.environment.emplace_back(trim(l.substr(0, colon)), trim(l.substr(colon + 1)));
  }
  for (const auto& p : sorted_entries(fs::path(dir) / "steps"))
    if (fs::is_directory(p)) r.steps.push_back(read_step(p));
  return r;
}

bool every_step_ran(const run_report& r) {
  return std::all_of(r.steps.begin(), r.steps.end(),
                     [](const step& s) { return !s.status.empty() && s.status.rfind("not run", 0) != 0; });
}

}  // namespace jetperf::bundle
