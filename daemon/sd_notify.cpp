#include "sd_notify.hpp"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>

namespace jetperf::daemon {

sd_notifier sd_notifier::from_environment() {
  const char* p = std::getenv("NOTIFY_SOCKET");
  return sd_notifier(p ? std::string(p) : std::string());
}

bool sd_notifier::notify(const std::string& state) const {
  if (path_.empty()) return false;
  // Only absolute paths and abstract names are valid NOTIFY_SOCKET values.
  if (path_[0] != '/' && path_[0] != '@') return false;
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  const bool abstract = path_[0] == '@';
  if (path_.size() + (abstract ? 0 : 1) > sizeof(addr.sun_path)) return false;
  std::memcpy(addr.sun_path, path_.data(), path_.size());
  // An abstract socket's name starts with a NUL byte and is not NUL-terminated.
  if (abstract) addr.sun_path[0] = '\0';
  const auto len =
      static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + path_.size() + (abstract ? 0 : 1));
  const int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  const ssize_t n = ::sendto(fd, state.data(), state.size(), MSG_NOSIGNAL,
                             reinterpret_cast<const sockaddr*>(&addr), len);
  ::close(fd);
  return n == static_cast<ssize_t>(state.size());
}

}  // namespace jetperf::daemon
