#include <jetperf/traces/trace_reader.hpp>

#include <sys/stat.h>

#include <cerrno>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <istream>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/common/errors.hpp>

namespace jetperf::traces {
namespace {

using json = nlohmann::json;

// Times are int64 nanoseconds and an event's end is ts + dur: each is kept within 4e15 us (about
// 127 years, epoch timestamps included) so that the sum cannot overflow.
constexpr double k_max_abs_us = 4.0e15;
constexpr std::int64_t k_max_abs_ns = 4'000'000'000'000'000'000;
// The file is read through a buffer of this size.
constexpr std::size_t k_read_buffer_bytes = 256 * 1024;

// An id written as a float: -1 (none) when it is not a whole number an int64 can hold.
std::int64_t id_from(double value) {
  if (!std::isfinite(value) || std::fabs(value) > 9.0e18) return -1;
  return std::llround(value);
}

// An id kept in 32 bits: -1 (none) when it does not fit.
std::int32_t narrow_id(std::int64_t id) {
  return id >= std::numeric_limits<std::int32_t>::min() && id <= std::numeric_limits<std::int32_t>::max()
             ? static_cast<std::int32_t>(id)
             : -1;
}

// Every event names its phase: the "ph" keys of a text bound how many events it holds, so the
// events' vector is sized once. One that grows holds its old and its new storage while it
// copies, and where the allocator keeps the old in its heap, every size it went through.
constexpr std::string_view k_phase_key = "\"ph\"";
// The shortest complete event, {"ph":"X","name":"","ts":0,"dur":0,"pid":0,"tid":0}: a text of
// keys alone ({"ph":0} again and again) must not reserve room for events it cannot hold.
constexpr std::size_t k_min_event_bytes = 51;

// How many complete events a text of `bytes` bytes with `phase_keys` "ph" keys may hold at most.
std::size_t events_bound(std::size_t bytes, std::size_t phase_keys) {
  return std::min(phase_keys, bytes / k_min_event_bytes);
}

std::size_t phase_keys(std::string_view text) {
  std::size_t n = 0;
  // glibc's memmem: half the time of string_view::find, which stops at every quote of the text.
  const char* at = text.data();
  const char* const end = text.data() + text.size();
  while (const void* found = ::memmem(at, static_cast<std::size_t>(end - at), k_phase_key.data(), k_phase_key.size())) {
    ++n;
    at = static_cast<const char*>(found) + 1;
  }
  return n;
}

// The same over a file; leaves the stream at its start.
std::size_t phase_keys(std::istream& in) {
  std::vector<char> buffer(k_read_buffer_bytes);
  std::size_t n = 0, kept = 0;
  // The last bytes of a read go before the next one, so a key cut by the read is counted once.
  const std::size_t overlap = k_phase_key.size() - 1;
  while (in.read(buffer.data() + kept, static_cast<std::streamsize>(buffer.size() - kept)) || in.gcount() > 0) {
    const std::size_t size = kept + static_cast<std::size_t>(in.gcount());
    n += phase_keys(std::string_view(buffer.data(), size));
    kept = std::min(overlap, size);
    std::copy(buffer.data() + size - kept, buffer.data() + size, buffer.data());
  }
  in.clear();
  in.seekg(0);
  return n;
}

event_category category_of(const std::string& cat) {
  if (cat == "cpu_op" || cat == "Operator") return event_category::cpu_op;
  if (cat == "user_annotation") return event_category::user_annotation;
  if (cat == "cuda_runtime" || cat == "Runtime") return event_category::runtime;
  if (cat == "cuda_driver") return event_category::driver;
  if (cat == "kernel" || cat == "Kernel") return event_category::kernel;
  if (cat == "gpu_memcpy" || cat == "Memcpy") return event_category::memcpy;
  if (cat == "gpu_memset" || cat == "Memset") return event_category::memset;
  if (cat == "gpu_user_annotation") return event_category::gpu_user_annotation;
  if (cat == "python_function") return event_category::python_function;
  return event_category::other;
}

// Microseconds as written ("12", "12.345", "1.2e3") -> nanoseconds. Plain decimals are read
// digit by digit so that a Kineto timestamp (1.7e15 us with three decimals) keeps its last
// nanosecond, which a double would round away.
bool decimal_us_to_ns(const std::string& raw, std::int64_t& ns) {
  std::size_t i = 0;
  const bool negative = !raw.empty() && raw[0] == '-';
  if (negative) ++i;
  std::int64_t whole = 0;
  std::size_t digits = 0;
  for (; i < raw.size() && raw[i] >= '0' && raw[i] <= '9'; ++i, ++digits) {
    if (whole > 900'000'000'000'000) return false;  // would overflow: the caller refuses it as out of range
    whole = whole * 10 + (raw[i] - '0');
  }
  if (digits == 0) return false;
  std::int64_t frac = 0;
  int frac_digits = 0;
  bool round_up = false;
  if (i < raw.size() && raw[i] == '.') {
    for (++i; i < raw.size() && raw[i] >= '0' && raw[i] <= '9'; ++i) {
      if (frac_digits < 3) {
        frac = frac * 10 + (raw[i] - '0');
        ++frac_digits;
      } else if (frac_digits == 3) {
        round_up = raw[i] >= '5';
        ++frac_digits;
      }
    }
  }
  if (i != raw.size()) return false;  // an exponent: the caller goes through double
  for (int k = frac_digits; k < 3; ++k) frac *= 10;
  ns = whole * 1000 + frac + (round_up ? 1 : 0);
  if (negative) ns = -ns;
  return true;
}

// The event being read; reset for each element of traceEvents.
struct pending_event {
  std::optional<std::string> ph, cat, name, pid, tid;
  bool has_ts = false, has_dur = false;
  std::int64_t ts_ns = 0, dur_ns = 0;
  std::int64_t external_id = -1, correlation = -1, stream = -1;
};

// Where the handler is: each state knows which values it takes.
enum class where { document, envelope, events, event, args, done };

class trace_sax {
 public:
  /// `expected_events`: at least as many as the text holds (events_bound), or 0 when unknown.
  trace_sax(trace& out, const trace_limits& limits, std::size_t expected_events) : out_(out), limits_(limits) {
    out_.events.reserve(std::min(expected_events, limits_.max_events));
  }

