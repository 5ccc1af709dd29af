#pragma once
// Hands the heap's free memory back to the system. glibc keeps what a large request or a job
// freed: a 10 MB trace upload left the daemon at 800 MB resident after it had answered, and a
// second upload, served on another thread, at 1.6 GB. A no-op elsewhere than glibc.
namespace jetperf {

/// Once, at start: allocations of 128 KiB and more are mapped on their own (returned whole when
/// freed), and a heap's free top past 128 KiB is returned at once. glibc's default raises both
/// thresholds as the program frees large blocks, after which a large request's memory stays in a
/// thread's arena, where malloc_trim cannot reach its top.
void return_freed_memory_promptly();

/// After work that may have held much memory (a worker's request, a job): the free pages inside
/// the heaps go back too.
void return_free_memory();

}  // namespace jetperf
