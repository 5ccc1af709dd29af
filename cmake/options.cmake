# Build options; every one is JETPERF_-prefixed.
set(JETPERF_WITH_CUDA AUTO CACHE STRING "Build the CUDA backends: AUTO (when the toolkit is found), ON or OFF")
set_property(CACHE JETPERF_WITH_CUDA PROPERTY STRINGS AUTO ON OFF)
option(JETPERF_BUILD_TESTS "Build the unit, simulation and device tests" ON)
option(JETPERF_BUILD_BENCH "Build the benchmarks in tests/bench" ON)
option(JETPERF_WARNINGS_AS_ERRORS "Treat compiler warnings as errors" OFF)

if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE RelWithDebInfo CACHE STRING "Build type" FORCE)
endif()

set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_POSITION_INDEPENDENT_CODE ON)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)

find_program(JETPERF_CCACHE ccache)
if(JETPERF_CCACHE)
  set(CMAKE_CXX_COMPILER_LAUNCHER ${JETPERF_CCACHE})
  set(CMAKE_C_COMPILER_LAUNCHER ${JETPERF_CCACHE})
  set(CMAKE_CUDA_COMPILER_LAUNCHER ${JETPERF_CCACHE})
endif()

add_library(jetperf_warnings INTERFACE)
target_compile_options(jetperf_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wno-unused-parameter>
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${JETPERF_WARNINGS_AS_ERRORS}>>:-Werror>)
