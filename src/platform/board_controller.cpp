#include <jetperf/platform/board_controller.hpp>

#include <spdlog/spdlog.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/platform/meminfo.hpp>
#include <jetperf/platform/reboot_required.hpp>
#include <jetperf/platform/sysfs_paths.hpp>

namespace jetperf::platform {

namespace {

std::optional<std::int64_t> mem_total_bytes(const sysfs_root& root) { return read_memory_info(root).total_bytes; }

}  // namespace

board_controller::board_controller(sysfs_root root, board_controller_options options, snapshot_journal* journal)
    : root_(std::move(root)),
      options_(std::move(options)),
      journal_(journal),
      info_(detect_board(root_, options_.dgpu_probe)),
      clocks_(root_, discover_board(root_, info_)),
      sensor_dirs_(find_averaging_sensors(root_)) {
  const std::string conf_path = options_.nvpmodel_conf_path.empty() ? paths::nvpmodel_conf : options_.nvpmodel_conf_path;
  if (auto text = root_.try_read(conf_path)) {
    try {
      conf_ = parse_nvpmodel_conf(*text);
      tool_.emplace(options_.nvpmodel_program, options_.nvpmodel_timeout);
      std::vector<long long> emc_caps;
      for (const auto& m : conf_->modes)
        if (const auto cap = caps_of_mode(*conf_, m).emc_freq_hz) emc_caps.push_back(*cap);
      clocks_.set_emc_mode_caps(std::move(emc_caps));
    } catch (const platform_error& e) {
      spdlog::warn("power modes unavailable: {}: {}", root_.host_path(conf_path), e.what());
    }
  }
  spdlog::info("board: {} {} (family {}, L4T {}, JetPack {})", info_.model, info_.module, info_.family,
               info_.l4t.empty() ? "-" : info_.l4t, info_.jetpack.empty() ? "-" : info_.jetpack);
}

std::optional<int> board_controller::query_mode() const {
  if (!tool_) return std::nullopt;
  try {
    int id = tool_->query().mode_id;
    if (id >= 0) return last_mode_ = id;
  } catch (const platform_error& e) {
    spdlog::warn("{}", e.what());
  }
  return std::nullopt;
}

board_state board_controller::capture() const {
  board_state s = capture_board_state(clocks_, query_mode());
  s.sensors = read_sensor_averaging(root_, sensor_dirs_);
  return s;
}

void board_controller::reboot_started(std::int64_t power_mode) {
  reboot_pending_ = power_mode;
  spdlog::warn("board: power mode {} takes effect at the next boot; the board reboots", power_mode);
  if (options_.on_reboot) options_.on_reboot(power_mode);
}

bool board_controller::restore_state(const board_state& state) {
  std::string mode_failure;
  // nvpmodel rewrites cores and caps, so the mode goes back first and the clocks after it.
  if (state.power_mode && tool_) {
    try {
      // Going back to the mode the board had is always allowed: when the change needed a reboot,
      // so does the way back, and the user already forced (or allowed) the first one. The clocks
      // wait for the boot: it resets them to the mode's, and the open snapshot puts them back.
      auto now = query_mode();
      if (now != state.power_mode) {
        last_mode_.reset();  // read again when next asked
        if (tool_->set_mode(*state.power_mode, conf_ ? &*conf_ : nullptr, true)) {
          reboot_started(*state.power_mode);
          return true;
        }
      }
    } catch (const std::exception& e) {
      mode_failure = std::string("power mode: ") + e.what();
    }
  }
  std::string failure;
  try {
    restore_board_clocks(clocks_, state);
  } catch (const platform_error& e) {
    failure = e.what();
  }
  try {
    platform::restore_sensor_averaging(root_, state.sensors);
  } catch (const platform_error& e) {
    failure += (failure.empty() ? "" : "; ") + std::string(e.what());
  }
  if (!failure.empty()) throw platform_error(mode_failure.empty() ? failure : mode_failure + "; " + failure);
  if (!mode_failure.empty()) throw platform_error("restoring board settings failed: " + mode_failure);
  return false;
}

board_offer board_controller::offered() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  board_offer o;
  if (conf_) {
    for (const auto& m : conf_->modes) {
      power_mode_offer offer{m.id, m.name, {}};
      o.caps[m.id] = caps_of_mode(*conf_, m);
      for (const auto& from : conf_->modes)
        if (!reboot_reasons(*conf_, from.id, m.id).empty()) offer.reboot_from.push_back(from.id);
      o.power_modes.push_back(std::move(offer));
    }
    // The mode as last read: every submit asks, and running nvpmodel for each would cost more
    // than the submit. Only the up-front reboot check reads it; apply() asks nvpmodel itself.
    o.power_mode = last_mode_ ? last_mode_ : query_mode();
  }
  const auto list = [](const std::vector<long long>& v) { return std::vector<std::int64_t>(v.begin(), v.end()); };
  o.gpu_freqs_hz = list(clocks_.gpu_available_hz());
  o.cpu_freqs_khz = list(clocks_.cpu_available_khz());
  o.emc_freqs_hz = list(clocks_.emc_available_hz());
  if (!sensor_dirs_.empty()) o.sensor_samples = ina3221_sample_counts();
  o.has_cuda_device = options_.has_cuda_device.value_or(clocks_.has_gpu());
  auto mem = mem_total_bytes(root_);
  o.memory_bytes = mem.value_or(0);
  o.gpu_memory_bytes = options_.gpu_memory_bytes.value_or(info_.jetson ? mem.value_or(0) : 0);
  return o;
}

