#pragma once
// A sysfs attribute opened once and re-read with pread() at offset 0 on every tick: open/close
// per read would cost more than the read itself at 1 kHz.
#include <optional>
#include <string>

namespace jetperf::telemetry::detail {

class sysfs_file {
 public:
  sysfs_file() = default;
  /// Opens `host_path` read-only; ok() is false when it cannot be opened.
  explicit sysfs_file(const std::string& host_path);
  ~sysfs_file();
  sysfs_file(sysfs_file&& other) noexcept;
  sysfs_file& operator=(sysfs_file&& other) noexcept;
  sysfs_file(const sysfs_file&) = delete;
  sysfs_file& operator=(const sysfs_file&) = delete;

  bool ok() const { return fd_ >= 0; }
  const std::string& path() const { return path_; }
  /// The file's integer (surrounding blanks and the newline allowed); nullopt when it cannot be
  /// read (an offline sensor). Throws platform_error naming the path for anything else: other
  /// text, or a value outside the 64-bit range.
  std::optional<long long> read_int() const;
  /// The whole content (up to 64 KiB), nullopt on a read error.
  std::optional<std::string> read_text() const;

 private:
  int fd_ = -1;
  std::string path_;
};

}  // namespace jetperf::telemetry::detail
