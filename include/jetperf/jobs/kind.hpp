#pragma once
// The typed kind contract. A kind (src/kinds/<kind>/) is a class over its own Spec and Point
// types, derived from kind<Spec, Point>, that writes:
//   std::string kind() const;                        its name in requests
//   std::string description() const;                 one sentence for GET /v1/kinds
//   const std::vector<spec_field>& spec_fields() const;
//   const column_table& columns() const;
//   const std::vector<summary_table>& summary_tables() const;  optional: the summary's tables
// and its Spec type reads and writes the spec's stored form, a record (common/cell.hpp: the
// typed value tree a request's JSON object arrives as), in the kind's <kind>_spec files:
//   static Spec Spec::parse(const record&, const platform::board_offer&);  a request's spec
//   static Spec Spec::stored(const record&);         a stored spec (to_record's output)
//   record Spec::to_record() const;                  the spec as stored, every default filled
//   static record Spec::upgrade(record, std::int64_t from_version);  optional
// (a kind whose parse needs its own state, like command's policy, writes parse/stored/to_record
// itself and they are used instead);
//   std::vector<Point> expand(const Spec&) const;    the points, in the order they run
//   record params_of(const Point&) const;            a point as its params are stored
//   Point point_of(const record&) const;             and read back
//   measure::point_result run_point(measure::point_context&, const Spec&, const Point&);
// and, where it has them, spec_version() with upgrade(stored, from_version) for specs stored in
// an older form, and the views below (their defaults say "none"): summarize(rows) -> cell,
// compare(rows, by) -> cell, export_results(format, rows) -> cell, over the finished points
// (jobs::point_row). Rows are built through the kind's column constants (common/row.hpp).
// make_workload() turns it into the runner's workload, whose specs and points are records: the
// adapter below parses and writes them through the kind's types. The spec is parsed and expanded
// once per job (workload::plan), and summaries, comparisons and exports get the finished rows,
// never store types, and not the spec (they read what the rows say: a job stored by an older
// version still has its views).
#include <algorithm>
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <jetperf/jobs/point_row.hpp>
#include <jetperf/jobs/swept_parameters.hpp>
#include <jetperf/jobs/workload.hpp>

namespace jetperf::jobs {

/// The views a kind may leave out, and the types it names. Finished rows are one point_row per
/// stored point, in point order.
template <class Spec, class Point>
class kind {
 public:
  using spec_type = Spec;
  using point_type = Point;

  std::string description() const { return {}; }
  const std::vector<spec_field>& spec_fields() const {
    static const std::vector<spec_field> none;
    return none;
  }
  const column_table& columns() const {
    static const column_table none;
    return none;
  }
  const std::vector<summary_table>& summary_tables() const {
    static const std::vector<summary_table> none;
    return none;
  }
  /// The comparisons compare(rows, by) makes, as tables; none without compare.
  const std::vector<compare_view>& compare_views() const {
    static const std::vector<compare_view> none;
    return none;
  }

  /// The version of the spec's stored form that to_record writes; raise it when that form changes
  /// and teach Spec::upgrade() the old one.
  std::int64_t spec_version() const { return 1; }
  std::map<std::string, std::size_t> foreseen_skips(const Spec&, const std::vector<Point>&) const { return {}; }
  /// Default: nothing known (0 s each).
  std::vector<double> estimate_points_s(const Spec&, const std::vector<Point>& points,
                                        const measure::estimate_context&) const {
    return std::vector<double>(points.size(), 0.0);
  }
  cell summarize(const std::vector<point_row>& rows) const { return record(); }
  // compare(rows, const std::string& by) and export_results(format, rows) have no default: a
  // kind without them has no comparisons and no layouts of its own.
  std::vector<std::string> export_formats() const { return {}; }
  bool export_has_provenance(const std::string&) const { return true; }
};

namespace detail {

// What a kind writes itself, else its Spec type does (the spec's JSON form), else the default.
template <class K, class = void>
struct has_parse : std::false_type {};
template <class K>
struct has_parse<K, std::void_t<decltype(&K::parse)>> : std::true_type {};
template <class K, class = void>
struct has_stored : std::false_type {};
template <class K>
struct has_stored<K, std::void_t<decltype(&K::stored)>> : std::true_type {};
template <class K, class = void>
struct has_to_record : std::false_type {};
template <class K>
struct has_to_record<K, std::void_t<decltype(&K::to_record)>> : std::true_type {};
template <class T, class = void>
struct has_upgrade : std::false_type {};
template <class T>
struct has_upgrade<T, std::void_t<decltype(&T::upgrade)>> : std::true_type {};

template <class K, class = void>
struct has_compare : std::false_type {};
template <class K>
struct has_compare<K, std::void_t<decltype(&K::compare)>> : std::true_type {};
template <class K, class = void>
struct has_export : std::false_type {};
template <class K>
struct has_export<K, std::void_t<decltype(&K::export_results)>> : std::true_type {};

template <class K>
class typed_plan final : public job_plan {
 public:
  using Spec = typename K::spec_type;
  using Point = typename K::point_type;