void board_controller::arm_locked(std::int64_t job_id) {
  if (armed_) return;
  // The board as the job finds it, settings made through the API included: its end returns here.
  board_state state = capture();
  if (journal_) journal_->open(job_id, "job", state);
  armed_ = std::move(state);
  armed_job_ = job_id;
}

void board_controller::arm(std::int64_t job_id) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  arm_locked(job_id);
}

void board_controller::api_change_locked() {
  if (armed_)
    throw conflict("job " + std::to_string(armed_job_) + " is running; board settings can change once it has finished");
  if (api_baseline_) return;
  board_state state = capture();
  if (journal_) journal_->open(0, "api", state);
  api_baseline_ = std::move(state);
}

current_settings board_controller::apply_request(const board_request& request) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  return apply_locked(request);
}

namespace {

// What a point records is what the board reads back, for the controls this board has.
board_setting setting_of(const current_settings& now) {
  board_setting read_back;
  read_back.power_mode = now.power_mode;
  read_back.gpu_freq_hz = now.gpu_freq_hz;
  read_back.cpu_freq_khz = now.cpu_freq_khz;
  read_back.emc_freq_hz = now.emc_freq_hz;
  return read_back;
}

}  // namespace

board_setting board_controller::apply(const board_setting& setting) {
  board_request request;
  if (setting.power_mode) request.power_mode = static_cast<int>(*setting.power_mode);
  request.gpu_freq_hz = setting.gpu_freq_hz;
  request.cpu_freq_khz = setting.cpu_freq_khz;
  request.emc_freq_hz = setting.emc_freq_hz;
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  // A job never forces: a mode that needs a reboot goes back to the runner, which decides.
  if (setting.power_mode && conf_ && tool_) {
    const auto current = query_mode();
    const auto* target = conf_->find_mode(static_cast<int>(*setting.power_mode));
    const auto reasons = current && target ? reboot_reasons(*conf_, *current, target->id) : std::vector<std::string>{};
    if (!reasons.empty()) {
      std::string why;
      for (const auto& r : reasons) why += (why.empty() ? "" : ", ") + r;
      throw reboot_required(*setting.power_mode,
                            "switching from power mode " + std::to_string(*current) + " to " +
                                std::to_string(target->id) + " (" + target->name + ") changes GPU power gating (" +
                                why + ") and needs a reboot; set allow_reboot in the job's spec to let jetperfd "
                                      "reboot the board and go on with the job after the boot");
    }
  }
  return setting_of(apply_locked(request));
}

