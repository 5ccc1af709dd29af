#include <jetperf/tegrastats/tegrastats_parser.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <istream>
#include <ostream>
#include <unordered_map>

#include <jetperf/common/errors.hpp>

namespace jetperf::telemetry {
namespace {

using sv = std::string_view;

// Character classes by table: the tokenizer and the name check touch every byte of a line.
enum : unsigned char { k_space = 1, k_name = 2 };
struct char_table {
  unsigned char c[256] = {};
  constexpr char_table() {
    c[static_cast<unsigned char>(' ')] = k_space;
    c[static_cast<unsigned char>('\t')] = k_space;
    c[static_cast<unsigned char>('\r')] = k_space;
    c[static_cast<unsigned char>('\n')] = k_space;
    for (int i = '0'; i <= '9'; ++i) c[i] = k_name;
    for (int i = 'A'; i <= 'Z'; ++i) c[i] = k_name;
    for (int i = 'a'; i <= 'z'; ++i) c[i] = k_name;
    c[static_cast<unsigned char>('_')] = k_name;
  }
};
constexpr char_table k_chars{};

inline bool is_space(char c) { return k_chars.c[static_cast<unsigned char>(c)] == k_space; }
inline bool is_name_char(char c) { return k_chars.c[static_cast<unsigned char>(c)] == k_name; }
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Equality with a literal of known length: the compiler turns it into one or two compares.
template <std::size_t N>
inline bool eq(sv s, const char (&lit)[N]) {
  return s.size() == N - 1 && std::memcmp(s.data(), lit, N - 1) == 0;
}

// Scans a decimal number ("-12.5", "44.343") at the start of s; returns the characters used, 0 if none.
// Hand-written rather than std::from_chars: gcc 9's library has no from_chars(double), and this
// form gives the same double for every number tegrastats prints (<= 15 significant digits).
#if defined(__GNUC__)
#define JETPERF_ALWAYS_INLINE __attribute__((always_inline)) inline
#define JETPERF_NOINLINE __attribute__((noinline))
#else
#define JETPERF_ALWAYS_INLINE inline
#define JETPERF_NOINLINE
#endif

JETPERF_ALWAYS_INLINE std::size_t scan_number(sv s, double& value) {
  static constexpr double pow10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
                                     1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18};
  const char* p = s.data();
  const char* const e = p + s.size();
  bool negative = false;
  if (p < e && (*p == '-' || *p == '+')) {
    negative = *p == '-';
    ++p;
  }
  // Digits go into an integer and are divided once by a power of ten: faster than a multiply per
  // digit, and 44.343 comes out as the same double as the literal.
  std::uint64_t mantissa = 0;
  const char* const int_start = p;
  while (p < e && is_digit(*p)) {
    mantissa = mantissa * 10 + static_cast<std::uint64_t>(*p - '0');
    ++p;
  }
  std::size_t digits = static_cast<std::size_t>(p - int_start);
  int frac = 0;
  if (p < e && *p == '.') {
    ++p;
    const char* const frac_start = p;
    while (p < e && is_digit(*p)) {
      mantissa = mantissa * 10 + static_cast<std::uint64_t>(*p - '0');
      ++p;
    }
    frac = static_cast<int>(p - frac_start);
    digits += static_cast<std::size_t>(frac);
  }
  if (digits == 0) return 0;
  if (digits > 18) {
    // Rare: more digits than a uint64 holds. Keep the first 18 and scale by the rest.
    mantissa = 0;
    std::size_t kept = 0;
    frac = 0;
    for (const char* q = int_start; q < p; ++q) {
      if (*q == '.') continue;
      bool fractional = q > int_start && std::memchr(int_start, '.', static_cast<std::size_t>(q - int_start));
      if (kept < 18) {
        mantissa = mantissa * 10 + static_cast<std::uint64_t>(*q - '0');
        ++kept;
        if (fractional) ++frac;
      } else if (!fractional) {
        --frac;
      }
    }
  }
  double v = static_cast<double>(mantissa);
  if (frac > 0) v /= pow10[frac];
  else if (frac < 0) v *= pow10[-frac < 18 ? -frac : 18];
  value = negative ? -v : v;
  return static_cast<std::size_t>(p - s.data());
}

// substr without its out_of_range check (every caller passes a position inside s), so that it
// stays inlined in the per-token paths: an out-of-line substr there costs ~2% of the parse.
JETPERF_ALWAYS_INLINE sv head(sv s, std::size_t n) { return sv(s.data(), n < s.size() ? n : s.size()); }
JETPERF_ALWAYS_INLINE sv tail(sv s, std::size_t pos) { return sv(s.data() + pos, s.size() - pos); }

inline bool parse_number(sv s, double& value) { return !s.empty() && scan_number(s, value) == s.size(); }

inline bool consume(sv& s, char c) {
  if (s.empty() || s.front() != c) return false;
  s.remove_prefix(1);
  return true;
}

template <std::size_t N>
inline bool consume(sv& s, const char (&lit)[N]) {
  if (s.size() < N - 1 || std::memcmp(s.data(), lit, N - 1) != 0) return false;
  s.remove_prefix(N - 1);
  return true;
}

JETPERF_ALWAYS_INLINE bool consume_number(sv& s, double& value) {
  std::size_t n = scan_number(s, value);
  if (n == 0) return false;
  s.remove_prefix(n);
  return true;
}

// "u/tMB"
inline bool parse_used_total_mb(sv s, double& used, double& total) {
  return consume_number(s, used) && consume(s, '/') && consume_number(s, total) && eq(s, "MB");
}

// "l%" or "l%@f"; freq left untouched when absent. Nothing is written unless the whole value
// parses: a field that fails is kept as unparsed text and must leave no half-value behind.
inline bool parse_load_freq(sv s, std::optional<double>& load, std::optional<double>& freq) {
  double l = 0;
  if (!consume_number(s, l) || !consume(s, '%')) return false;
  if (s.empty()) {
    load = l;
    return true;
  }
  double f = 0;
  if (!consume(s, '@') || !consume_number(s, f) || !s.empty()) return false;
  load = l;
  freq = f;
  return true;
}

// "[f0,f1,...]" -> list (appended to out)
bool parse_freq_list(sv s, std::vector<double>& out) {
  if (!consume(s, '[') || s.empty() || s.back() != ']') return false;
  s.remove_suffix(1);
  while (!s.empty()) {
    double f = 0;
    if (!consume_number(s, f)) return false;
    out.push_back(f);
    if (s.empty()) break;
    if (!consume(s, ',') || s.empty()) return false;
  }
  return !out.empty();
}

// "cur/avg", "curmW/avgmW", "cur/avg/max" with an optional mW unit on each value.
inline bool parse_rail_value(sv s, double* values, int& count) {
  count = 0;
  while (count < 3) {
    if (!consume_number(s, values[count])) return false;
    if (!consume(s, "mW")) {
      // A bare W is not printed by any known release, but a watt value must not be read as mW.
      if (consume(s, 'W')) values[count] *= 1000;
    }
    ++count;
    if (s.empty()) break;
    if (!consume(s, '/')) return false;
  }
  return s.empty() && count >= 2;
}

// Element `n` of a record's vector, reusing the slot (and its name's buffer) left by the previous
// line parsed into the same record: a steady stream of lines then parses without allocating.
inline void reset_values(tegrastats_rail& t) { t.max_mw.reset(); }
inline void reset_values(tegrastats_temp& t) {
  t.celsius.reset();
  t.max_celsius.reset();
}
inline void reset_values(tegrastats_engine& t) {
  t.freq_mhz.reset();
  t.util_pct.reset();
  t.fg_pct.reset();
  t.bg_pct.reset();
  t.freqs_mhz.clear();
}

template <typename T>
T& slot(std::vector<T>& v, std::size_t& n, sv name) {
  T& t = n < v.size() ? v[n] : v.emplace_back();
  ++n;
  reset_values(t);
  // Same layout as the previous line (the usual case): the name is already there.
  if (!(t.name.size() == name.size() && std::memcmp(t.name.data(), name.data(), name.size()) == 0)) {
    t.name.assign(name.data(), name.size());
  }
  return t;
}

// First space (' ', tab, CR, LF) in [p, e), or e. Eight bytes at a time: a word with no byte
// <= 0x20 has no space, and most tokens are several words long.
inline const char* find_space(const char* p, const char* e) {
  constexpr std::uint64_t ones = 0x0101010101010101ULL;
  constexpr std::uint64_t highs = 0x8080808080808080ULL;
  while (e - p >= 8) {
    std::uint64_t x;
    std::memcpy(&x, p, 8);
    // Flags the bytes below 0x21; the lowest flagged byte is exact (borrows only run upwards).
    std::uint64_t low = (x - ones * 0x21) & ~x & highs;
    if (low != 0) {
      const char* q = p + (__builtin_ctzll(low) >> 3);
      for (const char* end = p + 8; q < end; ++q) {
        if (is_space(*q)) return q;
      }
    }
    p += 8;
  }
  while (p < e && !is_space(*p)) ++p;
  return p;
}

class line_scanner {
 public:
  explicit line_scanner(sv line) {
    tokens_.clear();
    const char* p = line.data();
    const char* const e = p + line.size();
    while (p < e) {
      while (p < e && is_space(*p)) ++p;
      const char* start = p;
      p = find_space(p, e);
      if (p > start) tokens_.emplace_back(start, static_cast<std::size_t>(p - start));
    }
  }

