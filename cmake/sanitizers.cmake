# JETPERF_SANITIZE: build every target (libraries, daemon, client, simulator programs, tests)
# with a sanitizer. Global compile and link options rather than a per-target interface library,
# so nothing added later can be left out; the sim tests run the real jetperfd and jetperf, and a
# half-instrumented process reports races against code it cannot see.
#   address: AddressSanitizer (with LeakSanitizer) and UndefinedBehaviorSanitizer; UB aborts the
#            test instead of printing and going on, so a finding fails it.
#   thread:  ThreadSanitizer.
# The runtime options and the suppressions for third-party code (tests/sanitizers/) reach the
# tests and the processes they start through the environment (tests/CMakeLists.txt).
set(JETPERF_SANITIZE "" CACHE STRING "Build with a sanitizer: empty (none), address (ASan+UBSan) or thread (TSan)")
set_property(CACHE JETPERF_SANITIZE PROPERTY STRINGS "" address thread)

if(JETPERF_SANITIZE STREQUAL "")
  return()
elseif(JETPERF_SANITIZE STREQUAL "address")
  set(jetperf_sanitize_flags -fsanitize=address,undefined -fno-sanitize-recover=undefined)
elseif(JETPERF_SANITIZE STREQUAL "thread")
  set(jetperf_sanitize_flags -fsanitize=thread)
else()
  message(FATAL_ERROR "JETPERF_SANITIZE is '${JETPERF_SANITIZE}': use address (ASan+UBSan), thread (TSan) "
                      "or leave it empty; the two cannot be combined in one build")
endif()

# -O1 whatever the build type: what the sanitizers' documentation advises (stacks stay close to
# the source), and it compiles in about 60% of -O3's time; a sanitizer build checks, it is not
# measured. Frame pointers give the fast unwinder whole stacks; -g1 (line tables only, when the
# build type has no -g) gives reports file:line at little cost. Host code only: nvcc does not
# take these flags (sanitizer builds are meant without CUDA).
string(REPLACE ";" " " jetperf_sanitize_text "${jetperf_sanitize_flags}")
add_compile_options(
  "$<$<COMPILE_LANGUAGE:C,CXX>:${jetperf_sanitize_flags};-fno-omit-frame-pointer;-O1>"
  "$<$<AND:$<COMPILE_LANGUAGE:C,CXX>,$<NOT:$<OR:$<CONFIG:Debug>,$<CONFIG:RelWithDebInfo>>>>:-g1>")
add_link_options(${jetperf_sanitize_flags})
message(STATUS "jetperf: sanitizer build (${JETPERF_SANITIZE}): ${jetperf_sanitize_text} -O1")