mode_caps board_controller::caps_of(std::int64_t mode) const {
  // conf_ is read once, at construction: no lock, no file, no nvpmodel run (a point asks this
  // between applying its settings and its window).
  const nvpmodel_mode* m = conf_ ? conf_->find_mode(static_cast<int>(mode)) : nullptr;
  return m ? caps_of_mode(*conf_, *m) : mode_caps{};
}

board_setting board_controller::read_back() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  return setting_of(current_locked());
}

void board_controller::check_power_mode(int mode) const {
  if (!conf_ || !tool_) throw validation_error("power_mode", "this board offers no power modes (no nvpmodel.conf)");
  if (conf_->find_mode(mode)) return;
  std::string valid;
  for (const auto& m : conf_->modes) valid += (valid.empty() ? "" : ", ") + std::to_string(m.id) + " " + m.name;
  throw validation_error("power_mode", "power mode " + std::to_string(mode) + " is not offered; valid: " + valid);
}

current_settings board_controller::apply_locked(const board_request& request) {
  // Validate everything before the first write, so bad input never changes the board.
  const auto& mode = request.power_mode;
  if (mode) check_power_mode(*mode);
  auto check = [](const std::optional<long long>& v, const std::vector<long long>& offered, const char* field) {
    if (v) check_frequency(*v, offered, field);
  };
  check(request.gpu_freq_hz, clocks_.gpu_available_hz(), "gpu_freq_hz");
  check(request.cpu_freq_khz, clocks_.cpu_available_khz(), "cpu_freq_khz");
  check(request.emc_freq_hz, clocks_.emc_available_hz(), "emc_freq_hz");
  const auto& gpu = request.gpu_freq_hz;
  const auto& cpu = request.cpu_freq_khz;
  const auto& emc = request.emc_freq_hz;
  const bool force = request.force;

  board_state before = capture();
  try {
    if (mode && before.power_mode != mode) last_mode_.reset();
    if (mode && before.power_mode != mode && tool_->set_mode(*mode, &*conf_, force)) {
      // Forced through a reboot (the API's force): the clocks would not survive the boot.
      reboot_started(*mode);
      return current_locked();
    }
    if (gpu) clocks_.lock_gpu(*gpu);
    if (cpu) clocks_.lock_cpu(*cpu);
    if (emc) clocks_.lock_emc(*emc);
  } catch (const std::exception& e) {
    spdlog::warn("board apply failed ({}); restoring the previous settings", e.what());
    try {
      restore_state(before);
    } catch (const std::exception& r) {
      spdlog::error("could not fully restore after a failed apply: {}", r.what());
    }
    throw;
  }
  return current_locked();
}

std::vector<sensor_chip_averaging> board_controller::sensor_averaging() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  return read_sensor_averaging(root_, sensor_dirs_);
}

std::vector<sensor_chip_averaging> board_controller::set_sensor_samples(std::int64_t samples) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  const auto before = read_sensor_averaging(root_, sensor_dirs_);
  if (before.empty()) board_settings::set_sensor_samples(samples);  // throws: nothing to set
  check_sensor_samples(samples, ina3221_sample_counts(), "sensor_samples");
  // Only a job that holds the board changes it (its snapshot puts the counts back).
  if (!armed_) throw conflict("the power sensors' averaging is set by a job, which restores it when it ends", "sensor_samples");
  try {
    for (const auto& c : before) root_.write(c.dir + "/samples", std::to_string(samples));
    auto after = read_sensor_averaging(root_, sensor_dirs_);
    for (const auto& c : after)
      if (c.samples != samples)
        throw platform_error(c.dir + "/samples reads " + std::to_string(c.samples) + " after " + std::to_string(samples) + " was written");
    return after;
  } catch (const std::exception& e) {
    spdlog::warn("setting the power sensors' averaging failed ({}); putting it back", e.what());
    try {
      platform::restore_sensor_averaging(root_, before);
    } catch (const std::exception& r) {
      spdlog::error("could not put the power sensors' averaging back: {}", r.what());
    }
    throw;
  }
}

