#include "http/http_server.hpp"

#include <spdlog/spdlog.h>

#include <jetperf/common/thread_name.hpp>
#include <jetperf/config.hpp>

#include "http/listener.hpp"
#include "http/thread_priority.hpp"
#include "http/work_pool.hpp"

namespace jetperf::daemon {

http_server::http_server(http_server_options options, request_handlers handlers)
    : options_(std::move(options)),
      context_(std::make_shared<server_context>()),
      work_(std::make_unique<work_pool>(options_.work_threads, options_.max_queued_work, options_.nice_increment)),
      ioc_(std::make_unique<net::io_context>(
          static_cast<int>(options_.threads == 0 ? 1 : options_.threads))) {
  context_->handlers = std::move(handlers);
  context_->limits = options_.limits;
  context_->upload_dir = options_.upload_dir;
  context_->uploads = options_.uploads;
  context_->server_name = std::string("jetperfd/") + JETPERF_VERSION;
  context_->connections = std::make_shared<connection_limit>(options_.max_connections, options_.reserved_connections);
  context_->waiting = std::make_shared<first_request_wait>();
  context_->streams = std::make_shared<stream_limit>(options_.max_streams, options_.max_streams_per_address);
  context_->channels = std::make_shared<open_channels>();
  context_->work = work_.get();
}

http_server::http_server(http_server_options options, request_handler handler)
    : http_server(std::move(options), request_handlers{std::move(handler), {}, {}, {}, {}}) {}

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
  // Requests still waiting for a worker are dropped (their sessions, which hold sockets of this
  // io_context, with them); one under way finishes first: nothing of the server outlives it.
  if (work_) work_->stop(/*run_queued=*/false);
  // A producer thread may be posting into the io_context through a stream's channel right now,
  // and may go on doing so until the stream is destroyed below, while the io_context's queue is
  // being torn down: close the channels first, which waits for such a post to return.
  context_->channels->close_all();
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

std::size_t http_server::open_streams() const { return context_->streams->open(); }

std::size_t http_server::waiting_requests() const { return work_ ? work_->busy() : 0; }

}  // namespace jetperf::daemon
