#include "database_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "atomic_file.hpp"

namespace jetperf::daemon {

namespace {

// The file created 0600 when absent (before SQLite creates it with the umask's mode), else set to
// 0600: a database an earlier daemon left 0644 is made private too.
void make_private(const std::string& path, bool create) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | (create ? O_CREAT : 0), 0600);
  if (fd < 0) {
    if (!create && errno == ENOENT) return;
    throw std::runtime_error("cannot open the database " + path + ": " + std::strerror(errno));
  }
  const int rc = ::fchmod(fd, 0600);
  const int err = errno;
  ::close(fd);
  if (rc != 0) throw std::runtime_error("cannot make the database " + path + " private (chmod 600): " + std::strerror(err));
}

}  // namespace

std::unique_ptr<store::database> open_private_database(const std::string& path) {
  if (path != ":memory:") {
    ensure_directory(parent_directory(path), 0700);
    make_private(path, true);
    // SQLite gives these the database file's mode when it creates them; older ones are set here.
    make_private(path + "-wal", false);
    make_private(path + "-shm", false);
  }
  return std::make_unique<store::database>(path);
}

}  // namespace jetperf::daemon