  const std::string& error_field() const { return error_field_; }
  const std::string& error_message() const { return error_message_; }
  bool failed() const { return !error_message_.empty(); }
  bool saw_events() const { return saw_events_; }

  bool null() { return scalar("null"); }
  bool boolean(bool) { return scalar("a boolean"); }
  bool number_integer(json::number_integer_t v) { return number(static_cast<double>(v), v, nullptr); }
  bool number_unsigned(json::number_unsigned_t v) {
    if (v > static_cast<json::number_unsigned_t>(std::numeric_limits<std::int64_t>::max()))
      return number(static_cast<double>(v), std::numeric_limits<std::int64_t>::max(), nullptr);
    return number(static_cast<double>(v), static_cast<std::int64_t>(v), nullptr);
  }
  bool number_float(json::number_float_t v, const json::string_t& raw) {
    return number(v, 0, &raw);
  }
  bool string(json::string_t& v) {
    if (skip_ > 0) return true;
    switch (at_) {
      case where::event: return event_string(v);
      case where::document: return fail("", "not a trace: the document is a string");
      case where::events: return fail(event_field(""), "an event is a string, not an object");
      default: return true;  // envelope keys and args we do not read
    }
  }
  // Binary values come only from binary formats; a template so that nlohmann releases without
  // binary_t (3.7) compile it too.
  template <class B>
  bool binary(B&) {
    return fail("", "not a JSON text");
  }

  bool start_object(std::size_t) {
    if (skip_ > 0) return open_skipped();
    switch (at_) {
      case where::document:
        at_ = where::envelope;
        out_.has_envelope = true;
        return true;
      case where::events:
        ev_ = pending_event{};
        at_ = where::event;
        return true;
      case where::event:
        if (key_ == "args") {
          at_ = where::args;
          return true;
        }
        return open_skipped();
      default: return open_skipped();
    }
  }
  bool end_object() {
    if (skip_ > 0) return close_skipped();
    switch (at_) {
      case where::envelope: at_ = where::done; return true;
      case where::args: at_ = where::event; return true;
      case where::event:
        at_ = where::events;
        return finish_event();
      default: return true;
    }
  }
  bool start_array(std::size_t) {
    if (skip_ > 0) return open_skipped();
    switch (at_) {
      case where::document:
        at_ = where::events;
        saw_events_ = true;
        return true;
      case where::envelope:
        if (key_ == "traceEvents") {
          if (saw_events_) return fail("traceEvents", "traceEvents is given twice");
          at_ = where::events;
          saw_events_ = true;
          return true;
        }
        return open_skipped();
      case where::events: return fail(event_field(""), "an event is an array, not an object");
      default: return open_skipped();
    }
  }
  bool end_array() {
    if (skip_ > 0) return close_skipped();
    if (at_ == where::events) at_ = out_.has_envelope ? where::envelope : where::done;
    return true;
  }
  bool key(json::string_t& k) {
    if (skip_ > 0) return true;
    key_ = std::move(k);
    return true;
  }
  template <class E>
  bool parse_error(std::size_t position, const std::string&, const E& ex) {
    return fail("", "not valid JSON at byte " + std::to_string(position) + ": " + ex.what());
  }

