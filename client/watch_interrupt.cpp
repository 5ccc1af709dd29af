#include "watch_interrupt.hpp"

#include <unistd.h>

#include <csignal>
#include <algorithm>
#include <cstring>

#include "cli_error.hpp"

namespace jetperf::client {

namespace {

// The handler may only call async-signal-safe functions: the message is made before, here.
char g_message[256];
std::size_t g_length = 0;

extern "C" void on_interrupt(int) {
  ssize_t ignored = ::write(STDERR_FILENO, g_message, g_length);
  (void)ignored;
  ::_exit(exit_interrupted);
}

}  // namespace

std::string watch_interrupt_message(std::int64_t id, bool after_bar) {
  const auto n = std::to_string(id);
  return std::string(after_bar ? "\n" : "") + "stopped watching; job " + n +
         " keeps running on the daemon (cancel it: jetperf cancel " + n + ")\n";
}

watch_interrupt_guard::watch_interrupt_guard(std::int64_t id, bool after_bar) {
  struct sigaction current {};
  if (::sigaction(SIGINT, nullptr, &current) != 0 || current.sa_handler == SIG_IGN) return;
  const auto text = watch_interrupt_message(id, after_bar);
  g_length = std::min(text.size(), sizeof g_message);
  std::memcpy(g_message, text.data(), g_length);
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  installed_ = ::sigaction(SIGINT, &sa, nullptr) == 0;
}

watch_interrupt_guard::~watch_interrupt_guard() {
  if (installed_) std::signal(SIGINT, SIG_DFL);
}

}  // namespace jetperf::client
