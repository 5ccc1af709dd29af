#include <jetperf/telemetry/tegrastats_parser.hpp>

#include <cstdint>
#include <cstdio>
#include <istream>
#include <ostream>
#include <unordered_map>

#include <jetperf/common/errors.hpp>

namespace jetperf::telemetry {
namespace {

using sv = std::string_view;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_name(sv s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!(is_digit(c) || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_')) return false;
  }
  return true;
}

// Scans a decimal number ("-12.5", "44.343") at the start of s; returns the characters used, 0 if none.
// Hand-written because std::from_chars(double) is missing from gcc 9's library, our floor.
std::size_t scan_number(sv s, double& value) {
  static constexpr double pow10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
                                     1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18};
  std::size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) {
    negative = s[i] == '-';
    ++i;
  }
  // Digits go into an integer and are divided once by a power of ten: faster than a multiply per
  // digit, and 44.343 comes out as the same double as the literal.
  std::uint64_t mantissa = 0;
  std::size_t digits = 0;
  int frac = 0;
  while (i < s.size() && is_digit(s[i])) {
    if (digits < 18) mantissa = mantissa * 10 + static_cast<std::uint64_t>(s[i] - '0');
    else --frac;  // beyond 18 digits: scale instead of overflowing
    ++i;
    ++digits;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && is_digit(s[i])) {
      if (digits < 18) {
        mantissa = mantissa * 10 + static_cast<std::uint64_t>(s[i] - '0');
        ++frac;
      }
      ++i;
      ++digits;
    }
  }
  if (digits == 0) return 0;
  double v = static_cast<double>(mantissa);
  if (frac > 0) v /= pow10[frac];
  else if (frac < 0) v *= pow10[-frac < 18 ? -frac : 18];
  value = negative ? -v : v;
  return i;
}

bool parse_number(sv s, double& value) { return !s.empty() && scan_number(s, value) == s.size(); }

bool consume(sv& s, sv prefix) {
  if (s.substr(0, prefix.size()) != prefix) return false;
  s.remove_prefix(prefix.size());
  return true;
}

bool consume_number(sv& s, double& value) {
  std::size_t n = scan_number(s, value);
  if (n == 0) return false;
  s.remove_prefix(n);
  return true;
}

// "u/tMB" or "u/tkB"
bool parse_used_total(sv s, sv unit, double& used, double& total) {
  return consume_number(s, used) && consume(s, "/") && consume_number(s, total) && s == unit;
}

// "l%" or "l%@f"; freq left untouched when absent.
bool parse_load_freq(sv s, std::optional<double>& load, std::optional<double>& freq) {
  double l = 0;
  if (!consume_number(s, l) || !consume(s, "%")) return false;
  load = l;
  if (s.empty()) return true;
  double f = 0;
  if (!consume(s, "@") || !consume_number(s, f) || !s.empty()) return false;
  freq = f;
  return true;
}

// "[f0,f1,...]" -> list
bool parse_freq_list(sv s, std::vector<double>& out) {
  if (!consume(s, "[") || s.empty() || s.back() != ']') return false;
  s.remove_suffix(1);
  while (!s.empty()) {
    double f = 0;
    if (!consume_number(s, f)) return false;
    out.push_back(f);
    if (s.empty()) break;
    if (!consume(s, ",") || s.empty()) return false;
  }
  return !out.empty();
}

// "cur/avg", "curmW/avgmW", "cur/avg/max" with an optional mW unit on each value.
bool parse_rail_value(sv s, tegrastats_rail& rail) {
  double values[3];
  int count = 0;
  while (count < 3) {
    if (!consume_number(s, values[count])) return false;
    if (!consume(s, "mW")) {
      // A bare W is not printed by any known release, but a watt value must not be read as mW.
      if (consume(s, "W")) values[count] *= 1000;
    }
    ++count;
    if (s.empty()) break;
    if (!consume(s, "/")) return false;
  }
  if (!s.empty() || count < 2) return false;
  rail.cur_mw = values[0];
  rail.avg_mw = values[1];
  if (count == 3) rail.max_mw = values[2];
  return true;
}

