// The whole analysis of the hand-made GPU trace and its three writers: device time per op and per
// kernel, iterations and QPS, and the same values in the table, the CSV and the JSON.
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <jetperf/common/errors.hpp>
#include <jetperf/traces/breakdown_writers.hpp>
#include <jetperf/traces/trace_analysis.hpp>
#include <jetperf/traces/trace_reader.hpp>

#include <support/gpu_trace.hpp>

namespace jetperf::traces {
namespace {

trace_breakdown analyzed(long batch = 10) {
  analysis_options o;
  o.batch_size = batch;
  return analyze_trace(parse_trace(test::gpu_trace_json()), o);
}

const op_total& row(const trace_breakdown& b, const std::string& key) {
  for (const auto& r : b.ops)
    if (r.key == key) return r;
  static const op_total none{};
  ADD_FAILURE() << "no row " << key;
  return none;
}

TEST(trace_analysis, device_time_goes_to_the_op_around_the_launch_and_up) {
  const trace_breakdown b = analyzed();
  EXPECT_DOUBLE_EQ(row(b, "aten::addmm").device_self_us, 50.0);
  EXPECT_DOUBLE_EQ(row(b, "aten::addmm").device_total_us, 50.0);
  EXPECT_DOUBLE_EQ(row(b, "aten::linear").device_self_us, 0.0);
  EXPECT_DOUBLE_EQ(row(b, "aten::linear").device_total_us, 50.0);
  EXPECT_DOUBLE_EQ(row(b, "aten::relu").device_total_us, 6.0);
  EXPECT_DOUBLE_EQ(row(b, "aten::copy_").device_total_us, 4.0);
  EXPECT_DOUBLE_EQ(row(b, "ProfilerStep*").device_total_us, 60.0);
  EXPECT_DOUBLE_EQ(row(b, "cudaLaunchKernel").device_total_us, 0.0);  // torch keeps it on the op
  EXPECT_EQ(row(b, "cudaLaunchKernel").count, 3u);
  EXPECT_DOUBLE_EQ(row(b, "cudaLaunchKernel").cpu_total_us, 28.0);
  // Self CPU: linear 100 - t 5 - addmm 80; the step 1000 less its seven ops (aten::mul is on another thread).
  EXPECT_DOUBLE_EQ(row(b, "aten::linear").self_cpu_us, 15.0);
  EXPECT_DOUBLE_EQ(row(b, "aten::addmm").self_cpu_us, 80.0 - 22.0);
  EXPECT_DOUBLE_EQ(row(b, "ProfilerStep*").self_cpu_us, 1000.0 - (100 + 30 + 20 + 4 + 40 + 10));
}

TEST(trace_analysis, kernels_summary_iterations_and_qps) {
  const trace_breakdown b = analyzed();
  ASSERT_EQ(b.kernels.size(), 4u);
  EXPECT_EQ(b.kernels[0].name, "gemm_kernel");
  EXPECT_EQ(b.kernels[0].count, 2u);
  EXPECT_DOUBLE_EQ(b.kernels[0].total_us, 50.0);
  EXPECT_DOUBLE_EQ(b.kernels[0].min_us, 20.0);
  EXPECT_DOUBLE_EQ(b.kernels[0].max_us, 30.0);
  EXPECT_EQ(b.kernels[2].kind, "memcpy");
  EXPECT_EQ(b.summary.events, 23u);
  EXPECT_EQ(b.summary.host_events, 18u);
  EXPECT_EQ(b.summary.device_events, 5u);
  EXPECT_EQ(b.summary.unmatched_device_events, 1u);
  EXPECT_EQ(b.summary.threads, 3u);
  EXPECT_DOUBLE_EQ(b.summary.span_us, 1000.0);
  EXPECT_DOUBLE_EQ(b.summary.device_busy_us, 61.0);
  ASSERT_EQ(b.iterations.size(), 1u);
  EXPECT_DOUBLE_EQ(b.host_runtime_us, 1000.0);
  ASSERT_TRUE(b.qps.has_value());
  EXPECT_DOUBLE_EQ(*b.qps, 10.0 * 1 / 1e-3);
}

TEST(trace_analysis, a_named_op_can_be_the_iteration) {
  analysis_options o;
  o.iteration_op = "aten::relu";
  o.batch_size = 4;
  const trace_breakdown b = analyze_trace(parse_trace(test::gpu_trace_json()), o);
  ASSERT_EQ(b.iterations.size(), 1u);
  EXPECT_DOUBLE_EQ(b.iterations[0].start_us, 210.0);
  EXPECT_DOUBLE_EQ(b.host_runtime_us, 30.0);
  EXPECT_DOUBLE_EQ(*b.qps, 4 / 30e-6);
  o.iteration_op = "no such op";
  const trace_breakdown none = analyze_trace(parse_trace(test::gpu_trace_json()), o);
  EXPECT_TRUE(none.iterations.empty());
  EXPECT_FALSE(none.qps.has_value());
  o.batch_size = 0;
  EXPECT_THROW(analyze_trace(parse_trace(test::gpu_trace_json()), o), validation_error);
}

TEST(breakdown_writers, csv_rows_carry_the_values) {
  std::ostringstream out;
  write_breakdown_csv(analyzed(), out);
  const std::string csv = out.str();
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "section,name,count,total_us,self_us,device_us,mean_us,std_us,value");
  for (const char* line : {
           "\nsummary,qps,,,,,,,10000.000\n",
           "\nsummary,device_busy_us,,,,,,,61.000\n",
           "\niteration,ProfilerStep#1,1,1000.000,,,,,0.000\n",
           "\nop,aten::linear,1,100.000,15.000,50.000,100.000,,\n",
           "\nop,cudaLaunchKernel,3,28.000,28.000,0.000,9.333,,\n",
           "\nkernel,gemm_kernel,2,50.000,,50.000,25.000,,kernel\n",
           "\nkernel,Memcpy HtoD (Pageable -> Device),1,4.000,,4.000,4.000,,memcpy\n",
           "\nt1,,3,30.000,,,10.000,2.828,\n",
           "\nt2,aten::linear,1,16.000,,,16.000,0.000,\n",
           "\nt3,aten::copy_,1,14.000,,,14.000,0.000,\n",
           "\nt4,cudaLaunchKernel,3,12.000,,,4.000,0.000,\n",
           "\nt5,aten::zeros,1,14.000,,,14.000,0.000,\n",
       }) {
    EXPECT_NE(csv.find(line), std::string::npos) << line << "\nin\n" << csv;
  }
}

TEST(breakdown_writers, each_iteration_has_its_overheads_and_qps_in_every_form) {
  const trace_breakdown b = analyzed();
  ASSERT_EQ(b.iterations.size(), 1u);
  // One step holds every op: its overheads are the trace's.
  EXPECT_TRUE(b.overheads_in_iterations);
  EXPECT_EQ(b.iterations[0].ops, b.overheads.ops);
  EXPECT_EQ(b.iterations[0].t1.count, 3u);
  EXPECT_DOUBLE_EQ(b.iterations[0].t1.sum, 30.0);
  EXPECT_EQ(b.iterations[0].t4.count, 4u);  // three kernel launches and one copy
  ASSERT_TRUE(b.iterations[0].qps.has_value());
  EXPECT_DOUBLE_EQ(*b.iterations[0].qps, 10 / 1e-3);
  std::ostringstream csv, js, table;
  write_breakdown_csv(b, csv);
  write_breakdown_json(b, js);
  write_breakdown_table(b, table);
  for (const char* line : {"\niteration_t1,ProfilerStep#1,3,30.000,,,10.000,2.828,\n",
                           "\niteration_qps,ProfilerStep#1,,,,,,,10000.000\n",
                           "\niteration_ops,ProfilerStep#1,,,,,,,7\n", "\nsummary,overheads_scope,,,,,,,iterations\n",
                           "\nop,ProfilerStep*,1,1000.000,"})
    EXPECT_NE(csv.str().find(line), std::string::npos) << line << "\nin\n" << csv.str();
  EXPECT_NE(csv.str().find(",label\n", csv.str().find("\nop,ProfilerStep*,")), std::string::npos) << csv.str();
  const auto j = nlohmann::json::parse(js.str());
  EXPECT_EQ(j["iterations"][0]["ops"], 7);
  EXPECT_DOUBLE_EQ(j["iterations"][0]["qps"].get<double>(), 10000.0);
  EXPECT_DOUBLE_EQ(j["iterations"][0]["overheads"]["t1"]["total_us"].get<double>(), 30.0);
  EXPECT_EQ(j["overheads"]["scope"], "iterations");
  EXPECT_EQ(j["ops"][0]["label"], true);  // ProfilerStep*
  const std::string s = table.str();
  EXPECT_NE(s.find("\niteration       start_us  duration_us  ops  t1_us"), std::string::npos) << s;
  EXPECT_NE(s.find("\nProfilerStep#1       0.0       1000.0    7   30.0"), std::string::npos) << s;
  EXPECT_NE(s.find("10000.00\n"), std::string::npos) << s;
  // The step is a label: listed apart, not among the ops.
  EXPECT_NE(s.find("\nrecord_function labels (not ops: the overheads look through them)\nlabel "), std::string::npos) << s;
  EXPECT_EQ(s.find("\nProfilerStep*  "), s.rfind("\nProfilerStep*  ")) << s;
  EXPECT_NE(s.find(" over 7 ops in the iterations\n"), std::string::npos) << s;
}

TEST(breakdown_writers, csv_quotes_names_with_commas_and_defuses_formulas) {
  const trace t = parse_trace(R"json([
    {"ph": "X", "cat": "kernel", "name": "void gemm<float, 128>(\"x\")", "pid": 0, "tid": 7, "ts": 1, "dur": 2},
    {"ph": "X", "cat": "cpu_op", "name": "=cmd()", "pid": 1, "tid": 1, "ts": 1, "dur": 2}])json");
  std::ostringstream out;
  write_breakdown_csv(analyze_trace(t), out);
  EXPECT_NE(out.str().find("\nkernel,\"void gemm<float, 128>(\"\"x\"\")\",1,"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("\nop,'=cmd(),1,"), std::string::npos) << out.str();
}

TEST(breakdown_writers, json_has_every_section) {
  std::ostringstream out;
  write_breakdown_json(analyzed(), out);
  const auto j = nlohmann::json::parse(out.str());
  EXPECT_DOUBLE_EQ(j["summary"]["qps"].get<double>(), 10000.0);
  EXPECT_EQ(j["summary"]["batch_size"], 10);
  EXPECT_EQ(j["summary"]["iterations"], 1);
  EXPECT_EQ(j["iterations"][0]["name"], "ProfilerStep#1");
  EXPECT_EQ(j["ops"][0]["key"], "ProfilerStep*");
  EXPECT_DOUBLE_EQ(j["ops"][0]["device_total_us"].get<double>(), 60.0);
  EXPECT_EQ(j["kernels"][0]["name"], "gemm_kernel");
  EXPECT_DOUBLE_EQ(j["kernels"][0]["mean_us"].get<double>(), 25.0);
  const auto& o = j["overheads"];
  EXPECT_DOUBLE_EQ(o["model"]["cpu_event_overhead_us"].get<double>(), 2.0);
  EXPECT_EQ(o["t1"]["count"], 3);
  EXPECT_DOUBLE_EQ(o["t1"]["mean_us"].get<double>(), 10.0);
  EXPECT_DOUBLE_EQ(o["t1"]["std_us"].get<double>(), 2.828);
  EXPECT_EQ(o["t2"][1]["op"], "aten::linear");
  EXPECT_DOUBLE_EQ(o["t2"][1]["mean_us"].get<double>(), 16.0);
  EXPECT_EQ(o["t4"][0]["launch"], "cudaLaunchKernel");
  EXPECT_EQ(o["t4"][0]["count"], 3);
  EXPECT_EQ(o["launches"]["aten::linear"], nlohmann::json({"cudaLaunchKernel", "cudaLaunchKernel"}));
}

TEST(breakdown_writers, table_lines_up_and_names_the_overheads) {
  std::ostringstream out;
  write_breakdown_table(analyzed(), out);
  const std::string s = out.str();
  EXPECT_NE(s.find("trace: 23 events (18 host, 5 device) on 3 threads, span 1000.0 us, device busy 61.0 us\n"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("note: 1 device events have no launch"), std::string::npos) << s;
  EXPECT_NE(s.find("iterations (ProfilerStep): 1, host runtime 1000.0 us, mean 1000.0 us, batch 10: QPS 10000.00\n"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("T1    -                     3    10.00    2.83      30.0\n"), std::string::npos) << s;
  EXPECT_NE(s.find("T2    aten::linear          1    16.00    0.00      16.0\n"), std::string::npos) << s;
}

}  // namespace
}  // namespace jetperf::traces
