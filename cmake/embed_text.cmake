# jetperf_embed_text(<out_var> FILE <path> SYMBOL <ns::function>): generates a C++ source that
# defines `std::string_view ns::function()` returning the file's bytes, rebuilt when the file
# changes; <out_var> receives the generated path for a target's sources. The bytes are written
# as a hex array, so any file (quotes, raw-string delimiters, binary) embeds the same way.
# Call it from the directory whose target compiles the source (custom command outputs are
# visible only there). The same file runs in script mode (-P) to do the generation.
if(CMAKE_SCRIPT_MODE_FILE)
  file(READ ${IN} hex HEX)
  string(LENGTH "${hex}" hex_length)
  math(EXPR size "${hex_length} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n"
         bytes "${bytes}")
  string(REGEX MATCH "^(.*)::([^:]+)$" _ "${SYMBOL}")
  set(ns ${CMAKE_MATCH_1})
  set(fn ${CMAKE_MATCH_2})
  file(WRITE ${OUT}.tmp "// Generated from ${IN} by cmake/embed_text.cmake.\n#include <string_view>\n\nnamespace ${ns} {\n\nstd::string_view ${fn}() {\n  static const char data[] = {\n${bytes}0};\n  return std::string_view(data, ${size});\n}\n\n}  // namespace ${ns}\n")
  file(RENAME ${OUT}.tmp ${OUT})
  return()
endif()

set(JETPERF_EMBED_TEXT_SCRIPT ${CMAKE_CURRENT_LIST_FILE})

function(jetperf_embed_text out_var)
  cmake_parse_arguments(E "" "FILE;SYMBOL" "" ${ARGN})
  if(NOT E_FILE OR NOT E_SYMBOL MATCHES "^(.+)::([A-Za-z_][A-Za-z0-9_]*)$")
    message(FATAL_ERROR "jetperf_embed_text: FILE and SYMBOL (ns::function) are required")
  endif()
  string(REPLACE "::" "_" stem ${E_SYMBOL})
  set(out ${CMAKE_CURRENT_BINARY_DIR}/generated/embedded_${stem}.cpp)
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DIN=${E_FILE} -DOUT=${out} -DSYMBOL=${E_SYMBOL} -P ${JETPERF_EMBED_TEXT_SCRIPT}
    DEPENDS ${E_FILE} ${JETPERF_EMBED_TEXT_SCRIPT}
    COMMENT "Embedding ${E_FILE}")
  set(${out_var} ${out} PARENT_SCOPE)
endfunction()
