// A point's averaging count for the power sensors: the spec's forms, auto's pick against the
// sampler's poll period, and the count put back when the point ends.
#include <jetperf/measure/sensor_averaging_scope.hpp>

#include <gtest/gtest.h>

#include <jetperf/common/cell_text.hpp>
#include <jetperf/common/errors.hpp>

#include <support/fake_sources.hpp>

using namespace jetperf;
using jetperf::measure::sensor_samples_request;
using jetperf::platform::sensor_chip_averaging;

namespace {

const std::vector<std::int64_t> counts = {1, 4, 16, 64, 128, 256, 512, 1024};

// Two chips of an Orin at 16 samples; update_interval follows the count as the driver computes it
// (3 channels x samples x 408 us, rounded to a millisecond).
class averaging_board final : public platform::board_settings {
 public:
  std::vector<std::int64_t> writes;
  std::int64_t samples = 16;
  /// Reads that still say the interval of the count before the last write (a simulated chip
  /// says its new interval at its next update).
  int stale_reads = 0;
  std::int64_t said_samples = 16;
  platform::board_offer offered() const override {
    platform::board_offer o;
    o.sensor_samples = counts;
    return o;
  }
  void arm(std::int64_t) override {}
  platform::board_setting apply(const platform::board_setting& s) override { return s; }
  void restore() override {}
  std::vector<sensor_chip_averaging> sensor_averaging() const override {
    auto* self = const_cast<averaging_board*>(this);
    if (self->stale_reads > 0) --self->stale_reads;
    else self->said_samples = samples;
    const std::int64_t ms = (3 * said_samples * 408 + 500) / 1000;
    return {{"/hwmon3", samples, ms}, {"/hwmon4", samples, ms}};
  }
  std::vector<sensor_chip_averaging> set_sensor_samples(std::int64_t n) override {
    writes.push_back(n);
    samples = n;
    return sensor_averaging();
  }
  void restore_sensor_averaging(const std::vector<sensor_chip_averaging>& chips) override {
    writes.push_back(chips.front().samples);
    samples = chips.front().samples;
  }
};

// A sampler configured at `configured_s` that may tick as fast as `fastest_s` for a point.
test::fake_source sampler_at(double configured_s, double fastest_s) {
  test::fake_source s;
  s.period_ns = static_cast<std::int64_t>(configured_s * 1e9);
  s.fastest_tick_s = fastest_s;
  return s;
}

std::string field_of(const cell& j, const std::vector<std::int64_t>* offered) {
  try {
    sensor_samples_request::parse(j, offered);
  } catch (const validation_error& e) {
    return e.field() + ": " + e.what();
  }
  return "accepted";
}

}  // namespace

TEST(sensor_samples_request, the_specs_forms_and_what_is_refused) {
  EXPECT_EQ(sensor_samples_request::parse("auto", &counts).to_cell(), cell("auto"));
  EXPECT_EQ(sensor_samples_request::parse("as_is", &counts).to_cell(), cell("as_is"));
  const auto four = sensor_samples_request::parse(4, &counts);
  EXPECT_EQ(four.mode, sensor_samples_request::how::count);
  EXPECT_EQ(four.to_cell(), cell(4));
  EXPECT_EQ(sensor_samples_request::parse(4.0, &counts).count, 4);  // JSON's 4.0 is the integer 4
  for (const cell& bad : {cell(5), cell(0), cell(-4), cell(2048), cell("fast"), cell(4.5), cell(true), cell(cell_list{4})}) {
    const auto why = field_of(bad, &counts);
    EXPECT_EQ(why.rfind("spec.sensor_samples: ", 0), 0u) << json_text(bad) << " -> " << why;
  }
  EXPECT_NE(field_of(5, &counts).find("1, 4, 16, 64, 128, 256, 512, 1024"), std::string::npos);
  // A board with no count to set refuses a count, not auto.
  const std::vector<std::int64_t> none;
  EXPECT_NE(field_of(4, &none).find("no averaging count"), std::string::npos);
  EXPECT_EQ(field_of("auto", &none), "accepted");
  // A stored spec is not checked again.
  EXPECT_EQ(sensor_samples_request::parse(5, nullptr).count, 5);
}

TEST(sensor_averaging, auto_picks_the_fewest_samples_whose_window_spans_the_polls_asked) {
  const std::vector<sensor_chip_averaging> orin = {{"/a", 16, 20}, {"/b", 16, 20}};
  // 1.25 ms per sample: 4 ms asks for 4 samples (5 ms), 40 ms for 64 (80 ms), 1 ms for 1.
  EXPECT_EQ(measure::auto_sensor_samples(orin, counts, 0.004), 4);
  EXPECT_EQ(measure::auto_sensor_samples(orin, counts, 0.040), 64);
  EXPECT_EQ(measure::auto_sensor_samples(orin, counts, 0.001), 1);
  // The slowest chip decides.
  EXPECT_EQ(measure::auto_sensor_samples({{"/a", 16, 20}, {"/b", 4, 20}}, counts, 0.004), 1);
  EXPECT_EQ(measure::auto_sensor_samples({{"/a", 16, std::nullopt}}, counts, 0.004), std::nullopt);
}

