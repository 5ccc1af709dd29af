#include <jetperf/telemetry/detail/sysfs_file.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <string_view>
#include <system_error>
#include <utility>

#include <jetperf/common/errors.hpp>

namespace jetperf::telemetry::detail {

sysfs_file::sysfs_file(const std::string& host_path) : path_(host_path) {
  // No access-time update per read (a fixture tree on a disk file system would write one at
  // every tick); only the owner or root may ask, so fall back without it.
  fd_ = ::open(host_path.c_str(), O_RDONLY | O_CLOEXEC | O_NOATIME);
  if (fd_ < 0 && errno == EPERM) fd_ = ::open(host_path.c_str(), O_RDONLY | O_CLOEXEC);
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
  // One byte more than any valid value needs, so a longer one is seen whole enough to refuse.
  char buf[64];
  ssize_t n = ::pread(fd_, buf, sizeof buf, 0);
  if (n <= 0) return std::nullopt;
  const std::string_view text(buf, static_cast<std::size_t>(n));
  const auto refuse = [&](const char* why) -> std::optional<long long> {
    std::string shown(text.substr(0, 32));
    while (!shown.empty() && (shown.back() == '\n' || shown.back() == '\0')) shown.pop_back();
    throw platform_error(path_ + ": " + why + ": '" + shown + (text.size() > 32 ? "...'" : "'"));
  };
  if (static_cast<std::size_t>(n) == sizeof buf) return refuse("not an integer (too long)");
  std::size_t i = 0;
  const std::size_t end = text.size();
  while (i < end && (text[i] == ' ' || text[i] == '\t')) ++i;
  const std::size_t start = i;
  if (i < end && (text[i] == '-' || text[i] == '+')) ++i;
  const std::size_t digits = i;
  while (i < end && text[i] >= '0' && text[i] <= '9') ++i;
  if (i == digits) return refuse("not an integer");
  // What the kernel prints after the number is its newline (some drivers add a NUL).
  for (std::size_t j = i; j < end; ++j)
    if (text[j] != '\n' && text[j] != ' ' && text[j] != '\t' && text[j] != '\0') return refuse("not an integer");
  // from_chars refuses a leading '+', and reports a value outside long long instead of wrapping.
  const std::size_t from = text[start] == '+' ? digits : start;
  long long v = 0;
  const auto r = std::from_chars(text.data() + from, text.data() + i, v);
  if (r.ec == std::errc::result_out_of_range) return refuse("value out of the 64-bit range");
  if (r.ec != std::errc() || r.ptr != text.data() + i) return refuse("not an integer");
  return v;
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
