# Writes a man page (gzipped roff) from the help text a program prints, so that the manual
# and `--help` cannot drift apart. Run in script mode:
#   cmake -DPROGRAM=… -DNAME=… -DSUMMARY=… -DVERSION=… -DDATE=… -DOUTPUT=….1.gz
#         [-DSUBCOMMANDS=ON] -P ManPage.cmake
# With SUBCOMMANDS, every command listed under "Commands:" in the help gets a section made
# from `PROGRAM help COMMAND`.
cmake_minimum_required(VERSION 3.25)

function(run_help out)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${PROGRAM} ${ARGN}
                  OUTPUT_VARIABLE text RESULT_VARIABLE code ERROR_VARIABLE errors)
  if(NOT code EQUAL 0 OR text STREQUAL "")
    message(FATAL_ERROR "${PROGRAM} ${ARGN} gave no help text (exit ${code}): ${errors}")
  endif()
  # Qt's parser names the program by the path it was started with.
  string(REPLACE "${PROGRAM}" "${NAME}" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# Help text → roff: with a heading macro, "Heading:" lines become headings; lines that start
# at the margin are filled as prose, indented ones (option tables, examples) keep their layout.
function(to_roff text heading_macro out)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REPLACE ";" "\\;" text "${text}") # keep semicolons out of CMake's list splitting
  string(REPLACE "\n" ";" lines "${text}")
  set(roff "")
  set(layout "fill")
  foreach(line IN LISTS lines)
    string(REPLACE "\\;" ";" line "${line}")
    if(heading_macro AND line MATCHES "^([A-Z][A-Za-z ]*):$")
      string(TOUPPER "${CMAKE_MATCH_1}" title)
      if(layout STREQUAL "keep")
        string(APPEND roff ".fi\n")
      endif()
      string(APPEND roff "${heading_macro} ${title}\n")
      set(layout "fill")
      continue()
    endif()
    if(line MATCHES "^ " AND layout STREQUAL "fill")
      string(APPEND roff ".nf\n")
      set(layout "keep")
    elseif(line MATCHES "^[^ ]" AND layout STREQUAL "keep")
      string(APPEND roff ".fi\n")
      set(layout "fill")
    endif()
    if(line MATCHES "^[.']")
      set(line "\\&${line}")
    endif()
    string(APPEND roff "${line}\n")
  endforeach()
  if(layout STREQUAL "keep")
    string(APPEND roff ".fi\n")
  endif()
  set(${out} "${roff}" PARENT_SCOPE)
endfunction()

run_help(help --help)
# The first "Usage:" line is the synopsis; the rest of the help is the description.
string(REGEX MATCH "^Usage: ([^\n]*)\n" usage_line "${help}")
set(synopsis "${CMAKE_MATCH_1}")
string(REGEX REPLACE "^Usage: [^\n]*\n\n?" "" body "${help}")
to_roff("${body}" ".SH" description)
string(REPLACE "-" "\\-" synopsis "${synopsis}")
string(REPLACE "-" "\\-" summary "${SUMMARY}")

set(page ".TH ${NAME} 1 \"${DATE}\" \"ConstraintLab ${VERSION}\" \"User Commands\"\n")
string(REPLACE "-" "\\-" page "${page}")
string(APPEND page ".SH NAME\n${NAME} \\- ${summary}\n.SH SYNOPSIS\n.nf\n${synopsis}\n.fi\n")
string(APPEND page ".SH DESCRIPTION\n${description}")

if(SUBCOMMANDS)
  string(REGEX MATCH "\nCommands:\n(.*)\n\n" commands_block "${help}")
  string(REGEX MATCHALL "\n  [a-z]+" commands "\n${CMAKE_MATCH_1}")
  string(APPEND page ".SH COMMAND DETAILS\n")
  foreach(command IN LISTS commands)
    string(STRIP "${command}" command)
    if(command STREQUAL "help")
      continue()
    endif()
    run_help(command_help help ${command})
    to_roff("${command_help}" "" command_roff)
    string(APPEND page ".SS ${command}\n${command_roff}")
  endforeach()
endif()

string(APPEND page ".SH SEE ALSO\n")
if(NAME STREQUAL "constraintlab")
  string(APPEND page "constraintlab\\-cli(1)\n")
else()
  string(APPEND page "constraintlab(1)\n")
endif()

get_filename_component(directory "${OUTPUT}" DIRECTORY)
string(REGEX REPLACE "\\.gz$" "" plain "${OUTPUT}")
file(WRITE "${plain}" "${page}")
file(ARCHIVE_CREATE OUTPUT "${OUTPUT}" PATHS "${plain}" FORMAT raw COMPRESSION GZip)
