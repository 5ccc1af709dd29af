// The replaceable global operator new and delete of unit_kinds, counting bytes per thread for
// allocation_counter.hpp. Array forms forward to these in the standard library; aligned forms
// are left as they are (they never reach these). The nothrow forms forward too in libstdc++,
// but not under AddressSanitizer, whose runtime defines its own (std::stable_sort's buffer
// comes from one): replaced here as well, or that memory reaches the free() below from ASan's
// allocator, a mismatch it reports.
#include "allocation_counter.hpp"

#include <cstdlib>
#include <new>

namespace {
thread_local std::size_t t_allocated = 0;
}  // namespace

std::size_t jetperf::test::thread_allocated_bytes() { return t_allocated; }

void* operator new(std::size_t n) {
  t_allocated += n;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}

void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  t_allocated += n;
  return std::malloc(n ? n : 1);
}

void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
