#pragma once
// The sensor card's columns: the point's (its load, the driver's averaging, the read latency)
// and each power channel's row ("channels", one row each).
#include <cstdint>
#include <string>

#include <jetperf/common/cell.hpp>
#include <jetperf/common/row.hpp>

namespace jetperf::kinds {

namespace sensor {
namespace cols {
inline constexpr column_key<std::string> load{"load"};
inline constexpr column_key<double> half_period_s{"half_period_s"};
inline constexpr column_key<std::int64_t> edges{"edges"};
inline constexpr column_key<double> card_s{"card_s"};
inline constexpr column_key<std::string> averaging{"averaging"};
inline constexpr column_key<std::int64_t> averaging_samples{"averaging_samples"};
inline constexpr column_key<double> read_p50_us{"read_p50_us"};
inline constexpr column_key<double> read_p99_us{"read_p99_us"};
inline constexpr column_key<std::int64_t> reads{"reads"};
inline constexpr column_key<cell_list> channels{"channels"};
// Each channel's row.
inline constexpr column_key<std::string> channel{"channel"};
inline constexpr column_key<double> update_period_ms{"update_period_ms"};
inline constexpr column_key<std::int64_t> updates{"updates"};
inline constexpr column_key<double> window_ms{"window_ms"};
inline constexpr column_key<double> delay_ms{"delay_ms"};
inline constexpr column_key<double> lag_ms{"lag_ms"};
inline constexpr column_key<std::int64_t> transitions{"transitions"};
inline constexpr column_key<double> resolution_mw{"resolution_mw"};
inline constexpr column_key<double> repeat_read_fraction{"repeat_read_fraction"};
inline constexpr column_key<bool> cached{"cached"};
inline constexpr column_key<std::string> unusable{"unusable"};
}  // namespace cols
}  // namespace sensor

const column_table& sensor_columns();

}  // namespace jetperf::kinds
