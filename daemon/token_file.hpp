#pragma once
// The API token: generated once (32 random bytes as 64 hex characters, mode 0600) and reused.
#include <stdexcept>
#include <string>

namespace jetperf::daemon {

/// The token file is unusable (unreadable, empty, or readable by group or others).
class token_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Reads the token at `path`, or creates it (and a missing parent directory, mode 0700).
/// Throws token_error naming the path.
std::string load_or_create_token(const std::string& path);

/// 32 bytes from the kernel's random source as 64 lower-case hex characters.
std::string random_token();

}  // namespace jetperf::daemon
