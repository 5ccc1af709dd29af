// Whether stdout is a terminal a person reads (and how wide), for commands that draw for one.
#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "command.hpp"

namespace jetperf::client {

int stdout_terminal_width() {
  if (isatty(STDOUT_FILENO) == 0) return 0;
  const char* term = std::getenv("TERM");
  if (!term || std::string(term) == "dumb") return 0;
  winsize ws{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20) return ws.ws_col;
  return 80;
}

}  // namespace jetperf::client
