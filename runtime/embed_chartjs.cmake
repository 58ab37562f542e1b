# Reads Debian's Chart.js (package libjs-chart.js) into
# ${CMAKE_CURRENT_BINARY_DIR}/generated/chartjs_source.h as string pieces
# (each under the 64 KiB a string literal is guaranteed), and sets
# PTXSIM_CHARTJS_INCLUDE_DIR to its folder.
find_file(PTXSIM_CHARTJS_FILE NAMES chart.min.js chart.umd.js chart.js
          PATHS /usr/share/javascript/chart.js /usr/share/nodejs/chart.js/dist NO_DEFAULT_PATH
          DOC "Chart.js, inlined in the pages of ptxsim compare --html")
if(NOT PTXSIM_CHARTJS_FILE)
  message(FATAL_ERROR "Chart.js not found (looked in /usr/share/javascript/chart.js and "
                      "/usr/share/nodejs/chart.js/dist): install the Debian package libjs-chart.js "
                      "(apt-get install libjs-chart.js, or run scripts/setup.sh), or set PTXSIM_CHARTJS_FILE")
endif()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PTXSIM_CHARTJS_FILE})
file(READ ${PTXSIM_CHARTJS_FILE} chartjs_source)
set(delimiter "ptxsim_chartjs")
string(FIND "${chartjs_source}" ")${delimiter}\"" collision)
string(FIND "${chartjs_source}" "</script" script_end)
if(NOT collision EQUAL -1 OR NOT script_end EQUAL -1)
  message(FATAL_ERROR "${PTXSIM_CHARTJS_FILE} holds \")${delimiter}\\\"\" or \"</script\": cannot inline it")
endif()
string(LENGTH "${chartjs_source}" length)
set(header "// Generated from ${PTXSIM_CHARTJS_FILE} by runtime/embed_chartjs.cmake; do not edit.\n")
string(APPEND header "#pragma once\n#include <string_view>\n")
string(APPEND header "inline constexpr std::string_view kChartJsSourceParts[] = {\n")
set(piece 60000)
set(offset 0)
while(offset LESS length)
  string(SUBSTRING "${chartjs_source}" ${offset} ${piece} part)
  string(APPEND header "R\"${delimiter}(${part})${delimiter}\",\n")
  math(EXPR offset "${offset} + ${piece}")
endwhile()
string(APPEND header "};\n")
set(PTXSIM_CHARTJS_INCLUDE_DIR ${CMAKE_CURRENT_BINARY_DIR}/generated)
# Written only when it changes, so that configuring again rebuilds nothing.
set(header_file ${PTXSIM_CHARTJS_INCLUDE_DIR}/chartjs_source.h)
set(old_header "")
if(EXISTS ${header_file})
  file(READ ${header_file} old_header)
endif()
if(NOT old_header STREQUAL header)
  file(WRITE ${header_file} "${header}")
endif()
