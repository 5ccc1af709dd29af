#include <jetperf/kinds/gemm/gemm_spec.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include <jetperf/common/cell_text.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/common/spec_table.hpp>
#include <jetperf/common/saturating.hpp>
#include <jetperf/common/spec_fields.hpp>
#include <jetperf/workloads/gemm_backends.hpp>
#include <jetperf/backend/gemm_dtype.hpp>
#include <jetperf/kinds/common/memory_limit.hpp>
#include <jetperf/measure/point_board.hpp>
#include <jetperf/kinds/common/sweep_axes.hpp>

namespace jetperf::kinds {

using namespace workloads;  // the backends and dtypes the kind measures with
using namespace measure;    // the board-setting axes every sweeping kind shares

namespace {

constexpr std::int64_t k_max_dim = 1 << 20;

std::string field(const std::string& name) { return "spec." + name; }

const spec_field& declared(const char* name) { return find_spec_field(gemm_spec_fields(), name); }

gemm_size size_of(std::int64_t m, std::int64_t n, std::int64_t k) {
  if (m < 1 || n < 1 || k < 1 || m > k_max_dim || n > k_max_dim || k > k_max_dim)
    throw validation_error(field("sizes"), "matrix dimensions must be between 1 and " + std::to_string(k_max_dim) +
                                               ", got " + std::to_string(m) + "x" + std::to_string(n) + "x" +
                                               std::to_string(k),
                           "out_of_range");
  return {m, n, k};
}

// One entry of spec.sizes, checked but not expanded: a range of square sizes (first.m in steps of
// `step`, `count` of them) or one size (count 1). Holding entries rather than sizes lets the sweep
// be counted before anything per size is built: ten "1:100000:1" ranges are one million sizes.
struct size_run {
  gemm_size first;
  std::int64_t step = 0;
  std::uint64_t count = 1;
};

// "from:to:step", "MxNxK", or "N" (square).
size_run parse_size_text(const std::string& text) {
  const auto bad = [&](const std::string& why) {
    return validation_error(field("sizes"), "size '" + text + "': " + why +
                                                " (expected from:to:step, N, MxNxK or a list of them)");
  };
  if (text.find(':') != std::string::npos) {
    const auto parts = common::split_trimmed(text, ':');
    if (parts.size() != 3) throw bad("a range has three parts");
    const auto from = common::parse_count(parts[0]), to = common::parse_count(parts[1]), step = common::parse_count(parts[2]);
    if (!from || !to || !step) throw bad("range parts must be non-negative integers");
    if (*step < 1) throw bad("step must be at least 1");
    if (*from < 1) throw bad("sizes start at 1");
    if (*to < *from) return {{*from, *from, *from}, *step, 0};  // empty: counted as none
    // Both ends checked: every size between them is then in range too. parse_count keeps them
    // under 10^18, so neither the difference nor the last size can overflow.
    const std::int64_t steps = (*to - *from) / *step;
    const std::int64_t last = *from + steps * *step;
    size_of(last, last, last);
    return {size_of(*from, *from, *from), *step, static_cast<std::uint64_t>(steps) + 1};
  }
  std::string lower = text;
  std::replace(lower.begin(), lower.end(), 'X', 'x');
  if (lower.find('x') != std::string::npos) {
    const auto parts = common::split_trimmed(lower, 'x');
    if (parts.size() != 3) throw bad("explicit sizes are MxNxK");
    const auto m = common::parse_count(parts[0]), n = common::parse_count(parts[1]), k = common::parse_count(parts[2]);
    if (!m || !n || !k) throw bad("dimensions must be integers");
    return {size_of(*m, *n, *k)};
  }
  const auto s = common::parse_count(text);
  if (!s) throw bad("not a size");
  return {size_of(*s, *s, *s)};
}

std::vector<size_run> parse_size_runs(const cell& v) {
  std::vector<size_run> out;
  for (const auto& item : common::spec_list(v)) {
    const auto* mnk = item.is_record() ? &item.as_record() : nullptr;
    if (item.is_string())
      out.push_back(parse_size_text(item.as_string()));
    else if (item.is_number())
      out.push_back({size_of(common::spec_integer(item, "sizes"), common::spec_integer(item, "sizes"), common::spec_integer(item, "sizes"))});
    else if (mnk && mnk->contains("m") && mnk->contains("n") && mnk->contains("k"))
      out.push_back({size_of(common::spec_integer(mnk->at("m"), "sizes"), common::spec_integer(mnk->at("n"), "sizes"),
                             common::spec_integer(mnk->at("k"), "sizes"))});
    else
      throw validation_error(field("sizes"), "sizes must be \"from:to:step\", a list of ints or \"MxNxK\" strings");
  }
  return out;
}

std::uint64_t count_of(const std::vector<size_run>& runs) {
  std::uint64_t n = 0;
  for (const auto& r : runs) n = saturating_add(n, r.count);
  return n;
}

// Called only once the sweep is known to be within k_max_gemm_points.
std::vector<gemm_size> expand_sizes(const std::vector<size_run>& runs) {
  std::vector<gemm_size> out;
  for (const auto& r : runs)
    for (std::uint64_t i = 0; i < r.count; ++i) {
      const auto s = r.first.m + static_cast<std::int64_t>(i) * r.step;
      out.push_back(r.step ? gemm_size{s, s, s} : r.first);
    }
  return out;
}

std::vector<std::string> parse_dtypes(const cell& v) {
  std::vector<std::string> out;
  for (const auto& item : common::spec_list(v)) {
    if (!item.is_string() || !parse_gemm_dtype(item.as_string()))
      throw validation_error(field("dtypes"), "unknown dtype " + json_text(item) + " (known: half, float, double)");
    if (std::find(out.begin(), out.end(), item.as_string()) == out.end()) out.push_back(item.as_string());
  }
  if (out.empty()) throw validation_error(field("dtypes"), "dtypes is empty: the sweep would have no points", "empty");
  return out;
}

std::vector<bool> parse_tensor(const cell& v) {
  std::vector<bool> out;
  const auto add = [&](bool b) {
    if (std::find(out.begin(), out.end(), b) == out.end()) out.push_back(b);
  };
  for (const auto& item : common::spec_list(v)) {
    if (item.is_bool()) {
      add(*item.boolean());
    } else if (item == cell("on")) {
      add(true);
    } else if (item == cell("off")) {
      add(false);
    } else if (item == cell("both")) {
      add(true);
      add(false);
    } else {
      throw validation_error(field("tensor"), "tensor must be \"on\", \"off\", \"both\" or a list of them, got " +
                                                  json_text(item));
    }
  }
  if (out.empty()) throw validation_error(field("tensor"), "tensor is empty: the sweep would have no points", "empty");
  return out;
}

}  // namespace

namespace {

// The fields after the board axes, each bound to its member: parsed, stored and served from here.
const spec_table<gemm_spec>& gemm_table() {
  using t = spec_type;
  static const spec_table<gemm_spec> table({
      {{"threads", t::integer, 0, "CPU backend threads (0 = the library's default)", 0, 1024, {}}, &gemm_spec::threads},
      {{"warmup_s", t::number, 0.5, "seconds of discarded runs before each window", 0, 600, {}}, &gemm_spec::warmup_s},
      {{"min_time_s", t::number, 0.5, "shortest adaptive window", 0, 3600, {}}, &gemm_spec::min_time_s},
      {{"max_time_s", t::number, 10.0, "longest adaptive window", 0.001, 3600, {}}, &gemm_spec::max_time_s},
      {{"target_rse", t::number, 0.01, "relative standard error of time and power that ends the window", 1e-6, 1, {}},
       &gemm_spec::target_rse},
      {{"min_samples", t::integer, 10, "fewest timed runs per window", 1, 10000000, {}}, &gemm_spec::min_samples},
      {{"duration_s", t::number, nullptr, "a fixed window in seconds instead of the adaptive one", 0.001, 3600, {}},
       &gemm_spec::duration_s},
      {{"boundary_s", t::number, 0.1, "seconds cut from each end of the power window", 0, 60, {}}, &gemm_spec::boundary_s},
      {{"cooldown_s", t::number, 0.0, "seconds of rest before each point", 0, 3600, {}}, &gemm_spec::cooldown_s},
      {{"repeats", t::integer, 1,
        "times the whole sweep runs (rows carry repeat; the summary gives each setting's mean and 95% interval "
        "across repeats, and flags repeats that disagree beyond their own noise)", 1, 1000, {}},
       &gemm_spec::repeats},
      {{"tags", t::list, nullptr, "labels for finding the job later", 0, 0, {}}, {}},
  });
  return table;
}

}  // namespace

const std::vector<spec_field>& gemm_spec_fields() {
  using t = spec_type;
  static const std::vector<spec_field> fields = with_contention_fields(common::with_board_axes({
      {"device", t::text, nullptr, "cuda or cpu (default: cuda when the board has a CUDA device)", 0, 0, {"cuda", "cpu"}},
      {"dtypes", t::list, cell_list{"float"}, "half, float, double: a list or comma-separated text", 0, 0, {}},
      {"sizes", t::list, "128:2048:128", "from:to:step, N (square), MxNxK, or a list of them", 0, 0, {}},
      {"tensor", t::list, nullptr, "on, off, both or a list (default: both on cuda, off on cpu)", 0, 0, {}},
  }, gemm_table().declarations()));
  return fields;
}

namespace {

// Points the CPU backend could only skip are refused up front, naming the field to change: the
// backend's own answer (supports()) decides, so spec and measurement never disagree.
void refuse_what_the_cpu_lacks(const gemm_spec& spec) {
  std::string why;
  const auto cpu = make_cpu_gemm_backend(&why);
  if (!cpu) throw validation_error(field("device"), "no CPU GEMM backend in this build: " + why, "unsupported");
  for (bool t : spec.tensor)
    if (t) throw validation_error(field("tensor"), "tensor cores are a GPU feature: the cpu device has none (use tensor off)", "unsupported");
  for (const auto& d : spec.dtypes)
    if (auto reason = cpu->supports(*parse_gemm_dtype(d), false))
      throw validation_error(field("dtypes"), d + " on the cpu device: " + *reason, "unsupported");
}

}  // namespace

gemm_spec gemm_spec::parse(const record& spec, const platform::board_offer& offered) {
  check_spec_fields(spec, gemm_spec_fields());
  gemm_spec out;

  const bool has_cuda = offered.has_cuda_device ? *offered.has_cuda_device : cuda_device_available();
  out.device = string_field(spec, declared("device"), has_cuda ? "cuda" : "cpu");

  const auto* dtypes = given_field(spec, "dtypes");
  out.dtypes = parse_dtypes(dtypes ? *dtypes : declared("dtypes").default_value);
  // A null sizes is not "the default": it is refused as any other entry that is not a size.
  const auto* sizes = spec.find("sizes");
  const auto runs = parse_size_runs(sizes ? *sizes : declared("sizes").default_value);
  const auto size_count = count_of(runs);
  if (size_count == 0) throw validation_error(field("sizes"), "sizes is empty: the sweep would have no points", "empty");
  const auto* tensor = given_field(spec, "tensor");
  out.tensor = parse_tensor(tensor ? *tensor : cell(out.device == "cuda" ? "both" : "off"));

  if (out.device == "cpu") refuse_what_the_cpu_lacks(out);
  common::normalize_board_axes(spec, offered, out.board_axes);

  gemm_table().parse(spec, out);
  if (out.max_time_s < out.min_time_s)
    throw validation_error(field("max_time_s"), "max_time_s must be at least min_time_s", "out_of_range");
  out.contention = measure::contention_policy::parse(spec);

  // The sweep's size, counted before any size is built (runs stand for up to 2^20 sizes each),
  // named after its largest dimension when it is too big.
  std::vector<std::pair<std::string, std::uint64_t>> dims;
  for (const auto& d : common::board_axis_sizes(out.board_axes)) dims.emplace_back(d.first, d.second);
  dims.insert(dims.end(), {{"dtypes", out.dtypes.size()},
                           {"tensor", out.tensor.size()},
                           {"sizes", size_count},
                           {"repeats", static_cast<std::uint64_t>(out.repeats)}});
  const auto total = gemm_point_count(dims);
  if (total > k_max_gemm_points) {
    const auto biggest = std::max_element(dims.begin(), dims.end(),
                                          [](const auto& a, const auto& b) { return a.second < b.second; });
    const bool saturated = total == std::numeric_limits<std::uint64_t>::max();
    throw validation_error(field(biggest->first),
                           "the sweep has " + std::string(saturated ? "more than " : "") + std::to_string(total) +
                               " points, over the limit of " + std::to_string(k_max_gemm_points) + "; narrow " +
                               biggest->first + " (" + std::to_string(biggest->second) + " values)",
                           "too_many_points");
  }
  out.sizes = expand_sizes(runs);

  // Three matrices of the widest dtype must fit in the memory the device has (this host's for
  // CPU points on a board that reports none, as for layers).
  const auto limit = common::device_memory_limit(offered, out.device);
  std::size_t widest = 0;
  for (const auto& d : out.dtypes) widest = std::max(widest, dtype_size(*parse_gemm_dtype(d)));
  if (limit.bytes > 0) {
    for (const auto& s : out.sizes) {
      const double bytes = (static_cast<double>(s.m) * s.k + static_cast<double>(s.k) * s.n +
                            static_cast<double>(s.m) * s.n) * static_cast<double>(widest);
      if (bytes > static_cast<double>(limit.bytes))
        throw validation_error(field("sizes"),
                               "size " + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) +
                                   " needs " + std::to_string(static_cast<std::int64_t>(bytes)) +
                                   " bytes for A, B and C on " + out.device + ", over " + limit.source + " = " +
                                   std::to_string(limit.bytes),
                               "too_large");
    }
  }
  return out;
}

