#include "flag_lists.hpp"

#include <cctype>
#include <fstream>
#include <iostream>
#include <iterator>

#include "cli_error.hpp"

namespace jetperf::client {

std::string read_input(const std::string& path, const std::string& what) {
  if (path == "-") return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  std::ifstream in(path, std::ios::binary);
  if (!in) throw cli_error(exit_usage, "cannot read " + what + " '" + path + "'");
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool all_digits(const std::string& s) {
  if (s.empty()) return false;
  for (unsigned char c : s)
    if (!std::isdigit(c)) return false;
  return true;
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : text + ",") {
    if (c != ',') {
      if (c != ' ' && c != '\t') cur += c;
      continue;
    }
    if (!cur.empty()) out.push_back(cur);
    cur.clear();
  }
  return out;
}

nlohmann::json id_list(const std::string& text) {
  const auto items = split_list(text);
  if (items.size() == 1 && !all_digits(items[0])) return items[0];
  nlohmann::json out = nlohmann::json::array();
  for (const auto& item : items) {
    // Longer digit strings would overflow; the daemon names them as not offered.
    if (all_digits(item) && item.size() <= 18)
      out.push_back(std::stoll(item));
    else
      out.push_back(item);
  }
  return out;
}

nlohmann::json string_list(const std::string& text) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& item : split_list(text)) out.push_back(item);
  return out;
}

void board_axis_flags::add_to(CLI::App& app) {
  for (auto& a : axes_) a.add_to(app);
  app.add_flag("--allow-reboot", allow_reboot_,
               "Let jetperfd reboot the board for power modes that change GPU power gating; the job goes on "
               "after the boot and the original mode is restored at its end (spec.allow_reboot)");
}

void board_axis_flags::fill(nlohmann::json& spec) const {
  for (const auto& a : axes_)
    if (a.given()) spec[a.field] = id_list(a.value);
  if (allow_reboot_) spec["allow_reboot"] = true;
}

}  // namespace jetperf::client