  bool run(tegrastats_record& r, std::string& error) {
    bool ok = scan(r, error);
    // Drop the slots of the previous line that this one did not fill.
    r.rails.resize(rails_);
    r.temps.resize(temps_);
    r.engines.resize(engines_);
    if (r.unparsed.size() != unparsed_) r.unparsed.resize(unparsed_);
    return ok;
  }

 private:
  // Out of line, as gcc chose before the unparsed-field path grew it: inlined into
  // try_parse_tegrastats_line it costs ~1% more instructions per line (callgrind, bench mix).
  JETPERF_NOINLINE bool scan(tegrastats_record& r, std::string& error) {
    std::size_t i = 0;
    bool any = false;
    if (tokens_.size() >= 2 && is_date(tokens_[0]) && is_time(tokens_[1])) {
      // Assigned into the previous line's string: no allocation once the record has one.
      if (!r.timestamp) r.timestamp.emplace();
      r.timestamp->assign(tokens_[0].data(), tokens_[0].size());
      r.timestamp->push_back(' ');
      r.timestamp->append(tokens_[1].data(), tokens_[1].size());
      i = 2;
    } else {
      r.timestamp.reset();
    }
    std::size_t first_unknown = tokens_.size();
    while (i < tokens_.size()) {
      sv tok = tokens_[i];
      sv next = i + 1 < tokens_.size() ? tokens_[i + 1] : sv{};
      std::size_t used = field(tok, next, i, r);
      if (used == 0) {
        // Not understood: kept as text, and the rest of the line is still read.
        if (first_unknown == tokens_.size()) first_unknown = i;
        used = unknown(i, r);
      } else {
        any = true;
      }
      i += used;
    }
    if (!any) {
      if (first_unknown < tokens_.size()) {
        sv tok = tokens_[first_unknown];
        sv next = at(first_unknown + 1);
        error = "unexpected token '" + printable(tok) + "'" +
                (next.empty() ? std::string() : " before '" + printable(next) + "'");
      } else {
        error = "no tegrastats fields";
      }
      return false;
    }
    return true;
  }

