# simdjson, used only inside varshred's JSON sources.
#
# Default: compile the single-file simdjson amalgamation that the pinned `pysimdjson`
# package carries (a build requirement in pyproject.toml), so a build needs nothing
# but the Python package index. Its objects go into the varshred library with hidden
# visibility, so they cannot clash with the copy hidden inside libarrow.
# VARSHRED_SYSTEM_SIMDJSON=ON uses find_package(simdjson) instead (e.g. Debian's
# libsimdjson-dev); VARSHRED_SIMDJSON_SOURCE_DIR points at any directory holding
# simdjson.h and simdjson.cpp.

if(TARGET varshred_simdjson)
  return()
endif()

if(VARSHRED_SYSTEM_SIMDJSON)
  find_package(simdjson REQUIRED CONFIG)
  add_library(varshred_simdjson INTERFACE)
  target_link_libraries(varshred_simdjson INTERFACE simdjson::simdjson)
  return()
endif()

if(NOT VARSHRED_SIMDJSON_SOURCE_DIR)
  find_package(Python REQUIRED COMPONENTS Interpreter)
  execute_process(
    COMMAND "${Python_EXECUTABLE}" -c
      "import importlib.util as u; s = u.find_spec('simdjson'); print(s.submodule_search_locations[0], end='')"
    OUTPUT_VARIABLE VARSHRED_SIMDJSON_SOURCE_DIR
    RESULT_VARIABLE _varshred_sj_rc)
  if(NOT _varshred_sj_rc EQUAL 0 OR NOT EXISTS "${VARSHRED_SIMDJSON_SOURCE_DIR}/simdjson.cpp")
    message(FATAL_ERROR "varshred: simdjson sources not found. Install `pysimdjson==7.0.2` "
                        "for ${Python_EXECUTABLE}, or set VARSHRED_SIMDJSON_SOURCE_DIR, "
                        "or use -DVARSHRED_SYSTEM_SIMDJSON=ON.")
  endif()
endif()
message(STATUS "varshred: simdjson sources in ${VARSHRED_SIMDJSON_SOURCE_DIR}")

# Copy the two files into the build tree so that the include path holds nothing else
# from the package directory.
file(MAKE_DIRECTORY "${CMAKE_BINARY_DIR}/simdjson")
configure_file("${VARSHRED_SIMDJSON_SOURCE_DIR}/simdjson.h" "${CMAKE_BINARY_DIR}/simdjson/simdjson.h" COPYONLY)
configure_file("${VARSHRED_SIMDJSON_SOURCE_DIR}/simdjson.cpp" "${CMAKE_BINARY_DIR}/simdjson/simdjson.cpp" COPYONLY)

add_library(varshred_simdjson OBJECT "${CMAKE_BINARY_DIR}/simdjson/simdjson.cpp")
target_include_directories(varshred_simdjson SYSTEM PUBLIC
  "$<BUILD_INTERFACE:${CMAKE_BINARY_DIR}/simdjson>")
target_compile_definitions(varshred_simdjson PUBLIC SIMDJSON_EXCEPTIONS=0)
# The amalgamation is large; optimise it even in Debug builds so tests stay fast.
target_compile_options(varshred_simdjson PRIVATE -O2 -w)
