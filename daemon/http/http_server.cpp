#include "http/http_server.hpp"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <spdlog/spdlog.h>

#include <jetperf/common/thread_name.hpp>
#include <jetperf/config.hpp>

#include "http/listener.hpp"

namespace jetperf::daemon {

namespace {

// Linux keeps a nice value per thread; PRIO_PROCESS with a thread id changes only that thread.
void renice_this_thread(int increment) {
  if (increment == 0) return;
  const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
  errno = 0;
  const int current = ::getpriority(PRIO_PROCESS, tid);
  if (current == -1 && errno != 0) return;
  if (::setpriority(PRIO_PROCESS, tid, current + increment) != 0) {
    spdlog::debug("http: cannot renice io thread: {}", std::strerror(errno));
  }
}

}  // namespace

http_server::http_server(http_server_options options, request_handler handler)
    : options_(std::move(options)),
      context_(std::make_shared<server_context>()),
      ioc_(std::make_unique<net::io_context>(
          static_cast<int>(options_.threads == 0 ? 1 : options_.threads))) {
  context_->handler = std::move(handler);
  context_->limits = options_.limits;
  context_->server_name = std::string("jetperfd/") + JETPERF_VERSION;
  context_->connections = std::make_shared<connection_limit>(options_.max_connections);
}

http_server::~http_server() { stop(); }

void http_server::start() {
  beast::error_code ec;
  auto address = net::ip::make_address(options_.host, ec);
  if (ec) throw std::system_error(ec, "invalid listen address '" + options_.host + "'");
  listener_ = std::make_shared<listener>(*ioc_, tcp::endpoint(address, options_.port), context_);
  endpoint_ = listener_->local_endpoint();
  listener_->run();
  const std::size_t n = options_.threads == 0 ? 1 : options_.threads;
  threads_.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    threads_.emplace_back([this, i] {
      name_this_thread("jp-http-" + std::to_string(i));
      renice_this_thread(options_.nice_increment);
      ioc_->run();
    });
  }
}

void http_server::stop_accepting() {
  if (listener_) listener_->stop();
}

void http_server::stop() {
  if (!ioc_) return;
  stop_accepting();
  ioc_->stop();
  for (auto& t : threads_) t.join();
  threads_.clear();
  // Destroying the io_context destroys every pending handler, and with them the sessions and
  // streams they own: their sockets close and their SSE channels are closed for the producers.
  listener_.reset();
  ioc_.reset();
}

std::string http_server::local_address() const {
  return endpoint_.address().to_string() + ":" + std::to_string(endpoint_.port());
}

std::uint16_t http_server::local_port() const { return endpoint_.port(); }

std::size_t http_server::open_connections() const { return context_->connections->open(); }

}  // namespace jetperf::daemon
