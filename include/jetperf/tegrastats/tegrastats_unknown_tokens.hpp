#pragma once
// The names of tegrastats fields the parser did not understand, each counted, with a bound on how
// many distinct names are remembered: the daemon logs each new name once, and the offline importer
// reports counts per name, and neither can be made to grow memory by a hostile stream.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace jetperf::telemetry {

class tegrastats_unknown_tokens {
 public:
  static constexpr std::size_t k_default_capacity = 64;
  /// Longer names are remembered (and compared) by their first k_max_name_length characters.
  static constexpr std::size_t k_max_name_length = 32;

  explicit tegrastats_unknown_tokens(std::size_t capacity = k_default_capacity) : capacity_(capacity) {}

  /// Counts one occurrence of `name`. True only on the first occurrence of a remembered name;
  /// once `capacity` names are remembered a new name is counted in untracked() and never reported.
  bool first_time(std::string_view name);

  /// Remembered names with their counts, in first-seen order.
  const std::vector<std::pair<std::string, std::uint64_t>>& counts() const { return counts_; }
  /// Occurrences of names not remembered because the table was full.
  std::uint64_t untracked() const { return untracked_; }
  /// Every occurrence counted.
  std::uint64_t total() const { return total_; }
  bool full() const { return counts_.size() >= capacity_; }

 private:
  std::size_t capacity_;
  std::vector<std::pair<std::string, std::uint64_t>> counts_;
  std::uint64_t untracked_ = 0;
  std::uint64_t total_ = 0;
};

}  // namespace jetperf::telemetry
