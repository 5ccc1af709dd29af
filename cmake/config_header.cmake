# include/jetperf/config.hpp announces which optional parts this build has.
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/include/jetperf/config.hpp.in
               ${CMAKE_CURRENT_BINARY_DIR}/generated/jetperf/config.hpp @ONLY)
set(JETPERF_GENERATED_INCLUDE ${CMAKE_CURRENT_BINARY_DIR}/generated)
