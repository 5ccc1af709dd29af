#pragma once
// The systemd notification protocol (sd_notify(3)) without libsystemd: one datagram of
// "KEY=VALUE" lines to the unix socket named by NOTIFY_SOCKET ('@' = abstract namespace).
#include <string>

namespace jetperf::daemon {

class sd_notifier {
 public:
  /// `socket_path` empty = notifications are disabled (not started by systemd).
  explicit sd_notifier(std::string socket_path) : path_(std::move(socket_path)) {}
  /// Reads NOTIFY_SOCKET once.
  static sd_notifier from_environment();

  bool enabled() const { return !path_.empty(); }
  /// Sends one message, e.g. "READY=1\nSTATUS=listening". Returns false when disabled or the
  /// send failed (the daemon keeps running either way; systemd then times out the start).
  bool notify(const std::string& state) const;

 private:
  std::string path_;
};

}  // namespace jetperf::daemon
