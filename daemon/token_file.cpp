#include "token_file.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>

#include "atomic_file.hpp"

namespace jetperf::daemon {

std::string random_token() {
  unsigned char bytes[32];
  std::size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw token_error(std::string("cannot read random bytes: ") + std::strerror(errno));
    }
    got += static_cast<std::size_t>(n);
  }
  static const char digits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(64);
  for (unsigned char b : bytes) {
    hex += digits[b >> 4];
    hex += digits[b & 0xf];
  }
  return hex;
}

std::string load_or_create_token(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno != ENOENT) {
      throw token_error("token file " + path + ": " + std::strerror(errno));
    }
    std::string token = random_token();
    try {
      ensure_directory(parent_directory(path), 0700);
      write_file_atomically(path, token + "\n", 0600);
    } catch (const std::system_error& e) {
      throw token_error(std::string("cannot create token file: ") + e.what());
    }
    return token;
  }
  if (!S_ISREG(st.st_mode)) throw token_error("token file " + path + " is not a regular file");
  // The token grants write access to the board; refuse one that other users could read.
  if ((st.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    throw token_error("token file " + path + " has mode " + mode +
                      "; it must not be accessible by group or others (chmod 600 " + path + ")");
  }
  std::ifstream in(path);
  if (!in) throw token_error("cannot read token file " + path + ": " + std::strerror(errno));
  std::string token;
  std::getline(in, token);
  while (!token.empty() && (token.back() == '\r' || token.back() == ' ' || token.back() == '\t')) {
    token.pop_back();
  }
  if (token.empty()) throw token_error("token file " + path + " is empty");
  // Clients send the token in one header word: a blank inside could never match, and usually
  // means two values were pasted into the file.
  for (char c : token)
    if (c <= 0x20 || c == 0x7f)
      throw token_error("token file " + path + " holds whitespace or control characters inside the token; it "
                        "must be one word of visible characters (delete the file to have a new token made)");
  return token;
}

}  // namespace jetperf::daemon
