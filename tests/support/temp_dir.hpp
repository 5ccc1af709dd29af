#pragma once
// A scratch directory removed at the end of the test.
#include <string>

namespace jetperf::test {

class temp_dir {
 public:
  temp_dir();
  ~temp_dir();
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  const std::string& path() const { return path_; }
  /// path() + "/" + name
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

/// Writes text to a file, creating parent directories.
void write_file(const std::string& path, const std::string& text);
std::string read_file(const std::string& path);
/// Copies a file's bytes to `to` (replacing it) and gives the copy `mode`.
void copy_file(const std::string& from, const std::string& to, unsigned mode);

}  // namespace jetperf::test
