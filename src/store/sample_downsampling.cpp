// sample_store's retention half: a job's samples downsampled to one record per channel and second,
// or dropped (issue "Everyday costs": a board keeps months of jobs on a 16 GB eMMC).
#include <jetperf/store/sample_store.hpp>

#include <algorithm>
#include <map>
#include <mutex>

#include <jetperf/common/errors.hpp>
#include <jetperf/store/detail/sample_chunk.hpp>
#include <jetperf/store/detail/sample_seconds.hpp>

namespace jetperf::store {

namespace {
using lock_t = std::lock_guard<std::recursive_mutex>;

// Records per downsampled chunk: as many as a full-rate chunk holds samples.
constexpr std::size_t k_seconds_per_chunk = 4096;

struct second_summary {
  double min = 0, max = 0, sum = 0;
  std::int64_t count = 0;
};

std::vector<std::int64_t> channels_of(database& db, std::int64_t job_id) {
  lock_t lock(db.mutex());
  statement st(db.handle(), "SELECT DISTINCT channel_id FROM sample_chunks WHERE job_id = ?");
  st.bind(1, job_id);
  std::vector<std::int64_t> out;
  while (st.step()) out.push_back(st.column_int(0));
  return out;
}

// Reads the full-rate chunks of one channel of a job into per-second summaries; returns their ids.
std::vector<std::int64_t> summarise_full_rate(database& db, std::int64_t job_id, std::int64_t channel,
                                              std::int64_t second_ns, std::map<std::int64_t, second_summary>& out,
                                              std::int64_t& samples) {
  statement st(db.handle(),
               "SELECT c.id, c.count, c.data FROM sample_chunks c WHERE c.job_id = ? AND c.channel_id = ? AND NOT EXISTS "
               "(SELECT 1 FROM sample_chunk_seconds s WHERE s.chunk_id = c.id)");
  st.bind(1, job_id).bind(2, channel);
  std::vector<std::int64_t> ids;
  while (st.step()) {
    const std::int64_t id = st.column_int(0), count = st.column_int(1);
    const unsigned char* data = st.column_blob(2);
    if (count <= 0 || !data || st.column_bytes(2) != static_cast<std::size_t>(count) * detail::k_sample_bytes)
      throw store_error("corrupt sample chunk " + std::to_string(id) + " of job " + std::to_string(job_id));
    ids.push_back(id);
    samples += count;
    detail::for_each_sample(data, static_cast<std::size_t>(count), [&](std::int64_t t, double v) {
      // Floor division: seconds stay aligned for negative times too.
      std::int64_t start = (t / second_ns) * second_ns;
      if (start > t) start -= second_ns;
      auto [it, fresh] = out.try_emplace(start);
      auto& s = it->second;
      if (fresh) s.min = s.max = v;
      s.min = std::min(s.min, v);
      s.max = std::max(s.max, v);
      s.sum += v;
      ++s.count;
    });
  }
  return ids;
}

}  // namespace

sample_store::downsampled sample_store::downsample_job(std::int64_t job_id, std::int64_t second_ns) {
  if (second_ns <= 0) throw validation_error("second_ns", "the downsampling period must be positive");
  downsampled total;
  for (const auto channel : channels_of(db_, job_id)) {
    db_.transaction([&] {
      std::map<std::int64_t, second_summary> seconds;
      const auto ids = summarise_full_rate(db_, job_id, channel, second_ns, seconds, total.samples);
      if (ids.empty()) return;
      statement del(db_.handle(), "DELETE FROM sample_chunks WHERE id = ?");
      for (const auto id : ids) {
        del.bind(1, id);
        del.run();
      }
      statement chunk(db_.handle(),
                      "INSERT INTO sample_chunks (job_id, channel_id, t_first_ns, t_last_ns, count, sum, data) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?)");
      statement extent(db_.handle(), "INSERT INTO sample_chunk_seconds (chunk_id, data) VALUES (?, ?)");
      std::vector<unsigned char> means, extents;
      auto it = seconds.begin();
      while (it != seconds.end()) {
        means.clear();
        extents.clear();
        const std::int64_t first = it->first;
        std::int64_t last = first, n = 0;
        double sum = 0;
        for (; it != seconds.end() && static_cast<std::size_t>(n) < k_seconds_per_chunk; ++it, ++n) {
          const double mean = it->second.sum / static_cast<double>(it->second.count);
          detail::append_sample(means, it->first, mean);
          detail::append_second(extents, it->second.min, it->second.max, it->second.count);
          sum += mean;
          last = it->first;
        }
        chunk.bind(1, job_id).bind(2, channel).bind(3, first).bind(4, last).bind(5, n).bind(6, sum);
        chunk.bind_blob(7, means.data(), means.size());
        chunk.run();
        extent.bind(1, db_.last_insert_id()).bind_blob(2, extents.data(), extents.size());
        extent.run();
        total.seconds += n;
      }
    });
  }
  return total;
}

std::int64_t sample_store::drop_job(std::int64_t job_id, std::size_t chunks_per_transaction) {
  std::int64_t removed = 0;
  for (bool more = true; more;) {
    db_.transaction([&] {
      statement pick(db_.handle(), "SELECT id, count FROM sample_chunks WHERE job_id = ? LIMIT ?");
      pick.bind(1, job_id).bind(2, static_cast<std::int64_t>(chunks_per_transaction));
      std::vector<std::int64_t> ids;
      while (pick.step()) {
        ids.push_back(pick.column_int(0));
        removed += pick.column_int(1);
      }
      more = ids.size() == chunks_per_transaction;
      statement del(db_.handle(), "DELETE FROM sample_chunks WHERE id = ?");
      for (const auto id : ids) {
        del.bind(1, id);
        del.run();
      }
    });
  }
  return removed;
}

}  // namespace jetperf::store
