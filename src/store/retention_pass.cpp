#include <jetperf/store/retention_pass.hpp>

#include <mutex>

namespace jetperf::store {

namespace {
std::int64_t days_ns(double days) { return static_cast<std::int64_t>(days * 86400.0 * 1e9); }

std::int64_t pragma_int(database& db, const char* sql) {
  std::lock_guard<std::recursive_mutex> lock(db.mutex());
  statement st(db.handle(), sql);
  return st.step() ? st.column_int(0) : 0;
}
}  // namespace

retention_outcome retention_pass::run(std::int64_t now_wall_ns, const std::function<bool()>& stop) {
  retention_outcome out;
  std::size_t left = k_jobs_per_pass;
  const auto go_on = [&] {
    if (left == 0 || (stop && stop())) {
      out.cut_short = true;
      return false;
    }
    --left;
    return true;
  };
  // Dropped first: what is past retention_days is not worth downsampling.
  for (const auto id : retention_.due({"full", "downsampled"}, now_wall_ns - days_ns(policy_.days), left)) {
    if (!go_on()) break;
    out.samples_dropped += samples_.drop_job(id);
    retention_.set_samples(id, "dropped", now_wall_ns);
    ++out.dropped_jobs;
  }
  if (!out.cut_short)
    for (const auto id : retention_.due({"full"}, now_wall_ns - days_ns(policy_.full_days), left)) {
      if (!go_on()) break;
      const auto d = samples_.downsample_job(id);
      retention_.set_samples(id, "downsampled", now_wall_ns);
      out.samples_downsampled += d.samples;
      out.seconds_kept += d.seconds;
      ++out.downsampled_jobs;
    }
  if (left == 0) out.cut_short = true;
  if (out.dropped_jobs + out.downsampled_jobs > 0) out.pages_freed = vacuum();
  return out;
}

std::int64_t retention_pass::vacuum() {
  // Only a database made with incremental auto_vacuum can give pages back without a VACUUM; an
  // older one reuses its free pages for new samples instead (the file stops growing).
  if (pragma_int(db_, "PRAGMA auto_vacuum") != 2) return 0;
  const auto before = pragma_int(db_, "PRAGMA freelist_count");
  db_.exec("PRAGMA incremental_vacuum(" + std::to_string(k_vacuum_pages) + ")");
  return before - pragma_int(db_, "PRAGMA freelist_count");
}

}  // namespace jetperf::store
