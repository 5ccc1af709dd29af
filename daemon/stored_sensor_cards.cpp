#include "stored_sensor_cards.hpp"

#include <jetperf/api/sensor_card_view.hpp>

namespace jetperf::daemon {

std::optional<measure::sensor_facts> stored_sensor_cards::find(const std::string& channel, const std::string& averaging,
                                                               bool same_averaging) const {
  if (!jobs_ || !board_) return std::nullopt;
  return api::sensor_card_facts(*jobs_, {board_->info().l4t, averaging}, channel, same_averaging);
}

}  // namespace jetperf::daemon
