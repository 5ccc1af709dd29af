#include "file_io.hpp"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <thread>

#include <jetperf/common/errors.hpp>

namespace fs = std::filesystem;

namespace jetperf::sim::detail {

std::optional<std::string> read_text(const std::string& host_path) {
  int fd = ::open(host_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string out;
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return out;
}

std::optional<long long> read_ll(const std::string& host_path) {
  auto text = read_text(host_path);
  if (!text) return std::nullopt;
  const char* s = text->c_str();
  while (*s == ' ' || *s == '\t') ++s;
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(s, &end, 10);
  if (end == s || errno) return std::nullopt;
  return v;
}

void write_in_place(const std::string& host_path, const std::string& text) {
  int fd = ::open(host_path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) return write_atomic(host_path, text);
  if (fd < 0) throw platform_error("cannot write " + host_path + ": " + ::strerror(errno));
  // One pwrite of a few bytes lands in one page: a concurrent reader sees the old or the new
  // digits, and a shorter value leaves at most a stale tail after its newline until the truncate.
  const ssize_t n = ::pwrite(fd, text.data(), text.size(), 0);
  const int e = errno;
  if (n == static_cast<ssize_t>(text.size())) (void)::ftruncate(fd, static_cast<off_t>(text.size()));
  ::close(fd);
  if (n != static_cast<ssize_t>(text.size()))
    throw platform_error("cannot write " + host_path + ": " + ::strerror(n < 0 ? e : EIO));
}

void write_atomic(const std::string& host_path, const std::string& text) {
  std::error_code ec;
  fs::create_directories(fs::path(host_path).parent_path(), ec);
  const std::string tmp =
      host_path + ".tmp." + std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()) % 100000);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw platform_error("cannot write " + host_path + ": " + ::strerror(errno));
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int e = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      throw platform_error("cannot write " + host_path + ": " + ::strerror(e));
    }
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  if (::rename(tmp.c_str(), host_path.c_str()) != 0) {
    int e = errno;
    ::unlink(tmp.c_str());
    throw platform_error("cannot replace " + host_path + ": " + ::strerror(e));
  }
}

void make_symlink(const std::string& target, const std::string& link) {
  std::error_code ec;
  fs::path l(link);
  fs::create_directories(l.parent_path(), ec);
  // A relative target keeps the tree valid when the board directory is moved or copied.
  fs::path rel = fs::path(target).lexically_relative(l.parent_path());
  if (fs::is_symlink(fs::symlink_status(l)) && fs::read_symlink(l, ec) == rel) return;
  fs::remove_all(l, ec);
  fs::create_symlink(rel, l, ec);
  if (ec) throw platform_error("cannot create symlink " + link + ": " + ec.message());
}

}  // namespace jetperf::sim::detail
