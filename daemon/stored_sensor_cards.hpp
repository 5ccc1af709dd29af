#pragma once
// The board's sensor cards as points ask for them (measure::sensor_card_book): the stored
// `sensor` jobs' rows, matched to the board's L4T and the sensors' averaging when asked.
#include <memory>
#include <optional>
#include <string>

#include <jetperf/jobs/job_service.hpp>
#include <jetperf/measure/sensor_facts.hpp>
#include <jetperf/platform/board_controller.hpp>

namespace jetperf::daemon {

class stored_sensor_cards final : public measure::sensor_card_book {
 public:
  /// `jobs` is the daemon's job service, made after this object (a card is asked for only while
  /// a job runs); `board` the board's controller (null: no cards).
  stored_sensor_cards(const std::unique_ptr<jobs::job_service>& jobs, const platform::board_controller* board)
      : jobs_(jobs), board_(board) {}
  std::optional<measure::sensor_facts> find(const std::string& channel, const std::string& averaging,
                                            bool same_averaging) const override;

 private:
  const std::unique_ptr<jobs::job_service>& jobs_;
  const platform::board_controller* board_;
};

}  // namespace jetperf::daemon