class line_scanner {
 public:
  explicit line_scanner(sv line) {
    tokens_.clear();
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && is_space(line[i])) ++i;
      std::size_t start = i;
      while (i < line.size() && !is_space(line[i])) ++i;
      if (i > start) tokens_.push_back(line.substr(start, i - start));
    }
  }

  bool run(tegrastats_record& r, std::string& error) {
    std::size_t i = 0;
    bool any = false;
    if (tokens_.size() >= 2 && is_date(tokens_[0]) && is_time(tokens_[1])) {
      r.timestamp = std::string(tokens_[0]) + " " + std::string(tokens_[1]);
      i = 2;
    }
    while (i < tokens_.size()) {
      sv tok = tokens_[i];
      sv next = i + 1 < tokens_.size() ? tokens_[i + 1] : sv{};
      std::size_t used = field(tok, next, i, r);
      if (used == 0) {
        error = "unexpected token '" + std::string(tok) + "'" +
                (next.empty() ? std::string() : " before '" + std::string(next) + "'");
        return false;
      }
      i += used;
      any = true;
    }
    if (!any) {
      error = "no tegrastats fields";
      return false;
    }
    return true;
  }

 private:
  static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
  static bool is_date(sv s) {
    return s.size() == 10 && s[2] == '-' && s[5] == '-' && is_digit(s[0]) && is_digit(s[9]);
  }
  static bool is_time(sv s) { return s.size() == 8 && s[2] == ':' && s[5] == ':' && is_digit(s[0]); }

  sv at(std::size_t i) const { return i < tokens_.size() ? tokens_[i] : sv{}; }

  // Parses the field starting at token i; returns how many tokens it used, 0 when it is not valid.
  std::size_t field(sv tok, sv next, std::size_t i, tegrastats_record& r) {
    if (tok == "RAM") return ram(next, i, r);
    if (tok == "SWAP") return swap(next, i, r);
    if (tok == "IRAM") return iram(next, i, r);
    if (tok == "CPU" && !next.empty() && next.front() == '[') return cpu_list(next, r) ? 2 : 0;
    if (tok == "cpu" && !next.empty() && next.front() == '[') return old_cpu_list(next, r) ? 2 : 0;
    if (tok == "EMC_FREQ") {
      return parse_load_freq(next, r.emc_util_pct, r.emc_freq_mhz) ? 2 : 0;
    }
    if (tok == "GR3D_FREQ" || tok == "GR3D2_FREQ") return gpu(next, tok == "GR3D2_FREQ", r) ? 2 : 0;
    if (tok == "MTS") return mts(i, r);
    std::size_t at_pos = tok.find('@');
    if (at_pos != sv::npos && at_pos > 0 && tok.back() == 'C') return temperature(tok, at_pos, r) ? 1 : 0;
    if (!is_name(tok) || next.empty()) return 0;
    if (next.find('/') != sv::npos) {
      tegrastats_rail rail;
      rail.name = std::string(tok);
      if (!parse_rail_value(next, rail)) return 0;
      r.rails.push_back(std::move(rail));
      return 2;
    }
    tegrastats_engine engine;
    engine.name = std::string(tok);
    double f = 0;
    if (next == "off") {
      // JetPack 7 prints a stopped engine as `off`: known, but without a frequency.
    } else if (parse_number(next, f)) {
      engine.freq_mhz = f;
    } else if (!parse_load_freq(next, engine.util_pct, engine.freq_mhz)) {
      return 0;
    }
    r.engines.push_back(std::move(engine));
    return 2;
  }

  std::size_t ram(sv next, std::size_t i, tegrastats_record& r) {
    double used = 0, total = 0;
    if (!parse_used_total(next, "MB", used, total)) return 0;
    r.ram_used_mb = used;
    r.ram_total_mb = total;
    if (at(i + 2) != "(lfb") return 2;
    sv lfb = at(i + 3);
    double n = 0, size = 0;
    if (!consume_number(lfb, n) || !consume(lfb, "x") || !consume_number(lfb, size)) return 0;
    if (lfb == "MB)") {
    } else if (lfb == "kB)") {
      size /= 1024.0;
    } else {
      return 0;
    }
    r.lfb_blocks = n;
    r.lfb_block_mb = size;
    return 4;
  }

  std::size_t swap(sv next, std::size_t i, tegrastats_record& r) {
    double used = 0, total = 0;
    if (!parse_used_total(next, "MB", used, total)) return 0;
    r.swap_used_mb = used;
    r.swap_total_mb = total;
    if (at(i + 2) != "(cached") return 2;
    sv cached = at(i + 3);
    double c = 0;
    if (!consume_number(cached, c) || cached != "MB)") return 0;
    r.swap_cached_mb = c;
    return 4;
  }

  // "IRAM u/tkB(lfb ZkB)" (no space before the parenthesis), tolerating a space there too.
  std::size_t iram(sv next, std::size_t i, tegrastats_record& r) {
    double used = 0, total = 0;
    sv s = next;
    if (!consume_number(s, used) || !consume(s, "/") || !consume_number(s, total) || !consume(s, "kB")) return 0;
    r.iram_used_kb = used;
    r.iram_total_kb = total;
    std::size_t taken = 2;
    if (s.empty()) {
      if (at(i + 2) != "(lfb") return 2;
      taken = 3;
    } else if (s != "(lfb") {
      return 0;
    }
    sv lfb = at(i + taken);
    double z = 0;
    if (!consume_number(lfb, z) || lfb != "kB)") return 0;
    r.iram_lfb_kb = z;
    return taken + 1;
  }

  static bool cpu_list(sv s, tegrastats_record& r) {
    if (!consume(s, "[") || s.empty() || s.back() != ']') return false;
    s.remove_suffix(1);
    while (!s.empty()) {
      std::size_t comma = s.find(',');
      sv entry = s.substr(0, comma);
      tegrastats_cpu cpu;
      if (entry != "off" && !parse_load_freq(entry, cpu.util_pct, cpu.freq_mhz)) return false;
      r.cpus.push_back(cpu);
      if (comma == sv::npos) break;
      s.remove_prefix(comma + 1);
      if (s.empty()) return false;
    }
    return !r.cpus.empty();
  }

  // Old TX1/r28 form: "cpu [a%,b%,...]@f", one frequency for every core.
  static bool old_cpu_list(sv s, tegrastats_record& r) {
    std::size_t close = s.find(']');
    if (close == sv::npos) return false;
    sv list = s.substr(1, close - 1);
    sv rest = s.substr(close + 1);
    std::optional<double> freq;
    if (!rest.empty()) {
      double f = 0;
      if (!consume(rest, "@") || !consume_number(rest, f) || !rest.empty()) return false;
      freq = f;
    }
    while (!list.empty()) {
      std::size_t comma = list.find(',');
      sv entry = list.substr(0, comma);
      tegrastats_cpu cpu;
      if (entry != "off") {
        double l = 0;
        if (!consume_number(entry, l) || entry != "%") return false;
        cpu.util_pct = l;
        cpu.freq_mhz = freq;
      }
      r.cpus.push_back(cpu);
      if (comma == sv::npos) break;
      list.remove_prefix(comma + 1);
    }
    return !r.cpus.empty();
  }

  static bool gpu(sv s, bool second, tegrastats_record& r) {
    std::optional<double> load;
    std::optional<double> freq;
    // Scratch reused across lines: the array form would otherwise allocate on every line.
    static thread_local std::vector<double> list;
    list.clear();
    if (s.empty()) return false;
    if (s.front() == '@') {
      // Thor-like `@[f0,f1,..]` with no load.
      s.remove_prefix(1);
      if (!parse_freq_list(s, list)) return false;
    } else {
      std::size_t at_pos = s.find("@[");
      if (at_pos != sv::npos) {
        sv head = s.substr(0, at_pos);
        if (!parse_load_freq(head, load, freq) || !parse_freq_list(s.substr(at_pos + 1), list)) return false;
      } else if (!parse_load_freq(s, load, freq)) {
        return false;
      }
    }
    if (second) {
      // GR3D2_FREQ is the second GPC of the same GPU (README 10.5): one GPU, a per-GPC list.
      r.gpu_per_gpc = true;
      if (freq) r.gpu_freq_mhz.push_back(*freq);
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
    tegrastats_engine e;
    e.name = "MTS";
    double fg = 0, bg = 0;
    sv a = at(i + 2), b = at(i + 4);
    if (at(i + 1) != "fg" || at(i + 3) != "bg") return 0;
    if (!consume_number(a, fg) || a != "%" || !consume_number(b, bg) || b != "%") return 0;
    e.fg_pct = fg;
    e.bg_pct = bg;
    r.engines.push_back(std::move(e));
    return 5;
  }

  static bool temperature(sv tok, std::size_t at_pos, tegrastats_record& r) {
    sv name = tok.substr(0, at_pos);
    sv value = tok.substr(at_pos + 1);
    value.remove_suffix(1);  // the trailing C
    if (!is_name(name)) return false;
    double cur = 0;
    if (!consume_number(value, cur)) return false;
    tegrastats_temp t;
    t.name = std::string(name);
    if (!value.empty()) {
      double mx = 0;
      if (!consume(value, "/") || !consume_number(value, mx) || !value.empty()) return false;
      if (mx > -256.0) t.max_celsius = mx;
    }
    // -256 is tegrastats' (and jtop's) marker for an offline sensor, not a temperature.
    if (cur > -256.0) t.celsius = cur;
    r.temps.push_back(std::move(t));
    return true;
  }

  static thread_local std::vector<sv> tokens_;
};

