#include "http/listener.hpp"

#include <system_error>

#include <spdlog/spdlog.h>

#include "http/session.hpp"

namespace jetperf::daemon {

namespace {

void check(beast::error_code ec, const char* what, const tcp::endpoint& ep) {
  if (ec) {
    throw std::system_error(ec, std::string(what) + " " + ep.address().to_string() + ":" +
                                    std::to_string(ep.port()));
  }
}

}  // namespace

listener::listener(net::io_context& ioc, const tcp::endpoint& endpoint,
                   std::shared_ptr<const server_context> context)
    : ioc_(ioc),
      acceptor_(net::make_strand(ioc)),
      retry_(acceptor_.get_executor()),
      context_(std::move(context)) {
  beast::error_code ec;
  acceptor_.open(endpoint.protocol(), ec);
  check(ec, "cannot open", endpoint);
  acceptor_.set_option(net::socket_base::reuse_address(true), ec);
  check(ec, "cannot set SO_REUSEADDR on", endpoint);
  acceptor_.bind(endpoint, ec);
  check(ec, "cannot bind", endpoint);
  acceptor_.listen(net::socket_base::max_listen_connections, ec);
  check(ec, "cannot listen on", endpoint);
  endpoint_ = acceptor_.local_endpoint(ec);
  check(ec, "cannot read the address of", endpoint);
}

void listener::run() {
  net::dispatch(acceptor_.get_executor(),
                beast::bind_front_handler(&listener::do_accept, shared_from_this()));
}

void listener::stop() {
  auto self = shared_from_this();
  net::post(acceptor_.get_executor(), [self] {
    beast::error_code ignored;
    self->retry_.cancel();
    self->acceptor_.close(ignored);
  });
}

void listener::do_accept() {
  if (!acceptor_.is_open()) return;
  // Each connection gets its own strand, so its handlers never run concurrently.
  acceptor_.async_accept(net::make_strand(ioc_),
                         beast::bind_front_handler(&listener::on_accept, shared_from_this()));
}

void listener::on_accept(beast::error_code ec, tcp::socket socket) {
  if (ec == net::error::operation_aborted || !acceptor_.is_open()) return;
  if (ec) {
    // Typically EMFILE: wait a little instead of spinning on a failing accept.
    spdlog::warn("http: accept failed: {}", ec.message());
    retry_.expires_after(std::chrono::milliseconds(100));
    retry_.async_wait([self = shared_from_this()](beast::error_code wait_ec) {
      if (!wait_ec) self->do_accept();
    });
    return;
  }
  beast::error_code ignored;
  socket.set_option(tcp::no_delay(true), ignored);
  auto slot = connection_limit::try_acquire(context_->connections);
  // Every slot taken, some by connections that have sent no request yet: the newcomer waits a
  // little while the oldest of them is closed for it (admit_later); with none, it gets 503 now.
  if (!slot && context_->waiting->size() > 0) {
    admit_later(std::move(socket), k_admit_tries);
    // As many newcomers wait as there are slots: the next ones wait in the kernel's queue (no
    // descriptor, no memory here) until one of these is through.
    std::lock_guard<std::mutex> lock(admit_mutex_);
    if (++pending_admits_ >= context_->connections->max()) {
      accept_paused_ = true;
      return;
    }
  } else {
    start_session(std::move(socket), std::move(slot));
  }
  do_accept();
}

void listener::admitted() {
  bool resume = false;
  {
    std::lock_guard<std::mutex> lock(admit_mutex_);
    --pending_admits_;
    resume = accept_paused_;
    accept_paused_ = false;
  }
  if (resume) do_accept();
}

void listener::start_session(tcp::socket socket, connection_limit::slot slot) {
  if (slot) {
    std::make_shared<session>(std::move(socket), context_, std::move(slot))->run();
    return;
  }
  spdlog::warn("http: connection limit {} reached; answering 503", context_->connections->max());
  std::make_shared<session>(std::move(socket), context_, std::move(slot))->run_rejected();
}

void listener::admit_later(tcp::socket socket, int tries) {
  // A silent connection old enough to be one (its request would have been read by now) is
  // closed; its slot comes back once its strand has run.
  context_->waiting->close_oldest(first_request_wait::k_silent_after);
  auto timer = std::make_shared<net::steady_timer>(acceptor_.get_executor());
  auto held = std::make_shared<tcp::socket>(std::move(socket));
  timer->expires_after(k_admit_retry);
  timer->async_wait([self = shared_from_this(), timer, held, tries](beast::error_code) {
    auto slot = connection_limit::try_acquire(self->context_->connections);
    if (slot || tries <= 1) {
      self->start_session(std::move(*held), std::move(slot));
      return self->admitted();
    }
    self->admit_later(std::move(*held), tries - 1);
  });
}

}  // namespace jetperf::daemon
