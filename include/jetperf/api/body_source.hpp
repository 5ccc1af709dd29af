#pragma once
// A response body produced piece by piece, for an answer too large to hold whole (a job's trace):
// the HTTP layer asks for the next piece only once it has written the previous one, so a slow
// client slows the producer instead of growing a buffer, and it drops the source when the client
// goes away. A piece may read the store: the HTTP layer asks for it off its io threads.
#include <string>

namespace jetperf::api {

class body_source {
 public:
  virtual ~body_source() = default;
  /// Appends the next piece of the body to `out` (empty on entry); returns false when that was
  /// the last piece (it may be empty). An exception ends the body unfinished: by then the status
  /// line has gone out, so the client sees a broken transfer rather than a short document.
  virtual bool next(std::string& out) = 0;
};

}  // namespace jetperf::api
