#pragma once
// Processes outside the daemon that do a job's work (a command job's program and its children).
// A real board needs nothing of them; a simulated board counts their CPU time as the job's load,
// as it counts the job's own threads, so that its simulated rails follow the program.
namespace jetperf::platform {

class workload_processes {
 public:
  virtual ~workload_processes() = default;
  /// The process `pid` (and, from then on, its descendants) works for the running job.
  virtual void add_process(int pid) = 0;
  /// It no longer does (it ended, or the job did).
  virtual void remove_process(int pid) = 0;
};

}  // namespace jetperf::platform
