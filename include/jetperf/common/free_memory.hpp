#pragma once
// Hands the heap's free pages back to the system. glibc keeps what a large request or a job
// freed in its per-thread arenas: a 10 MB trace upload left the daemon at 800 MB resident after
// it had answered, and a second upload, served on another thread, at 1.6 GB. Called after work
// that may have held much memory (a worker's request, a job); a no-op elsewhere than glibc.
namespace jetperf {

void return_free_memory();

}  // namespace jetperf
