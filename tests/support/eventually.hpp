#pragma once
// Waits for a condition that another thread (or process) makes true: polls every 5 ms up to
// `timeout` and answers whether it held, checking once more at the deadline.
#include <chrono>
#include <thread>

namespace jetperf::test {

template <typename F>
bool eventually(F f, std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (f()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return f();
}

}  // namespace jetperf::test
