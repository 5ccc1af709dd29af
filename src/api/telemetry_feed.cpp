#include <jetperf/api/telemetry_feed.hpp>

#include <spdlog/spdlog.h>

#include <jetperf/api/json_body.hpp>
#include <jetperf/common/thread_name.hpp>

namespace jetperf::api {

telemetry_feed::telemetry_feed(const telemetry_view& view, event_hub& hub, std::chrono::milliseconds period)
    : view_(view), hub_(hub), period_(period) {}

telemetry_feed::~telemetry_feed() { stop(); }

void telemetry_feed::start() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (thread_.joinable()) return;
  stopping_ = false;
  thread_ = std::thread([this] {
    name_this_thread("jp-feed");
    run();
  });
}

void telemetry_feed::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!thread_.joinable()) return;
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void telemetry_feed::publish_once() {
  hub_.publish(k_telemetry_topic, k_telemetry_event, dump_json(telemetry_snapshot_json(view_)));
}

void telemetry_feed::run() {
  auto next = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    next += period_;
    // After a stall (suspend, a slow subscriber) start afresh instead of publishing a burst.
    if (const auto now = std::chrono::steady_clock::now(); now > next + period_) next = now + period_;
    if (wake_.wait_until(lock, next, [this] { return stopping_; })) break;
    // Building a snapshot costs a little; skip it while nobody watches.
    if (hub_.subscriber_count(k_telemetry_topic) == 0) continue;
    lock.unlock();
    try {
      publish_once();
    } catch (const std::exception& e) {
      spdlog::warn("telemetry feed: {}", e.what());
    }
    lock.lock();
  }
}

}  // namespace jetperf::api