thread_local std::vector<sv> line_scanner::tokens_;

nlohmann::json opt(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }

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

// Clears a record but keeps its vectors' capacity: a reused record parses without reallocating.
void clear_record(tegrastats_record& r) {
  r.timestamp.reset();
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
  r.engines.clear();
  r.temps.clear();
  r.rails.clear();
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
    tegrastats_record r;
    if (try_parse_tegrastats_line(line, r, error)) {
      result.records.push_back(std::move(r));
      result.record_lines.push_back(number);
    } else {
      result.errors.push_back({number, error, line.substr(0, 200)});
    }
  }
  return result;
}

nlohmann::json to_json(const tegrastats_record& r) {
  nlohmann::json j = nlohmann::json::object();
  if (r.timestamp) j["timestamp"] = *r.timestamp;
  j["ram"] = {{"used_mb", opt(r.ram_used_mb)}, {"total_mb", opt(r.ram_total_mb)}};
  nlohmann::json cpus = nlohmann::json::array();
  for (const auto& c : r.cpus) cpus.push_back({{"util_pct", opt(c.util_pct)}, {"freq_mhz", opt(c.freq_mhz)}});
  j["cpus"] = std::move(cpus);
  j["emc"] = {{"util_pct", opt(r.emc_util_pct)}, {"freq_mhz", opt(r.emc_freq_mhz)}};
  nlohmann::json gpu_freq;
  if (r.gpu_per_gpc) {
    gpu_freq = r.gpu_freq_mhz;
  } else if (!r.gpu_freq_mhz.empty()) {
    gpu_freq = r.gpu_freq_mhz.front();
  }
  j["gpu"] = {{"util_pct", opt(r.gpu_util_pct)}, {"freq_mhz", gpu_freq}};
  nlohmann::json temps = nlohmann::json::object();
  for (const auto& t : r.temps) temps[t.name] = opt(t.celsius);
  j["temps"] = std::move(temps);
  nlohmann::json rails = nlohmann::json::object();
  std::unordered_map<std::string, int> seen;
  for (const auto& rail : r.rails) {
    int n = ++seen[rail.name];
    std::string key = n == 1 ? rail.name : rail.name + "_" + std::to_string(n);
    nlohmann::json v = {{"cur_mw", rail.cur_mw}, {"avg_mw", rail.avg_mw}};
    if (rail.max_mw) v["max_mw"] = *rail.max_mw;
    rails[key] = std::move(v);
  }
  j["rails"] = std::move(rails);
  return j;
}

