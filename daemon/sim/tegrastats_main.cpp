// jetperf-sim-tegrastats: installed as <board dir>/bin/tegrastats. Prints one line per interval
// in the board's tegrastats format (tegrastats_sampler.hpp), to stdout or --logfile; --start runs
// it in the background (pid in <dir>/run/tegrastats.pid) and --stop ends that instance.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>

#include <jetperf/sim/board_layout.hpp>
#include <jetperf/sim/tegrastats_sampler.hpp>

#include "locate_board.hpp"

namespace {

constexpr const char* usage =
    "Usage: tegrastats [-option]\n"
    "Options:\n"
    "  --help                : print this help screen\n"
    "  --interval <millisec> : sample the information in <milliseconds>\n"
    "  --logfile <filename>  : dump the output of tegrastats to <filename>\n"
    "  --start               : run tegrastats as a daemon process in the background\n"
    "  --stop                : stop any running instances of tegrastats\n"
    "  --verbose             : print verbose message\n"
    "  --readall             : read all possible information\n";

volatile sig_atomic_t g_stop = 0;
void on_signal(int) { g_stop = 1; }

// Root form unless overridden: tegrastats needs root for the debugfs fields (README 7.2).
bool root_form() {
  if (const char* v = std::getenv("JETPERF_SIM_TEGRASTATS_ROOT"); v && *v) return std::string(v) != "0";
  return ::geteuid() == 0;
}

}  // namespace

int main(int argc, char** argv) {
  long interval_ms = 1000;
  std::string logfile;
  bool start = false, stop = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "tegrastats: option " << a << " requires an argument\n" << usage;
        std::exit(1);
      }
      return argv[++i];
    };
    if (a == "--interval") {
      const std::string v = value();
      char* end = nullptr;
      interval_ms = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0' || interval_ms <= 0) {
        std::cerr << "tegrastats: invalid interval '" << v << "'\n";
        return 1;
      }
    } else if (a == "--logfile") {
      logfile = value();
    } else if (a == "--start") {
      start = true;
    } else if (a == "--stop") {
      stop = true;
    } else if (a == "--verbose" || a == "--readall") {
    } else if (a == "--load_cfg" || a == "--save_cfg") {
      value();
    } else if (a == "--help" || a == "-h") {
      std::cout << usage;
      return 0;
    } else {
      std::cerr << "tegrastats: unknown option " << a << "\n" << usage;
      return 1;
    }
  }
  try {
    const jetperf::sim::board_layout layout(jetperf::sim::locate_board_dir());
    const std::string pid_file = layout.dir() + "/run/tegrastats.pid";
    if (stop) {
      std::ifstream in(pid_file);
      long pid = 0;
      if (in >> pid && pid > 0) ::kill(static_cast<pid_t>(pid), SIGTERM);
      std::filesystem::remove(pid_file);
      return 0;
    }
    if (start) {
      pid_t child = ::fork();
      if (child < 0) {
        std::cerr << "tegrastats: fork failed\n";
        return 1;
      }
      if (child > 0) {
        std::filesystem::create_directories(layout.dir() + "/run");
        std::ofstream(pid_file) << child << "\n";
        return 0;
      }
      ::setsid();
      // Detach from the caller's terminal and pipes, so that whoever ran --start sees EOF.
      int null_fd = ::open("/dev/null", O_RDWR);
      if (null_fd >= 0) {
        ::dup2(null_fd, 0);
        ::dup2(null_fd, 1);
        ::dup2(null_fd, 2);
        if (null_fd > 2) ::close(null_fd);
      }
      if (logfile.empty()) logfile = "/dev/null";
    }
    const auto& profile = layout.profile();
    jetperf::sim::tegrastats_sampler sampler(profile, layout.root());
    std::ofstream log;
    if (!logfile.empty()) {
      log.open(logfile, std::ios::app);
      if (!log) {
        std::cerr << "tegrastats: cannot open " << logfile << "\n";
        return 1;
      }
    }
    std::ostream& out = logfile.empty() ? std::cout : log;
    ::signal(SIGTERM, on_signal);
    ::signal(SIGINT, on_signal);
    const bool as_root = root_form();
    auto next = std::chrono::steady_clock::now();
    while (!g_stop) {
      next += std::chrono::milliseconds(interval_ms);
      std::this_thread::sleep_until(next);
      if (g_stop) break;
      out << sampler.line(as_root, std::time(nullptr)) << '\n' << std::flush;
      if (!out) break;  // reader gone
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "tegrastats: " << e.what() << "\n";
    return 1;
  }
}
