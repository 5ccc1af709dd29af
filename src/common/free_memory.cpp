#include <jetperf/common/free_memory.hpp>

#include <cstdlib>  // defines __GLIBC__ where it is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace jetperf {

namespace {
constexpr int k_threshold_bytes = 128 * 1024;
}  // namespace

void return_freed_memory_promptly() {
#if defined(__GLIBC__)
  ::mallopt(M_MMAP_THRESHOLD, k_threshold_bytes);
  ::mallopt(M_TRIM_THRESHOLD, k_threshold_bytes);
#endif
}

void return_free_memory() {
#if defined(__GLIBC__)
  ::malloc_trim(0);
#endif
}

}  // namespace jetperf
