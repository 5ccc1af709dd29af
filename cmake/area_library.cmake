# jetperf_area(NAME <area> [DEPS ...] [EXTRA_SOURCES ...]): one static library per src/<area>,
# built from every .cpp under it (except cuda/), so that adding a file needs no CMake edit.
function(jetperf_area)
  cmake_parse_arguments(A "" "NAME" "DEPS;EXTRA_SOURCES" ${ARGN})
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${A_NAME}/*.cpp)
  list(FILTER srcs EXCLUDE REGEX "/cuda/")
  set(target jetperf_${A_NAME})
  if(NOT srcs AND NOT A_EXTRA_SOURCES)
    # An area with no sources yet is a header-only interface.
    add_library(${target} INTERFACE)
    set(scope INTERFACE)
  else()
    add_library(${target} STATIC ${srcs} ${A_EXTRA_SOURCES})
    target_link_libraries(${target} PRIVATE jetperf_warnings)
    set(scope PUBLIC)
  endif()
  add_library(jetperf::${A_NAME} ALIAS ${target})
  target_include_directories(${target} ${scope}
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${JETPERF_GENERATED_INCLUDE}>)
  target_link_libraries(${target} ${scope} ${A_DEPS})
endfunction()
