#pragma once
// The contract between the daemon and GET /v1/telemetry/stream: a publisher puts the latest
// telemetry on event_hub topic k_telemetry_topic, event k_telemetry_event, every
// k_telemetry_feed_period_ms, with telemetry_snapshot_json() as data. Each stream subscribes and
// forwards a frame whenever its own interval (100..10000 ms) has passed, so the feed period must
// not exceed the smallest interval a client may ask for. While some stream asked for every sample
// (samples=all), each period also publishes event k_telemetry_samples_event on topic
// k_telemetry_samples_topic: the samples taken since the last one (sample_batcher.hpp). A topic of
// its own, so that its subscriber count says whether anyone wants the batches at all.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <jetperf/api/sample_batcher.hpp>
#include <jetperf/api/telemetry_view.hpp>
#include <jetperf/common/event_hub.hpp>

namespace jetperf::api {

inline constexpr const char* k_telemetry_topic = "telemetry";
inline constexpr const char* k_telemetry_event = "sample";
inline constexpr const char* k_telemetry_samples_topic = "telemetry.samples";
inline constexpr const char* k_telemetry_samples_event = "samples";
inline constexpr int k_telemetry_feed_period_ms = 100;
inline constexpr int k_telemetry_stream_min_ms = 100;
inline constexpr int k_telemetry_stream_max_ms = 10000;
inline constexpr int k_telemetry_stream_default_ms = 500;

/// The publisher thread: every period, when the topic has subscribers, publishes one snapshot of
/// `view`, and when the samples topic has subscribers, one batch of the samples since the last.
/// The view and the hub must outlive it.
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
  /// Publishes the batch of samples up to `now_ns` on the caller's thread (the feed thread's own
  /// step; tests call it with a time of their own). Not concurrently with the running thread.
  void publish_samples_once(std::int64_t now_ns);

 private:
  void run();

  const telemetry_view& view_;
  event_hub& hub_;
  std::chrono::milliseconds period_;
  sample_batcher batcher_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace jetperf::api
