#include <jetperf/api/sample_page_stream.hpp>

#include <algorithm>
#include <utility>

#include <nlohmann/json.hpp>

#include <jetperf/api/csv_writer.hpp>

namespace jetperf::api {

namespace {

std::string number_text(double v) {
  // Shortest round-trip form, as JSON writes it (the CSV form too, as before the stream).
  return nlohmann::json(v).dump();
}

}  // namespace

sample_page_stream::sample_page_stream(const store::sample_store& store, std::vector<store::channel_record> channels,
                                       sample_page_request request, sample_page_sizes sizes)
    : store_(store), channels_(std::move(channels)), req_(std::move(request)), sizes_(sizes) {
  cursor_ = req_.after;
}

std::string sample_page_stream::cursor_text(const store::sample_key& k) {
  return std::to_string(k.t_ns) + ":" + std::to_string(k.channel_id);
}

const std::string& sample_page_stream::quoted_name(std::int64_t channel_id) {
  auto it = quoted_.find(channel_id);
  if (it != quoted_.end()) return it->second;
  std::string name = std::to_string(channel_id);
  for (const auto& c : channels_)
    if (c.id == channel_id) name = c.name;
  return quoted_.emplace(channel_id, req_.csv ? csv_quote(name) : nlohmann::json(name).dump()).first->second;
}

bool sample_page_stream::next(std::string& out) {
  while (stage_ != stage::done && out.size() < sizes_.piece_bytes) {
    switch (stage_) {
      case stage::opening:
        if (req_.csv) {
          out += "channel,t_ns,value\r\n";
        } else {
          out += "{\"job_id\":" + std::to_string(req_.job_id) + ",";
          // A downsampled job's samples are each second's mean at the second's start: say so.
          if (!req_.retention.empty()) out += "\"retention\":" + nlohmann::json(req_.retention).dump() + ",";
          out += "\"samples\":[";
        }
        stage_ = stage::samples;
        break;
      case stage::samples: write_samples(out); break;
      case stage::closing: {
        if (!req_.csv) {
          // The channels the samples named (or the one asked for), as the store lists them.
          nlohmann::json list = nlohmann::json::array();
          for (const auto& c : channels_)
            if (quoted_.count(c.id) || (req_.channel_id && *req_.channel_id == c.id))
              list.push_back({{"name", c.name}, {"unit", c.unit}, {"source", c.source}});
          out += "],\"channels\":" + list.dump() + ",\"next_after\":" +
                 (next_after_ ? "\"" + cursor_text(*next_after_) + "\"" : std::string("null")) + "}";
        }
        stage_ = stage::done;
        break;
      }
      case stage::done: break;
    }
  }
  return stage_ != stage::done;
}

bool sample_page_stream::read_part() {
  rows_.clear();
  row_index_ = 0;
  if (!more_in_store_ || written_ >= req_.limit) return false;
  auto part = store_.query_page(req_.job_id, req_.channel_id, req_.from_ns, req_.to_ns, cursor_,
                                std::min(sizes_.rows_per_read, req_.limit - written_));
  rows_ = std::move(part.rows);
  more_in_store_ = part.next_after.has_value();
  return !rows_.empty();
}

void sample_page_stream::write_samples(std::string& out) {
  const auto page_full = [&] {
    return written_ >= req_.limit || (req_.max_bytes && sample_bytes_ >= req_.max_bytes);
  };
  if (row_index_ == rows_.size() && (page_full() || !read_part())) {
    // The page ends here; more follow when the part still holds some or the store said so.
    if (cursor_ && written_ > 0 && (row_index_ < rows_.size() || more_in_store_)) next_after_ = cursor_;
    rows_ = {};
    stage_ = stage::closing;
    return;
  }
  while (row_index_ < rows_.size() && out.size() < sizes_.piece_bytes && !page_full()) {
    const auto& row = rows_[row_index_++];
    const std::size_t at = out.size();
    if (req_.csv) {
      out += quoted_name(row.channel_id) + "," + std::to_string(row.t_ns) + "," + number_text(row.value) + "\r\n";
    } else {
      if (written_ > 0) out += ',';
      out += "{\"channel\":" + quoted_name(row.channel_id) + ",\"t_ns\":" + std::to_string(row.t_ns) +
             ",\"value\":" + number_text(row.value) + "}";
    }
    sample_bytes_ += out.size() - at;
    ++written_;
    cursor_ = store::sample_key{row.t_ns, row.channel_id};
  }
  if (page_full() && row_index_ < rows_.size()) {
    // Ended mid-part: the rest of the part is the next page's.
    next_after_ = cursor_;
    rows_ = {};
    stage_ = stage::closing;
  }
}

}  // namespace jetperf::api
