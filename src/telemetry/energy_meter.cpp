#include <jetperf/telemetry/energy_meter.hpp>

#include <algorithm>
#include <cmath>

namespace jetperf::telemetry {

energy_meter::energy_meter(std::vector<channel_info> channels, std::optional<int> total_channel,
                           std::int64_t max_gap_ns)
    : max_gap_ns_(max_gap_ns), total_channel_(total_channel), state_(channels.size()) {
  for (std::size_t i = 0; i < channels.size(); ++i)
    state_[i].power = channels[i].kind == channel_kind::power && channels[i].unit == "W";
}

void energy_meter::add(std::int64_t job_id, const std::vector<sample>& samples) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (running_ && running_->job_id != job_id) {
    last_finished_ = running_;
    running_.reset();
  }
  if (job_id != 0 && !running_) running_ = job_energy{job_id, 0};
  for (const auto& smp : samples) {
    if (smp.channel < 0 || static_cast<std::size_t>(smp.channel) >= state_.size()) continue;
    auto& st = state_[static_cast<std::size_t>(smp.channel)];
    if (!st.power || !std::isfinite(smp.value)) continue;
    // A counter never decreases: a sensor's negative offset reading counts as no power.
    const double w = std::max(0.0, smp.value);
    const std::int64_t dt = smp.t_ns - st.last_t_ns;
    if (st.has_last && dt < 0) continue;  // out of order: keep the newer reading
    double added = 0;
    // Trapezoids: the power between two readings is taken as the straight line joining them.
    if (st.has_last && dt > 0 && dt <= max_gap_ns_) added = 0.5 * (st.last_w + w) * static_cast<double>(dt) / 1e9;
    st.joules += added;
    newest_t_ns_ = std::max(newest_t_ns_, smp.t_ns);
    st.last_t_ns = smp.t_ns;
    st.last_w = w;
    const bool total = total_channel_ && *total_channel_ == smp.channel;
    if (total) {
      if (running_ && st.has_last && total_last_job_ == job_id) running_->joules += added;
      total_last_job_ = job_id;
    }
    st.has_last = true;
  }
}

void energy_meter::break_continuity() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& st : state_) st.has_last = false;
}

energy_totals energy_meter::totals() const {
  std::lock_guard<std::mutex> lock(mutex_);
  energy_totals t;
  t.channel_joules.reserve(state_.size());
  for (const auto& st : state_) t.channel_joules.push_back(st.joules);
  t.total_channel = total_channel_;
  t.running = running_;
  t.last_finished = last_finished_;
  t.t_ns = newest_t_ns_;
  return t;
}

}  // namespace jetperf::telemetry
