#include <jetperf/telemetry/detail/sysfs_file.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <utility>

namespace jetperf::telemetry::detail {

sysfs_file::sysfs_file(const std::string& host_path) : path_(host_path) {
  fd_ = ::open(host_path.c_str(), O_RDONLY | O_CLOEXEC);
}

sysfs_file::~sysfs_file() {
  if (fd_ >= 0) ::close(fd_);
}

sysfs_file::sysfs_file(sysfs_file&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)) {}

sysfs_file& sysfs_file::operator=(sysfs_file&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
  }
  return *this;
}

std::optional<long long> sysfs_file::read_int() const {
  if (fd_ < 0) return std::nullopt;
  char buf[64];
  ssize_t n = ::pread(fd_, buf, sizeof buf - 1, 0);
  if (n <= 0) return std::nullopt;
  std::size_t i = 0, end = static_cast<std::size_t>(n);
  while (i < end && (buf[i] == ' ' || buf[i] == '\t')) ++i;
  bool negative = false;
  if (i < end && (buf[i] == '-' || buf[i] == '+')) negative = buf[i++] == '-';
  if (i >= end || buf[i] < '0' || buf[i] > '9') return std::nullopt;
  long long v = 0;
  while (i < end && buf[i] >= '0' && buf[i] <= '9') v = v * 10 + (buf[i++] - '0');
  return negative ? -v : v;
}

std::optional<std::string> sysfs_file::read_text() const {
  if (fd_ < 0) return std::nullopt;
  std::string out(65536, '\0');
  ssize_t n = ::pread(fd_, out.data(), out.size(), 0);
  if (n < 0) return std::nullopt;
  out.resize(static_cast<std::size_t>(n));
  return out;
}

}  // namespace jetperf::telemetry::detail
