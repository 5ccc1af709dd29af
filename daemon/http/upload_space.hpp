#pragma once
// Disk for trace uploads, those stored and those still arriving, under one budget
// (max_trace_disk_mb). An upload reserves its declared length (upload_limit when it declares
// none) once its header is admitted, and holds it until it is answered: six concurrent uploads
// each checked only against what was stored filled the disk. It is refused (409 naming the
// budget) when what is stored, what is in flight and it would pass the budget, and (507) when
// the upload directory's file system has less free space than the uploads in flight need.
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include <jetperf/api/http_types.hpp>

namespace jetperf::daemon {

class upload_space : public std::enable_shared_from_this<upload_space> {
 public:
  /// `stored_bytes`: what the uploads kept so far take (the attachment store's total).
  upload_space(std::uint64_t budget_bytes, std::function<std::uint64_t()> stored_bytes, std::string dir);

  /// Bytes held for one upload until it is destroyed.
  class lease {
   public:
    lease(std::shared_ptr<upload_space> space, std::uint64_t bytes) : space_(std::move(space)), bytes_(bytes) {}
    ~lease();
    lease(const lease&) = delete;
    lease& operator=(const lease&) = delete;

   private:
    std::shared_ptr<upload_space> space_;
    std::uint64_t bytes_;
  };

  /// A lease of `bytes`, or the answer that refuses the upload (`refusal` set, nullptr returned).
  std::unique_ptr<lease> reserve(std::uint64_t bytes, api::http_response* refusal);
  /// Bytes reserved by uploads in flight now.
  std::uint64_t in_flight() const;

 private:
  void release(std::uint64_t bytes);

  std::uint64_t budget_;
  std::function<std::uint64_t()> stored_;
  std::string dir_;
  mutable std::mutex mutex_;
  std::uint64_t in_flight_ = 0;
};

}  // namespace jetperf::daemon
