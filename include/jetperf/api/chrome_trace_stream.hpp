#pragma once
// A job's Chrome trace (chrome_trace_json's text) produced from the store a page at a time, as the
// body of GET /v1/jobs/{id}/trace: the daemon holds a page of spans or samples and the piece
// being written, not the document, whatever the job's size. What goes in is settled before the
// first byte (trace_selection), so that every refusal is still a plain 4xx answer.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/api/body_source.hpp>
#include <jetperf/api/chrome_trace_writer.hpp>
#include <jetperf/store/sample_store.hpp>
#include <jetperf/store/timeline_store.hpp>

namespace jetperf::api {

/// What one export holds.
struct trace_selection {
  std::string title;  ///< the process's name in the viewer
  /// The spans, by start time; `spans.limit` bounds how many are written (a running job's spans
  /// keep coming while it streams).
  store::timeline_query spans;
  /// The spans' first page when the caller read it already (a small export's every span).
  std::optional<store::timeline_page> first_page;
  std::vector<std::string> tracks;  ///< the spans' tracks, in order of their first span
  /// Counter tracks, in this order, over [counters_from_ns, counters_to_ns] (none when from > to).
  std::vector<store::channel_record> channels;
  std::int64_t counters_from_ns = 0, counters_to_ns = -1;
  /// Means per bucket of this length instead of every sample, at most max_buckets per channel.
  std::optional<std::int64_t> bucket_ns;
  std::size_t max_buckets = 0;
  nlohmann::json metadata = nlohmann::json::object();  ///< otherData
};

/// How much the stream reads and writes at a time.
struct trace_stream_sizes {
  std::size_t spans_per_page = 2048;
  /// Samples are read per window of this length: a channel's samples of 10 s at 100 Hz.
  std::int64_t sample_window_ns = 10'000'000'000;
  std::size_t events_per_step = 4096;  ///< events appended before the piece's size is looked at
  std::size_t piece_bytes = 64 * 1024;  ///< a piece ends once it is at least this long
};

class chrome_trace_stream : public body_source {
 public:
  /// The stores must outlive the stream; `samples` may be null (no counters).
  chrome_trace_stream(const store::timeline_store& timeline, const store::sample_store* samples,
                      trace_selection selection, trace_stream_sizes sizes = {});
  bool next(std::string& out) override;

 private:
  enum class stage { opening, spans, counters, closing, done };
  void step(std::string& out);
  void write_spans(std::string& out);
  void write_counters(std::string& out);
  /// Reads the current channel's next samples or buckets into points_; false when it has none left.
  bool read_points();

  const store::timeline_store& timeline_;
  const store::sample_store* samples_;
  trace_selection sel_;
  trace_stream_sizes sizes_;
  chrome_trace_writer writer_;
  stage stage_ = stage::opening;
  // Spans: the page being written and where the next one starts.
  std::vector<store::timeline_span> spans_;
  std::size_t span_index_ = 0, spans_written_ = 0;
  std::optional<store::timeline_key> after_;
  bool spans_read_ = false;
  // Counters: the channel being written, its label, the points read and how far its reads got.
  std::size_t channel_ = 0;
  bool channel_open_ = false;
  std::string label_;
  std::vector<std::pair<std::int64_t, double>> points_;
  std::size_t point_index_ = 0;
  std::optional<std::int64_t> read_from_ns_;  ///< where the channel's next read starts; nullopt: all read
};

}  // namespace jetperf::api
