#include <jetperf/workloads/cuda_plugin.hpp>

#include <dlfcn.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include <jetperf/config.hpp>

#ifndef JETPERF_CUDA_PLUGIN_INSTALLED
#define JETPERF_CUDA_PLUGIN_INSTALLED "/usr/lib/jetperf/libjetperf_cuda.so"
#endif

namespace jetperf::workloads {
namespace {

constexpr const char* k_file = "libjetperf_cuda.so";

struct plugin_state {
  std::mutex mutex;
  bool tried = false;
  const cuda_plugin_table* table = nullptr;
  std::string why;
};

plugin_state& state() {
  static plugin_state s;
  return s;
}

// The directory of the running executable: the path the kernel executed (AT_EXECFN), resolved.
// The daemon never changes its working directory, so a relative path resolves as it did at start.
std::string exe_dir() {
  const auto* execfn = reinterpret_cast<const char*>(::getauxval(AT_EXECFN));
  char buf[PATH_MAX];
  if (!execfn || !::realpath(execfn, buf)) return {};
  std::string path(buf);
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

[[maybe_unused]] const cuda_plugin_table* load(std::string& why) {
  std::string tried;
  for (const auto& path : cuda_plugin_candidates()) {
    if (::access(path.c_str(), R_OK) != 0) {
      tried += (tried.empty() ? "" : ", ") + path;
      continue;
    }
    // RTLD_LOCAL: its symbols (and those of the CUDA libraries it needs) stay out of the host's.
    void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char* e = ::dlerror();
      why = "CUDA plugin " + path + " does not load: " + (e ? e : "unknown error");
      return nullptr;
    }
    using entry_fn = const cuda_plugin_table* (*)();
    auto entry = reinterpret_cast<entry_fn>(::dlsym(handle, k_cuda_plugin_entry));
    const cuda_plugin_table* table = entry ? entry() : nullptr;
    if (!table) {
      why = "CUDA plugin " + path + " has no " + k_cuda_plugin_entry;
    } else if (table->abi != k_cuda_plugin_abi || std::strcmp(table->jetperf_version, JETPERF_VERSION) != 0) {
      why = "CUDA plugin " + path + " is from another build (jetperf " + table->jetperf_version + ", ABI " +
            std::to_string(table->abi) + "; this is jetperf " + JETPERF_VERSION + ", ABI " +
            std::to_string(k_cuda_plugin_abi) + ")";
    } else {
      return table;
    }
    ::dlclose(handle);
    return nullptr;
  }
  why = "CUDA plugin " + std::string(k_file) + " not found (looked at " + tried + ")";
  return nullptr;
}

}  // namespace

std::vector<std::string> cuda_plugin_candidates() {
  std::vector<std::string> out;
  if (const char* env = std::getenv("JETPERF_CUDA_PLUGIN"); env && *env) out.emplace_back(env);
  const auto dir = exe_dir();
  if (!dir.empty()) out.push_back(dir + "/../lib/jetperf/" + k_file);
  out.emplace_back(JETPERF_CUDA_PLUGIN_INSTALLED);
  return out;
}

const cuda_plugin_table* cuda_plugin(std::string* why) {
  auto& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.tried) {
    s.tried = true;
#if JETPERF_HAS_CUDA
    s.table = load(s.why);
#else
    s.why = "not supported by this build (no CUDA)";
#endif
  }
  if (!s.table && why) *why = s.why;
  return s.table;
}

bool cuda_plugin_loaded() {
  auto& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.table != nullptr;
}

}  // namespace jetperf::workloads
