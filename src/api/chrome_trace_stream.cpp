#include <jetperf/api/chrome_trace_stream.hpp>

#include <algorithm>
#include <utility>

namespace jetperf::api {

chrome_trace_stream::chrome_trace_stream(const store::timeline_store& timeline, const store::sample_store* samples,
                                         trace_selection selection, trace_stream_sizes sizes)
    : timeline_(timeline), samples_(samples), sel_(std::move(selection)), sizes_(sizes), writer_(sel_.tracks) {
  if (!samples_ || sel_.counters_from_ns > sel_.counters_to_ns) sel_.channels.clear();
  if (sel_.first_page) {
    spans_ = std::move(sel_.first_page->spans);
    after_ = sel_.first_page->next_after;
    spans_read_ = !after_;
    sel_.first_page.reset();
  }
}

bool chrome_trace_stream::next(std::string& out) {
  while (stage_ != stage::done && out.size() < sizes_.piece_bytes) step(out);
  return stage_ != stage::done;
}

void chrome_trace_stream::step(std::string& out) {
  switch (stage_) {
    case stage::opening:
      writer_.begin(out, sel_.title);
      stage_ = stage::spans;
      return;
    case stage::spans: return write_spans(out);
    case stage::counters: return write_counters(out);
    case stage::closing:
      writer_.end(out, sel_.metadata);
      stage_ = stage::done;
      return;
    case stage::done: return;
  }
}

void chrome_trace_stream::write_spans(std::string& out) {
  if (span_index_ == spans_.size()) {
    const std::size_t left = sel_.spans.limit - std::min(spans_written_, sel_.spans.limit);
    if (spans_read_ || left == 0) {
      stage_ = stage::counters;
      spans_ = {};
      return;
    }
    auto page = timeline_.spans_page(sel_.spans, after_, std::min(sizes_.spans_per_page, left));
    spans_ = std::move(page.spans);
    span_index_ = 0;
    after_ = page.next_after;
    spans_read_ = !after_;
  }
  const std::size_t end = std::min(spans_.size(), span_index_ + sizes_.events_per_step);
  spans_written_ += end - span_index_;
  for (; span_index_ < end; ++span_index_) writer_.span(out, spans_[span_index_]);
}

void chrome_trace_stream::write_counters(std::string& out) {
  if (channel_ == sel_.channels.size()) {
    stage_ = stage::closing;
    return;
  }
  if (point_index_ == points_.size()) {
    if (!channel_open_) {
      const auto& c = sel_.channels[channel_];
      label_ = chrome_trace_writer::counter_label(c.name, c.unit);
      read_from_ns_ = sel_.counters_from_ns;
      channel_open_ = true;
    }
    if (!read_points()) {
      ++channel_;
      channel_open_ = false;
    }
    return;
  }
  const std::size_t end = std::min(points_.size(), point_index_ + sizes_.events_per_step);
  for (; point_index_ < end; ++point_index_) writer_.counter(out, label_, points_[point_index_].first, points_[point_index_].second);
}

bool chrome_trace_stream::read_points() {
  points_.clear();
  point_index_ = 0;
  if (!read_from_ns_) return false;
  const auto job = sel_.spans.job_id;
  const auto channel = sel_.channels[channel_].id;
  const std::int64_t from = *read_from_ns_, to = sel_.counters_to_ns;
  if (sel_.bucket_ns) {
    // At most max_buckets of them: read at once.
    for (const auto& b : samples_->buckets(job, channel, from, to, *sel_.bucket_ns, sel_.max_buckets))
      points_.emplace_back(b.t_ns, b.mean);
    read_from_ns_.reset();
    return true;
  }
  // Windows that do not overlap (query's bounds are inclusive), so a sample is read once; the
  // difference in unsigned arithmetic cannot overflow.
  const auto width = static_cast<std::uint64_t>(to) - static_cast<std::uint64_t>(from);
  const std::int64_t last = width < static_cast<std::uint64_t>(sizes_.sample_window_ns) ? to : from + (sizes_.sample_window_ns - 1);
  for (const auto& row : samples_->query(job, channel, from, last)) points_.emplace_back(row.t_ns, row.value);
  if (last == to) read_from_ns_.reset();
  else read_from_ns_ = last + 1;
  return true;
}

}  // namespace jetperf::api