  // Whether the token after an unknown NAME is its value: "off" or anything that cannot start a
  // field of its own (a NAME, a "(" group, a one-token NAME@... field).
  static bool looks_like_value(sv s) {
    if (s.empty()) return false;
    if (eq(s, "off")) return true;
    const char c = s.front();
    if (is_digit(c) || c == '-' || c == '+' || c == '.' || c == '@' || c == '[' || c == '%' || c == '/') return true;
    if (c == '(') return false;
    std::size_t p = 0;
    while (p < s.size() && is_name_char(s[p])) ++p;
    return p < s.size() && s[p] != '@';
  }

  static bool is_name(sv s) {
    for (char c : s)
      if (!is_name_char(c)) return false;
    return !s.empty();
  }

  // Keeps the field starting at token i as text in r.unparsed; returns how many tokens it spans:
  // a parenthesised group "(lfb 3x4GB)", "MTS fg x% bg y%", NAME and its value, or one token.
  // Out of line: it is the rare path, and the scan loop stays tight without it.
  JETPERF_NOINLINE std::size_t unknown(std::size_t i, tegrastats_record& r) {
    const sv tok = tokens_[i];
    std::size_t n = 1;
    if (tok.front() == '(') {
      while (tokens_[i + n - 1].back() != ')' && i + n < tokens_.size() && n < 4) ++n;
    } else if (eq(tok, "MTS")) {
      while (i + n < tokens_.size() && n < 5 &&
             (eq(tokens_[i + n], "fg") || eq(tokens_[i + n], "bg") || tokens_[i + n].back() == '%')) {
        ++n;
      }
    } else if (is_name(tok) && looks_like_value(at(i + 1))) {
      n = 2;
    }
    std::string& text = unparsed_ < r.unparsed.size() ? r.unparsed[unparsed_] : r.unparsed.emplace_back();
    ++unparsed_;
    text.clear();
    for (std::size_t k = 0; k < n; ++k) {
      if (k > 0) text.push_back(' ');
      append_printable(text, tokens_[i + k]);
    }
    if (text.size() > k_max_unparsed) {
      text.resize(k_max_unparsed - 3);
      text += "...";
    }
    return n;
  }

