#include <jetperf/store/sample_store.hpp>

#include <algorithm>
#include <cmath>
#include <climits>
#include <functional>
#include <map>
#include <unordered_map>

#include <jetperf/common/errors.hpp>
#include <jetperf/store/detail/sample_chunk.hpp>
#include <jetperf/store/detail/sample_seconds.hpp>

namespace jetperf::store {

namespace {
using lock_t = std::lock_guard<std::recursive_mutex>;

// A larger batch is cut into several chunks, so that a window edge never decodes more than this.
constexpr std::size_t k_max_chunk_samples = 4096;

// Checks that a chunk's blob holds exactly `count` samples; returns a pointer to them.
const unsigned char* chunk_data(const statement& st, int col, std::int64_t count, std::int64_t chunk_id) {
  const unsigned char* data = st.column_blob(col);
  const std::size_t bytes = st.column_bytes(col);
  if (count <= 0 || bytes != static_cast<std::size_t>(count) * detail::k_sample_bytes || !data)
    throw store_error("corrupt sample chunk " + std::to_string(chunk_id) + ": " + std::to_string(bytes) +
                      " bytes for " + std::to_string(count) + " samples");
  return data;
}

// A record's minimum, maximum and sample count: its own value once for a full-rate sample.
struct second_extent {
  double min = 0, max = 0;
  std::int64_t count = 1;
};

// The seconds' extents of a downsampled chunk into `out`; empty for a full-rate chunk.
void read_extents(statement& seconds_of, std::int64_t chunk_id, std::int64_t count, std::vector<second_extent>& out) {
  out.clear();
  seconds_of.bind(1, chunk_id);
  if (seconds_of.step()) {
    const unsigned char* data = seconds_of.column_blob(0);
    if (!data || seconds_of.column_bytes(0) != static_cast<std::size_t>(count) * detail::k_second_bytes)
      throw store_error("corrupt seconds of sample chunk " + std::to_string(chunk_id));
    detail::for_each_second(data, static_cast<std::size_t>(count),
                            [&](double min, double max, std::int64_t n) { out.push_back({min, max, n}); });
  }
  seconds_of.reset();
}

channel_record read_channel(const statement& st) {
  return channel_record{st.column_int(0), st.column_text(1), st.column_text(2), st.column_text(3)};
}
}  // namespace

std::int64_t sample_store::channel_id(const std::string& name, const std::string& unit, const std::string& source) {
  if (name.empty()) throw validation_error("name", "channel name is empty");
  lock_t lock(db_.mutex());
  statement find(db_.handle(), "SELECT id, unit, source FROM channels WHERE name = ?");
  find.bind(1, name);
  if (find.step()) {
    const std::int64_t id = find.column_int(0);
    // The newest provenance wins (a sim channel replaced by the real sysfs reader, say).
    if (find.column_text(1) != unit || find.column_text(2) != source) {
      statement upd(db_.handle(), "UPDATE channels SET unit = ?, source = ? WHERE id = ?");
      upd.bind(1, unit).bind(2, source).bind(3, id);
      upd.run();
    }
    return id;
  }
  statement ins(db_.handle(), "INSERT INTO channels (name, unit, source) VALUES (?, ?, ?)");
  ins.bind(1, name).bind(2, unit).bind(3, source);
  ins.run();
  return db_.last_insert_id();
}

std::vector<channel_record> sample_store::channels() const {
  lock_t lock(db_.mutex());
  statement st(db_.handle(), "SELECT id, name, unit, source FROM channels ORDER BY id");
  std::vector<channel_record> out;
  while (st.step()) out.push_back(read_channel(st));
  return out;
}

std::optional<channel_record> sample_store::find_channel(const std::string& name) const {
  lock_t lock(db_.mutex());
  statement st(db_.handle(), "SELECT id, name, unit, source FROM channels WHERE name = ?");
  st.bind(1, name);
  if (!st.step()) return std::nullopt;
  return read_channel(st);
}

void sample_store::insert(std::int64_t job_id, const std::vector<sample_row>& rows) {
  if (rows.empty()) return;
  for (const auto& r : rows)
    if (!std::isfinite(r.value))
      throw validation_error("value", "sample of channel " + std::to_string(r.channel_id) + " at t_ns " +
                                          std::to_string(r.t_ns) + " is not a finite number");
  // One chunk per channel: bucket by channel in first-seen order (a batch holds few channels), then
  // sort a bucket by time only if the sampler handed it over out of order.
  std::vector<std::vector<sample_row>> buckets;
  std::unordered_map<std::int64_t, std::size_t> bucket_of;
  for (const auto& r : rows) {
    auto [it, added] = bucket_of.try_emplace(r.channel_id, buckets.size());
    if (added) buckets.emplace_back().reserve(rows.size());
    buckets[it->second].push_back(r);
  }
  const auto by_time = [](const sample_row& a, const sample_row& b) { return a.t_ns < b.t_ns; };
  for (auto& b : buckets)
    if (!std::is_sorted(b.begin(), b.end(), by_time)) std::stable_sort(b.begin(), b.end(), by_time);

  db_.transaction([&] {
    statement st(db_.handle(),
                 "INSERT INTO sample_chunks (job_id, channel_id, t_first_ns, t_last_ns, count, sum, data) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?)");
    std::vector<unsigned char> blob;
    blob.reserve(std::min(rows.size(), k_max_chunk_samples) * detail::k_sample_bytes);
    for (const auto& bucket : buckets) {
      for (std::size_t begin = 0; begin < bucket.size();) {
        const std::size_t end = std::min(bucket.size(), begin + k_max_chunk_samples);
        double sum = 0;
        blob.clear();
        for (std::size_t i = begin; i < end; ++i) {
          detail::append_sample(blob, bucket[i].t_ns, bucket[i].value);
          sum += bucket[i].value;
        }
        st.bind(1, job_id).bind(2, bucket[begin].channel_id).bind(3, bucket[begin].t_ns).bind(4, bucket[end - 1].t_ns);
        st.bind(5, static_cast<std::int64_t>(end - begin)).bind(6, sum).bind_blob(7, blob.data(), blob.size());
        st.run();
        begin = end;
      }
    }
  });
}

std::vector<sample_row> sample_store::query(std::int64_t job_id, std::optional<std::int64_t> channel_id,
                                            std::optional<std::int64_t> from_ns,
                                            std::optional<std::int64_t> to_ns) const {
  std::vector<sample_row> out;
  if (from_ns && to_ns && *from_ns > *to_ns) return out;
  std::string where = " FROM sample_chunks WHERE job_id = ?";
  if (channel_id) where += " AND channel_id = ?";
  if (to_ns) where += " AND t_first_ns <= ?";
  if (from_ns) where += " AND t_last_ns >= ?";
  const auto bind_where = [&](statement& st) {
    int i = 1;
    st.bind(i++, job_id);
    if (channel_id) st.bind(i++, *channel_id);
    if (to_ns) st.bind(i++, *to_ns);
    if (from_ns) st.bind(i++, *from_ns);
  };

  lock_t lock(db_.mutex());
  // An upper bound of the result's size (from the index alone): growing a vector of a million rows
  // step by step costs more than decoding them.
  statement size(db_.handle(), "SELECT total(count)" + where);
  bind_where(size);
  if (size.step()) out.reserve(static_cast<std::size_t>(size.column_double(0)));
  statement st(db_.handle(), "SELECT id, channel_id, count, data" + where + " ORDER BY t_first_ns, channel_id, id");
  bind_where(st);
  const std::int64_t lo = from_ns.value_or(INT64_MIN);
  const std::int64_t hi = to_ns.value_or(INT64_MAX);
  while (st.step()) {
    const std::int64_t channel = st.column_int(1);
    const std::int64_t count = st.column_int(2);
    detail::for_each_sample(chunk_data(st, 3, count, st.column_int(0)), static_cast<std::size_t>(count),
                            [&](std::int64_t t, double v) {
                              if (t >= lo && t <= hi) out.push_back(sample_row{channel, t, v});
                            });
  }
  // Chunks of several channels, or batches that overlap in time, interleave.
  const auto by_time = [](const sample_row& a, const sample_row& b) { return a.t_ns < b.t_ns; };
  if (!std::is_sorted(out.begin(), out.end(), by_time)) std::stable_sort(out.begin(), out.end(), by_time);
  return out;
}

std::optional<double> sample_store::mean(std::int64_t job_id, std::int64_t channel_id, std::int64_t from_ns,
                                         std::int64_t to_ns) const {
  if (from_ns > to_ns) return std::nullopt;
  lock_t lock(db_.mutex());
  // Chunks wholly inside the window contribute their stored sum and count.
  statement inside(db_.handle(),
                   "SELECT total(sum), total(count) FROM sample_chunks WHERE job_id = ?1 AND channel_id = ?2 "
                   "AND t_first_ns >= ?3 AND t_first_ns <= ?4 AND t_last_ns <= ?4");
  inside.bind(1, job_id).bind(2, channel_id).bind(3, from_ns).bind(4, to_ns);
  long double sum = 0;
  std::int64_t count = 0;
  if (inside.step()) {
    sum = inside.column_double(0);
    count = static_cast<std::int64_t>(inside.column_double(1));
  }
  // Chunks cut by an edge are decoded.
  statement edges(db_.handle(),
                  "SELECT id, count, data FROM sample_chunks WHERE job_id = ?1 AND channel_id = ?2 "
                  "AND t_first_ns <= ?4 AND t_last_ns >= ?3 AND (t_first_ns < ?3 OR t_last_ns > ?4)");
  edges.bind(1, job_id).bind(2, channel_id).bind(3, from_ns).bind(4, to_ns);
  while (edges.step()) {
    const std::int64_t n = edges.column_int(1);
    detail::for_each_sample(chunk_data(edges, 2, n, edges.column_int(0)), static_cast<std::size_t>(n),
                            [&](std::int64_t t, double v) {
                              if (t >= from_ns && t <= to_ns) {
                                sum += v;
                                ++count;
                              }
                            });
  }
  if (count == 0) return std::nullopt;
  return static_cast<double>(sum / static_cast<long double>(count));
}

std::int64_t sample_store::prune_history(std::int64_t before_ns) {
  std::int64_t removed = 0;
  db_.transaction([&] {
    statement whole(db_.handle(),
                    "SELECT total(count) FROM sample_chunks WHERE job_id = 0 AND t_last_ns < ?");
    whole.bind(1, before_ns);
    if (whole.step()) removed = static_cast<std::int64_t>(whole.column_double(0));
    statement del(db_.handle(), "DELETE FROM sample_chunks WHERE job_id = 0 AND t_last_ns < ?");
    del.bind(1, before_ns);
    del.run();

    // A chunk that straddles the cut keeps its newer samples.
    statement straddling(db_.handle(),
                         "SELECT id, count, data FROM sample_chunks WHERE job_id = 0 AND t_first_ns < ?1 "
                         "AND t_last_ns >= ?1");
    straddling.bind(1, before_ns);
    struct rewrite {
      std::int64_t id, first, last, count;
      double sum;
      std::vector<unsigned char> blob;
    };
    std::vector<rewrite> rewrites;
    while (straddling.step()) {
      rewrite r{straddling.column_int(0), 0, 0, 0, 0, {}};
      const std::int64_t n = straddling.column_int(1);
      detail::for_each_sample(chunk_data(straddling, 2, n, r.id), static_cast<std::size_t>(n),
                              [&](std::int64_t t, double v) {
                                if (t < before_ns) return;
                                if (r.count == 0) r.first = t;
                                r.last = t;
                                ++r.count;
                                r.sum += v;
                                detail::append_sample(r.blob, t, v);
                              });
      removed += n - r.count;
      rewrites.push_back(std::move(r));
    }
    statement upd(db_.handle(),
                  "UPDATE sample_chunks SET t_first_ns = ?, t_last_ns = ?, count = ?, sum = ?, data = ? WHERE id = ?");
    for (const auto& r : rewrites) {
      upd.bind(1, r.first).bind(2, r.last).bind(3, r.count).bind(4, r.sum).bind_blob(5, r.blob.data(), r.blob.size());
      upd.bind(6, r.id);
      upd.run();
    }
  });
  return removed;
}

namespace {

bool key_less(const sample_row& a, const sample_row& b) {
  return a.t_ns != b.t_ns ? a.t_ns < b.t_ns : a.channel_id < b.channel_id;
}

// The chunks of a job that may hold samples of the window, as a WHERE clause and its binds.
struct chunk_filter {
  std::string where;
  std::function<void(statement&)> bind;
};

chunk_filter chunks_of(std::int64_t job_id, std::optional<std::int64_t> channel_id, std::optional<std::int64_t> from_ns,
                       std::optional<std::int64_t> to_ns) {
  chunk_filter f;
  f.where = " FROM sample_chunks WHERE job_id = ?";
  if (channel_id) f.where += " AND channel_id = ?";
  if (to_ns) f.where += " AND t_first_ns <= ?";
  if (from_ns) f.where += " AND t_last_ns >= ?";
  f.bind = [=](statement& st) {
    int i = 1;
    st.bind(i++, job_id);
    if (channel_id) st.bind(i++, *channel_id);
    if (to_ns) st.bind(i++, *to_ns);
    if (from_ns) st.bind(i++, *from_ns);
  };
  return f;
}

}  // namespace

sample_page sample_store::query_page(std::int64_t job_id, std::optional<std::int64_t> channel_id,
                                     std::optional<std::int64_t> from_ns, std::optional<std::int64_t> to_ns,
                                     std::optional<sample_key> after, std::size_t limit) const {
  sample_page page;
  if (limit == 0 || (from_ns && to_ns && *from_ns > *to_ns)) return page;
  // Nothing before the cursor's time can follow it.
  if (after) from_ns = std::max(from_ns.value_or(after->t_ns), after->t_ns);
  const auto f = chunks_of(job_id, channel_id, from_ns, to_ns);
  lock_t lock(db_.mutex());
  statement st(db_.handle(), "SELECT id, channel_id, count, data, t_first_ns" + f.where + " ORDER BY t_first_ns, channel_id, id");
  f.bind(st);
  const std::int64_t lo = from_ns.value_or(INT64_MIN), hi = to_ns.value_or(INT64_MAX);
  auto& out = page.rows;
  bool more = false;
  // Once `limit` rows are held, a chunk that starts after the last of them holds only later ones.
  std::optional<std::int64_t> cut_t;
  const auto trim = [&] {
    std::sort(out.begin(), out.end(), key_less);
    if (out.size() > limit) {
      out.resize(limit);
      more = true;
    }
    if (out.size() == limit) cut_t = out.back().t_ns;
  };
  while (st.step()) {
    if (cut_t && st.column_int(4) > *cut_t) {
      more = true;
      break;
    }
    const std::int64_t channel = st.column_int(1);
    const std::int64_t count = st.column_int(2);
    detail::for_each_sample(chunk_data(st, 3, count, st.column_int(0)), static_cast<std::size_t>(count),
                            [&](std::int64_t t, double v) {
                              if (t < lo || t > hi) return;
                              if (after && (t < after->t_ns || (t == after->t_ns && channel <= after->channel_id))) return;
                              out.push_back(sample_row{channel, t, v});
                            });
    if (out.size() >= 2 * limit) trim();
  }
  trim();
  if (more && !out.empty()) page.next_after = sample_key{out.back().t_ns, out.back().channel_id};
  return page;
}

void sample_store::check_bucket_count(std::int64_t job_id, std::optional<std::int64_t> channel_id,
                                      std::optional<std::int64_t> from_ns, std::optional<std::int64_t> to_ns,
                                      std::int64_t bucket_ns, std::size_t max_buckets) const {
  if (bucket_ns <= 0) throw validation_error("bucket_ms", "bucket_ms must be positive");
  if (from_ns && to_ns && *from_ns > *to_ns) return;
  const auto f = chunks_of(job_id, channel_id, from_ns, to_ns);
  lock_t lock(db_.mutex());
  statement extent(db_.handle(), "SELECT min(t_first_ns), max(t_last_ns), count(DISTINCT channel_id)" + f.where);
  f.bind(extent);
  if (!extent.step() || extent.column_is_null(0)) return;
  const std::int64_t first = std::max(from_ns.value_or(INT64_MIN), extent.column_int(0));
  const std::int64_t last = std::min(to_ns.value_or(INT64_MAX), extent.column_int(1));
  const double n = (static_cast<double>(last / bucket_ns - first / bucket_ns) + 1) * static_cast<double>(extent.column_int(2));
  if (n > static_cast<double>(max_buckets))
    throw validation_error("bucket_ms", "the window would have " + std::to_string(static_cast<std::int64_t>(n)) +
                                            " buckets, over the limit of " + std::to_string(max_buckets) +
                                            "; give longer buckets or a shorter window (from, to)",
                           "out_of_range");
}

std::vector<sample_bucket> sample_store::buckets(std::int64_t job_id, std::optional<std::int64_t> channel_id,
                                                 std::optional<std::int64_t> from_ns, std::optional<std::int64_t> to_ns,
                                                 std::int64_t bucket_ns, std::size_t max_buckets) const {
  std::vector<sample_bucket> out;
  lock_t lock(db_.mutex());
  // Refused from the index alone, before a sample is read.
  check_bucket_count(job_id, channel_id, from_ns, to_ns, bucket_ns, max_buckets);
  if (from_ns && to_ns && *from_ns > *to_ns) return out;
  const auto f = chunks_of(job_id, channel_id, from_ns, to_ns);
  std::map<std::pair<std::int64_t, std::int64_t>, sample_bucket> by_key;  // (bucket start, channel)
  statement st(db_.handle(), "SELECT id, channel_id, count, data" + f.where);
  f.bind(st);
  // A downsampled chunk's records are seconds' means: their minimums, maximums and counts are here.
  statement seconds_of(db_.handle(), "SELECT data FROM sample_chunk_seconds WHERE chunk_id = ?");
  std::vector<second_extent> extents;
  const std::int64_t lo = from_ns.value_or(INT64_MIN), hi = to_ns.value_or(INT64_MAX);
  while (st.step()) {
    const std::int64_t channel = st.column_int(1);
    const std::int64_t count = st.column_int(2);
    read_extents(seconds_of, st.column_int(0), count, extents);
    std::size_t i = 0;
    detail::for_each_sample(chunk_data(st, 3, count, st.column_int(0)), static_cast<std::size_t>(count),
                            [&](std::int64_t t, double v) {
                              const second_extent e = extents.empty() ? second_extent{v, v, 1} : extents[i];
                              ++i;
                              if (t < lo || t > hi) return;
                              // Floor division: buckets stay aligned for negative times too.
                              std::int64_t start = (t / bucket_ns) * bucket_ns;
                              if (start > t) start -= bucket_ns;
                              auto [it, fresh] = by_key.try_emplace({start, channel});
                              auto& b = it->second;
                              if (fresh) b = sample_bucket{channel, start, e.min, e.max, 0, 0};
                              b.min = std::min(b.min, e.min);
                              b.max = std::max(b.max, e.max);
                              b.mean += v * static_cast<double>(e.count);  // the sum until the end
                              b.count += e.count;
                            });
  }
  out.reserve(by_key.size());
  for (auto& [key, b] : by_key) {
    b.mean /= static_cast<double>(b.count);
    out.push_back(b);
  }
  return out;
}

}  // namespace jetperf::store
