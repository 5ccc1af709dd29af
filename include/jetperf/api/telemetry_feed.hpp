#pragma once
// The contract between the daemon and GET /v1/telemetry/stream: a publisher puts the latest
// telemetry on event_hub topic k_telemetry_topic, event k_telemetry_event, every
// k_telemetry_feed_period_ms, with telemetry_snapshot_json() as data. Each stream subscribes and
// forwards a frame whenever its own interval (100..10000 ms) has passed, so the feed period must
// not exceed the smallest interval a client may ask for.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <jetperf/api/telemetry_view.hpp>
#include <jetperf/common/event_hub.hpp>

namespace jetperf::api {

inline constexpr const char* k_telemetry_topic = "telemetry";
inline constexpr const char* k_telemetry_event = "sample";
inline constexpr int k_telemetry_feed_period_ms = 100;
inline constexpr int k_telemetry_stream_min_ms = 100;
inline constexpr int k_telemetry_stream_max_ms = 10000;
inline constexpr int k_telemetry_stream_default_ms = 500;

/// The publisher thread: every period, when the topic has subscribers, publishes one snapshot of
/// `view`. The view and the hub must outlive it.
class telemetry_feed {
 public:
  telemetry_feed(const telemetry_view& view, event_hub& hub,
                 std::chrono::milliseconds period = std::chrono::milliseconds(k_telemetry_feed_period_ms));
  ~telemetry_feed();
  telemetry_feed(const telemetry_feed&) = delete;
  telemetry_feed& operator=(const telemetry_feed&) = delete;

  /// Starts the thread (no-op when running).
  void start();
  /// Stops and joins the thread (no-op when stopped).
  void stop();
  /// Publishes one snapshot now on the caller's thread, whether or not anyone listens.
  void publish_once();

 private:
  void run();

  const telemetry_view& view_;
  event_hub& hub_;
  std::chrono::milliseconds period_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace jetperf::api
