#include "atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace jetperf::daemon {

namespace {

[[noreturn]] void throw_errno(const std::string& what, const std::string& path) {
  throw std::system_error(errno, std::generic_category(), what + " " + path);
}

}  // namespace

std::string parent_directory(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

void ensure_directory(const std::string& dir, mode_t mode) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) {
      errno = ENOTDIR;
      throw_errno("cannot use directory", dir);
    }
    return;
  }
  if (::mkdir(dir.c_str(), mode) != 0 && errno != EEXIST) throw_errno("cannot create directory", dir);
}

void write_file_atomically(const std::string& path, const std::string& content, mode_t mode) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  // O_EXCL with an explicit mode: the file is never readable by others, not even briefly.
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0) throw_errno("cannot create", tmp);
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int saved = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      errno = saved;
      throw_errno("cannot write", tmp);
    }
    done += static_cast<std::size_t>(n);
  }
  // The umask may have narrowed `mode`; set it exactly.
  if (::fchmod(fd, mode) != 0 || ::fsync(fd) != 0) {
    const int saved = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    errno = saved;
    throw_errno("cannot finish", tmp);
  }
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int saved = errno;
    ::unlink(tmp.c_str());
    errno = saved;
    throw_errno("cannot rename into", path);
  }
}

}  // namespace jetperf::daemon
