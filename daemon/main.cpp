// jetperfd: parse the configuration, build the components, serve until SIGTERM.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>

#include <jetperf/common/free_memory.hpp>
#include <jetperf/common/thread_name.hpp>

#include "app.hpp"
#include "daemon_config.hpp"
#include "logging.hpp"
#include "reexec.hpp"
#include "sd_notify.hpp"
#include "token_file.hpp"

int main(int argc, char** argv) {
  using namespace jetperf::daemon;
  // Every thread the daemon starts from here is one of its service threads (thread_name.hpp);
  // library pools started while loading keep the program's name and count as workload.
  jetperf::name_this_thread("jp-main");
  jetperf::return_freed_memory_promptly();
  command_line cl;
  try {
    cl = parse_command_line(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const config_error& e) {
    std::fprintf(stderr, "jetperfd: %s\n", e.what());
    return 2;
  }
  if (cl.exit_now) {
    std::fputs(cl.exit_text.c_str(), stdout);
    return 0;
  }
  setup_logging(cl.config.log_level);
  if (cl.config.restore_only) return app::restore_only(cl.config);

  int status = 1;
  std::string failure;
  try {
    bool restart = false;
    {
      // Destroyed before a restart: the database, the port and the board are let go first.
      app daemon(cl.config);
      status = daemon.run();
      restart = daemon.restart_requested();
    }
    if (!restart) return status;
    reexec_self(argv);
    return 1;
  } catch (const token_error& e) {
    // An unusable token file is a configuration problem, like a bad key.
    failure = e.what();
    status = 2;
  } catch (const config_error& e) {
    // Found while building components, e.g. an unknown simulated board profile.
    failure = e.what();
    status = 2;
  } catch (const std::exception& e) {
    failure = e.what();
  }
  spdlog::critical("{}", failure);
  sd_notifier::from_environment().notify("STATUS=failed: " + failure);
  return status;
}
