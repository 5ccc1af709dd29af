// Sample store speed: batched ingest rate, and the mean of one channel over 1 M samples of a job.
// Scenario: 10 channels sampled at 1 kHz each, flushed every 100 ms, so one insert() carries
// 1000 samples (100 per channel) -- the shape of the telemetry sampler's ring-buffer flushes.
// The database is a file in WAL mode with synchronous=NORMAL, as the daemon opens it.
// Usage: bench_store_ingest [database-path] (default: a file in a temporary directory; give a path
// on the board's eMMC/NVMe to measure its storage, or ":memory:" to leave the disk out).
// Prints one JSON object. Targets: >= 1e6 samples/s ingest; mean over 1 M samples < 50 ms.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/store/database.hpp>
#include <jetperf/store/sample_store.hpp>
#include <support/temp_dir.hpp>

namespace {

using clock_type = std::chrono::steady_clock;
using jetperf::store::sample_row;
using jetperf::store::sample_store;

constexpr int k_channels = 10;
constexpr std::int64_t k_rate_hz = 1000;
constexpr std::int64_t k_flush_ms = 100;
constexpr std::int64_t k_per_channel_per_batch = k_rate_hz * k_flush_ms / 1000;  // 100
constexpr std::int64_t k_period_ns = 1000000000 / k_rate_hz;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

// A plausible rail reading: a few watts with a ripple, so that sums are not trivial.
double reading(int channel, std::int64_t i) { return 2.0 + channel * 0.5 + 0.001 * static_cast<double>(i % 997); }

// Inserts `total` samples of `channels` channels for a job as the sampler would; returns seconds.
double ingest(sample_store& store, std::int64_t job_id, const std::vector<std::int64_t>& channels,
              std::int64_t total, std::int64_t t0_ns) {
  const std::int64_t per_batch = k_per_channel_per_batch * static_cast<std::int64_t>(channels.size());
  std::vector<sample_row> batch;
  batch.reserve(static_cast<std::size_t>(per_batch));
  double elapsed = 0;
  std::int64_t tick = 0;
  for (std::int64_t done = 0; done < total; done += per_batch) {
    batch.clear();
    // Interleaved by time, as a sampler reading every channel each tick fills its ring buffer.
    for (std::int64_t i = 0; i < k_per_channel_per_batch; ++i, ++tick)
      for (std::size_t c = 0; c < channels.size(); ++c)
        batch.push_back({channels[c], t0_ns + tick * k_period_ns + static_cast<std::int64_t>(c),
                         reading(static_cast<int>(c), tick)});
    const auto t = clock_type::now();
    store.insert(job_id, batch);
    elapsed += seconds_since(t);
  }
  return elapsed;
}

std::uintmax_t file_bytes(const std::string& path) {
  std::error_code ec;
  const auto n = std::filesystem::file_size(path, ec);
  return ec ? 0 : n;
}

template <class Fn>
double median_ms(int runs, Fn&& fn) {
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    const auto t = clock_type::now();
    fn();
    ms.push_back(seconds_since(t) * 1e3);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  jetperf::test::temp_dir dir;
  const std::string path = argc > 1 ? argv[1] : dir.file("bench.db");
  if (path != ":memory:" && std::filesystem::exists(path)) {
    std::fprintf(stderr, "bench_store_ingest: %s exists; give a new file\n", path.c_str());
    return 2;
  }
  jetperf::store::database db(path);
  sample_store store(db);
  std::vector<std::int64_t> channels;
  for (int c = 0; c < k_channels; ++c)
    channels.push_back(store.channel_id("bench.ch" + std::to_string(c), "W", "bench"));

  // Ingest: 2 M samples over 10 channels for job 1.
  const std::int64_t ingest_samples = 2000000;
  const double ingest_s = ingest(store, 1, channels, ingest_samples, 1000000000);

  // Mean: job 2 has one channel with 1 M samples (1000 s at 1 kHz, in 100-sample chunks).
  const std::int64_t mean_samples = 1000000;
  ingest(store, 2, {channels[0]}, mean_samples, 5000000000000);
  const std::int64_t t_begin = 5000000000000;
  const std::int64_t t_end = t_begin + (mean_samples - 1) * k_period_ns;
  std::optional<double> whole, window;
  const int runs = 9;
  const double mean_ms = median_ms(runs, [&] { whole = store.mean(2, channels[0], t_begin, t_end); });
  // A window whose edges cut chunks, so that two edge chunks are decoded.
  const double window_ms = median_ms(runs, [&] {
    window = store.mean(2, channels[0], t_begin + 37 * k_period_ns, t_end - 41 * k_period_ns);
  });
  std::size_t queried = 0;
  const double query_ms = median_ms(3, [&] { queried = store.query(2, channels[0]).size(); });

  double expected = 0;
  for (std::int64_t i = 0; i < mean_samples; ++i) expected += reading(0, i);
  expected /= static_cast<double>(mean_samples);

  nlohmann::json out = {
      {"bench", "store_ingest"},
      {"database", path == ":memory:" ? ":memory:" : "file, WAL, synchronous=NORMAL"},
      {"scenario", {{"channels", k_channels}, {"rate_hz_per_channel", k_rate_hz}, {"flush_interval_ms", k_flush_ms},
                    {"samples_per_insert", k_per_channel_per_batch * k_channels}}},
      {"ingest_samples", ingest_samples},
      {"ingest_s", ingest_s},
      {"ingest_samples_per_s", static_cast<double>(ingest_samples) / ingest_s},
      {"mean_samples", mean_samples},
      {"mean_ms_median", mean_ms},
      {"mean_window_edges_ms_median", window_ms},
      {"mean_runs", runs},
      {"mean_value", whole ? *whole : -1},
      {"mean_value_expected", expected},
      {"mean_window_value", window ? *window : -1},
      {"query_1m_samples_ms_median", query_ms},
      {"query_rows", queried},
      {"db_bytes", file_bytes(path) + file_bytes(path + "-wal")},
      {"targets", {{"ingest_samples_per_s_min", 1e6}, {"mean_ms_max", 50}}},
  };
  std::printf("%s\n", out.dump().c_str());
  return 0;
}
