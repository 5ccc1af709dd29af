#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/store/job_state.hpp>

using namespace jetperf::store;

TEST(job_state, names_round_trip) {
  for (auto s : {job_state::queued, job_state::running, job_state::succeeded, job_state::failed,
                 job_state::cancelled, job_state::interrupted})
    EXPECT_EQ(parse_job_state(to_string(s)), s);
  EXPECT_EQ(to_string(job_state::interrupted), "interrupted");
}

TEST(job_state, unknown_name_names_the_field) {
  try {
    parse_job_state("done", "state");
    FAIL() << "expected validation_error";
  } catch (const jetperf::validation_error& e) {
    EXPECT_EQ(e.field(), "state");
    EXPECT_NE(std::string(e.what()).find("done"), std::string::npos);
  }
}

TEST(job_state, transitions_follow_the_state_machine) {
  EXPECT_TRUE(can_transition(job_state::queued, job_state::running));
  EXPECT_TRUE(can_transition(job_state::queued, job_state::cancelled));
  EXPECT_FALSE(can_transition(job_state::queued, job_state::succeeded));
  EXPECT_TRUE(can_transition(job_state::running, job_state::succeeded));
  EXPECT_TRUE(can_transition(job_state::running, job_state::failed));
  EXPECT_TRUE(can_transition(job_state::running, job_state::cancelled));
  EXPECT_TRUE(can_transition(job_state::running, job_state::interrupted));
  EXPECT_FALSE(can_transition(job_state::running, job_state::queued));
  EXPECT_TRUE(can_transition(job_state::interrupted, job_state::queued));
  for (auto terminal : {job_state::succeeded, job_state::failed, job_state::cancelled}) {
    EXPECT_TRUE(is_terminal(terminal));
    for (auto to : {job_state::queued, job_state::running, job_state::succeeded, job_state::failed,
                    job_state::cancelled, job_state::interrupted})
      EXPECT_FALSE(can_transition(terminal, to)) << to_string(terminal) << " -> " << to_string(to);
  }
  EXPECT_FALSE(is_terminal(job_state::queued));
  EXPECT_FALSE(is_terminal(job_state::running));
}
