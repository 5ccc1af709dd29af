#include <support/temp_dir.hpp>

#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace jetperf::test {

temp_dir::temp_dir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "jetperf-test-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

temp_dir::~temp_dir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

void write_file(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << text;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void copy_file(const std::string& from, const std::string& to, unsigned mode) {
  {
    std::ofstream out(to, std::ios::binary | std::ios::trunc);
    out << read_file(from);
    if (!out) throw std::runtime_error("cannot write " + to);
  }
  if (::chmod(to.c_str(), static_cast<mode_t>(mode)) != 0) throw std::runtime_error("cannot chmod " + to);
}

}  // namespace jetperf::test
