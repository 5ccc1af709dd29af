// The power mode's caps through the real daemon and client (issue 56): on sim:orin-nano in its
// 25 W mode `cpu_freqs: [max]` ran at 1728 MHz against the mode's 1344 MHz cap, and on
// sim:orin-agx `clocks lock --gpu max` locked 1300.5 MHz in MODE_30W (cap 624.75 MHz); now "max"
// is the mode's and a clock above the cap is refused naming the field and the cap. Beside them:
// the mode table's "no cap", the mode-switch advice, compare --by a parameter the job did not
// sweep, and sim:xavier-nx's board view and clocks agreeing on its EMC.
#include <regex>

#include "backbone_helpers.hpp"

namespace jetperf::test {
namespace {

struct board {
  temp_dir sim_dir;
  daemon_process daemon;
  explicit board(const std::string& profile)
      : daemon(std::vector<std::string>{"--board", "sim:" + profile, "--sim-dir", sim_dir.path()}) {}
  client_result cli(std::vector<std::string> args, int timeout_s = 120) {
    return run_client(with_daemon(daemon, std::move(args)), {}, timeout_s);
  }
  nlohmann::json json(std::vector<std::string> args) {
    args.insert(args.begin(), "--json");
    const auto r = cli(std::move(args));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    return j.is_discarded() ? nlohmann::json() : j;
  }
  // A one-size CPU GEMM sweep, watched to its end; returns its id.
  std::int64_t gemm(const std::string& cpu_freq) {
    const auto r = cli({"submit", "gemm", "--device", "cpu", "--sizes", "64", "--cpu-freq", cpu_freq, "--threads", "1",
                        "--watch"},
                       240);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    return submitted_id(r.out + r.err);
  }
};

// The table row of one mode in `jetperf mode`.
std::string mode_row(const std::string& table, const std::string& name) {
  std::smatch m;
  if (!std::regex_search(table, m, std::regex("\\n[ *]\\s+\\d+\\s+" + name + "\\s[^\\n]*"))) return "";
  return m[0];
}

bool has(const nlohmann::json& list, const std::string& flag) {
  return std::find(list.begin(), list.end(), flag) != list.end();
}

}  // namespace

TEST(mode_caps_sim, orin_nano_25w_runs_max_at_the_mode_s_cpu_cap_and_refuses_above_it) {
  board b("orin-nano");
  auto r = b.cli({"mode"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("power mode: 1 25W"), std::string::npos) << r.out;
  const auto w25 = mode_row(r.out, "25W");
  EXPECT_NE(w25.find("1344000"), std::string::npos) << r.out;
  const auto maxn = mode_row(r.out, "MAXN_SUPER");
  EXPECT_NE(maxn.find("no cap"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("2147483647"), std::string::npos) << r.out;

  // Above the cap of the mode it would run in: refused at submission, naming the field and cap.
  r = b.cli({"submit", "gemm", "--device", "cpu", "--sizes", "64", "--cpu-freq", "1728000"});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.err.find("cpu_freq_khz 1728000 is above the cap of power mode 1 (25W), 1344000"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("(field: spec.cpu_freqs)"), std::string::npos) << r.err;

  // "max" is the mode's: the row runs and reads back 1344 MHz, in mode 1, nothing flagged.
  const auto id = b.gemm("max");
  ASSERT_GT(id, 0);
  http_client http(b.daemon.port());
  const auto job = json_of(http.request("GET", "/v1/jobs/" + std::to_string(id)));
  EXPECT_EQ(job["spec"]["cpu_freqs"], nlohmann::json({1344000})) << job.dump();
  const auto rows = json_of(http.request("GET", "/v1/jobs/" + std::to_string(id) + "/results"))["rows"];
  ASSERT_EQ(rows.size(), 1u) << rows.dump();
  EXPECT_EQ(rows[0]["cpu_freq_khz"], 1344000) << rows[0].dump();
  EXPECT_EQ(rows[0]["power_mode"], 1) << rows[0].dump();
  EXPECT_FALSE(has(rows[0]["flags"], "settings_not_applied")) << rows[0].dump();
}

TEST(mode_caps_sim, orin_agx_30w_locks_max_at_the_mode_s_gpu_cap_and_gives_advice_that_works) {
  board b("orin-agx");
  auto r = b.cli({"board"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("caps:      2 MODE_30W: gpu 625 MHz, cpu 1728 MHz, emc no cap"), std::string::npos) << r.out;
  r = b.cli({"clocks", "lock", "--gpu", "max"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(b.json({"clocks"})["gpu_freq_hz"], 624750000);
  r = b.cli({"clocks", "lock", "--gpu", "1300500000"});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.err.find("gpu_freq_hz 1300500000 is above the cap of power mode 2 (MODE_30W), 624750000"),
            std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(field: gpu)"), std::string::npos) << r.err;
  EXPECT_EQ(b.json({"clocks"})["gpu_freq_hz"], 624750000) << "a refused lock changed the clock";
  ASSERT_EQ(b.cli({"clocks", "restore"}).exit_code, 0);

  // The mode table says "no cap" for MAXN's -1 and 0, not nvpmodel's numbers.
  r = b.cli({"mode"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(mode_row(r.out, "MAXN").find("no cap"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("2147483647"), std::string::npos) << r.out;

  // A mode that needs a reboot: the refusal names what switches it, forced or not.
  for (const std::vector<std::string>& args : {std::vector<std::string>{"mode", "set", "MAXN"},
                                               std::vector<std::string>{"mode", "set", "MAXN", "--force"}}) {
    r = b.cli(args);
    EXPECT_EQ(r.exit_code, 1) << r.out;
    EXPECT_NE(r.err.find("--power-mode MAXN --allow-reboot"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("nvpmodel -m 0"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("set force"), std::string::npos) << r.err;
  }

  // compare --by a parameter the job did not sweep: a usage error naming those it did.
  const auto id = b.gemm("min,max");
  ASSERT_GT(id, 0);
  r = b.cli({"compare", std::to_string(id), "--by", "gpu_freq_hz"});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("did not sweep gpu_freq_hz"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("it swept: cpu_freq_khz"), std::string::npos) << r.err;
  http_client http(b.daemon.port());
  const auto api = http.request("GET", "/v1/jobs/" + std::to_string(id) + "/compare?by=gpu_freq_hz");
  EXPECT_EQ(api.status, 400) << api.body;
  EXPECT_EQ(json_of(api)["error"]["field"], "by") << api.body;
  r = b.cli({"compare", std::to_string(id), "--by", "cpu_freq_khz"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// "emc: 204-204 MHz, 1 step" beside an EMC reading 1065.6 MHz: the board view offered only the
// min of a BPMP EMC whose max is above the mode's cap. Now the view, the clocks and the board
// agree: the range holds the rate it runs at, under the mode's 1600 MHz cap (MODE_10W_DESKTOP).
TEST(mode_caps_sim, xavier_nx_board_view_and_clocks_agree_on_the_emc) {
  board b("xavier-nx");
  auto r = b.cli({"board"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("emc:       204-1866 MHz, 3 steps"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("caps:      5 MODE_10W_DESKTOP: gpu 510 MHz, cpu 1907 MHz, emc 1600 MHz"), std::string::npos)
      << r.out;
  const auto clocks = b.json({"clocks"});
  const auto emc = clocks["emc_freq_hz"].get<long long>();
  EXPECT_GE(emc, 204000000) << clocks.dump();
  EXPECT_LE(emc, 1600000000) << clocks.dump();
  EXPECT_EQ(clocks["available"]["emc_hz"], nlohmann::json({204000000, 1600000000})) << clocks.dump();
  r = b.cli({"clocks", "lock", "--emc", "max"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(b.json({"clocks"})["emc_freq_hz"], 1600000000);
  ASSERT_EQ(b.cli({"clocks", "restore"}).exit_code, 0);
}

}  // namespace jetperf::test
