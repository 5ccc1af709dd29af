#pragma once
// Counts open event streams (SSE) against their own cap, below the connection cap, and per remote
// address: streams never end on their own, so without this a few hundred readers would hold every
// connection slot and lock the token holder out. A slot frees itself when dropped.
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace jetperf::daemon {

class stream_limit {
 public:
  class slot {
   public:
    slot() = default;
    slot(std::shared_ptr<stream_limit> owner, std::string address)
        : owner_(std::move(owner)), address_(std::move(address)) {}
    slot(slot&&) noexcept = default;
    slot& operator=(slot&& o) noexcept {
      release();
      owner_ = std::move(o.owner_);
      address_ = std::move(o.address_);
      return *this;
    }
    slot(const slot&) = delete;
    slot& operator=(const slot&) = delete;
    ~slot() { release(); }
    explicit operator bool() const { return owner_ != nullptr; }

   private:
    void release() {
      if (owner_) owner_->release(address_);
      owner_.reset();
    }
    std::shared_ptr<stream_limit> owner_;
    std::string address_;
  };

  stream_limit(std::size_t max, std::size_t max_per_address) : max_(max), max_per_address_(max_per_address) {}

  /// A slot for a stream from `address` (the peer's IP), or an empty one with `why` set.
  static slot try_acquire(const std::shared_ptr<stream_limit>& self, const std::string& address, std::string* why);

  std::size_t open() const;

 private:
  void release(const std::string& address);

  const std::size_t max_, max_per_address_;
  mutable std::mutex mutex_;
  std::size_t open_ = 0;
  std::map<std::string, std::size_t> by_address_;
};

}  // namespace jetperf::daemon