 private:
  bool fail(std::string field, std::string message) {
    if (!failed()) {
      error_field_ = std::move(field);
      error_message_ = std::move(message);
    }
    return false;
  }
  bool open_skipped() {
    ++skip_;
    return true;
  }
  bool close_skipped() {
    --skip_;
    return true;
  }

  std::string event_field(const std::string& member) const {
    std::string f = out_.has_envelope ? "traceEvents[" : "[";
    f += std::to_string(index_);
    f += ']';
    if (!member.empty()) f += "." + member;
    return f;
  }
  std::string event_label() const {
    return ev_.name ? "event " + std::to_string(index_) + " (" + *ev_.name + ")" : "event " + std::to_string(index_);
  }

  bool scalar(const char* what) {
    if (skip_ > 0) return true;
    if (at_ == where::document) return fail("", std::string("not a trace: the document is ") + what);
    if (at_ == where::events) return fail(event_field(""), std::string("an event is ") + what + ", not an object");
    if (at_ == where::event && (key_ == "ts" || key_ == "dur"))
      return fail(event_field(key_), key_ + " is " + what + ", not a number");
    return true;
  }

  bool number(double value, std::int64_t integer, const json::string_t* raw) {
    if (skip_ > 0) return true;
    switch (at_) {
      case where::document: return fail("", "not a trace: the document is a number");
      case where::events: return fail(event_field(""), "an event is a number, not an object");
      case where::envelope:
        if (key_ == "baseTimeNanoseconds") out_.base_time_ns = raw ? id_from(value) : integer;
        return true;
      case where::args:
        if (key_ == "External id" || key_ == "external id") ev_.external_id = raw ? id_from(value) : integer;
        else if (key_ == "correlation") ev_.correlation = raw ? id_from(value) : integer;
        else if (key_ == "stream") ev_.stream = raw ? id_from(value) : integer;
        return true;
      case where::event: break;
      default: return true;
    }
    if (key_ == "ts" || key_ == "dur") {
      std::int64_t ns = 0;
      if (raw == nullptr) {
        if (integer > static_cast<std::int64_t>(k_max_abs_us) || integer < -static_cast<std::int64_t>(k_max_abs_us))
          return fail(event_field(key_), key_ + " is out of range (" + std::to_string(integer) + " us)");
        ns = integer * 1000;
      } else if (!decimal_us_to_ns(*raw, ns)) {
        if (!std::isfinite(value) || std::fabs(value) > k_max_abs_us)
          return fail(event_field(key_), key_ + " is out of range (" + *raw + " us)");
        ns = std::llround(value * 1000.0);
      }
      if (ns > k_max_abs_ns || ns < -k_max_abs_ns)
        return fail(event_field(key_), key_ + " is out of range (" + (raw ? *raw : std::to_string(integer)) + " us)");
      if (key_ == "ts") {
        ev_.ts_ns = ns;
        ev_.has_ts = true;
      } else {
        ev_.dur_ns = ns;
        ev_.has_dur = true;
      }
    } else if (key_ == "pid" || key_ == "tid") {
      *text_field() = raw ? *raw : std::to_string(integer);
    }
    return true;
  }

  // The text member the current key names (ph, cat, name, pid, tid), or null.
  std::optional<std::string>* text_field() {
    if (key_ == "ph") return &ev_.ph;
    if (key_ == "cat") return &ev_.cat;
    if (key_ == "name") return &ev_.name;
    if (key_ == "pid") return &ev_.pid;
    if (key_ == "tid") return &ev_.tid;
    return nullptr;
  }

  bool event_string(json::string_t& v) {
    if (auto* field = text_field()) {
      *field = std::move(v);
    } else if (key_ == "ts" || key_ == "dur") {
      return fail(event_field(key_), key_ + " is a string, not a number");
    }
    return true;
  }

  bool finish_event() {
    // The checks below name the event by its position; the next one is read at the next index.
    struct advance {
      std::size_t& i;
      ~advance() { ++i; }
    } next{index_};
    if (!ev_.ph) return fail(event_field("ph"), event_label() + ": missing \"ph\"");
    if (*ev_.ph != "X") {
      ++out_.other_phase_events;
      return true;
    }
    if (!ev_.name) return fail(event_field("name"), event_label() + ": missing \"name\"");
    if (!ev_.has_ts) return fail(event_field("ts"), event_label() + ": missing \"ts\"");
    if (!ev_.has_dur) return fail(event_field("dur"), event_label() + ": missing \"dur\"");
    if (ev_.dur_ns < 0)
      return fail(event_field("dur"), event_label() + ": negative \"dur\" (" + std::to_string(ev_.dur_ns / 1000.0) + " us)");
    if (!ev_.pid) return fail(event_field("pid"), event_label() + ": missing \"pid\"");
    if (!ev_.tid) return fail(event_field("tid"), event_label() + ": missing \"tid\"");
    if (out_.events.size() >= limits_.max_events)
      return fail("traceEvents", "more than " + std::to_string(limits_.max_events) + " complete events (the limit)");

    trace_event e;
    e.ts_ns = ev_.ts_ns;
    e.dur_ns = ev_.dur_ns;
    e.name = intern_name();
    e.thread = intern_thread();
    // torch's legacy profiler writes no "cat": every event it exports is a CPU function.
    e.category = ev_.cat ? category_of(*ev_.cat) : event_category::cpu_op;
    if (ev_.cat) out_.categorized = true;
    e.external_id = narrow_id(ev_.external_id);
    e.correlation = ev_.correlation;
    e.stream = narrow_id(ev_.stream);
    out_.events.push_back(e);
    return true;
  }