TEST(sensor_averaging_scope, auto_shortens_the_window_for_a_fast_sampler_and_puts_it_back) {
  averaging_board board;
  // A sampler at 1 ms: 4 samples (4.9 ms, said as 5) span 4 of its polls; it stays at 1 ms.
  auto fast = sampler_at(0.001, 0.001);
  {
    const measure::sensor_averaging_scope scope(&board, sensor_samples_request::parse("auto", &counts), &fast);
    EXPECT_TRUE(scope.changed());
    EXPECT_EQ(board.samples, 4);
    ASSERT_TRUE(scope.update_interval_s());
    EXPECT_DOUBLE_EQ(*scope.update_interval_s(), 0.005);
    EXPECT_GT(scope.since_ns(), 0);
    EXPECT_EQ(scope.samples(), 4);
    EXPECT_DOUBLE_EQ(scope.tick_period_s(), 0.001);
  }
  EXPECT_EQ(board.samples, 16);
  EXPECT_EQ(board.writes, (std::vector<std::int64_t>{4, 16}));
  EXPECT_TRUE(fast.tick_requests.empty());
}

TEST(sensor_averaging_scope, auto_has_a_10_ms_sampler_poll_the_shorter_window_faster_for_the_point) {
  // The daemon's default: ticks every 10 ms, a point may ask for 1 ms. auto picks the window for
  // the fastest polls (4 samples, 5 ms), the sampler reads the power sensors every 1.25 ms
  // before the count changes, and both are put back at the end, the count first.
  averaging_board board;
  auto sampler = sampler_at(0.010, 0.001);
  {
    const measure::sensor_averaging_scope scope(&board, sensor_samples_request::parse("auto", &counts), &sampler);
    EXPECT_EQ(board.samples, 4);
    ASSERT_EQ(sampler.tick_requests.size(), 1u);
    EXPECT_DOUBLE_EQ(sampler.tick_requests[0], 0.00125);
    EXPECT_DOUBLE_EQ(sampler.tick_period_s(), 0.00125);
    EXPECT_DOUBLE_EQ(scope.tick_period_s(), 0.00125);
  }
  EXPECT_EQ(board.samples, 16);
  EXPECT_EQ(sampler.tick_requests, (std::vector<double>{0.00125, 0.0}));
  EXPECT_DOUBLE_EQ(sampler.tick_period_s(), 0.010);
  // A count asked for is polled 4 times per update too: 64 samples (78 ms) need no faster polls.
  auto other = sampler_at(0.010, 0.001);
  {
    const measure::sensor_averaging_scope slow(&board, sensor_samples_request::parse(64, &counts), &other);
    EXPECT_EQ(board.samples, 64);
    EXPECT_DOUBLE_EQ(slow.tick_period_s(), 0.010);
  }
  EXPECT_TRUE(other.tick_requests.empty());
}

TEST(sensor_averaging_scope, auto_never_lengthens_the_window_and_as_is_touches_nothing) {
  averaging_board board;
  {
    // A sampler that may tick no faster than 10 ms could place 40 ms windows only: the board's
    // 20 ms one is kept, and so is the sampler's period.
    auto ten = sampler_at(0.010, 0.010);
    const measure::sensor_averaging_scope slow(&board, sensor_samples_request::parse("auto", &counts), &ten);
    EXPECT_FALSE(slow.changed());
    EXPECT_EQ(slow.samples(), 16);
    EXPECT_TRUE(ten.tick_requests.empty());
    const measure::sensor_averaging_scope unknown(&board, sensor_samples_request::parse("auto", &counts), nullptr);
    EXPECT_FALSE(unknown.changed());
    auto fast = sampler_at(0.001, 0.001);
    const measure::sensor_averaging_scope as_is(&board, sensor_samples_request{}, &fast);
    EXPECT_FALSE(as_is.changed());
    EXPECT_EQ(as_is.samples(), std::nullopt);
    // A count asked for is set whatever the sampler.
    const measure::sensor_averaging_scope count(&board, sensor_samples_request::parse(64, &counts), &ten);
    EXPECT_TRUE(count.changed());
    EXPECT_EQ(board.samples, 64);
  }
  EXPECT_EQ(board.writes, (std::vector<std::int64_t>{64, 16}));
  // No board: nothing happens.
  auto fast = sampler_at(0.001, 0.001);
  const measure::sensor_averaging_scope none(nullptr, sensor_samples_request::parse(4, &counts), &fast);
  EXPECT_FALSE(none.changed());
}

TEST(sensor_averaging_scope, waits_until_the_chips_say_the_new_interval) {
  // The simulated chips rewrite update_interval at their next update; a point that took the
  // interval read at once would fit the sensor's clock near the old 20 ms.
  averaging_board board;
  board.stale_reads = 5;
  auto fast = sampler_at(0.001, 0.001);
  const measure::sensor_averaging_scope scope(&board, sensor_samples_request::parse(4, &counts), &fast);
  EXPECT_EQ(board.stale_reads, 0);
  ASSERT_TRUE(scope.update_interval_s());
  EXPECT_DOUBLE_EQ(*scope.update_interval_s(), 0.005);
}
