#pragma once
// One page of GET /v1/jobs/{id}/samples written from the store a part at a time: the daemon holds
// a part of the page's samples and the piece being written, never the page as a document, so a
// page of 100 000 samples costs the same memory as one of a few thousand. The page ends at its
// `limit` or, without one, once its text reaches a size in bytes; `next_after` then names where
// the next page starts.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/api/body_source.hpp>
#include <jetperf/store/sample_store.hpp>

namespace jetperf::api {

/// What one page holds.
struct sample_page_request {
  std::int64_t job_id = 0;
  std::optional<std::int64_t> channel_id;
  std::optional<std::int64_t> from_ns, to_ns;
  std::optional<store::sample_key> after;
  std::size_t limit = 0;      ///< at most this many samples
  std::size_t max_bytes = 0;  ///< 0: no bound but `limit`; else the page ends once its samples' text reaches this
  bool csv = false;           ///< CSV rows (channel,t_ns,value) instead of the JSON document
  /// "downsampled" or "dropped" when retention changed the job's samples (JSON's "retention"),
  /// "" at full rate.
  std::string retention;
};

/// How much the stream reads and writes at a time.
struct sample_page_sizes {
  std::size_t rows_per_read = 16384;    ///< samples read from the store at once
  std::size_t piece_bytes = 64 * 1024;  ///< a piece ends once it is at least this long
};

/// The page's text, in pieces. JSON: {"job_id", ["retention",] "samples": [{"channel", "t_ns", "value"}, ...],
/// "channels": [{"name", "unit", "source"}] (those the page's samples name, or the one asked
/// for), "next_after": "T_NS:CHANNEL" or null}. CSV: the header line and one line per sample; its
/// cursor goes in a header, so a CSV page is drained whole before it is answered (next_after()).
class sample_page_stream : public body_source {
 public:
  /// The store must outlive the stream; `channels` are the store's channels (names and units).
  sample_page_stream(const store::sample_store& store, std::vector<store::channel_record> channels,
                     sample_page_request request, sample_page_sizes sizes = {});
  bool next(std::string& out) override;
  /// Where the next page starts; set once the stream has ended, when more samples follow.
  const std::optional<store::sample_key>& next_after() const { return next_after_; }

  static std::string cursor_text(const store::sample_key& k);

 private:
  enum class stage { opening, samples, closing, done };
  void write_samples(std::string& out);
  /// Reads the next part into rows_; false when the page has nothing more to read.
  bool read_part();
  const std::string& quoted_name(std::int64_t channel_id);

  const store::sample_store& store_;
  std::vector<store::channel_record> channels_;
  sample_page_request req_;
  sample_page_sizes sizes_;
  stage stage_ = stage::opening;
  std::vector<store::sample_row> rows_;
  std::size_t row_index_ = 0;
  std::size_t written_ = 0;        ///< samples written
  std::size_t sample_bytes_ = 0;   ///< their text's length
  bool more_in_store_ = true;      ///< the last read said more samples follow
  std::optional<store::sample_key> cursor_;  ///< the last sample written
  std::optional<store::sample_key> next_after_;
  std::map<std::int64_t, std::string> quoted_;  ///< channel id -> its name as written (JSON string or CSV field)
};

}  // namespace jetperf::api
