#include <jetperf/telemetry/sampler.hpp>

#include <pthread.h>
#include <sys/prctl.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <limits>

#include <spdlog/spdlog.h>

#include <jetperf/common/clock.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/common/thread_name.hpp>

namespace jetperf::telemetry {
namespace {

constexpr std::size_t jitter_window = 8192;

double thread_cpu_seconds(std::thread& t) {
  clockid_t id;
  if (!t.joinable() || pthread_getcpuclockid(t.native_handle(), &id) != 0) return -1;
  timespec ts{};
  if (clock_gettime(id, &ts) != 0) return -1;
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

timespec to_timespec(std::int64_t ns) {
  timespec ts{};
  ts.tv_sec = static_cast<time_t>(ns / 1'000'000'000);
  ts.tv_nsec = static_cast<long>(ns % 1'000'000'000);
  return ts;
}

}  // namespace

sampler::sampler(std::vector<std::unique_ptr<sensor>> sensors, sampler_config config)
    : sensors_(std::move(sensors)), config_(config) {
  if (config_.period_ns < 100'000) throw validation_error("period", "sampler period must be at least 100 us");
  if (config_.idle_period_ns != 0 && config_.idle_period_ns < config_.period_ns)
    throw validation_error("idle_period", "the idle period must not be shorter than the sampling period");
  if (config_.history_period_ns < 0) throw validation_error("history_period", "history period must not be negative");
  if (config_.ring_capacity == 0) throw validation_error("ring_capacity", "ring capacity must be positive");
  if (config_.fast_period_ns != 0 && (config_.fast_period_ns < 100'000 || config_.fast_period_ns > config_.period_ns))
    throw validation_error("fast_period", "the fast period must lie between 100 us and the sampling period");
  for (const auto& s : sensors_) {
    offsets_.push_back(channels_.size());
    auto local = s->channels();
    gives_power_.push_back(std::any_of(local.begin(), local.end(), [](const channel_info& c) { return c.kind == channel_kind::power; }));
    if (!total_channel_) {
      if (auto t = s->total_power_channel()) total_channel_ = static_cast<int>(channels_.size()) + *t;
    }
    channels_.insert(channels_.end(), local.begin(), local.end());
  }
  last_read_ns_.assign(sensors_.size(), INT64_MIN / 2);
  read_failed_.assign(sensors_.size(), 0);
  values_.assign(channels_.size(), std::nan(""));
  latest_.assign(channels_.size(), std::nan(""));
  // Reserved, not filled: memory becomes resident as samples arrive, not at start.
  ring_.reserve(config_.ring_capacity);
  jitter_ns_.reserve(jitter_window);
  tick_samples_.reserve(channels_.size());
  energy_ = std::make_unique<energy_meter>(channels_, total_channel_);
}

sampler::~sampler() { stop(); }

void sampler::start() {
  if (running_.exchange(true)) return;
  stopping_ = false;
  // The time the sampler was stopped is not integrated: the counters go on from where they were.
  energy_->break_continuity();
  {
    std::lock_guard<std::mutex> lock(health_mutex_);
    started_ns_ = monotonic_ns();
    stopped_ns_ = 0;
    full_rate_ = true;
    stretch_since_ns_ = started_ns_;
    stretch_period_ns_ = job_period_ns();
    stretch_ticks_ = 0;
  }
  thread_ = std::thread([this] {
    name_this_thread("jp-sampler");
    run();
  });
  writer_ = std::thread([this] {
    name_this_thread("jp-sample-store");
    write_loop();
  });
}

void sampler::stop() {
  if (!running_.load()) return;
  {
    std::lock_guard<std::mutex> lock(wake_mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  double cpu = thread_cpu_seconds(thread_);
  if (thread_.joinable()) thread_.join();
  if (writer_.joinable()) writer_.join();
  {
    std::lock_guard<std::mutex> lock(health_mutex_);
    stopped_ns_ = monotonic_ns();
    if (cpu >= 0) final_cpu_s_ += cpu;
  }
  running_ = false;
  flush();
}

void sampler::set_sink(sample_sink sink) {
  std::lock_guard<std::mutex> lock(sink_mutex_);
  sink_ = std::move(sink);
}

void sampler::set_archive(const sample_archive* archive) {
  std::lock_guard<std::mutex> lock(ring_mutex_);
  archive_ = archive;
}

void sampler::set_job(std::int64_t job_id) {
  if (job_id <= 0) throw validation_error("job_id", "job id must be positive");
  {
    // Under the lock the idle wait checks its predicate with, so the wake-up cannot fall between.
    std::lock_guard<std::mutex> lock(wake_mutex_);
    job_id_ = job_id;
  }
  wake_.notify_all();
}

void sampler::clear_job() {
  job_id_ = 0;
  // A tick that read the job before the store above enqueues its samples before it lets go.
  { std::lock_guard<std::mutex> wait_for_tick(tick_mutex_); }
  flush();
}

std::optional<std::int64_t> sampler::job() const {
  std::int64_t j = job_id_.load();
  if (j == 0) return std::nullopt;
  return j;
}

void sampler::note_read(double seconds) {
  std::lock_guard<std::mutex> lock(read_mutex_);
  if (read_durations_.size() < k_read_durations) read_durations_.push_back(seconds);
  else read_durations_[read_next_] = seconds;
  read_next_ = (read_next_ + 1) % k_read_durations;
}

std::vector<double> sampler::power_read_durations_s() const {
  std::lock_guard<std::mutex> lock(read_mutex_);
  if (read_durations_.size() < k_read_durations) return read_durations_;
  std::vector<double> out(read_durations_.begin() + static_cast<std::ptrdiff_t>(read_next_), read_durations_.end());
  out.insert(out.end(), read_durations_.begin(), read_durations_.begin() + static_cast<std::ptrdiff_t>(read_next_));
  return out;
}

void sampler::tick(std::int64_t t_ns) {
  std::lock_guard<std::mutex> ticking(tick_mutex_);
  tick_samples_.clear();
  // At a point's faster period only the power sensors are read every tick; the others keep the
  // configured period (less half a fast tick, so a late tick does not skip one of theirs).
  const std::int64_t point_period = point_period_ns_.load(std::memory_order_relaxed);
  const std::int64_t others_ns = point_period > 0 ? config_.period_ns - point_period / 2 : 0;
  for (std::size_t s = 0; s < sensors_.size(); ++s) {
    const std::int64_t min_interval = std::max(sensors_[s]->min_interval_ns(), gives_power_[s] ? 0 : others_ns);
    if (t_ns - last_read_ns_[s] < min_interval) continue;
    last_read_ns_[s] = t_ns;
    double* v = values_.data() + offsets_[s];
    std::size_t n = (s + 1 < sensors_.size() ? offsets_[s + 1] : channels_.size()) - offsets_[s];
    std::fill(v, v + n, std::numeric_limits<double>::quiet_NaN());
    try {
      const auto read_from = gives_power_[s] ? monotonic_ns() : 0;
      sensors_[s]->read(t_ns, v);
      // One file's read where the group times one; else the group's read over its channels.
      if (gives_power_[s] && n > 0)
        note_read(sensors_[s]->last_file_read_s().value_or(static_cast<double>(monotonic_ns() - read_from) * 1e-9 /
                                                           static_cast<double>(n)));
    } catch (const std::exception& e) {
      // A sensor failing one tick must not end sampling; its channels simply have no sample.
      // The first failure of each sensor is a warning (it names the file); repeats at 1 kHz are not.
      if (!read_failed_[s]) spdlog::warn("telemetry: sensor read failed: {}", e.what());
      else spdlog::debug("telemetry: sensor read failed: {}", e.what());
      read_failed_[s] = 1;
      continue;
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (!std::isnan(v[i])) tick_samples_.push_back({static_cast<int>(offsets_[s] + i), t_ns, v[i]});
    }
  }
  const std::int64_t job = job_id_.load();
  // Every tick, also one without samples: a job's end is seen at the first tick after it.
  energy_->add(job, tick_samples_);
  bool history = false;
  {
    std::lock_guard<std::mutex> lock(health_mutex_);
    ++ticks_;
    ++stretch_ticks_;
    samples_ += tick_samples_.size();
    // History by time, whatever the tick period: the tick nearest each due time (within half a
    // tick), the next due one period after the last, so a 1 s history at a 1 s idle period stays
    // 1 s apart on average however late each wake-up is.
    if (job == 0 && config_.history_period_ns > 0) {
      const std::int64_t tick_period = full_rate_ ? config_.period_ns : idle_period_ns();
      const std::int64_t hp = config_.history_period_ns;
      const bool restart = !history_taken_ || t_ns < history_due_ns_ - hp || t_ns >= history_due_ns_ + hp;
      history = restart || t_ns >= history_due_ns_ - tick_period / 2;
      if (history) {
        history_taken_ = true;
        history_due_ns_ = (restart ? t_ns : history_due_ns_) + hp;
      }
    }
  }
  if (tick_samples_.empty()) return;
  {
    std::lock_guard<std::mutex> lock(ring_mutex_);
    if (job != ring_job_) {
      ring_job_ = job;
      ring_job_since_ns_ = t_ns;
    }
    const std::size_t cap = config_.ring_capacity;
    for (const auto& smp : tick_samples_) {
      if (ring_size_ == cap) {
        dropped_ = true;
        dropped_until_ns_ = ring_[ring_head_].t_ns;
      }
      if (ring_.size() < cap)
        ring_.push_back(smp);  // filling up: ring_head_ == ring_.size()
      else
        ring_[ring_head_] = smp;
      ring_head_ = (ring_head_ + 1) % cap;
      if (ring_size_ < cap) ++ring_size_;
      latest_[static_cast<std::size_t>(smp.channel)] = smp.value;
    }
  }
  if (job == 0 && !history) return;
  std::lock_guard<std::mutex> lock(pending_mutex_);
  if (pending_.empty() || pending_.back().job_id != job) pending_.push_back({job, {}});
  auto& batch = pending_.back().samples;
  batch.insert(batch.end(), tick_samples_.begin(), tick_samples_.end());
}

void sampler::flush() {
  // Taken before the swap, so that when a flush returns, every batch pending when it began has
  // been through the sink, whichever thread swapped it out (window() relies on that).
  std::lock_guard<std::mutex> lock(sink_mutex_);
  std::vector<pending_batch> batches;
  {
    std::lock_guard<std::mutex> pending_lock(pending_mutex_);
    batches.swap(pending_);
  }
  if (batches.empty()) return;
  for (const auto& b : batches) {
    if (!sink_ || b.samples.empty()) continue;
    try {
      sink_(b.job_id, b.samples);
    } catch (const std::exception& e) {
      // The store being unavailable loses this batch, not the sampler.
      spdlog::error("telemetry: sample sink failed ({} samples lost): {}", b.samples.size(), e.what());
    }
    std::lock_guard<std::mutex> hl(health_mutex_);
    ++batches_;
  }
}

void sampler::record_jitter(std::int64_t late_ns) {
  std::lock_guard<std::mutex> lock(health_mutex_);
  if (jitter_ns_.size() < jitter_window) {
    jitter_ns_.push_back(late_ns);
  } else {
    jitter_ns_[jitter_next_] = late_ns;
    jitter_next_ = (jitter_next_ + 1) % jitter_window;
  }
}

std::int64_t sampler::idle_period_ns() const {
  return config_.idle_period_ns > 0 ? config_.idle_period_ns : config_.period_ns;
}

std::int64_t sampler::fast_period_ns() const {
  return config_.fast_period_ns > 0 ? config_.fast_period_ns : config_.period_ns;
}

std::int64_t sampler::job_period_ns() const {
  const std::int64_t p = point_period_ns_.load(std::memory_order_relaxed);
  return p > 0 ? p : config_.period_ns;
}

double sampler::set_job_tick_period_s(double period_s) {
  std::int64_t p = 0;
  if (period_s > 0) {
    p = std::clamp(static_cast<std::int64_t>(std::llround(period_s * 1e9)), fast_period_ns(), config_.period_ns);
    if (p == config_.period_ns) p = 0;
  }
  // Taken by the sampling thread at its next tick (at most one configured period from now).
  point_period_ns_ = p;
  return static_cast<double>(job_period_ns()) / 1e9;
}

bool sampler::idle_wait(std::int64_t deadline_ns) {
  // A condition variable, not clock_nanosleep: set_job() and stop() must cut an idle second short.
  // libstdc++'s steady_clock is CLOCK_MONOTONIC, the clock of monotonic_ns().
  const std::chrono::steady_clock::time_point until{std::chrono::nanoseconds(deadline_ns)};
  std::unique_lock<std::mutex> lock(wake_mutex_);
  return wake_.wait_until(lock, until, [this] { return stopping_.load() || job_id_.load() != 0; });
}

void sampler::enter_rate(bool full, std::int64_t period_ns, std::int64_t now_ns) {
  std::lock_guard<std::mutex> lock(health_mutex_);
  if (full == full_rate_ && (!full || period_ns == stretch_period_ns_)) return;
  // What the health says while idle: the rate at the configured period (a point's faster one
  // is said while it lasts, beside its period).
  if (full_rate_ && now_ns > stretch_since_ns_ && stretch_period_ns_ == config_.period_ns)
    last_full_rate_hz_ = static_cast<double>(stretch_ticks_) / (static_cast<double>(now_ns - stretch_since_ns_) / 1e9);
  full_rate_ = full;
  stretch_period_ns_ = period_ns;
  stretch_since_ns_ = now_ns;
  stretch_ticks_ = 0;
}

void sampler::run() {
  // A 1 ms period needs wake-ups close to the deadline; the default 50 us slack would be 5% of it.
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  // The full period is the configured one, or a point's while it asks (set_job_tick_period_s).
  std::int64_t period = job_period_ns();
  const std::int64_t idle_period = idle_period_ns();
  const auto full_now = [&] { return idle_period == config_.period_ns || job_id_.load() != 0; };
  bool full = full_now();
  bool rate_full = full;  // the rate health counts the current stretch at
  std::int64_t rate_period = period;
  enter_rate(full, period, monotonic_ns());
  std::int64_t next = monotonic_ns() + (full ? period : idle_period);
  while (!stopping_.load(std::memory_order_relaxed)) {
    bool cut_short = false;
    if (full) {
      timespec ts = to_timespec(next);
      while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
      }
    } else {
      cut_short = idle_wait(next);
      if (stopping_.load()) break;
    }
    std::int64_t now = monotonic_ns();
    if (cut_short) {
      // A job attached during an idle wait: its first tick now, then the full period.
      next = now;
    } else if (full) {
      std::int64_t late = now - next;
      record_jitter(late);
      if (late >= period) {
        // Ran past whole periods (preempted, slow read): skip them rather than burst to catch up.
        std::int64_t skipped = late / period;
        next += skipped * period;
        std::lock_guard<std::mutex> lock(health_mutex_);
        missed_ += static_cast<std::uint64_t>(skipped);
      }
    } else if (now - next >= idle_period) {
      next += (now - next) / idle_period * idle_period;
    }
    // The health lock only when the rate changes: at 1 kHz every lock on this path is paid.
    const bool full_for_tick = full_now();
    if (full_for_tick != rate_full || (full_for_tick && period != rate_period))
      enter_rate(rate_full = full_for_tick, rate_period = period, now);
    tick(now);
    full = full_now();
    period = job_period_ns();
    next += full ? period : idle_period;
  }
}

void sampler::write_loop() {
  std::unique_lock<std::mutex> lock(wake_mutex_);
  while (!stopping_) {
    wake_.wait_for(lock, std::chrono::nanoseconds(config_.flush_interval_ns), [this] { return stopping_.load(); });
    lock.unlock();
    flush();
    lock.lock();
  }
}

std::vector<std::optional<double>> sampler::latest() const {
  std::lock_guard<std::mutex> lock(ring_mutex_);
  std::vector<std::optional<double>> out(latest_.size());
  for (std::size_t i = 0; i < latest_.size(); ++i) {
    if (!std::isnan(latest_[i])) out[i] = latest_[i];
  }
  return out;
}

sampler_health sampler::health() const {
  sampler_health h;
  h.running = running_.load();
  h.period_s = static_cast<double>(job_period_ns()) / 1e9;
  h.idle_period_s = static_cast<double>(idle_period_ns()) / 1e9;
  double cpu = h.running ? thread_cpu_seconds(const_cast<std::thread&>(thread_)) : 0;
  std::vector<std::int64_t> jitter;
  {
    std::lock_guard<std::mutex> lock(health_mutex_);
    h.ticks = ticks_;
    h.missed_ticks = missed_;
    h.samples = samples_;
    h.batches_flushed = batches_;
    h.cpu_time_s = final_cpu_s_ + (cpu > 0 ? cpu : 0);
    std::int64_t end = stopped_ns_ ? stopped_ns_ : monotonic_ns();
    double elapsed = started_ns_ ? static_cast<double>(end - started_ns_) / 1e9 : 0;
    if (elapsed > 0) h.cpu_share = h.cpu_time_s / elapsed;
    h.full_rate = full_rate_;
    // The rate at the full period: the stretch going on, or the last one while idle.
    const double stretch_s = static_cast<double>(end - stretch_since_ns_) / 1e9;
    if (!full_rate_)
      h.achieved_rate_hz = last_full_rate_hz_;
    else if (started_ns_ && stretch_s > 0)
      h.achieved_rate_hz = static_cast<double>(stretch_ticks_) / stretch_s;
    jitter = jitter_ns_;
  }
  if (!jitter.empty()) {
    double sum = 0;
    for (auto j : jitter) sum += static_cast<double>(j);
    h.jitter_mean_s = sum / static_cast<double>(jitter.size()) / 1e9;
    auto pick = [&](double q) {
      std::size_t k = std::min(jitter.size() - 1, static_cast<std::size_t>(q * static_cast<double>(jitter.size())));
      std::nth_element(jitter.begin(), jitter.begin() + static_cast<std::ptrdiff_t>(k), jitter.end());
      return static_cast<double>(jitter[k]) / 1e9;
    };
    h.jitter_p50_s = pick(0.50);
    h.jitter_p99_s = pick(0.99);
  }
  return h;
}

std::vector<sample> sampler::window(std::int64_t from_ns, std::int64_t to_ns) const {
  std::vector<sample> out;
  const sample_archive* archive = nullptr;
  std::int64_t job = 0, archive_from = 0, archive_to = -1;
  {
    std::lock_guard<std::mutex> lock(ring_mutex_);
    if (to_ns < from_ns) return out;
    window_locked(from_ns, to_ns, out);
    // The part of the attached job that left the ring is in the archive.
    if (archive_ && dropped_ && ring_job_ != 0 && from_ns <= dropped_until_ns_) {
      archive = archive_;
      job = ring_job_;
      archive_from = std::max(from_ns, ring_job_since_ns_);
      archive_to = std::min(to_ns, dropped_until_ns_);
    }
  }
  if (!archive || archive_from > archive_to) return out;
  // Samples that just left the ring may still wait for the writer's next flush: hand them to the
  // sink (and so to the archive) now. Logically const: nothing a caller sees changes but timing.
  const_cast<sampler*>(this)->flush();
  auto older = archive->read(job, archive_from, archive_to);
  // A tick whose samples the ring dropped only in part is read whole from the archive.
  for (const auto& smp : out)
    if (smp.t_ns > archive_to) older.push_back(smp);
  return older;
}

std::int64_t sampler::complete_since_ns() const {
  const sample_archive* archive = nullptr;
  std::int64_t held = 0, job = 0, job_since = 0;
  {
    std::lock_guard<std::mutex> lock(ring_mutex_);
    if (!dropped_) return std::numeric_limits<std::int64_t>::min();
    held = dropped_until_ns_ + 1;
    archive = archive_;
    job = ring_job_;
    job_since = ring_job_since_ns_;
  }
  // Asked outside the ring's lock: the archive may wait on a store write, the sampling must not.
  if (!archive || job == 0) return held;
  const std::int64_t lost = archive->lost_until_ns(job);
  const std::int64_t stored =
      lost == std::numeric_limits<std::int64_t>::min() ? job_since : std::max(job_since, lost + 1);
  return std::min(held, stored);
}

void sampler::window_locked(std::int64_t from_ns, std::int64_t to_ns, std::vector<sample>& out) const {
  if (ring_size_ == 0) return;
  const std::size_t cap = config_.ring_capacity;
  const std::size_t first = (ring_head_ + cap - ring_size_) % cap;
  auto at = [&](std::size_t k) -> const sample& { return ring_[(first + k) % cap]; };
  // Samples are appended in time order, so the ring is sorted: binary search the start.
  std::size_t lo = 0, hi = ring_size_;
  while (lo < hi) {
    std::size_t mid = (lo + hi) / 2;
    if (at(mid).t_ns < from_ns) lo = mid + 1;
    else hi = mid;
  }
  for (std::size_t k = lo; k < ring_size_ && at(k).t_ns <= to_ns; ++k) out.push_back(at(k));
}

double sampler::update_period_s() const {
  if (config_.update_period_s > 0) return config_.update_period_s;
  return static_cast<double>(config_.period_ns) / 1e9;
}

}  // namespace jetperf::telemetry
