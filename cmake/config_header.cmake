# include/jetperf/config.hpp announces which optional parts this build has, and the commit it was
# configured from (part of every job's provenance; "unknown" outside a git checkout).
set(JETPERF_GIT_COMMIT "unknown")
find_package(Git QUIET)
if(GIT_FOUND AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/.git)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short=12 HEAD
                  WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
                  OUTPUT_VARIABLE git_commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE git_status)
  if(git_status EQUAL 0 AND git_commit)
    set(JETPERF_GIT_COMMIT ${git_commit})
  endif()
endif()
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/include/jetperf/config.hpp.in
               ${CMAKE_CURRENT_BINARY_DIR}/generated/jetperf/config.hpp @ONLY)
set(JETPERF_GENERATED_INCLUDE ${CMAKE_CURRENT_BINARY_DIR}/generated)