std::uint64_t count_gemm_sizes(const cell& sizes) { return count_of(parse_size_runs(sizes)); }

std::uint64_t gemm_point_count(const std::vector<std::pair<std::string, std::uint64_t>>& dims) {
  std::uint64_t total = 1;
  for (const auto& d : dims) total = saturating_mul(total, d.second);
  return total;
}

gemm_spec gemm_spec::stored(const record& j) {
  gemm_spec s;
  s.device = j.at("device").as_string();
  s.dtypes = j.at("dtypes").strings();
  for (const auto& size : j.at("sizes").as_list()) {
    const auto& mnk = size.as_record();
    s.sizes.push_back({*mnk.at("m").integer(), *mnk.at("n").integer(), *mnk.at("k").integer()});
  }
  for (const auto& t : j.at("tensor").as_list()) s.tensor.push_back(t.boolean().value());
  s.board_axes = common::stored_board_axes(j);
  gemm_table().stored(j, s);  // a spec stored before repeats existed ran once: its default
  s.contention = measure::contention_policy::stored(j);
  return s;
}

record gemm_spec::to_record() const {
  record out = board_axes;
  cell_list size_list;
  for (const auto& s : sizes) size_list.push_back(record{{"m", s.m}, {"n", s.n}, {"k", s.k}});
  out.set("device", device);
  out.set("dtypes", dtypes);
  out.set("sizes", std::move(size_list));
  cell_list tensor_list;
  for (const bool t : tensor) tensor_list.push_back(t);
  out.set("tensor", std::move(tensor_list));
  gemm_table().put(*this, out);
  contention.put(out);
  return out;
}