void board_controller::restore_sensor_averaging(const std::vector<sensor_chip_averaging>& chips) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  platform::restore_sensor_averaging(root_, chips);
}

current_settings board_controller::current() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  return current_locked();
}

current_settings board_controller::current_locked() const {
  current_settings c;
  c.power_mode = query_mode();
  const nvpmodel_mode* m = (c.power_mode && conf_) ? conf_->find_mode(*c.power_mode) : nullptr;
  if (m) c.power_mode_name = m->name;
  if (clocks_.has_gpu()) {
    auto r = clocks_.gpu_range();
    try {
      c.gpu_cur_hz = clocks_.gpu_current_hz();
    } catch (const platform_error&) {
    }
    c.gpu_min_hz = r.min;
    c.gpu_max_hz = r.max;
    c.gpu_freq_hz = r.min == r.max ? std::optional<long long>(r.max) : c.gpu_cur_hz;
  }
  for (size_t i = 0; i < clocks_.discovery().clusters.size(); ++i) {
    if (!clocks_.cluster_online(i)) continue;
    auto r = clocks_.cpu_range(i);
    c.cpu_cur_khz = clocks_.cpu_current_khz(i);
    c.cpu_freq_khz = r.min == r.max ? std::optional<long long>(r.max) : c.cpu_cur_khz;
    break;
  }
  if (clocks_.has_emc()) {
    try {
      auto e = clocks_.emc();
      c.emc_freq_hz = e.rate;
      c.emc_locked = e.locked;
    } catch (const platform_error&) {
    }
  }
  return c;
}

void board_controller::restore() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!armed_ || reboot_pending_) return;
  // Back to the board as the job found it (what the API set stays). On failure the snapshot stays
  // open (and armed), so a later restore or start-up retries it; when the mode goes back through
  // a reboot it stays open for the start-up after the boot.
  const bool rebooting = restore_state(*armed_);
  const auto job = armed_job_;
  armed_.reset();
  armed_job_ = 0;
  // The board is restored by now: a journal that cannot mark it so (a full disk) leaves its
  // snapshot open, and the next start restores it again, which changes nothing.
  if (journal_ && !rebooting) journal_->close(job);
}

void board_controller::reboot_into(std::int64_t power_mode) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!tool_ || !conf_->find_mode(static_cast<int>(power_mode)))
    throw validation_error("power_mode", "power mode " + std::to_string(power_mode) + " is not offered");
  last_mode_.reset();
  if (tool_->set_mode(static_cast<int>(power_mode), &*conf_, true)) {
    reboot_started(power_mode);
  } else {
    // nvpmodel applied it at once after all (the gating matched by then): nothing to wait for.
    spdlog::info("board: power mode {} applied without a reboot", power_mode);
  }
}

std::optional<std::int64_t> board_controller::rearm(std::int64_t job_id) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (journal_) {
    // The snapshots taken before the reboot are still open: the job's end restores its own, and
    // the API's baseline stays what POST /v1/clocks/restore puts back.
    if (!api_baseline_)
      if (auto state = journal_->open_of(0)) api_baseline_ = std::move(*state);
    if (!armed_)
      if (auto state = journal_->open_of(job_id)) {
        armed_ = std::move(*state);
        armed_job_ = job_id;
      }
  }
  arm_locked(job_id);
  auto mode = query_mode();
  return mode ? std::optional<std::int64_t>(*mode) : std::nullopt;
}

