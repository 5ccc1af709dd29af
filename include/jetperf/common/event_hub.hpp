#pragma once
// In-process publish/subscribe by topic ("job:12", "jobs", "telemetry"). Publishers never block
// on subscribers: handlers must be quick (push into a queue) and may be called from any thread.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace jetperf {

class event_hub {
 public:
  /// Returns false when the subscriber is gone; it is then removed.
  using handler = std::function<bool(const std::string& event, const std::string& data)>;

  /// Removes the subscription when destroyed.
  class subscription {
   public:
    subscription() = default;
    subscription(event_hub* hub, std::uint64_t id) : hub_(hub), id_(id) {}
    subscription(subscription&& o) noexcept : hub_(o.hub_), id_(o.id_) { o.hub_ = nullptr; }
    subscription& operator=(subscription&& o) noexcept;
    subscription(const subscription&) = delete;
    subscription& operator=(const subscription&) = delete;
    ~subscription() { reset(); }
    void reset();

   private:
    event_hub* hub_ = nullptr;
    std::uint64_t id_ = 0;
  };

  subscription subscribe(const std::string& topic, handler h);
  /// Calls every handler of the topic; `event` is the SSE event name, `data` its JSON text.
  void publish(const std::string& topic, const std::string& event, const std::string& data);
  std::size_t subscriber_count(const std::string& topic) const;

 private:
  void unsubscribe(std::uint64_t id);
  struct entry {
    std::string topic;
    std::shared_ptr<handler> fn;
  };
  mutable std::mutex mutex_;
  std::uint64_t next_id_ = 1;
  std::map<std::uint64_t, entry> entries_;
};

}  // namespace jetperf
