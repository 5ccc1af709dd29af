#pragma once
// Bytes this thread allocates with operator new while a counter lives (allocation_counter.cpp
// replaces the global operator new of unit_kinds): a test can show that a spec is refused
// without building what it describes, with no timing.
#include <cstddef>

namespace jetperf::test {

/// Bytes operator new has handed to this thread since it started.
std::size_t thread_allocated_bytes();

class allocation_counter {
 public:
  allocation_counter() : start_(thread_allocated_bytes()) {}
  std::size_t bytes() const { return thread_allocated_bytes() - start_; }

 private:
  std::size_t start_;
};

}  // namespace jetperf::test
