#include <support/fixtures.hpp>

#include <algorithm>
#include <filesystem>

#include <support/temp_dir.hpp>

namespace jetperf::test {

std::string fixture_text(const std::string& name) {
  const std::string path = fixtures_dir() + "/" + name;
  if (!std::filesystem::exists(path)) return {};
  return read_file(path);
}

std::string fixture_line(const std::string& name) {
  const std::string text = fixture_text(name);
  return text.substr(0, text.find('\n'));
}

std::vector<std::string> fixture_names(const std::string& prefix) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(fixtures_dir(), ec)) {
    std::string name = e.path().filename().string();
    if (name.compare(0, prefix.size(), prefix) == 0) names.push_back(std::move(name));
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace jetperf::test