  // Printable ASCII as it is, every other byte as \xNN: the text goes into JSON, which must be UTF-8.
  static void append_printable(std::string& out, sv s) {
    static const char hex[] = "0123456789abcdef";
    for (char c : s) {
      const auto u = static_cast<unsigned char>(c);
      if (u >= 0x20 && u < 0x7f) {
        out.push_back(c);
      } else {
        out += "\\x";
        out.push_back(hex[u >> 4]);
        out.push_back(hex[u & 15]);
      }
      // Long enough for the cut in unknown(): a huge hostile token costs no more than this.
      if (out.size() > k_max_unparsed) return;
    }
  }

  static std::string printable(sv s) {
    std::string out;
    append_printable(out, s);
    return out;
  }

  // Every position is checked: the timestamp is copied into the JSON, and a stray byte there
  // (not UTF-8) would make the JSON writer's dump() throw (found by tests/fuzz).
  static bool digits_at(sv s, std::initializer_list<std::size_t> positions) {
    for (std::size_t i : positions) {
      if (!is_digit(s[i])) return false;
    }
    return true;
  }
  static bool is_date(sv s) {
    return s.size() == 10 && s[2] == '-' && s[5] == '-' && digits_at(s, {0, 1, 3, 4, 6, 7, 8, 9});
  }
  static bool is_time(sv s) {
    return s.size() == 8 && s[2] == ':' && s[5] == ':' && digits_at(s, {0, 1, 3, 4, 6, 7});
  }

  sv at(std::size_t i) const { return i < tokens_.size() ? tokens_[i] : sv{}; }

  // Parses the field starting at token i; returns how many tokens it used, 0 when it is not valid.
  // Keywords are told apart by their first character, so most tokens cost one compare here.
  std::size_t field(sv tok, sv next, std::size_t i, tegrastats_record& r) {
    switch (tok.front()) {
      case 'R':
        if (eq(tok, "RAM")) return ram(next, i, r);
        break;
      case 'S':
        if (eq(tok, "SWAP")) return swap(next, i, r);
        break;
      case 'I':
        if (eq(tok, "IRAM")) return iram(next, i, r);
        break;
      case 'C':
        if (eq(tok, "CPU") && !next.empty() && next.front() == '[') return cpu_list(next, r) ? 2 : 0;
        break;
      case 'c':
        if (eq(tok, "cpu") && !next.empty() && next.front() == '[') return old_cpu_list(next, r) ? 2 : 0;
        break;
      case 'E':
        if (eq(tok, "EMC_FREQ")) return parse_load_freq(next, r.emc_util_pct, r.emc_freq_mhz) ? 2 : 0;
        break;
      case 'G':
        if (eq(tok, "GR3D_FREQ")) return gpu(next, false, r) ? 2 : 0;
        if (eq(tok, "GR3D2_FREQ")) return gpu(next, true, r) ? 2 : 0;
        break;
      case 'M':
        if (eq(tok, "MTS")) return mts(i, r);
        break;
      default:
        break;
    }
    // One pass finds the end of the leading name: a whole-name token is a rail or an engine,
    // NAME@...C is a temperature, name@[f0,f1] a per-cluster engine, anything else is not tegrastats.
    std::size_t p = 0;
    while (p < tok.size() && is_name_char(tok[p])) ++p;
    if (p < tok.size()) {
      if (tok[p] != '@' || p == 0) return 0;
      if (tok.back() == 'C') return temperature(tok, p, r) ? 1 : 0;
      if (p + 1 < tok.size() && tok[p + 1] == '[') return engine_clusters(tok.substr(0, p), tok.substr(p), r) ? 1 : 0;
      return 0;
    }
    if (next.empty()) return 0;
    if (next.find('/') != sv::npos) {
      double values[3];
      int count = 0;
      if (!parse_rail_value(next, values, count)) return 0;
      tegrastats_rail& rail = slot(r.rails, rails_, tok);
      rail.cur_mw = values[0];
      rail.avg_mw = values[1];
      if (count == 3) rail.max_mw = values[2];
      return 2;
    }
    return engine(tok, next, r) ? 2 : 0;
  }

