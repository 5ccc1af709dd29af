#include <jetperf/platform/sysfs_root.hpp>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <jetperf/common/errors.hpp>

namespace jetperf::platform {

namespace {

std::string trim_trailing(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ' || s.back() == '\t'))
    s.pop_back();
  return s;
}

std::vector<std::string> split_components(const std::string& path) {
  std::vector<std::string> parts;
  std::string cur;
  for (char c : path) {
    if (c == '/') {
      if (!cur.empty()) parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) parts.push_back(cur);
  return parts;
}

std::optional<long long> parse_int(const std::string& text) {
  std::string t = text;
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.erase(t.begin());
  if (t.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(t.c_str(), &end, 10);
  if (errno != 0 || end == t.c_str() || *end != '\0') return std::nullopt;
  return v;
}

}  // namespace

sysfs_root::sysfs_root(std::string root) : root_(std::move(root)) {
  while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
  if (root_ == "/") root_.clear();
}

std::string sysfs_root::host_path(const std::string& board_path) const {
  if (root_.empty()) return board_path;
  if (!board_path.empty() && board_path.front() == '/') return root_ + board_path;
  return root_ + "/" + board_path;
}

bool sysfs_root::exists(const std::string& board_path) const {
  struct stat st {};
  return ::stat(host_path(board_path).c_str(), &st) == 0;
}

bool sysfs_root::is_directory(const std::string& board_path) const {
  struct stat st {};
  return ::stat(host_path(board_path).c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string sysfs_root::read(const std::string& board_path) const {
  const std::string host = host_path(board_path);
  // Plain read(2) loop: sysfs files report size 4096 and may be shorter; ifstream handles both.
  int fd = ::open(host.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw platform_error("cannot read " + host + ": " + ::strerror(errno));
  std::string text;
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      ::close(fd);
      throw platform_error("cannot read " + host + ": " + ::strerror(e));
    }
    if (n == 0) break;
    text.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return trim_trailing(text);
}

std::optional<std::string> sysfs_root::try_read(const std::string& board_path) const {
  try {
    return read(board_path);
  } catch (const platform_error&) {
    return std::nullopt;
  }
}

long long sysfs_root::read_int(const std::string& board_path) const {
  const std::string text = read(board_path);
  auto v = parse_int(text);
  if (!v) throw platform_error(host_path(board_path) + ": not an integer: '" + text + "'");
  return *v;
}

std::optional<long long> sysfs_root::try_read_int(const std::string& board_path) const {
  auto text = try_read(board_path);
  if (!text) return std::nullopt;
  return parse_int(*text);
}

void sysfs_root::write(const std::string& board_path, const std::string& value) const {
  const std::string host = host_path(board_path);
  // No O_CREAT: sysfs attributes exist or the write is wrong; a fixture tree behaves the same.
  int fd = ::open(host.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) throw platform_error("cannot write " + host + ": " + ::strerror(errno));
  const std::string text = value + "\n";
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      ::close(fd);
      throw platform_error("cannot write '" + value + "' to " + host + ": " + ::strerror(e));
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0)
    throw platform_error("cannot write '" + value + "' to " + host + ": " + ::strerror(errno));
}

std::vector<std::string> sysfs_root::list(const std::string& board_dir) const {
  std::vector<std::string> names;
  std::error_code ec;
  std::filesystem::directory_iterator it(host_path(board_dir), ec);
  if (ec) return names;
  for (const auto& entry : it) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::optional<std::string> sysfs_root::resolve(const std::string& board_path) const {
  // Walk component by component so that absolute link targets stay inside the root.
  std::vector<std::string> pending = split_components(board_path);
  std::reverse(pending.begin(), pending.end());
  std::vector<std::string> done;
  int links = 0;
  while (!pending.empty()) {
    std::string part = pending.back();
    pending.pop_back();
    if (part == ".") continue;
    if (part == "..") {
      if (!done.empty()) done.pop_back();
      continue;
    }
    std::string board = "/";
    for (const auto& d : done) board += d + "/";
    board += part;
    const std::string host = host_path(board);
    struct stat st {};
    if (::lstat(host.c_str(), &st) != 0) return std::nullopt;
    if (S_ISLNK(st.st_mode)) {
      if (++links > 40) return std::nullopt;
      std::string target(4096, '\0');
      ssize_t n = ::readlink(host.c_str(), target.data(), target.size());
      if (n < 0) return std::nullopt;
      target.resize(static_cast<size_t>(n));
      if (!target.empty() && target.front() == '/') done.clear();
      auto parts = split_components(target);
      for (auto it = parts.rbegin(); it != parts.rend(); ++it) pending.push_back(*it);
      continue;
    }
    done.push_back(part);
  }
  std::string out;
  for (const auto& d : done) out += "/" + d;
  return out.empty() ? std::string("/") : out;
}

}  // namespace jetperf::platform
