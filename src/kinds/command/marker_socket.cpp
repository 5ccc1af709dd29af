#include <jetperf/kinds/command/marker_socket.hpp>

#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include <jetperf/common/clock.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/common/thread_name.hpp>

namespace jetperf::kinds {

namespace {

constexpr std::size_t k_kept_errors = 5;

}  // namespace

marker_socket::marker_socket(std::string path, std::optional<std::pair<uid_t, gid_t>> owner, std::size_t max_markers)
    : path_(std::move(path)), max_markers_(max_markers) {
  sockaddr_un addr{};
  if (path_.size() >= sizeof addr.sun_path)
    throw platform_error("marker socket path too long (" + std::to_string(path_.size()) + " bytes): " + path_);
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path_.c_str(), path_.size() + 1);
  fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) throw platform_error(std::string("marker socket: ") + std::strerror(errno));
  ::unlink(path_.c_str());
  // Created 0600 (umask for the bind), then handed to the program's account.
  const mode_t old = ::umask(0177);
  const int rc = ::bind(fd_, reinterpret_cast<const sockaddr*>(&addr), sizeof addr);
  const int bind_errno = errno;
  ::umask(old);
  if (rc != 0) {
    ::close(fd_);
    throw platform_error("marker socket: cannot bind " + path_ + ": " + std::strerror(bind_errno));
  }
  // lchown: were the path replaced by a symbolic link meanwhile, its target is not given away.
  if (owner && ::lchown(path_.c_str(), owner->first, owner->second) != 0) {
    const int e = errno;
    ::close(fd_);
    ::unlink(path_.c_str());
    throw platform_error("marker socket: cannot give " + path_ + " to uid " + std::to_string(owner->first) + ": " +
                         std::strerror(e));
  }
  // The kernel stamps each datagram as it arrives: a receipt time that does not depend on when
  // this thread gets to read it (a loaded host, or a simulated board's CPU quota inherited from
  // the runner thread, can hold it back tens of milliseconds).
  const int one = 1;
  kernel_stamps_ = ::setsockopt(fd_, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one) == 0;
  thread_ = std::thread([this] {
    name_this_thread("jp-markers");
    receive_loop();
  });
}

marker_socket::~marker_socket() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  ::close(fd_);
  ::unlink(path_.c_str());
}

void marker_socket::receive_loop() {
  while (!stop_) {
    pollfd p{fd_, POLLIN, 0};
    // 50 ms: how soon the destructor's stop is seen; a datagram wakes the poll at once.
    if (::poll(&p, 1, 50) <= 0) continue;
    std::lock_guard<std::mutex> lock(mutex_);
    drain_locked();
  }
}

// Reads under the lock, so that take() cannot return while a datagram is between recv and the
// batch: whatever the program sent before take() is in the batch take() returns.
void marker_socket::drain_locked() {
  // One datagram carries at most a few lines; longer ones are cut and counted as malformed.
  char buf[4 * k_max_marker_line];
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(timespec))];
  for (;;) {
    iovec iov{buf, sizeof buf};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    const ssize_t n = ::recvmsg(fd_, &msg, MSG_TRUNC | MSG_DONTWAIT);
    if (n < 0) return;
    const auto got = static_cast<std::size_t>(n);
    on_datagram_locked(buf, std::min(got, sizeof buf), got > sizeof buf, receipt_ns(msg));
  }
}

std::int64_t marker_socket::receipt_ns(const msghdr& msg) const {
  const auto now = monotonic_ns();
  if (!kernel_stamps_) return now;
  for (auto* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(const_cast<msghdr*>(&msg), c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_TIMESTAMPNS) continue;
    timespec real{};
    std::memcpy(&real, CMSG_DATA(c), sizeof real);
    // The stamp is CLOCK_REALTIME: moved onto CLOCK_MONOTONIC by the clocks' difference now
    // (NTP slews the difference by at most 0.05% of the queueing time). A stamp that lands in the
    // future or more than a second back (the wall clock was stepped) is replaced by now.
    timespec wall{};
    ::clock_gettime(CLOCK_REALTIME, &wall);
    const auto to_ns = [](const timespec& t) { return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec; };
    const auto t = to_ns(real) - (to_ns(wall) - now);
    return t <= now && t > now - 1'000'000'000 ? t : now;
  }
  return now;
}

void marker_socket::on_datagram_locked(const char* data, std::size_t n, bool truncated, std::int64_t t) {
  const auto bad = [&](const std::string& why) {
    ++pending_.malformed;
    if (pending_.errors.size() < k_kept_errors) pending_.errors.push_back(why);
  };
  if (truncated) {
    bad("datagram longer than " + std::to_string(4 * k_max_marker_line) + " bytes");
    return;
  }
  std::size_t start = 0;
  while (start < n) {
    auto end = static_cast<std::size_t>(std::find(data + start, data + n, '\n') - data);
    std::string line(data + start, end - start);
    start = end + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    if (pending_.markers.size() >= max_markers_) {
      ++pending_.dropped;
      continue;
    }
    std::string why;
    auto m = parse_marker_line(line, t, &why);
    if (!m) {
      bad(why);
      continue;
    }
    const auto bytes = m->name.size() + m->attrs.size();
    if (pending_.bytes + bytes > k_max_marker_bytes_per_run) {
      ++pending_.dropped;
      continue;
    }
    pending_.bytes += bytes;
    pending_.markers.push_back(std::move(*m));
  }
}

marker_batch marker_socket::take() {
  std::lock_guard<std::mutex> lock(mutex_);
  drain_locked();
  marker_batch out = std::move(pending_);
  pending_ = marker_batch{};
  return out;
}

}  // namespace jetperf::kinds
