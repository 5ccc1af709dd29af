#pragma once
// One backend per device for a workload's lifetime, made on first use: creating a cuDNN or
// cuBLAS handle costs far more than a point, and a device that cannot be used says why once.
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace jetperf::kinds::common {

template <class Backend>
class backend_cache {
 public:
  /// Makes a backend for a device ("cpu", "cuda"); nullptr with `why` when it cannot.
  using factory = std::function<std::unique_ptr<Backend>(const std::string& device, std::string* why)>;

  explicit backend_cache(factory make) : make_(std::move(make)) {}

  /// The device's backend, or nullptr with `why` set.
  Backend* get(const std::string& device, std::string* why) {
    auto& slot = slots_[device];
    if (!slot.backend && slot.why.empty()) {
      slot.backend = make_(device, &slot.why);
      if (!slot.backend && slot.why.empty()) slot.why = "no backend for device " + device;
    }
    if (why) *why = slot.why;
    return slot.backend.get();
  }

 private:
  struct slot_t {
    std::unique_ptr<Backend> backend;
    std::string why;
  };
  factory make_;
  std::map<std::string, slot_t> slots_;
};

}  // namespace jetperf::kinds::common