  typed_plan(K& k, Spec spec) : kind_(k), spec_(std::move(spec)), typed_(kind_.expand(spec_)) {
    params_.reserve(typed_.size());
    for (const auto& p : typed_) params_.push_back(kind_.params_of(p));
  }
  const std::vector<record>& points() const override { return params_; }
  measure::point_result run_point(measure::point_context& ctx, std::size_t index) override {
    return kind_.run_point(ctx, spec_, typed_.at(index));
  }
  std::vector<double> estimate_points_s(const measure::estimate_context& ctx) const override {
    return kind_.estimate_points_s(spec_, typed_, ctx);
  }
  std::map<std::string, std::size_t> foreseen_skips() const override { return kind_.foreseen_skips(spec_, typed_); }

 private:
  K& kind_;
  const Spec spec_;
  const std::vector<Point> typed_;
  std::vector<record> params_;
};

/// The runner's workload over a typed kind: specs through the kind's parse, stored form and
/// to_record, points through params_of.
template <class K>
class typed_workload final : public workload {
 public:
  using Spec = typename K::spec_type;
  using Point = typename K::point_type;

  explicit typed_workload(K k) : kind_(std::move(k)) {}

  std::string kind() const override { return kind_.kind(); }
  std::string description() const override { return kind_.description(); }
  const std::vector<spec_field>& spec_fields() const override { return kind_.spec_fields(); }
  const column_table& columns() const override { return kind_.columns(); }
  const std::vector<summary_table>& summary_tables() const override { return kind_.summary_tables(); }
  const std::vector<compare_view>& compare_views() const override { return kind_.compare_views(); }

  std::int64_t spec_version() const override { return kind_.spec_version(); }
  record upgrade(const record& spec, std::int64_t from_version) const override {
    if (from_version >= kind_.spec_version()) return spec;
    if constexpr (has_upgrade<K>::value) return kind_.upgrade(spec, from_version);
    else if constexpr (has_upgrade<Spec>::value) return Spec::upgrade(spec, from_version);
    else return spec;
  }
  record normalize(const record& spec, const platform::board_offer& offered) const override {
    return to_record(parse(spec, offered));
  }
  std::vector<record> expand(const record& spec) const override {
    std::vector<record> out;
    for (const auto& p : kind_.expand(stored(spec))) out.push_back(kind_.params_of(p));
    return out;
  }
  std::unique_ptr<job_plan> plan(const record& spec) override {
    return std::make_unique<typed_plan<K>>(kind_, stored(spec));
  }
  cell summarize(const std::vector<point_row>& rows) const override { return kind_.summarize(rows); }
  cell compare(const std::vector<point_row>& rows, const std::string& by) const override {
    if constexpr (has_compare<K>::value) {
      if (!find_compare_view(kind_.compare_views(), by)) throw validation_error("by", refusal(by));
      refuse_unswept(rows, by);
      return kind_.compare(rows, by);
    } else {
      return workload::compare(rows, by);
    }
  }
  std::vector<std::string> export_formats() const override { return kind_.export_formats(); }
  bool export_has_provenance(const std::string& format) const override { return kind_.export_has_provenance(format); }
  cell export_results(const std::string& format, const std::vector<point_row>& rows) const override {
    if constexpr (has_export<K>::value) {
      const auto formats = kind_.export_formats();
      if (std::find(formats.begin(), formats.end(), format) != formats.end())
        return kind_.export_results(format, rows);
    }
    return workload::export_results(format, rows);  // the message names the kind
  }

  /// The kind itself (tests reach its typed methods through it).
  K& typed() { return kind_; }

 private:
  Spec parse(const record& spec, const platform::board_offer& offered) const {
    if constexpr (has_parse<K>::value) return kind_.parse(spec, offered);
    else return Spec::parse(spec, offered);
  }
  // A parameter the job held at one value compares nothing (a table of "-" rows): refused, naming
  // the parameters it swept that the views compare by.
  void refuse_unswept(const std::vector<point_row>& rows, const std::string& by) const {
    const auto swept = swept_parameters(rows);
    if (std::find(swept.begin(), swept.end(), by) != swept.end()) return;
    std::vector<std::string> named;  // in the order the views declare them
    for (const auto& v : kind_.compare_views())
      for (const auto& p : v.by)
        if (std::find(swept.begin(), swept.end(), p) != swept.end() &&
            std::find(named.begin(), named.end(), p) == named.end())
          named.push_back(p);
    std::string can;
    for (const auto& p : named) can += (can.empty() ? "" : ", ") + p;
    throw validation_error("by", "this job did not sweep " + by + " (its points hold one value of it at most); " +
                                     (can.empty() ? std::string("it swept no parameter it can be compared by")
                                                  : "it swept: " + can),
                           "not_swept");
  }
  // "cannot compare by 'x' (known: tensor, gpu_freq_hz, ...)": the parameters the views declare.
  std::string refusal(const std::string& by) const {
    std::string known;
    for (const auto& v : kind_.compare_views())
      for (const auto& name : v.by) known += (known.empty() ? "" : ", ") + name;
    return "cannot compare by '" + by + "' (known: " + known + ")";
  }
  Spec stored(const record& spec) const {
    if constexpr (has_stored<K>::value) return kind_.stored(spec);
    else return Spec::stored(spec);
  }
  record to_record(const Spec& spec) const {
    if constexpr (has_to_record<K>::value) return kind_.to_record(spec);
    else return spec.to_record();
  }

  mutable K kind_;
};

}  // namespace detail

/// The runner's workload for a typed kind.
template <class K>
std::unique_ptr<workload> make_workload(K k) {
  return std::make_unique<detail::typed_workload<K>>(std::move(k));
}

}  // namespace jetperf::jobs
