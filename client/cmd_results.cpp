// jetperf results ID: the job's points as a table, CSV or JSON, to stdout or a file; for layer-wise
// jobs also dnnstats, the seed's processed layout (JSON). The table is ours (result_view.hpp):
// the kind's default columns, fitted to a terminal; the other formats are the daemon's, as sent.
#include <filesystem>
#include <iostream>

#include "cli_error.hpp"
#include "command.hpp"
#include "dnnstats_export.hpp"
#include "multinet_export.hpp"
#include "flag_lists.hpp"
#include "result_view.hpp"

namespace jetperf::client {

namespace {

class results_command final : public command {
 public:
  explicit results_command(CLI::App& parent) : app_(parent.add_subcommand("results", "Print a job's results")) {
    id_option_ = app_->add_option("id", id_, "Job id (or --tag)")->check(job_id_check());
    app_->add_option("--tag", tags_,
                     "Instead of one job: every job carrying this tag, as one table with job_id and tags columns; "
                     "repeat to require several (all must match)")
        ->expected(1)
        ->take_all()
        ->excludes(id_option_);
    app_->add_option("--kind", kind_, "With --tag: only jobs of this kind (needed when several kinds carry the tags)");
    app_->add_option("--format", format_,
                     "table, csv, json, dnnstats (layers jobs: the DNN stats per-layer layout) or multinet (multi_dnn jobs: DNN stats' processed "
                     "files, one per mapping with -o DIR/) (default: table; json with --json)")
        ->check(CLI::IsMember({"table", "csv", "json", "dnnstats", "multinet"}));
    app_->add_option("-o,--output", output_,
                     "Write to this file instead of stdout (-: stdout); a directory (DIR/) gets job-ID.<format> and "
                     "provenance.json beside it (board, versions, sensor, sampling: CSV has no room for them)")
        ->transform(dash_is_stdout());
    columns_option_ = app_->add_option("--columns", columns_,
                                     "Table: exactly these columns, in this order (a,b,c; an unknown name lists "
                                     "the known ones)");
    app_->add_flag("--wide", view_.wide, "Table: every column, however wide")->excludes(columns_option_);
    app_->add_option("--where", view_.where,
                     "Table: only rows whose KEY is VALUE (as printed, or the same number: m=256, "
                     "gpu_freq_hz=1.3e9, status=skipped); repeat to require several")
        ->expected(1)
        ->take_all();
    app_->footer(
        "The table shows the kind's main columns; on a terminal the ones that do not fit are left out (and\n"
        "named). Skipped points are counted in one line after the table (--where status=skipped lists\n"
        "them); failed ones stay rows, with their error.");
  }
  CLI::App* app() const override { return app_; }
  bool prints_table() const override { return true; }

  nlohmann::json job_provenance(context& ctx) const {
    return ctx.call("GET", "/v1/jobs/" + std::to_string(id_)).value("provenance", nlohmann::json::object());
  }

