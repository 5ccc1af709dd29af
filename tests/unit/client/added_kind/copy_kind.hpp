#pragma once
// A kind added the way CONTRIBUTING.md's "Adding a kind" says, from the files it lists and
// nothing else: this header (include/jetperf/kinds/<kind>/<kind>_kind.hpp in the tree), its one
// source (src/kinds/<kind>/<kind>_kind.cpp) and one registration line (daemon/kinds.cpp; here
// the test's registry.add). It copies a buffer: bytes per run, time, GB/s and power per point.
#include <memory>

#include <jetperf/jobs/workload.hpp>

namespace jetperf::test {

std::unique_ptr<jobs::workload> make_copy_kind();

}  // namespace jetperf::test