std::optional<std::int64_t> board_controller::reboot_pending() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  return reboot_pending_;
}

bool board_controller::restore_open_snapshot() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!journal_ || reboot_pending_) return false;
  auto state = journal_->oldest_open();
  if (!state) return false;
  spdlog::warn("restoring board settings journaled by a previous run");
  const bool rebooting = restore_state(*state);
  armed_.reset();
  armed_job_ = 0;
  api_baseline_.reset();
  if (rebooting) return false;
  journal_->close_all();
  return true;
}

std::vector<power_mode_description> board_controller::describe_modes() const {
  std::vector<power_mode_description> modes;
  if (!conf_) return modes;
  for (const auto& m : conf_->modes) {
    power_mode_description d;
    d.id = m.id;
    d.name = m.name;
    d.is_default = m.id == conf_->default_mode;
    const auto caps = caps_of_mode(*conf_, m);
    d.gpu_max_hz = caps.gpu_freq_hz;
    d.emc_max_hz = caps.emc_freq_hz;
    d.cpu_max_khz = caps.cpu_freq_khz;
    d.gpu_uncapped = !caps.gpu_freq_hz && m.value("GPU", "MAX_FREQ");
    d.emc_uncapped = !caps.emc_freq_hz && m.value("EMC", "MAX_FREQ");
    for (const auto& setting : m.settings) {
      if (setting.param == "CPU_ONLINE") d.cores_online = d.cores_online.value_or(0) + (setting.value == "1");
      const auto* param = setting.arg == "MAX_FREQ" ? conf_->find_param(setting.param) : nullptr;
      if (param && is_cpu_clock(*param) && !caps.cpu_freq_khz) d.cpu_uncapped = true;
    }
    d.reboot_needed_from_default = !reboot_reasons(*conf_, conf_->default_mode, m.id).empty();
    modes.push_back(std::move(d));
  }
  return modes;
}

cpu_description board_controller::describe_cpu() const {
  cpu_description cpu;
  for (size_t i = 0; i < clocks_.discovery().clusters.size(); ++i) {
    cluster_description c{clocks_.discovery().clusters[i].cores, clocks_.cluster_available_khz(i), std::nullopt};
    try {
      c.range = clocks_.cpu_range(i);
    } catch (const platform_error&) {
    }
    cpu.clusters.push_back(std::move(c));
  }
  cpu.cores = clocks_.discovery().cores;
  cpu.online = clocks_.online_cores();
  cpu.available_khz = clocks_.cpu_available_khz();
  return cpu;
}

board_description board_controller::describe() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  board_description d;
  d.info = info_;
  d.modes = describe_modes();
  if (conf_) d.default_mode = conf_->default_mode;
  if (clocks_.has_gpu()) {
    const auto& node = clocks_.discovery().gpu;
    const bool nvgpu_switch = node && root_.exists(node->device_dir + "/enable_3d_scaling");
    d.gpu = gpu_description{clocks_.gpu_available_hz(), clocks_.gpu_range(),
                            nvgpu_switch ? "enable_3d_scaling" : "devfreq_governor"};
  }
  d.cpu = describe_cpu();
  if (clocks_.has_emc()) {
    d.emc = emc_description{clocks_.emc_available_hz(), std::nullopt};
    try {
      d.emc->setting = clocks_.emc();
    } catch (const platform_error&) {
    }
  }
  // Read whether or not there is a fan, as the JSON form always did (a read has no side effect).
  const auto fan = clocks_.fan_pwm();
  d.has_fan = clocks_.has_fan();
  if (d.has_fan) d.fan_pwm = fan;
  d.paths = clocks_.discovery();
  if (tool_) d.nvpmodel = tool_->program();
  return d;
}

power_mode_status board_controller::power_mode_locked() const {
  auto q = tool_->query();
  return {q.mode_id, q.mode_name, conf_->default_mode, q.fan_mode};
}

