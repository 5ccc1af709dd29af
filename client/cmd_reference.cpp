// jetperf completion bash|zsh|fish, jetperf man: the shell completion scripts and the man page,
// written from the client's own command table (hidden from --help: the package installs what
// they print, deploy/completion and deploy/man, and `cli_reference_files` regenerates those).
#include <iostream>

#include "cli_error.hpp"
#include "cli_walk.hpp"
#include "command.hpp"

namespace jetperf::client {

namespace {

class reference_command final : public command {
 public:
  reference_command(CLI::App& parent, bool man) : root_(parent), man_(man) {
    if (man_) {
      app_ = parent.add_subcommand("man", "Print the man page, jetperf.1 (roff)");
    } else {
      app_ = parent.add_subcommand("completion", "Print the shell's completion script");
      app_->add_option("shell", shell_, "bash, zsh or fish")->required()->check(CLI::IsMember({"bash", "zsh", "fish"}));
    }
    app_->group("");  // hidden: not a command a user runs day to day
  }
  CLI::App* app() const override { return app_; }

  int run(context&) override {
    const auto table = describe_app(root_);
    if (man_)
      std::cout << man_page(table, root_.get_footer());
    else if (shell_ == "bash")
      std::cout << bash_completion(table);
    else if (shell_ == "zsh")
      std::cout << zsh_completion(table);
    else
      std::cout << fish_completion(table);
    return exit_ok;
  }

 private:
  const CLI::App& root_;
  bool man_;
  CLI::App* app_ = nullptr;
  std::string shell_;
};

}  // namespace

std::unique_ptr<command> make_completion_command(CLI::App& parent) {
  return std::make_unique<reference_command>(parent, false);
}
std::unique_ptr<command> make_man_command(CLI::App& parent) { return std::make_unique<reference_command>(parent, true); }

}  // namespace jetperf::client