  // An engine or cluster clock: `f`, `off`, `l%`, `l%@f`, or one of the `@` forms (below).
  bool engine(sv name, sv value, tegrastats_record& r) {
    std::optional<double> freq, util;
    double f = 0;
    if (eq(value, "off")) {
      // JetPack 7 prints a stopped engine as `off`: known, but without a frequency.
    } else if (parse_number(value, f)) {
      freq = f;
    } else if (!parse_load_freq(value, util, freq)) {
      return engine_at(name, value, r);
    }
    tegrastats_engine& e = slot(r.engines, engines_, name);
    e.freq_mhz = freq;
    e.util_pct = util;
    return true;
  }

  // `@f`: Thor's engines print their clock with no load (`NVENC0_FREQ @1556`, `OFA_FREQ @0`
  // while gated). `l%@[f0,f1]` or `@[f0,f1]`: one frequency per cluster. Out of line: the common
  // forms above stay small enough to inline into field().
  JETPERF_NOINLINE bool engine_at(sv name, sv value, tegrastats_record& r) {
    double f = 0;
    if (value.size() > 1 && value.front() == '@' && value[1] != '[') {
      if (!parse_number(tail(value, 1), f)) return false;
      tegrastats_engine& e = slot(r.engines, engines_, name);
      e.freq_mhz = f;
      return true;
    }
    return engine_clusters(name, value, r);
  }

  // `l%@[f0,f1]` or `@[f0,f1]`: one frequency per cluster.
  JETPERF_NOINLINE bool engine_clusters(sv name, sv value, tegrastats_record& r) {
    std::optional<double> util;
    if (!parse_cluster_value(value, util)) return false;
    tegrastats_engine& e = slot(r.engines, engines_, name);
    e.freq_mhz = *std::max_element(freqs_.begin(), freqs_.end());
    e.util_pct = util;
    e.freqs_mhz.assign(freqs_.begin(), freqs_.end());
    return true;
  }

  // "RAM u/tMB (lfb NxSIZE)". A (lfb ...) it cannot read is left to the scan as an unparsed group;
  // the RAM values themselves are good.
  std::size_t ram(sv next, std::size_t i, tegrastats_record& r) {
    double used = 0, total = 0;
    if (!parse_used_total_mb(next, used, total)) return 0;
    r.ram_used_mb = used;
    r.ram_total_mb = total;
    if (!eq(at(i + 2), "(lfb")) return 2;
    sv lfb = at(i + 3);
    double n = 0, size = 0;
    if (!consume_number(lfb, n) || !consume(lfb, 'x') || !consume_number(lfb, size)) return 2;
    if (eq(lfb, "MB)")) {
    } else if (eq(lfb, "kB)")) {
      size /= 1024.0;
    } else {
      return 2;
    }
    r.lfb_blocks = n;
    r.lfb_block_mb = size;
    return 4;
  }

  std::size_t swap(sv next, std::size_t i, tegrastats_record& r) {
    double used = 0, total = 0;
    if (!parse_used_total_mb(next, used, total)) return 0;
    r.swap_used_mb = used;
    r.swap_total_mb = total;
    if (!eq(at(i + 2), "(cached")) return 2;
    sv cached = at(i + 3);
    double c = 0;
    if (!consume_number(cached, c) || !eq(cached, "MB)")) return 2;
    r.swap_cached_mb = c;
    return 4;
  }

  // "IRAM u/tkB(lfb ZkB)" (no space before the parenthesis), tolerating a space there too.
  std::size_t iram(sv next, std::size_t i, tegrastats_record& r) {
    double used = 0, total = 0;
    sv s = next;
    if (!consume_number(s, used) || !consume(s, '/') || !consume_number(s, total) || !consume(s, "kB")) return 0;
    std::size_t taken = 2;
    if (s.empty()) {
      if (eq(at(i + 2), "(lfb")) taken = 3;
    } else if (!eq(s, "(lfb")) {
      return 0;
    }
    r.iram_used_kb = used;
    r.iram_total_kb = total;
    if (taken == 2 && s.empty()) return 2;
    sv lfb = at(i + taken);
    double z = 0;
    // A bad "(lfb" part after a good value: the value counts, the rest is left unparsed.
    if (!consume_number(lfb, z) || !eq(lfb, "kB)")) return 2;
    r.iram_lfb_kb = z;
    return taken + 1;
  }

  static bool cpu_list(sv s, tegrastats_record& r) {
    const std::size_t before = r.cpus.size();
    if (!cpu_entries(s, r)) {
      r.cpus.resize(before);  // no half list
      return false;
    }
    return true;
  }

