#include "fleet.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "cli_error.hpp"

namespace jetperf::client {

namespace {

std::string default_hosts_file() {
  // The client's own top level: the environment is read here, as for ~/.config/jetperf/config.
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return std::string(xdg) + "/jetperf/hosts";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.config/jetperf/hosts";
  return {};
}

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return {};
  const auto b = line.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  return line.substr(b, line.find_last_not_of(" \t\r") - b + 1);
}

}  // namespace

std::vector<fleet_board> resolve_fleet(const settings& base, const std::string& hosts_list,
                                       const std::string& hosts_file, const std::string& on) {
  std::vector<fleet_host_entry> entries;
  try {
    if (!hosts_list.empty()) {
      entries = parse_hosts_list(hosts_list);
    } else {
      const std::string path = hosts_file.empty() ? default_hosts_file() : hosts_file;
      std::ifstream in(path);
      if (path.empty() || !in)
        throw cli_error(exit_usage, "no boards: give --hosts a,b,c or write " +
                                        (path.empty() ? std::string("~/.config/jetperf/hosts") : path) +
                                        " (`name = host:port [token-file]` lines)");
      std::ostringstream text;
      text << in.rdbuf();
      entries = parse_hosts_file(text.str(), path);
    }
    entries = select_hosts(entries, on);
  } catch (const fleet_hosts_error& e) {
    throw cli_error(exit_usage, e.what());
  }
  if (entries.empty()) throw cli_error(exit_usage, "no boards in the hosts");
  std::vector<fleet_board> boards;
  for (const auto& e : entries) {
    fleet_board b;
    b.name = e.name;
    b.config = base;
    b.config.target = parse_endpoint(e.address);
    if (!e.token_file.empty()) {
      b.config.token = first_line(e.token_file);
      if (b.config.token.empty())
        throw cli_error(exit_usage, "board '" + e.name + "': cannot read token file '" + e.token_file + "'");
    }
    boards.push_back(std::move(b));
  }
  return boards;
}

std::vector<board_outcome> for_each_board(const std::vector<fleet_board>& boards,
                                          const std::function<void(std::size_t, context&)>& work) {
  std::vector<board_outcome> outcomes(boards.size());
  std::vector<std::thread> threads;
  threads.reserve(boards.size());
  for (std::size_t i = 0; i < boards.size(); ++i) {
    threads.emplace_back([&, i] {
      auto& out = outcomes[i];
      try {
        context ctx(boards[i].config);
        work(i, ctx);
      } catch (const cli_error& e) {
        out.code = e.code();
        out.error = e.what();
      } catch (const std::exception& e) {
        out.code = exit_failure;
        out.error = e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  return outcomes;
}

int fleet_exit_code(const std::vector<board_outcome>& outcomes) {
  int code = exit_ok;
  for (const auto& o : outcomes) code = std::max(code, o.code);
  return code;
}

}  // namespace jetperf::client
