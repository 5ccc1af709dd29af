#include "http/upload_space.hpp"

#include <sys/statvfs.h>

#include <spdlog/spdlog.h>

#include <jetperf/api/error_mapping.hpp>

namespace jetperf::daemon {

namespace {

std::string mib(std::uint64_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; }

std::optional<std::uint64_t> free_bytes(const std::string& dir) {
  struct statvfs s {};
  if (::statvfs(dir.c_str(), &s) != 0) return std::nullopt;
  return static_cast<std::uint64_t>(s.f_bavail) * s.f_frsize;
}

}  // namespace

upload_space::upload_space(std::uint64_t budget_bytes, std::function<std::uint64_t()> stored_bytes, std::string dir)
    : budget_(budget_bytes), stored_(std::move(stored_bytes)), dir_(std::move(dir)) {}

upload_space::lease::~lease() { space_->release(bytes_); }

std::unique_ptr<upload_space::lease> upload_space::reserve(std::uint64_t bytes, api::http_response* refusal) {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::uint64_t stored = stored_ ? stored_() : 0;
  if (stored + in_flight_ + bytes > budget_) {
    *refusal = api::error_body(409, "conflict",
                               "stored trace attachments (" + mib(stored) + ") and uploads in flight (" + mib(in_flight_) +
                                   ") leave no room for " + mib(bytes) + " more under " + mib(budget_) +
                                   " (max_trace_disk_mb); retry once the uploads in flight are answered",
                               "body");
    return nullptr;
  }
  const auto free = free_bytes(dir_);
  if (free && *free < in_flight_ + bytes) {
    spdlog::warn("http: an upload of {} refused: {} free under {}, {} in flight", mib(bytes), mib(*free), dir_,
                 mib(in_flight_));
    *refusal = api::error_body(507, "insufficient_storage",
                               "the disk under the trace directory has " + mib(*free) + " free, " + mib(in_flight_) +
                                   " of it promised to uploads in flight: no room for " + mib(bytes),
                               "body");
    return nullptr;
  }
  in_flight_ += bytes;
  return std::make_unique<lease>(shared_from_this(), bytes);
}

std::uint64_t upload_space::in_flight() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return in_flight_;
}

void upload_space::release(std::uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  in_flight_ -= bytes;
}

}  // namespace jetperf::daemon
