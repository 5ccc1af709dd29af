#pragma once
// Loops between the files of one folder: a unit (a header include/jetperf/<dir>/x.hpp with its
// src/<dir>/x.cpp) that includes another unit's header, which includes the first one's back, if
// only through its .cpp or through further units. point_protocol.hpp and protocols/point.hpp once
// did (issue 57): the one protocol split in two halves, each needing the other.
#include <string>
#include <vector>

namespace jetperf::test::tree {

/// The loops among the units under include/jetperf/<dir>/ and src/<dir>/ (subfolders included),
/// each as "a -> b -> a" by the units' paths below <dir> without extension ("point_protocol",
/// "protocols/point"), one loop per strongly connected group, sorted.
std::vector<std::string> include_loops(const std::string& root, const std::string& dir);

}  // namespace jetperf::test::tree
