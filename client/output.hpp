#pragma once
// Human-readable rendering of the API's JSON: compact numbers, aligned tables, durations, job
// lines and the progress bar. Pure functions, so they are easy to check. The results table is in
// result_view.hpp, `show` in job_view.hpp.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace jetperf::client {

/// 3 -> "3", 0.123456 -> "0.1235", 12345.6 -> "12346", 1.5e-7 -> "1.5e-07".
std::string format_number(double v);
/// A JSON value as one table cell: numbers compact, null as "-", strings bare, others compact JSON.
std::string format_cell(const nlohmann::json& v);
/// 4 -> "4s", 125 -> "2m05s", 3725 -> "1h02m"; negative or null -> "?".
std::string format_duration(const nlohmann::json& seconds);
/// Columns padded to their widest cell; numeric columns right-aligned.
std::string format_table(const std::vector<std::string>& header,
                         const std::vector<std::vector<std::string>>& rows);
/// The same cells as CSV (RFC 4180): the header row, then one line per row.
std::string format_csv(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows);
/// format_csv for `format` "csv", else format_table (what --format table|csv asks of a table).
std::string render_table(const std::string& format, const std::vector<std::string>& header,
                         const std::vector<std::vector<std::string>>& rows);
/// A gemm point's identifying params in a few words: "cpu float 128x128x128 tensor=off
/// cpu_freq_khz=1984000" (null params left out, `skip` keys too).
std::string format_params(const nlohmann::json& params, const std::vector<std::string>& skip = {});
/// "float 256x256x256 cpu_freq_khz=1984000: 12.3 GFLOP/s/W (45.6 GFLOP/s at 3.7 W)" from a
/// best_gemm_settings entry ({dtype,m,n,k,params,gflops,gflops_per_w,power_w}).
std::string format_best_setting(const nlohmann::json& best);
/// The same for a winner over idle: "... : 40 GFLOP/s/W over idle (20 GFLOP/s at 0.5 W over idle)"
/// from its gflops_per_dynamic_w, gflops and dynamic_power_w.
std::string format_best_over_idle(const nlohmann::json& best);
/// What an ETA was made from (a job's progress.eta_basis), in words: "from the pace of 3 finished
/// points", "from the cost model (learned from 12 jobs on this board)", "from the kind's static
/// model"; "" without one.
std::string format_eta_basis(const nlohmann::json& basis);
/// The same in a few words, for the progress bar: "pace of 3 points", "cost model, 12 jobs",
/// "static model"; "" without one.
std::string format_eta_basis_brief(const nlohmann::json& basis);
/// "job 3: 2/5 points, eta 4s", and " from the pace of 2 finished points" with a basis.
std::string progress_line(std::int64_t id, std::int64_t done, std::int64_t total, const nlohmann::json& eta_s,
                          const nlohmann::json& eta_basis = nullptr);
/// "job 3 [########............]  40%  2/5  eta 4s" fitted in `width` columns, and " (pace of 2
/// points)" with a basis.
std::string progress_bar(std::int64_t id, std::int64_t done, std::int64_t total, const nlohmann::json& eta_s,
                         int width, const nlohmann::json& eta_basis = nullptr);
/// The jobs list as a table (`format` table or csv; the table says when more jobs are left).
std::string format_job_list(const nlohmann::json& list, const std::string& format = "table");

}  // namespace jetperf::client
