#include <jetperf/api/strict_json.hpp>

#include <optional>
#include <utility>
#include <vector>

#include <jetperf/common/errors.hpp>

namespace jetperf::api {

namespace {

using nlohmann::json;

// Builds the value from nlohmann's SAX events, as its own DOM parser does, but checks each key
// against the object being filled (nlohmann keeps the last of duplicate keys silently) and keeps
// the path of every open container, so that an error can name where it is.
class strict_builder {
 public:
  bool null() { return put(nullptr); }
  bool boolean(bool v) { return put(v); }
  bool number_integer(json::number_integer_t v) { return put(v); }
  bool number_unsigned(json::number_unsigned_t v) { return put(v); }
  bool number_float(json::number_float_t v, const json::string_t&) { return put(v); }
  bool string(json::string_t& v) { return put(std::move(v)); }
  // JSON text has no binary values; the method only completes nlohmann's SAX interface (3.8+),
  // as a template so that 3.7, which has no binary_t, compiles it too.
  template <typename Binary>
  bool binary(Binary&) {
    return false;
  }
  bool start_object(std::size_t) { return open(json::object()); }
  bool start_array(std::size_t) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(json::string_t& k) {
    if (open_.back()->contains(k)) {
      const auto where = path_of_slot(k);
      const auto in = path();
      error_.emplace(where, "duplicate key \"" + k + "\" in " + (in.empty() ? "the body" : in) +
                                ": each key may appear once in an object", "duplicate_key");
      return false;
    }
    key_ = std::move(k);
    return true;
  }

  bool parse_error(std::size_t, const std::string& token, const json::exception& e) {
    // 406: nlohmann's "number overflow", a literal beyond a double's range such as 1e999.
    if (e.id == 406) {
      const auto where = path_of_slot(key_);
      error_.emplace(where, "the number " + token + (where.empty() ? "" : " at " + where) +
                                " is out of range (a JSON number must fit a double, about 1.8e308)",
                     "malformed_json");
    } else {
      error_.emplace("", std::string("the body is not valid JSON: ") + e.what(), "malformed_json");
    }
    return false;
  }

  json take() { return std::move(root_); }
  const std::optional<validation_error>& error() const { return error_; }

 private:
  // The path of the slot the next value fills: the key just read in an object, the next index
  // in an array, nothing at the root.
  std::string path_of_slot(const std::string& k) const {
    if (open_.empty()) return {};
    const auto base = path();
    if (open_.back()->is_array()) return base + "[" + std::to_string(open_.back()->size()) + "]";
    return base.empty() ? k : base + "." + k;
  }

  std::string path() const { return segments_.empty() ? std::string() : segments_.back(); }

  json* place(json v) {
    if (open_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    json& top = *open_.back();
    if (top.is_array()) {
      top.push_back(std::move(v));
      return &top.back();
    }
    json& slot = top[key_];
    slot = std::move(v);
    return &slot;
  }

  template <typename V>
  bool put(V&& v) {
    place(json(std::forward<V>(v)));
    return true;
  }

  bool open(json container) {
    // The container's whole path, kept while it is open, for errors inside it to name.
    auto where = path_of_slot(key_);
    open_.push_back(place(std::move(container)));
    segments_.push_back(std::move(where));
    return true;
  }

  bool close() {
    open_.pop_back();
    segments_.pop_back();
    return true;
  }

  json root_;
  // Pointers stay valid: a container only grows while it is the innermost open one, so no
  // element an outer entry points into moves.
  std::vector<json*> open_;
  std::vector<std::string> segments_;  ///< the path of each open container
  std::string key_;                    ///< the key of the slot the next value fills
  std::optional<validation_error> error_;
};

}  // namespace

nlohmann::json parse_strict_json(const std::string& text) {
  strict_builder builder;
  if (!json::sax_parse(text, &builder)) {
    if (builder.error()) throw *builder.error();
    throw validation_error({}, "the body is not valid JSON", "malformed_json");
  }
  return builder.take();
}

}  // namespace jetperf::api
