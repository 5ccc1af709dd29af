#include <support/fixtures.hpp>

#include <filesystem>

#include <support/temp_dir.hpp>

namespace jetperf::test {

std::string fixture_text(const std::string& name) {
  const std::string path = fixtures_dir() + "/" + name;
  if (!std::filesystem::exists(path)) return {};
  return read_file(path);
}

}  // namespace jetperf::test
