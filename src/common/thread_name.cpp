#include <jetperf/common/thread_name.hpp>

#include <pthread.h>

namespace jetperf {

void name_this_thread(const std::string& name) {
  pthread_setname_np(pthread_self(), name.substr(0, 15).c_str());
}

std::string this_thread_name() {
  char buf[16] = {};
  if (pthread_getname_np(pthread_self(), buf, sizeof buf) != 0) return {};
  return buf;
}

bool is_service_thread(const std::string& name) {
  return name.rfind("jp-", 0) == 0 && name.rfind(runner_thread_name, 0) != 0;
}

}  // namespace jetperf
