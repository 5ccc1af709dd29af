#pragma once
// Counts open connections against max-connections. A connection holds a slot for its whole life
// (including an SSE stream that outlives its session), and the slot frees itself when dropped.
// The last `reserved` slots are kept for requests that carry the token: however many readers
// hold connections, the token holder can still cancel a job or check the daemon's health.
#include <atomic>
#include <cstddef>
#include <memory>

namespace jetperf::daemon {

class connection_limit {
 public:
  /// A held slot; releases it on destruction. Empty (false) when the limit was reached.
  class slot {
   public:
    slot() = default;
    slot(std::shared_ptr<connection_limit> owner, bool reserved) : owner_(std::move(owner)), reserved_(reserved) {}
    slot(slot&&) noexcept = default;
    slot& operator=(slot&& o) noexcept {
      release();
      owner_ = std::move(o.owner_);
      reserved_ = o.reserved_;
      return *this;
    }
    slot(const slot&) = delete;
    slot& operator=(const slot&) = delete;
    ~slot() { release(); }
    explicit operator bool() const { return owner_ != nullptr; }
    /// One of the reserved slots: only requests with the token are served on it.
    bool reserved() const { return reserved_; }
    /// Gives the slot back now (a refused connection that still lingers must not hold it).
    void release() {
      if (owner_) owner_->open_.fetch_sub(1, std::memory_order_relaxed);
      owner_.reset();
    }

   private:
    std::shared_ptr<connection_limit> owner_;
    bool reserved_ = false;
  };

  explicit connection_limit(std::size_t max, std::size_t reserved = 0)
      : max_(max), reserved_(reserved < max ? reserved : 0) {}

  /// Takes a slot when one is free; `self` is this limit's own shared_ptr.
  static slot try_acquire(const std::shared_ptr<connection_limit>& self) {
    std::size_t n = self->open_.load(std::memory_order_relaxed);
    do {
      if (n >= self->max_) return slot();
    } while (!self->open_.compare_exchange_weak(n, n + 1, std::memory_order_relaxed));
    return slot(self, n >= self->max_ - self->reserved_);
  }

  std::size_t open() const { return open_.load(std::memory_order_relaxed); }
  std::size_t max() const { return max_; }

 private:
  const std::size_t max_;
  const std::size_t reserved_;
  std::atomic<std::size_t> open_{0};
};

}  // namespace jetperf::daemon