  static bool cpu_entries(sv s, tegrastats_record& r) {
    if (!consume(s, '[') || s.empty() || s.back() != ']') return false;
    s.remove_suffix(1);
    while (!s.empty()) {
      std::size_t comma = s.find(',');
      sv entry = head(s, comma);
      tegrastats_cpu cpu;
      if (!eq(entry, "off") && !parse_load_freq(entry, cpu.util_pct, cpu.freq_mhz)) return false;
      r.cpus.push_back(cpu);
      if (comma == sv::npos) break;
      s.remove_prefix(comma + 1);
      if (s.empty()) return false;
    }
    return !r.cpus.empty();
  }

  // Old TX1/r28 form: "cpu [a%,b%,...]@f", one frequency for every core.
  static bool old_cpu_list(sv s, tegrastats_record& r) {
    const std::size_t before = r.cpus.size();
    if (!old_cpu_entries(s, r)) {
      r.cpus.resize(before);
      return false;
    }
    return true;
  }

  static bool old_cpu_entries(sv s, tegrastats_record& r) {
    std::size_t close = s.find(']');
    if (close == sv::npos) return false;
    sv list = head(tail(s, 1), close - 1);
    sv rest = tail(s, close + 1);
    std::optional<double> freq;
    if (!rest.empty()) {
      double f = 0;
      if (!consume(rest, '@') || !consume_number(rest, f) || !rest.empty()) return false;
      freq = f;
    }
    while (!list.empty()) {
      std::size_t comma = list.find(',');
      sv entry = head(list, comma);
      tegrastats_cpu cpu;
      if (!eq(entry, "off")) {
        double l = 0;
        if (!consume_number(entry, l) || !eq(entry, "%")) return false;
        cpu.util_pct = l;
        cpu.freq_mhz = freq;
      }
      r.cpus.push_back(cpu);
      if (comma == sv::npos) break;
      list.remove_prefix(comma + 1);
    }
    return !r.cpus.empty();
  }

  // `l%@[f0,f1,..]`, or Thor's `@[f0,f1,..]` with no load: one frequency per cluster (or GPC),
  // into freqs_ (cleared first).
  static bool parse_cluster_value(sv s, std::optional<double>& load) {
    freqs_.clear();
    const std::size_t at_pos = s.find("@[");
    if (at_pos == sv::npos) return false;
    std::optional<double> no_freq;
    if (at_pos > 0 && !parse_load_freq(head(s, at_pos), load, no_freq)) return false;
    return parse_freq_list(tail(s, at_pos + 1), freqs_);
  }

  static bool gpu(sv s, bool second, tegrastats_record& r) {
    std::optional<double> load;
    std::optional<double> freq;
    if (s.empty()) return false;
    if (s.find("@[") != sv::npos) {
      if (!parse_cluster_value(s, load)) return false;
    } else {
      freqs_.clear();
      if (!parse_load_freq(s, load, freq)) return false;
    }
    const std::vector<double>& list = freqs_;
    if (second) {
      // GR3D2_FREQ is the second GPC of the same GPU (README 10.5): one GPU, a per-GPC list.
      r.gpu_per_gpc = true;
      if (freq) r.gpu_freq_mhz.push_back(*freq);
      r.gpu_freq_mhz.insert(r.gpu_freq_mhz.end(), list.begin(), list.end());
      if (load && r.gpu_util_pct) {
        r.gpu_util_pct = (*r.gpu_util_pct + *load) / 2.0;
      } else if (load) {
        r.gpu_util_pct = load;
      }
      return true;
    }
    r.gpu_util_pct = load;
    if (!list.empty()) {
      r.gpu_per_gpc = true;
      r.gpu_freq_mhz.assign(list.begin(), list.end());
    } else if (freq) {
      r.gpu_freq_mhz.assign(1, *freq);
    }
    return true;
  }

  std::size_t mts(std::size_t i, tegrastats_record& r) {
    double fg = 0, bg = 0;
    sv a = at(i + 2), b = at(i + 4);
    if (!eq(at(i + 1), "fg") || !eq(at(i + 3), "bg")) return 0;
    if (!consume_number(a, fg) || !eq(a, "%") || !consume_number(b, bg) || !eq(b, "%")) return 0;
    tegrastats_engine& e = slot(r.engines, engines_, "MTS");
    e.fg_pct = fg;
    e.bg_pct = bg;
    return 5;
  }