std::vector<std::pair<std::string, std::string>> flatten_tegrastats(const tegrastats_record& r) {
  // Built from the record, not from to_json(), to keep a reading order (nlohmann sorts keys).
  std::vector<std::pair<std::string, std::string>> out;
  auto num = [](const std::optional<double>& v) { return v ? format_number(*v) : std::string(); };
  if (r.timestamp) out.emplace_back("timestamp", *r.timestamp);
  out.emplace_back("ram.used_mb", num(r.ram_used_mb));
  out.emplace_back("ram.total_mb", num(r.ram_total_mb));
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
  for (const auto& t : r.temps) out.emplace_back("temps." + t.name, num(t.celsius));
  std::unordered_map<std::string, int> seen;
  for (const auto& rail : r.rails) {
    int n = ++seen[rail.name];
    std::string p = "rails." + (n == 1 ? rail.name : rail.name + "_" + std::to_string(n)) + ".";
    out.emplace_back(p + "cur_mw", format_number(rail.cur_mw));
    out.emplace_back(p + "avg_mw", format_number(rail.avg_mw));
    if (rail.max_mw) out.emplace_back(p + "max_mw", format_number(*rail.max_mw));
  }
  return out;
}

void write_tegrastats_jsonl(const std::vector<tegrastats_record>& records, std::ostream& out) {
  for (const auto& r : records) out << to_json(r).dump() << '\n';
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
