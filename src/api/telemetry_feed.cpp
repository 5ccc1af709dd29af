#include <jetperf/api/telemetry_feed.hpp>

#include <spdlog/spdlog.h>

#include <jetperf/api/json_body.hpp>
#include <jetperf/common/clock.hpp>
#include <jetperf/common/thread_name.hpp>

namespace jetperf::api {

telemetry_feed::telemetry_feed(const telemetry_view& view, event_hub& hub, std::chrono::milliseconds period)
    : view_(view),
      hub_(hub),
      period_(period),
      batcher_(std::chrono::duration_cast<std::chrono::nanoseconds>(period).count()) {}

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

void telemetry_feed::publish_samples_once(std::int64_t now_ns) {
  hub_.publish(k_telemetry_samples_topic, k_telemetry_samples_event, dump_json(batcher_.next(view_, now_ns)));
}

void telemetry_feed::run() {
  auto next = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    next += period_;
    // After a stall (suspend, a slow subscriber) start afresh instead of publishing a burst.
    if (const auto now = std::chrono::steady_clock::now(); now > next + period_) next = now + period_;
    if (wake_.wait_until(lock, next, [this] { return stopping_; })) break;
    // Building a snapshot or a batch costs a little; skip each while nobody watches it. A batch
    // after a time without watchers starts afresh rather than with everything taken meanwhile.
    const bool snapshots = hub_.subscriber_count(k_telemetry_topic) > 0;
    const bool samples = hub_.subscriber_count(k_telemetry_samples_topic) > 0;
    if (!samples) batcher_.reset();
    if (!snapshots && !samples) continue;
    lock.unlock();
    try {
      if (snapshots) publish_once();
      if (samples) publish_samples_once(monotonic_ns());
    } catch (const std::exception& e) {
      spdlog::warn("telemetry feed: {}", e.what());
    }
    lock.lock();
  }
}

}  // namespace jetperf::api