  std::uint32_t intern_name() {
    auto it = names_.find(*ev_.name);
    if (it != names_.end()) return it->second;
    const auto id = static_cast<std::uint32_t>(out_.names.size());
    out_.names.push_back(*ev_.name);
    names_.emplace(std::move(*ev_.name), id);
    return id;
  }
  std::uint32_t intern_thread() {
    std::string k = *ev_.pid;
    k += '\x1f';
    k += *ev_.tid;
    auto it = threads_.find(k);
    if (it != threads_.end()) return it->second;
    const auto id = static_cast<std::uint32_t>(out_.threads.size());
    out_.threads.push_back({std::move(*ev_.pid), std::move(*ev_.tid)});
    threads_.emplace(std::move(k), id);
    return id;
  }

  trace& out_;
  const trace_limits& limits_;
  where at_ = where::document;
  std::size_t skip_ = 0;    // depth inside a value we do not read
  bool saw_events_ = false;
  std::string key_;
  pending_event ev_;
  std::size_t index_ = 0;   // position in traceEvents
  std::unordered_map<std::string, std::uint32_t> names_;
  std::unordered_map<std::string, std::uint32_t> threads_;
  std::string error_field_;
  std::string error_message_;
};

// One pass of the handler over `input` (the text, or a stream of the file); throws what
// parse_trace documents.
template <class Input>
trace parse_input(Input&& input, const trace_limits& limits, std::size_t expected_events) {
  trace out;
  trace_sax sax(out, limits, expected_events);
  // One argument, as src/api/strict_json.cpp calls it: a form nlohmann 3.7 (our floor) has too.
  const bool ok = json::sax_parse(std::forward<Input>(input), &sax);
  if (!ok || sax.failed()) {
    throw validation_error(sax.error_field(), sax.failed() ? sax.error_message() : "not valid JSON", "invalid_trace");
  }
  if (!sax.saw_events())
    throw validation_error("traceEvents", "no \"traceEvents\" array: not a Chrome trace", "invalid_trace");
  return out;
}

}  // namespace

trace parse_trace(std::string_view text, const trace_limits& limits) {
  if (text.size() > limits.max_bytes)
    throw validation_error("file", "the trace has " + std::to_string(text.size()) + " bytes, more than the limit of " +
                                       std::to_string(limits.max_bytes));
  return parse_input(text, limits, events_bound(text.size(), phase_keys(text)));
}

trace read_trace_file(const std::string& path, const trace_limits& limits) {
  // The parser reads the file through the stream's buffer, a character at a time: the text is
  // never held, so memory goes to the events kept alone (a 100 MB trace took 146 MB as a string).
  // The buffer outlives the stream that uses it.
  // A regular file only: a device (/dev/zero, /dev/urandom) never ends, a FIFO blocks the open,
  // and a directory has no size to read (it was reported as 9223372036854775807 bytes).
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw validation_error("file", "cannot read " + path + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    throw validation_error("file", path + " is not a regular file (" +
                                       (S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" : "a device or socket") +
                                       "): give the trace's file");
  std::vector<char> buffer(k_read_buffer_bytes);
  std::ifstream in;
  in.rdbuf()->pubsetbuf(buffer.data(), static_cast<std::streamsize>(buffer.size()));
  in.open(path, std::ios::binary | std::ios::ate);
  if (!in) throw validation_error("file", "cannot read " + path);
  const std::streamoff size = in.tellg();
  if (size < 0) throw validation_error("file", "cannot read " + path);
  if (static_cast<std::uint64_t>(size) > limits.max_bytes)
    throw validation_error("file", path + " has " + std::to_string(size) + " bytes, more than the limit of " +
                                       std::to_string(limits.max_bytes));
  in.seekg(0);
  std::istream& stream = in;
  const auto expected = events_bound(static_cast<std::size_t>(size), phase_keys(stream));
  return parse_input(stream, limits, expected);
}

}  // namespace jetperf::traces
