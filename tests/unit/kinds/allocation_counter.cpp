// The replaceable global operator new and delete of unit_kinds, counting bytes per thread for
// allocation_counter.hpp. Array forms forward to these in the standard library; aligned forms
// are left as they are (they never reach these).
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

void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
