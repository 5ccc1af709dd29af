#include <jetperf/kinds/command/marker.hpp>

#include <sstream>
#include <vector>

#include <jetperf/common/utf8.hpp>
#include <jetperf/kinds/common/sweep_axes.hpp>

namespace jetperf::kinds {

namespace {

bool is_name(const std::string& s) {
  if (s.empty() || s.size() > k_max_marker_name) return false;
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                    c == '.' || c == ':' || c == '/' || c == '-';
    if (!ok) return false;
  }
  return true;
}

// The reason quotes the program's bytes: made text, so the row that lists it can be stored.
std::optional<marker> fail(std::string* why, const std::string& text) {
  if (why) *why = valid_utf8(text);
  return std::nullopt;
}

}  // namespace

const char* to_string(marker::type t) {
  switch (t) {
    case marker::type::begin: return "begin";
    case marker::type::end: return "end";
    case marker::type::mark: return "mark";
  }
  return "mark";
}

std::optional<marker> parse_marker_line(const std::string& line, std::int64_t t_ns, std::string* why) {
  if (line.size() > k_max_marker_line) return fail(why, "line longer than " + std::to_string(k_max_marker_line) + " bytes");
  std::istringstream in(line);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  if (words.size() < 2) return fail(why, "expected 'begin NAME', 'end NAME' or 'mark NAME [key=value...]'");
  marker m;
  m.t_ns = t_ns;
  if (words[0] == "begin") m.what = marker::type::begin;
  else if (words[0] == "end") m.what = marker::type::end;
  else if (words[0] == "mark") m.what = marker::type::mark;
  else return fail(why, "unknown marker '" + words[0] + "' (begin, end or mark)");
  if (!is_name(words[1])) return fail(why, "bad name '" + words[1].substr(0, k_max_marker_name) + "' ([A-Za-z0-9_.:/-], 1-128 characters)");
  m.name = words[1];
  std::map<std::string, std::string> attrs;
  for (std::size_t i = 2; i < words.size(); ++i) {
    const auto eq = words[i].find('=');
    if (eq == std::string::npos || eq == 0) return fail(why, "expected key=value, got '" + words[i] + "'");
    const auto key = words[i].substr(0, eq);
    const auto value = words[i].substr(eq + 1);
    if (!is_name(key)) return fail(why, "bad key '" + key + "'");
    if (key == "ts") {
      const auto v = common::parse_count(value);
      if (!v) return fail(why, "ts must be CLOCK_MONOTONIC nanoseconds, got '" + value + "'");
      m.client_t_ns = *v;
      continue;
    }
    if (m.what != marker::type::mark) return fail(why, "only 'mark' takes key=value attributes (besides ts)");
    if (attrs.size() >= k_max_marker_attrs && !attrs.count(key))
      return fail(why, "more than " + std::to_string(k_max_marker_attrs) + " attributes");
    attrs[key] = valid_utf8(value);
  }
  for (const auto& [key, value] : attrs) m.attrs += (m.attrs.empty() ? "" : " ") + key + "=" + value;
  return m;
}

std::map<std::string, std::string> marker::attributes() const {
  // Keys hold no '=' and values no blank (parse_marker_line): the text splits back exactly.
  std::map<std::string, std::string> out;
  std::size_t start = 0;
  while (start < attrs.size()) {
    auto end = attrs.find(' ', start);
    if (end == std::string::npos) end = attrs.size();
    const auto eq = attrs.find('=', start);
    if (eq != std::string::npos && eq < end) out[attrs.substr(start, eq - start)] = attrs.substr(eq + 1, end - eq - 1);
    start = end + 1;
  }
  return out;
}

}  // namespace jetperf::kinds