  // tok is NAME@value C with NAME (tok[0, at_pos)) already checked to be a name.
  bool temperature(sv tok, std::size_t at_pos, tegrastats_record& r) {
    sv value = tail(tok, at_pos + 1);
    value.remove_suffix(1);  // the trailing C
    double cur = 0;
    if (!consume_number(value, cur)) return false;
    std::optional<double> max_c;
    // JetPack 7.2 writes the unit on both values, cpu@52.968C/52.968C (jtop's test_06 line);
    // the earlier JetPack 7 form is cpu@45.5/47.2C.
    if (value.size() > 1 && value.front() == 'C') consume(value, 'C');
    if (!value.empty()) {
      double mx = 0;
      if (!consume(value, '/') || !consume_number(value, mx) || !value.empty()) return false;
      if (mx > -256.0) max_c = mx;
    }
    tegrastats_temp& t = slot(r.temps, temps_, head(tok, at_pos));
    t.max_celsius = max_c;
    // -256 is tegrastats' (and jtop's) marker for an offline sensor, not a temperature.
    if (cur > -256.0) t.celsius = cur;
    return true;
  }

  static constexpr std::size_t k_max_unparsed = 200;

  std::size_t rails_ = 0;
  std::size_t temps_ = 0;
  std::size_t engines_ = 0;
  std::size_t unparsed_ = 0;
  // Scratch reused across lines, so that a steady stream parses without allocating.
  static thread_local std::vector<sv> tokens_;
  static thread_local std::vector<double> freqs_;
};

thread_local std::vector<sv> line_scanner::tokens_;
thread_local std::vector<double> line_scanner::freqs_;

std::string format_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

// Clears a record but keeps its vectors' capacity, and the rail, temperature and engine slots
// with their names, which the scanner reuses and trims: a reused record parses without allocating.
void clear_record(tegrastats_record& r) {
  r.ram_used_mb.reset();
  r.ram_total_mb.reset();
  r.lfb_blocks.reset();
  r.lfb_block_mb.reset();
  r.swap_used_mb.reset();
  r.swap_total_mb.reset();
  r.swap_cached_mb.reset();
  r.iram_used_kb.reset();
  r.iram_total_kb.reset();
  r.iram_lfb_kb.reset();
  r.cpus.clear();
  r.emc_util_pct.reset();
  r.emc_freq_mhz.reset();
  r.gpu_util_pct.reset();
  r.gpu_freq_mhz.clear();
  r.gpu_per_gpc = false;
}

}  // namespace

bool try_parse_tegrastats_line(std::string_view line, tegrastats_record& out, std::string& error) {
  clear_record(out);
  line_scanner scanner(line);
  return scanner.run(out, error);
}

tegrastats_record parse_tegrastats_line(std::string_view line) {
  tegrastats_record r;
  std::string error;
  if (!try_parse_tegrastats_line(line, r, error)) {
    throw validation_error("line", "not a tegrastats line: " + error);
  }
  return r;
}

tegrastats_parse_result parse_tegrastats_stream(std::istream& in) {
  tegrastats_parse_result result;
  std::string line;
  std::size_t number = 0;
  std::string error;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    ++result.lines;
    tegrastats_record r;
    if (try_parse_tegrastats_line(line, r, error)) {
      result.unparsed_fields += r.unparsed.size();
      for (const auto& u : r.unparsed) result.unparsed_names.first_time(tegrastats_token_name(u));
      result.records.push_back(std::move(r));
      result.record_lines.push_back(number);
    } else {
      result.errors.push_back({number, error, line.substr(0, 200)});
    }
  }
  return result;
}

std::string_view tegrastats_token_name(std::string_view unparsed_field) {
  std::size_t p = 0;
  while (p < unparsed_field.size() && is_name_char(unparsed_field[p])) ++p;
  if (p > 0) return unparsed_field.substr(0, p);
  return unparsed_field.substr(0, unparsed_field.find(' '));
}

