# The layers' include rules (docs/ARCHITECTURE.md, "The layers"), checked over the sources:
#   - formats/, app/, ui/ and python/ include no private core header (CLAB_CORE_PRIVATE_HEADERS in
#     core/CMakeLists.txt), neither directly nor through the core headers they include;
#   - no core header they reach includes GiNaC or VTK, and they include no GiNaC themselves;
#   - no file in core/ includes Qt, VTK, or a header of formats/, app/ or ui/;
#   - no ui header that app/ includes (directly or through ui headers) includes VTK.
# Each violation is printed as file:line; the test fails when there is one.
#   cmake -DSOURCE_DIR=<repository> -DPRIVATE_HEADERS="a.h|b.h" -P CheckLayering.cmake

cmake_minimum_required(VERSION 3.25)

string(REPLACE "|" ";" private_headers "${PRIVATE_HEADERS}")
set(problems "")

foreach(header IN LISTS private_headers)
  if(NOT EXISTS "${SOURCE_DIR}/core/${header}")
    list(APPEND problems "core/CMakeLists.txt: the private header ${header} does not exist")
  endif()
endforeach()

# The includes of `file` (relative to SOURCE_DIR), as "line|included path" items.
function(read_includes file out)
  file(READ "${SOURCE_DIR}/${file}" text)
  # One list item per line: what CMake would read as separators or brackets goes first.
  string(REPLACE ";" "," text "${text}")
  string(REPLACE "[" "(" text "${text}")
  string(REPLACE "]" ")" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(found "")
  set(number 0)
  foreach(line IN LISTS lines)
    math(EXPR number "${number} + 1")
    if(line MATCHES "^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"]")
      list(APPEND found "${number}|${CMAKE_MATCH_1}")
    endif()
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

# An item of read_includes into its line number and path.
macro(split_include item line path)
  string(FIND "${item}" "|" bar)
  string(SUBSTRING "${item}" 0 ${bar} ${line})
  math(EXPR start "${bar} + 1")
  string(SUBSTRING "${item}" ${start} -1 ${path})
endmacro()

# The core header (relative to core/) that `path`, included from `file`, names; "" if none.
# A file's own folder comes first, as the compiler searches it first for "...".
function(core_header file path out)
  get_filename_component(folder "${file}" DIRECTORY)
  set(result "")
  if(EXISTS "${SOURCE_DIR}/${folder}/${path}" AND NOT IS_DIRECTORY "${SOURCE_DIR}/${folder}/${path}")
    if(folder MATCHES "^core(/|$)")
      file(RELATIVE_PATH result "${SOURCE_DIR}/core" "${SOURCE_DIR}/${folder}/${path}")
    endif()
  elseif(EXISTS "${SOURCE_DIR}/core/${path}" AND NOT IS_DIRECTORY "${SOURCE_DIR}/core/${path}")
    set(result "${path}")
  endif()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# formats/, app/, ui/ and python/ include no GiNaC and no private core header.
file(GLOB_RECURSE outer RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/formats/*.h"
     "${SOURCE_DIR}/formats/*.cpp" "${SOURCE_DIR}/app/*.h" "${SOURCE_DIR}/app/*.cpp"
     "${SOURCE_DIR}/ui/*.h" "${SOURCE_DIR}/ui/*.cpp" "${SOURCE_DIR}/python/*.h"
     "${SOURCE_DIR}/python/*.cpp")
# Then every core header they reach, directly or through another: a work list of files.
set(files ${outer})
list(LENGTH outer outer_count)
set(index 0)
set(count ${outer_count})
while(index LESS count)
  list(GET files ${index} file)
  math(EXPR index "${index} + 1")
  # Outside core only GiNaC is out of bounds; a core header reached from there has no VTK either.
  set(banned "^ginac")
  set(context ": GiNaC stays inside core/symbolic")
  if(file MATCHES "^core/")
    set(banned "^(ginac|vtk)")
    set(context " in a header formats/app/ui reach (from ${via_${file}})")
  endif()
  read_includes("${file}" includes)
  foreach(item IN LISTS includes)
    split_include("${item}" line path)
    if(path MATCHES "${banned}")
      list(APPEND problems "${file}:${line}: includes <${path}>${context}")
      continue()
    endif()
    core_header("${file}" "${path}" header)
    if(header STREQUAL "")
      continue()
    endif()
    if(header IN_LIST private_headers)
      list(APPEND problems "${file}:${line}: includes ${header}, a private core header")
    endif()
    if(NOT "core/${header}" IN_LIST files)
      list(APPEND files "core/${header}")
      set(via_core/${header} "${file}:${line}")
      math(EXPR count "${count} + 1")
    endif()
  endforeach()
endwhile()
math(EXPR public_count "${count} - ${outer_count}")

# core/ itself: no Qt, no VTK, nothing from the layers above.
file(GLOB_RECURSE inner RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/core/*.h" "${SOURCE_DIR}/core/*.cpp")
foreach(file IN LISTS inner)
  read_includes("${file}" includes)
  foreach(item IN LISTS includes)
    split_include("${item}" line path)
    if(path MATCHES "^(Q[A-Z]|Qt)" OR path MATCHES "^vtk")
      list(APPEND problems "${file}:${line}: includes <${path}>: core is pure C++ (no Qt, no VTK)")
      continue()
    endif()
    core_header("${file}" "${path}" header)
    if(NOT header STREQUAL "")
      continue()
    endif()
    foreach(layer formats app ui)
      if(EXISTS "${SOURCE_DIR}/${layer}/${path}" OR path MATCHES "^${layer}/")
        list(APPEND problems "${file}:${line}: includes ${path}, from ${layer}/ above core")
        break()
      endif()
    endforeach()
  endforeach()
endforeach()

# app/ sees ui/ through headers without VTK (clab_ui links its VTK modules PRIVATE): every ui
# header that app/ includes, directly or through another ui header.
file(GLOB_RECURSE programs RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/app/*.h" "${SOURCE_DIR}/app/*.cpp")
set(files ${programs})
list(LENGTH programs count)
set(index 0)
set(ui_count 0)
while(index LESS count)
  list(GET files ${index} file)
  math(EXPR index "${index} + 1")
  read_includes("${file}" includes)
  foreach(item IN LISTS includes)
    split_include("${item}" line path)
    if(file MATCHES "^ui/" AND path MATCHES "^vtk")
      list(APPEND problems "${file}:${line}: includes <${path}> in a ui header app/ reaches "
                           "(from ${via_${file}})")
      continue()
    endif()
    get_filename_component(folder "${file}" DIRECTORY)
    set(header "")
    if(file MATCHES "^ui/" AND EXISTS "${SOURCE_DIR}/${folder}/${path}")
      file(RELATIVE_PATH header "${SOURCE_DIR}" "${SOURCE_DIR}/${folder}/${path}")
    elseif(EXISTS "${SOURCE_DIR}/ui/${path}" AND NOT IS_DIRECTORY "${SOURCE_DIR}/ui/${path}")
      set(header "ui/${path}")
    endif()
    if(NOT header STREQUAL "" AND NOT header IN_LIST files)
      list(APPEND files "${header}")
      set(via_${header} "${file}:${line}")
      math(EXPR count "${count} + 1")
      math(EXPR ui_count "${ui_count} + 1")
    endif()
  endforeach()
endwhile()

list(LENGTH private_headers private_count)
if(problems)
  list(JOIN problems "\n" report)
  message(FATAL_ERROR "Layering broken:\n${report}")
endif()
message(STATUS "Layering holds: formats/, app/ and ui/ reach ${public_count} core headers, "
               "none private (${private_count}), none with GiNaC or VTK; app/ reaches "
               "${ui_count} ui headers, none with VTK; core has no Qt, VTK or upper layer")
