#include <jetperf/platform/board_info.hpp>

#include <algorithm>
#include <regex>
#include <utility>

#include <jetperf/platform/sysfs_paths.hpp>

namespace jetperf::platform {

namespace {

/// Device-tree strings end in NUL; compatible holds several NUL-separated entries.
std::vector<std::string> split_nul(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : text) {
    if (c == '\0') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  while (!cur.empty() && (cur.back() == '\n' || cur.back() == ' ')) cur.pop_back();
  if (!cur.empty()) out.push_back(cur);
  return out;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::string module_from_model(const std::string& model) {
  // Order matters: "Orin Nano" before "Nano", "Xavier NX" before "Xavier".
  static const std::pair<const char*, const char*> table[] = {
      {"AGX Thor", "AGX Thor"},   {"Thor", "AGX Thor"},
      {"Orin Nano", "Orin Nano"}, {"Orin NX", "Orin NX"},     {"AGX Orin", "AGX Orin"},
      {"Orin", "AGX Orin"},       {"Xavier NX", "Xavier NX"}, {"AGX Xavier", "AGX Xavier"},
      {"Xavier", "AGX Xavier"},   {"TX2", "TX2"},             {"quill", "TX2"},
      {"Nano", "Nano"},           {"TX1", "TX1"}};
  for (const auto& row : table)
    if (contains(model, row.first)) return row.second;
  return {};
}

std::string normalise(const std::string& version) {
  // "35.5.0" and "35.5" name the same release.
  std::string v = version;
  while (v.size() > 2 && v.compare(v.size() - 2, 2, ".0") == 0 && std::count(v.begin(), v.end(), '.') > 1)
    v.erase(v.size() - 2);
  return v;
}

}  // namespace

std::string parse_l4t_release(const std::string& text) {
  static const std::regex re(R"(#\s*R(\d+)\s*\(release\),\s*REVISION:\s*([0-9.]+))");
  std::smatch m;
  if (!std::regex_search(text, m, re)) return {};
  std::string rev = m[2];
  while (!rev.empty() && rev.back() == '.') rev.pop_back();
  return m[1].str() + "." + rev;
}

std::string jetpack_for_l4t(const std::string& l4t) {
  const std::string v = normalise(l4t);
  static const std::pair<const char*, const char*> exact[] = {
      {"32.1", "4.2"},     {"32.3.1", "4.3"},   {"32.4.3", "4.4"},   {"32.5", "4.5"},
      {"32.5.1", "4.5.1"}, {"32.6.1", "4.6"},   {"32.7.1", "4.6.1"}, {"32.7.2", "4.6.2"},
      {"32.7.3", "4.6.3"}, {"32.7.4", "4.6.4"}, {"32.7.5", "4.6.5"}, {"32.7.6", "4.6.6"},
      {"35.1", "5.0.2"},   {"35.2.1", "5.1"},   {"35.3.1", "5.1.1"}, {"35.4.1", "5.1.2"},
      {"35.5", "5.1.3"},   {"35.6", "5.1.4"},   {"35.6.1", "5.1.5"}, {"35.6.2", "5.1.5"},
      {"35.6.3", "5.1.5"}, {"35.6.4", "5.1.6"}, {"36.2", "6.0 DP"},  {"36.3", "6.0"},
      {"36.4", "6.1"},     {"36.4.3", "6.2"},   {"36.4.4", "6.2.1"}, {"36.4.7", "6.2.1"},
      {"36.5", "6.2.2"},   {"38.4", "7.1"}};
  for (const auto& row : exact)
    if (v == row.first) return row.second;
  // Ranges the table gives as "x": 32.2.x = 4.2.x, 32.5.x = 4.5.x, 38.2.x = 7.0, 39.x = 7.2.
  auto starts = [&](const char* p) { return v == p || v.rfind(std::string(p) + ".", 0) == 0; };
  if (starts("32.2")) return "4.2.x";
  if (starts("32.5")) return "4.5.x";
  if (starts("38.2")) return "7.0";
  if (starts("39")) return "7.2";
  return {};
}

board_info detect_board(const sysfs_root& root, const std::function<bool()>& dgpu_probe) {
  board_info b;
  auto model = root.try_read(paths::dt_model);
  if (!model) model = root.try_read(paths::dt_model_fw);
  if (model) {
    auto parts = split_nul(*model);
    b.model = parts.empty() ? std::string() : parts.front();
  }
  if (auto compat = root.try_read(paths::dt_compatible)) b.compatible = split_nul(*compat);
  static const std::pair<const char*, const char*> socs[] = {
      {"tegra264", "t264"}, {"tegra234", "t234"}, {"tegra194", "t194"}, {"tegra186", "t186"}, {"tegra210", "t210"}};
  for (const auto& c : b.compatible) {
    for (const auto& s : socs) {
      if (contains(c, s.first) && b.family.empty()) {
        b.family = s.second;
        b.soc = s.first;
      }
    }
  }
  b.module = module_from_model(b.model);
  if (b.family.empty()) {
    // A Tegra SoC jetperf has no name for yet: still a Jetson, served with what it finds.
    for (const auto& c : b.compatible) {
      const auto at = c.find("nvidia,tegra");
      if (at == std::string::npos) continue;
      b.family = "unknown";
      b.soc = c.substr(at + 7);
      break;
    }
  }
  if (b.family.empty() && !b.module.empty()) {
    // Device trees without a tegra compatible entry: fall back on the model name.
    static const std::pair<const char*, const char*> by_module[] = {
        {"Thor", "t264"}, {"Orin", "t234"}, {"Xavier", "t194"}, {"TX2", "t186"}, {"Nano", "t210"}, {"TX1", "t210"}};
    for (const auto& m : by_module) {
      if (contains(b.module, m.first)) {
        b.family = m.second;
        b.soc = std::string("tegra") + (m.second + 1);
        break;
      }
    }
  }
  if (auto rel = root.try_read(paths::tegra_release)) {
    b.l4t = parse_l4t_release(*rel);
    if (!b.l4t.empty()) {
      b.l4t_major = std::stoi(b.l4t.substr(0, b.l4t.find('.')));
      b.jetpack = jetpack_for_l4t(b.l4t);
    }
  }
  b.jetson = !b.family.empty();
  if (!b.jetson) {
    b.family = dgpu_probe && dgpu_probe() ? "dgpu" : "host";
    b.soc.clear();
  }
  return b;
}

}  // namespace jetperf::platform
