#pragma once
// Counts open connections against max-connections. A connection holds a slot for its whole life
// (including an SSE stream that outlives its session), and the slot frees itself when dropped.
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
    explicit slot(std::shared_ptr<connection_limit> owner) : owner_(std::move(owner)) {}
    slot(slot&&) noexcept = default;
    slot& operator=(slot&& o) noexcept {
      release();
      owner_ = std::move(o.owner_);
      return *this;
    }
    slot(const slot&) = delete;
    slot& operator=(const slot&) = delete;
    ~slot() { release(); }
    explicit operator bool() const { return owner_ != nullptr; }

   private:
    void release() {
      if (owner_) owner_->open_.fetch_sub(1, std::memory_order_relaxed);
      owner_.reset();
    }
    std::shared_ptr<connection_limit> owner_;
  };

  explicit connection_limit(std::size_t max) : max_(max) {}

  /// Takes a slot when one is free; `self` is this limit's own shared_ptr.
  static slot try_acquire(const std::shared_ptr<connection_limit>& self) {
    std::size_t n = self->open_.load(std::memory_order_relaxed);
    do {
      if (n >= self->max_) return slot();
    } while (!self->open_.compare_exchange_weak(n, n + 1, std::memory_order_relaxed));
    return slot(self);
  }

  std::size_t open() const { return open_.load(std::memory_order_relaxed); }
  std::size_t max() const { return max_; }

 private:
  const std::size_t max_;
  std::atomic<std::size_t> open_{0};
};

}  // namespace jetperf::daemon
