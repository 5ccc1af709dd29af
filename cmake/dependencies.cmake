# System libraries (Debian/Ubuntu packages; deploy/install-deps.sh installs them).
find_package(Threads REQUIRED)
# Beast and Asio are header-only; Boost.System is header-only since 1.69.
find_package(Boost 1.71 REQUIRED)
find_package(nlohmann_json 3.7 REQUIRED)
find_package(spdlog REQUIRED)
find_package(SQLite3 REQUIRED)
# CLI11 is needed by the client only. Debian 11 and Ubuntu 20.04 (JetPack 5) do not package it:
# there the daemon (what runs on a board) still builds, and the client is built on a workstation.
find_package(CLI11 CONFIG QUIET)
set(JETPERF_HAS_CLI11 1)
if(NOT CLI11_FOUND)
  find_path(CLI11_INCLUDE_DIR CLI/CLI.hpp)
  if(CLI11_INCLUDE_DIR)
    add_library(CLI11::CLI11 INTERFACE IMPORTED)
    set_target_properties(CLI11::CLI11 PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${CLI11_INCLUDE_DIR})
  else()
    set(JETPERF_HAS_CLI11 0)
    message(WARNING "jetperf: CLI11 not found; the jetperf client and the sim tests (which drive it) are not built")
  endif()
endif()

# OpenBLAS is the CPU GEMM backend; optional so that a minimal build still works.
find_library(JETPERF_OPENBLAS_LIB NAMES openblas)
find_path(JETPERF_CBLAS_INCLUDE NAMES cblas.h PATH_SUFFIXES openblas)
if(JETPERF_OPENBLAS_LIB AND JETPERF_CBLAS_INCLUDE)
  set(JETPERF_HAS_OPENBLAS 1)
  add_library(jetperf_openblas INTERFACE)
  target_link_libraries(jetperf_openblas INTERFACE ${JETPERF_OPENBLAS_LIB})
  target_include_directories(jetperf_openblas INTERFACE ${JETPERF_CBLAS_INCLUDE})
else()
  set(JETPERF_HAS_OPENBLAS 0)
  message(STATUS "jetperf: OpenBLAS not found; CPU GEMM points will be skipped")
endif()

# oneDNN (Debian's libdnnl-dev) runs half-precision GEMM and DNN layers on the CPU. Found by its
# library and headers, not by dnnl-config.cmake: Debian's config file find_package()s OpenCL as
# REQUIRED (its GPU runtime), which fails a configure even under QUIET on a machine without the
# OpenCL headers. libdnnl.so carries its own NEEDED entries (libgomp, libOpenCL), and no jetperf
# source includes the OpenCL interop headers, so the plain library is all a build needs.
find_library(JETPERF_DNNL_LIB NAMES dnnl)
find_path(JETPERF_DNNL_INCLUDE NAMES oneapi/dnnl/dnnl.hpp)
# Batch norm's separate scale and shift arguments (DNNL_ARG_SCALE/SHIFT) arrived in oneDNN 2.3;
# Debian 11's 2.0 is treated as absent rather than failing the build.
set(JETPERF_DNNL_VERSION "")
if(JETPERF_DNNL_INCLUDE AND EXISTS ${JETPERF_DNNL_INCLUDE}/oneapi/dnnl/dnnl_version.h)
  file(STRINGS ${JETPERF_DNNL_INCLUDE}/oneapi/dnnl/dnnl_version.h dnnl_version_lines
       REGEX "#define DNNL_VERSION_(MAJOR|MINOR|PATCH) ")
  string(REGEX REPLACE ".*MAJOR ([0-9]+).*MINOR ([0-9]+).*PATCH ([0-9]+).*" "\\1.\\2.\\3"
         JETPERF_DNNL_VERSION "${dnnl_version_lines}")
endif()
if(JETPERF_DNNL_LIB AND JETPERF_DNNL_INCLUDE AND JETPERF_DNNL_VERSION VERSION_LESS 2.3)
  message(STATUS "jetperf: oneDNN ${JETPERF_DNNL_VERSION} is older than 2.3; building without it")
  set(JETPERF_DNNL_LIB JETPERF_DNNL_LIB-NOTFOUND)
endif()
if(JETPERF_DNNL_LIB AND JETPERF_DNNL_INCLUDE)
  set(JETPERF_HAS_ONEDNN 1)
  add_library(DNNL::dnnl INTERFACE IMPORTED)
  set_target_properties(DNNL::dnnl PROPERTIES INTERFACE_LINK_LIBRARIES ${JETPERF_DNNL_LIB}
    INTERFACE_INCLUDE_DIRECTORIES ${JETPERF_DNNL_INCLUDE})
else()
  set(JETPERF_HAS_ONEDNN 0)
  message(STATUS "jetperf: oneDNN not found; CPU half GEMM and CPU layer points will be skipped")
endif()

if(JETPERF_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