double gemm_spec::idle_baseline_s() const { return std::max(0.5, min_time_s); }

record gemm_point::to_record() const {
  record p = measure::setting_record(setting);
  p.set("repeat", repeat);
  p.set("device", device);
  p.set("dtype", dtype);
  p.set("tensor", tensor);
  p.set("m", size.m);
  p.set("n", size.n);
  p.set("k", size.k);
  return p;
}

gemm_point gemm_point::of(const record& point) {
  gemm_point p;
  p.setting = measure::setting_of_point(point);
  const auto* device = point.find("device");
  p.device = device && device->is_string() ? device->as_string() : "cpu";
  p.dtype = point.at("dtype").as_string();
  p.tensor = point.at("tensor").boolean().value_or(false);
  p.size = {*point.at("m").integer(), *point.at("n").integer(), *point.at("k").integer()};
  const auto* repeat = point.find("repeat");
  p.repeat = repeat && repeat->is_number() ? *repeat->integer() : 0;
  return p;
}

std::vector<gemm_point> expand(const gemm_spec& spec) {
  std::vector<gemm_point> points;
  std::vector<platform::board_setting> settings;
  for (const auto& s : common::board_setting_points(spec.board_axes)) settings.push_back(measure::setting_of_point(s));
  for (std::int64_t r = 0; r < spec.repeats; ++r)
    for (const auto& setting : settings)
      for (const auto& dtype : spec.dtypes)
        for (const bool tensor : spec.tensor)
          for (const auto& size : spec.sizes) points.push_back({setting, spec.device, dtype, tensor, size, r});
  return points;
}

}  // namespace jetperf::kinds
