// One job row damaged in the database (raw SQL) must not make GET /v1/jobs answer 500 for every
// job: it is listed as "unreadable" with the reason, and asked for alone it answers 500 with
// code corrupt_job naming the id. Both answers keep to the contract.
#include "api_fixture.hpp"
#include "json_schema_check.hpp"

namespace jetperf::test {
namespace {

class corrupt_job_test : public api_fixture {
 protected:
  void expect_schema(const std::string& component, const nlohmann::json& value) {
    const auto violations = schema_violations(doc_, component_schema(doc_, component), value);
    std::string all;
    for (const auto& v : violations) all += v + "\n";
    EXPECT_TRUE(violations.empty()) << component << ":\n" << all << value.dump();
  }

  nlohmann::json doc_ = contract();
};

TEST_F(corrupt_job_test, a_damaged_row_is_listed_as_unreadable_and_the_others_as_they_are) {
  const auto good = submit_idle({{"duration_s", 1}}, {"t"});
  const auto bad = submit_idle({{"duration_s", 2}}, {"t"});
  const auto spec_damaged = submit_idle({{"duration_s", 3}}, {"t"});
  db_.exec("UPDATE jobs SET state = 'exploded' WHERE id = " + std::to_string(bad));
  db_.exec("UPDATE jobs SET spec_json = 'not json' WHERE id = " + std::to_string(spec_damaged));

  const auto res = call("GET", "/v1/jobs");
  ASSERT_EQ(res.status, 200) << res.body;
  const auto list = json_of(res);
  expect_schema("JobList", list);
  EXPECT_EQ(list["total"], 3);
  ASSERT_EQ(list["jobs"].size(), 3u);
  // The listing reads no spec (a summary per job): a damaged spec shows only where it is read.
  EXPECT_EQ(list["jobs"][0]["id"], spec_damaged);
  EXPECT_EQ(list["jobs"][0]["state"], "queued");
  EXPECT_FALSE(list["jobs"][0].contains("spec"));
  const auto& unreadable = list["jobs"][1];
  EXPECT_EQ(unreadable["id"], bad);
  EXPECT_EQ(unreadable["kind"], "idle");
  EXPECT_EQ(unreadable["state"], "unreadable");
  EXPECT_EQ(unreadable["error"], "the stored job cannot be read: unknown state 'exploded'");
  EXPECT_EQ(unreadable["tags"], nlohmann::json({"t"}));
  EXPECT_EQ(list["jobs"][2]["id"], good);
  EXPECT_EQ(list["jobs"][2]["state"], "queued");
  const auto damaged = json_of(call("GET", "/v1/jobs/" + std::to_string(spec_damaged)));
  EXPECT_EQ(damaged["error"]["code"], "corrupt_job") << damaged.dump();

  // The jobs carrying a tag list it the same way (oldest first); its points are not read.
  const auto tagged = call("GET", "/v1/results?tags=t");
  ASSERT_EQ(tagged.status, 200) << tagged.body;
  const auto results = json_of(tagged);
  ASSERT_EQ(results["jobs"].size(), 3u);
  EXPECT_EQ(results["jobs"][0]["id"], good);
  EXPECT_EQ(results["jobs"][1]["id"], bad);
  EXPECT_EQ(results["jobs"][1]["state"], "unreadable");
  EXPECT_EQ(results["rows"], nlohmann::json::array());
}

TEST_F(corrupt_job_test, a_damaged_job_asked_for_alone_is_a_500_naming_the_id_and_what_is_wrong) {
  const auto good = submit_idle();
  const auto bad = submit_idle();
  db_.exec("UPDATE jobs SET state = 'exploded' WHERE id = " + std::to_string(bad));
  for (const auto& [method, target] : std::vector<std::pair<std::string, std::string>>{
           {"GET", "/v1/jobs/" + std::to_string(bad)},
           {"DELETE", "/v1/jobs/" + std::to_string(bad)},
           {"POST", "/v1/jobs/" + std::to_string(bad) + "/resume"}}) {
    const auto res = call(method, target);
    EXPECT_EQ(res.status, 500) << method << " " << target << ": " << res.body;
    const auto body = json_of(res);
    expect_schema("Error", body);
    EXPECT_EQ(body["error"]["code"], "corrupt_job") << res.body;
    EXPECT_EQ(body["error"]["field"], "id") << res.body;
    EXPECT_EQ(body["error"]["message"], "job " + std::to_string(bad) +
                                            " is stored damaged and cannot be read: unknown state 'exploded'");
  }
  // Nothing was changed by those requests, and the other job reads as it did.
  EXPECT_EQ(json_of(call("GET", "/v1/jobs"))["jobs"][0]["state"], "unreadable");
  EXPECT_EQ(call("GET", "/v1/jobs/" + std::to_string(good)).status, 200);
}

}  // namespace
}  // namespace jetperf::test
