#pragma once
// Every board file read or write goes through one root-prefixed accessor: "/" on a board, the
// simulated board's directory or a fixture tree in tests. Errors name the full path.
#include <optional>
#include <string>
#include <vector>

namespace jetperf::platform {

class sysfs_root {
 public:
  /// `root` is prepended to every absolute board path ("/" or "" = the real file system).
  explicit sysfs_root(std::string root = "/");

  const std::string& root() const { return root_; }
  /// The host path of a board path, e.g. "/sys/class/devfreq" -> "<root>/sys/class/devfreq".
  std::string host_path(const std::string& board_path) const;
  bool exists(const std::string& board_path) const;
  bool is_directory(const std::string& board_path) const;
  /// Whole file with the trailing newline removed. Throws platform_error naming the path.
  std::string read(const std::string& board_path) const;
  /// As read(), nullopt when the file is missing or unreadable.
  std::optional<std::string> try_read(const std::string& board_path) const;
  /// Integer content; throws platform_error naming the path when not an integer.
  long long read_int(const std::string& board_path) const;
  std::optional<long long> try_read_int(const std::string& board_path) const;
  /// Writes the value (no trailing newline needed, like `echo` into sysfs). Throws platform_error.
  void write(const std::string& board_path, const std::string& value) const;
  /// Entry names of a directory, sorted; empty when it does not exist.
  std::vector<std::string> list(const std::string& board_dir) const;
  /// Resolves symlinks inside the root and returns the board path (root stripped); nullopt if missing.
  std::optional<std::string> resolve(const std::string& board_path) const;

 private:
  std::string root_;
};

}  // namespace jetperf::platform
