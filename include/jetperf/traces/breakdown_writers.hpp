#pragma once
// Sibling writers over one trace_breakdown (as nvbench's printers over one summary): an aligned
// text table for people, CSV for spreadsheets, JSON for programs. Times are microseconds.
#include <iosfwd>

#include <jetperf/traces/trace_breakdown.hpp>

namespace jetperf::traces {

/// Sections: summary, iterations, ops, kernels, overheads T1..T5.
void write_breakdown_table(const trace_breakdown& b, std::ostream& out);
/// One long table: section,name,count,total_us,self_us,device_us,mean_us,std_us,value. Sections
/// summary (name + value), iteration, op, kernel, t1..t5; an empty cell is a value that does not apply.
void write_breakdown_csv(const trace_breakdown& b, std::ostream& out);
/// {"summary", "iterations", "ops", "kernels", "overheads": {"model", "t1".."t5", "launches"}}.
void write_breakdown_json(const trace_breakdown& b, std::ostream& out);

}  // namespace jetperf::traces
