#pragma once
// The simulated board's reboot: jetperfd replaces itself with a fresh copy of its own binary and
// the same arguments, as systemd would start it after a real boot (no systemd needed in tests).

namespace jetperf::daemon {

/// execv of /proc/self/exe with `argv`; returns only when that fails (logged), with errno set.
void reexec_self(char** argv);

}  // namespace jetperf::daemon
