#include <jetperf/api/static_files.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>

#include <jetperf/common/errors.hpp>

namespace jetperf::api {

namespace {

bool ordinary_name(const std::string& relative) {
  if (relative.empty() || relative.size() > 512) return false;
  std::size_t start = 0;
  for (;;) {
    const auto slash = relative.find('/', start);
    const auto part = relative.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    // No empty component (so no leading '/'), nothing hidden and no '.' or '..'.
    if (part.empty() || part.front() == '.') return false;
    for (unsigned char c : part)
      if (!(std::isalnum(c) || c == '.' || c == '_' || c == '-' || c == '+' || c == '@')) return false;
    if (slash == std::string::npos) return true;
    start = slash + 1;
  }
}

std::string real_path(const std::string& path) {
  std::unique_ptr<char, decltype(&std::free)> resolved(::realpath(path.c_str(), nullptr), &std::free);
  return resolved ? std::string(resolved.get()) : std::string();
}

struct fd_guard {
  int fd;
  ~fd_guard() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string static_content_type(const std::string& name) {
  static const std::map<std::string, std::string> types = {
      {".html", "text/html; charset=utf-8"},       {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},  {".css", "text/css; charset=utf-8"},
      {".json", "application/json"},               {".map", "application/json"},
      {".svg", "image/svg+xml"},                   {".png", "image/png"},
      {".ico", "image/x-icon"},                    {".txt", "text/plain; charset=utf-8"}};
  const auto dot = name.rfind('.');
  const auto slash = name.rfind('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
  const auto it = types.find(name.substr(dot));
  return it == types.end() ? std::string() : it->second;
}

static_file read_static_file(const std::string& root, const std::string& relative, std::uint64_t max_bytes) {
  static_file out;
  out.path = root + (!root.empty() && root.back() == '/' ? "" : "/") + relative;
  if (root.empty() || !ordinary_name(relative)) throw not_found("no such file: " + relative);
  out.content_type = static_content_type(relative);
  if (out.content_type.empty()) throw not_found(out.path + " is not a type this daemon serves");
  // Symlinks are followed (Debian's javascript dir links inside itself) but the file they reach
  // must lie inside the root's real path.
  const auto real_root = real_path(root);
  const auto real_file = real_path(out.path);
  if (real_file.empty()) throw not_found(out.path + " not found");
  if (real_root.empty() || real_file.compare(0, real_root.size() + 1, real_root + "/") != 0)
    throw not_found(out.path + " lies outside " + root);
  fd_guard f{::open(real_file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW)};
  struct stat st {};
  if (f.fd < 0 || ::fstat(f.fd, &st) != 0 || !S_ISREG(st.st_mode)) throw not_found(out.path + " is not a readable file");
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes)
    throw not_found(out.path + " is larger than " + std::to_string(max_bytes) + " bytes");
  out.body.resize(static_cast<std::size_t>(st.st_size));
  std::size_t done = 0;
  while (done < out.body.size()) {
    const auto n = ::read(f.fd, &out.body[done], out.body.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw not_found(out.path + " could not be read: " + (n < 0 ? std::strerror(errno) : "short read"));
    done += static_cast<std::size_t>(n);
  }
  return out;
}

}  // namespace jetperf::api