std::vector<std::pair<std::string, std::string>> flatten_tegrastats(const tegrastats_record& r) {
  // Built from the record in reading order (the JSON form, client/tegrastats_json.hpp, sorts keys).
  std::vector<std::pair<std::string, std::string>> out;
  auto num = [](const std::optional<double>& v) { return v ? format_number(*v) : std::string(); };
  if (r.timestamp) out.emplace_back("timestamp", *r.timestamp);
  out.emplace_back("ram.used_mb", num(r.ram_used_mb));
  out.emplace_back("ram.total_mb", num(r.ram_total_mb));
  if (r.lfb_blocks) out.emplace_back("ram.lfb_blocks", num(r.lfb_blocks));
  if (r.lfb_block_mb) out.emplace_back("ram.lfb_block_mb", num(r.lfb_block_mb));
  if (r.swap_used_mb || r.swap_total_mb) {
    out.emplace_back("swap.used_mb", num(r.swap_used_mb));
    out.emplace_back("swap.total_mb", num(r.swap_total_mb));
    out.emplace_back("swap.cached_mb", num(r.swap_cached_mb));
  }
  if (r.iram_used_kb || r.iram_total_kb) {
    out.emplace_back("iram.used_kb", num(r.iram_used_kb));
    out.emplace_back("iram.total_kb", num(r.iram_total_kb));
    out.emplace_back("iram.lfb_kb", num(r.iram_lfb_kb));
  }
  for (std::size_t i = 0; i < r.cpus.size(); ++i) {
    std::string p = "cpus." + std::to_string(i) + ".";
    out.emplace_back(p + "util_pct", num(r.cpus[i].util_pct));
    out.emplace_back(p + "freq_mhz", num(r.cpus[i].freq_mhz));
  }
  out.emplace_back("emc.util_pct", num(r.emc_util_pct));
  out.emplace_back("emc.freq_mhz", num(r.emc_freq_mhz));
  out.emplace_back("gpu.util_pct", num(r.gpu_util_pct));
  if (r.gpu_per_gpc) {
    for (std::size_t k = 0; k < r.gpu_freq_mhz.size(); ++k) {
      out.emplace_back("gpu.freq_mhz." + std::to_string(k), format_number(r.gpu_freq_mhz[k]));
    }
  } else {
    out.emplace_back("gpu.freq_mhz", r.gpu_freq_mhz.empty() ? std::string() : format_number(r.gpu_freq_mhz[0]));
  }
  for (const auto& e : r.engines) {
    const std::string p = "engines." + e.name + ".";
    out.emplace_back(p + "freq_mhz", num(e.freq_mhz));
    if (e.util_pct) out.emplace_back(p + "util_pct", num(e.util_pct));
    if (e.fg_pct) out.emplace_back(p + "fg_pct", num(e.fg_pct));
    if (e.bg_pct) out.emplace_back(p + "bg_pct", num(e.bg_pct));
  }
  for (const auto& t : r.temps) out.emplace_back("temps." + t.name, num(t.celsius));
  // JetPack 7's `name@cur/maxC`: the maximum tegrastats has seen, beside the current value.
  for (const auto& t : r.temps)
    if (t.max_celsius) out.emplace_back("temps_max." + t.name, num(t.max_celsius));
  std::unordered_map<std::string, int> seen;
  for (const auto& rail : r.rails) {
    int n = ++seen[rail.name];
    std::string p = "rails." + (n == 1 ? rail.name : rail.name + "_" + std::to_string(n)) + ".";
    out.emplace_back(p + "cur_mw", format_number(rail.cur_mw));
    out.emplace_back(p + "avg_mw", format_number(rail.avg_mw));
    if (rail.max_mw) out.emplace_back(p + "max_mw", format_number(*rail.max_mw));
  }
  if (!r.unparsed.empty()) {
    std::string joined;
    for (const auto& u : r.unparsed) joined += (joined.empty() ? "" : ";") + u;
    out.emplace_back("unparsed", std::move(joined));
  }
  return out;
}

void write_tegrastats_csv(const std::vector<tegrastats_record>& records, std::ostream& out) {
  std::vector<std::vector<std::pair<std::string, std::string>>> rows;
  rows.reserve(records.size());
  std::vector<std::string> columns;
  std::unordered_map<std::string, std::size_t> index;
  for (const auto& r : records) {
    rows.push_back(flatten_tegrastats(r));
    for (const auto& cell : rows.back()) {
      if (index.emplace(cell.first, columns.size()).second) columns.push_back(cell.first);
    }
  }
  for (std::size_t c = 0; c < columns.size(); ++c) out << (c ? "," : "") << csv_cell(columns[c]);
  out << '\n';
  std::vector<std::string> cells;
  for (const auto& row : rows) {
    cells.assign(columns.size(), std::string());
    for (const auto& cell : row) cells[index[cell.first]] = cell.second;
    for (std::size_t c = 0; c < cells.size(); ++c) out << (c ? "," : "") << csv_cell(cells[c]);
    out << '\n';
  }
}

}  // namespace jetperf::telemetry
