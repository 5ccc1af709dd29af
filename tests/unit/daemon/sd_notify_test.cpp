#include <gtest/gtest.h>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>

#include <support/temp_dir.hpp>

#include "sd_notify.hpp"

namespace jetperf::daemon {
namespace {

// A datagram socket bound like systemd's notify socket; `name` starting with '@' is abstract.
class notify_socket {
 public:
  explicit notify_socket(const std::string& name) {
    fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, name.data(), name.size());
    if (name[0] == '@') addr.sun_path[0] = '\0';
    const auto len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + name.size() +
                                            (name[0] == '@' ? 0 : 1));
    bound_ = ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), len) == 0;
    timeval tv{2, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  }
  ~notify_socket() { ::close(fd_); }
  bool bound() const { return bound_; }
  std::string receive() {
    char buf[512];
    const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
    return n < 0 ? std::string("<nothing>") : std::string(buf, static_cast<std::size_t>(n));
  }

 private:
  int fd_ = -1;
  bool bound_ = false;
};

TEST(sd_notify, sends_ready_to_a_path_socket) {
  test::temp_dir dir;
  const std::string path = dir.file("notify");
  notify_socket sock(path);
  ASSERT_TRUE(sock.bound());
  sd_notifier notifier(path);
  EXPECT_TRUE(notifier.enabled());
  EXPECT_TRUE(notifier.notify("READY=1"));
  EXPECT_EQ(sock.receive(), "READY=1");
  EXPECT_TRUE(notifier.notify("STOPPING=1\nSTATUS=shutting down"));
  EXPECT_EQ(sock.receive(), "STOPPING=1\nSTATUS=shutting down");
}

TEST(sd_notify, sends_to_an_abstract_socket) {
  const std::string name = "@jetperf-test-notify-" + std::to_string(::getpid());
  notify_socket sock(name);
  ASSERT_TRUE(sock.bound());
  EXPECT_TRUE(sd_notifier(name).notify("READY=1"));
  EXPECT_EQ(sock.receive(), "READY=1");
}

TEST(sd_notify, reads_notify_socket_from_the_environment) {
  test::temp_dir dir;
  const std::string path = dir.file("env-notify");
  notify_socket sock(path);
  ASSERT_TRUE(sock.bound());
  ::setenv("NOTIFY_SOCKET", path.c_str(), 1);
  const auto notifier = sd_notifier::from_environment();
  ::unsetenv("NOTIFY_SOCKET");
  EXPECT_TRUE(notifier.notify("READY=1"));
  EXPECT_EQ(sock.receive(), "READY=1");
  EXPECT_FALSE(sd_notifier::from_environment().enabled());
}

TEST(sd_notify, disabled_or_invalid_targets_report_failure) {
  EXPECT_FALSE(sd_notifier("").notify("READY=1"));
  EXPECT_FALSE(sd_notifier("relative/socket").notify("READY=1"));
  test::temp_dir dir;
  EXPECT_FALSE(sd_notifier(dir.file("nobody-listens")).notify("READY=1"));
  EXPECT_FALSE(sd_notifier("/" + std::string(200, 'x')).notify("READY=1"));
}

}  // namespace
}  // namespace jetperf::daemon