  int run(context& ctx) override {
    std::string format = format_.empty() ? ctx.config().format : format_;
    view_.columns = split_list(columns_);
    if (columns_option_->count() > 0 && view_.columns.empty())
      throw cli_error(exit_usage, "--columns needs at least one column name");
    if (format != "table" && (!view_.columns.empty() || view_.wide || !view_.where.empty()))
      throw cli_error(exit_usage, "--columns, --wide and --where apply to the table, not --format " + format);
    if (id_option_->count() == 0 && tags_.empty()) throw cli_error(exit_usage, "give a job id or --tag");
    if (!tags_.empty() && (format == "dnnstats" || format == "multinet"))
      throw cli_error(exit_usage, "--format " + format + " is for one job, not --tag");
    std::string base = "/v1/jobs/" + std::to_string(id_) + "/results";
    if (!tags_.empty()) {
      std::string list;
      for (const auto& t : tags_) list += (list.empty() ? "" : ",") + t;
      base = "/v1/results?tags=" + url_encode(list) + (kind_.empty() ? "" : "&kind=" + url_encode(kind_));
    }
    const char* sep = tags_.empty() ? "?" : "&";
    std::string text;
    if (format == "csv") {
      text = ctx.call_text(base + sep + "format=csv");
    } else if (format == "multinet") {
      // The seed's documents, one per mapping: a directory gets a file each.
      const auto docs = multinet_documents(
          nlohmann::ordered_json::parse(ctx.call("GET", base + "?format=multinet").dump()));
      namespace fs = std::filesystem;
      if (!output_.empty() && (output_.back() == '/' || fs::is_directory(output_))) {
        const auto n = write_multinet_files(docs, output_);
        std::cerr << "wrote " << n << " mapping files and provenance.json to " << output_ << "\n";
        return 0;
      }
      text = docs.dump(2) + "\n";
    } else if (format == "dnnstats") {
      // The kind's own layout, in the daemon's key order (layers 0, 1, 2, ... 10, not as text);
      // 400 naming format for other kinds. A job that sweeps settings nests the layout under
      // each setting's label: to a directory, one file per setting, each the seed's own layout.
      const auto doc = nlohmann::ordered_json::parse(ctx.call_text(base + "?format=dnnstats"));
      namespace fs = std::filesystem;
      if (!output_.empty() && (output_.back() == '/' || fs::is_directory(output_)) && dnnstats_by_setting(doc)) {
        std::error_code ec;
        fs::create_directories(output_, ec);
        const auto files = dnnstats_files(doc, "job-" + std::to_string(id_));
        for (const auto& [name, content] : files) write_text_file((fs::path(output_) / name).string(), content);
        write_text_file((fs::path(output_) / "provenance.json").string(), job_provenance(ctx).dump(2) + "\n");
        std::cerr << "wrote " << files.size() << " dnnstats files (one per setting) and provenance.json to " << output_
                  << "\n";
        return 0;
      }
      text = doc.dump(2) + "\n";
      if (!output_.empty() && !(output_.back() == '/' || fs::is_directory(output_))) {
        // Beside the file: the layout has no key of its own for it.
        write_text_file(output_, text);
        const auto beside = output_ + ".provenance.json";
        write_text_file(beside, job_provenance(ctx).dump(2) + "\n");
        std::cerr << "wrote " << output_ << " and " << beside << "\n";
        return 0;
      }
    } else {
      const auto j = ctx.call("GET", base + sep + "format=json");
      // Only a terminal gets its columns limited; a file or a pipe gets the default ones in full.
      auto view = view_;
      view.max_width = output_.empty() ? stdout_terminal_width() : 0;
      // A job's summary is rendered through its kind's declared tables; tagged results have none.
      const auto job = j.value("job", nlohmann::json::object());
      if (format == "table" && job.is_object() && j.contains("summary"))
        view.summary_tables = kind_summary_tables(ctx, job.value("kind", std::string()));
      text = format == "json" ? j.dump(2) + "\n" : format_results_view(j, view);
    }
    if (output_.empty()) {
      std::cout << text;
      return 0;
    }
    namespace fs = std::filesystem;
    const bool to_dir = output_.back() == '/' || fs::is_directory(output_);
    if (!to_dir) {
      write_text_file(output_, text);
      return 0;
    }
    std::error_code ec;
    fs::create_directories(output_, ec);
    const fs::path dir(output_);
    const std::string ext = format == "table" ? "txt" : format == "dnnstats" ? "dnnstats.json" : format;
    std::string stem = "job-" + std::to_string(id_);
    nlohmann::json provenance;
    if (tags_.empty()) {
      provenance = ctx.call("GET", "/v1/jobs/" + std::to_string(id_)).value("provenance", nlohmann::json::object());
    } else {
      // One provenance per job of the table, by job id.
      stem = "tagged";
      for (const auto& t : tags_) stem += "-" + t;
      provenance = nlohmann::json::object();
      for (const auto& job : ctx.call("GET", base + sep + "format=json").value("jobs", nlohmann::json::array()))
        provenance[std::to_string(job.value("id", std::int64_t{0}))] = job.value("provenance", nlohmann::json::object());
    }
    const auto file = dir / (stem + "." + ext);
    write_text_file(file.string(), text);
    write_text_file((dir / "provenance.json").string(), provenance.dump(2) + "\n");
    std::cerr << "wrote " << file.string() << " and " << (dir / "provenance.json").string() << "\n";
    return 0;
  }

 private:
  CLI::App* app_;
  std::int64_t id_ = 0;
  CLI::Option* id_option_ = nullptr;
  std::vector<std::string> tags_;
  std::string kind_;
  std::string format_;
  std::string output_;
  std::string columns_;
  CLI::Option* columns_option_ = nullptr;
  result_view_options view_;
};

}  // namespace

std::unique_ptr<command> make_results_command(CLI::App& parent) { return std::make_unique<results_command>(parent); }

}  // namespace jetperf::client
