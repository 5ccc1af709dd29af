// 50 concurrent keep-alive clients for 10 s (health, submit, list, show): no error, and every
// accepted job is found afterwards.
#include <atomic>
#include <mutex>

#include "backbone_helpers.hpp"

namespace jetperf::test {
namespace {

constexpr int k_clients = 50;
constexpr auto k_duration = std::chrono::seconds(10);
// Keeps the total under the daemon's default queue bound (1000) so no 503 is expected.
constexpr int k_max_submits_per_client = 15;

struct client_tally {
  std::vector<std::int64_t> submitted;
  std::vector<std::string> errors;
  std::int64_t requests = 0;
};

void run_one(int port, const std::string& token, int index, std::chrono::steady_clock::time_point end,
             client_tally& tally) {
  http_client http(port);
  const auto auth = bearer(token);
  const std::string tag = "load-" + std::to_string(index);
  auto check = [&tally](const http_result& r, int want, const char* what) {
    ++tally.requests;
    if (r.status != want && tally.errors.size() < 5)
      tally.errors.push_back(std::string(what) + ": " + std::to_string(r.status) + " " + r.body);
    return r.status == want;
  };
  int i = index;  // stagger the mix between clients
  try {
    while (std::chrono::steady_clock::now() < end) {
      switch (i++ % 4) {
        case 0:
          check(http.request("GET", "/v1/health"), 200, "health");
          break;
        case 1:
          if (static_cast<int>(tally.submitted.size()) < k_max_submits_per_client) {
            const nlohmann::json body{{"kind", "idle"}, {"spec", {{"duration_s", 0.001}}}, {"tags", {tag}}};
            const auto r = http.request("POST", "/v1/jobs", body.dump(), auth);
            if (check(r, 201, "submit")) tally.submitted.push_back(json_of(r).value("id", std::int64_t{0}));
          } else {
            check(http.request("GET", "/v1/health"), 200, "health");
          }
          break;
        case 2:
          check(http.request("GET", "/v1/jobs?limit=5&kind=idle"), 200, "list");
          break;
        default:
          if (!tally.submitted.empty())
            check(http.request("GET", "/v1/jobs/" + std::to_string(tally.submitted.back())), 200, "show");
          break;
      }
    }
  } catch (const std::exception& e) {
    tally.errors.push_back(std::string("exception: ") + e.what());
  }
}

TEST(load_backbone, fifty_keep_alive_clients_for_ten_seconds) {
  daemon_process daemon;
  std::vector<client_tally> tallies(k_clients);
  std::vector<std::thread> threads;
  const auto end = std::chrono::steady_clock::now() + k_duration;
  for (int c = 0; c < k_clients; ++c)
    threads.emplace_back(run_one, daemon.port(), daemon.token(), c, end, std::ref(tallies[c]));
  for (auto& t : threads) t.join();

  std::int64_t requests = 0;
  std::vector<std::int64_t> all;
  for (const auto& t : tallies) {
    for (const auto& e : t.errors) ADD_FAILURE() << e;
    requests += t.requests;
    all.insert(all.end(), t.submitted.begin(), t.submitted.end());
  }
  EXPECT_GT(requests, 1000) << "the load barely ran";
  EXPECT_FALSE(all.empty());
  std::sort(all.begin(), all.end());
  EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end()) << "duplicate job ids";

  http_client http(daemon.port());
  int missing = 0;
  for (auto id : all)
    if (http.request("GET", "/v1/jobs/" + std::to_string(id)).status != 200) ++missing;
  EXPECT_EQ(missing, 0);
  const auto list = json_of(http.request("GET", "/v1/jobs?kind=idle&limit=1"));
  EXPECT_EQ(list.value("total", std::int64_t{-1}), static_cast<std::int64_t>(all.size())) << list.dump();
  std::printf("[load] %lld requests by %d clients in 10 s, %zu jobs submitted\n", static_cast<long long>(requests),
              k_clients, all.size());
}

}  // namespace
}  // namespace jetperf::test
