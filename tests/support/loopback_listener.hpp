#pragma once
// A listening TCP socket on 127.0.0.1 at a port the kernel picks: what the test servers that
// stand in for a board (silent, oversized) start from.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>

namespace jetperf::test {

/// The socket's descriptor; its port in *port. Throws std::runtime_error when it cannot listen.
inline int listen_on_loopback(int* port, int backlog = 8) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd, backlog) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    if (fd >= 0) ::close(fd);
    throw std::runtime_error("cannot listen on loopback");
  }
  *port = ntohs(a.sin_port);
  return fd;
}

}  // namespace jetperf::test