power_mode_status board_controller::power_mode() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!tool_) throw unavailable("this board has no power modes (no nvpmodel.conf)");
  return power_mode_locked();
}

power_mode_status board_controller::set_power_mode(int id, bool force) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!tool_) throw unavailable("this board has no power modes (no nvpmodel.conf)");
  check_power_mode(id);
  api_change_locked();
  board_request request;
  request.power_mode = id;
  request.force = force;
  apply_locked(request);
  return power_mode_locked();
}

clock_status board_controller::clocks() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  clock_status c;
  c.current = current_locked();
  // Something to put back: a job holds the board, or the API changed it.
  c.armed = armed_.has_value() || api_baseline_.has_value();
  c.state = capture_board_state(clocks_, std::nullopt);
  return c;
}

const nvpmodel_mode* board_controller::mode_now_locked() const {
  // Read now: a mode switched outside jetperfd (nvpmodel run by hand) changes the caps.
  const auto mode = query_mode();
  return mode && conf_ ? conf_->find_mode(*mode) : nullptr;
}

clock_offer board_controller::clock_frequencies() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  return {clocks_.gpu_available_hz(), clocks_.cpu_available_khz(), clocks_.emc_available_hz()};
}

clock_offer board_controller::clock_limits() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  // What the mode in effect allows: "min" and "max" are its limits.
  const auto* mode = mode_now_locked();
  const auto caps = mode ? caps_of_mode(*conf_, *mode) : mode_caps{};
  const auto within = [](const std::vector<long long>& all, std::optional<std::int64_t> cap) {
    std::vector<long long> out;
    for (auto v : all)
      if (!cap || v <= *cap) out.push_back(v);
    return out;
  };
  return {within(clocks_.gpu_available_hz(), caps.gpu_freq_hz), within(clocks_.cpu_available_khz(), caps.cpu_freq_khz),
          within(clocks_.emc_available_hz(), caps.emc_freq_hz)};
}

current_settings board_controller::set_clocks(const clock_request& request) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  // Check every clock before arming, so a rejected request leaves no snapshot behind; errors name
  // the request's own fields (gpu, cpu, emc), in the order the API reads them: a value the board
  // offers, under the cap of the mode in effect.
  const auto* mode = mode_now_locked();
  const auto caps = mode ? caps_of_mode(*conf_, *mode) : mode_caps{};
  const std::string label = mode ? std::to_string(mode->id) + " (" + mode->name + ")" : "";
  const auto check = [&](long long v, const std::vector<long long>& offered, std::optional<std::int64_t> cap,
                         const char* field, const char* setting) {
    check_frequency(v, offered, field);
    return check_under_cap(v, cap, std::vector<std::int64_t>(offered.begin(), offered.end()), field, setting, label);
  };
  board_request settings;
  if (request.cpu_khz)
    settings.cpu_freq_khz = check(*request.cpu_khz, clocks_.cpu_available_khz(), caps.cpu_freq_khz, "cpu", "cpu_freq_khz");
  if (request.emc_hz)
    settings.emc_freq_hz = check(*request.emc_hz, clocks_.emc_available_hz(), caps.emc_freq_hz, "emc", "emc_freq_hz");
  if (request.gpu_hz)
    settings.gpu_freq_hz = check(*request.gpu_hz, clocks_.gpu_available_hz(), caps.gpu_freq_hz, "gpu", "gpu_freq_hz");
  api_change_locked();
  return apply_locked(settings);
}

void board_controller::restore_clocks() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (armed_)
    throw conflict("job " + std::to_string(armed_job_) + " is running; board settings can change once it has finished");
  if (!api_baseline_ || reboot_pending_) return;
  const bool rebooting = restore_state(*api_baseline_);
  if (journal_ && !rebooting) journal_->close_all();
  api_baseline_.reset();
}

board_state board_controller::snapshot() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  return capture();
}

}  // namespace jetperf::platform
