# Imported targets for the Arrow C++ and Parquet C++ libraries shipped inside the
# pyarrow wheel. The wheel has no ArrowConfig.cmake, so the targets are made by hand
# and point at the versioned sonames (nothing is written into site-packages).
#
# Where pyarrow lives is asked of the Python interpreter at every configure: build
# environments come and go (pip's isolated environments are deleted after each build),
# so a path remembered from an earlier configure may point at nothing. Paths given by
# the user (-DPYARROW_LIB_DIR=... -DPYARROW_INCLUDE_DIR=... -DPYARROW_SO_VERSION=...)
# are used as they are. VARSHRED_PYARROW_FALLBACK_* (set by the installed package
# config) are used only when no interpreter with pyarrow is found.

if(TARGET pyarrow::arrow)
  return()
endif()

# A value equal to the last probed one was ours, not the user's: probe again.
if(PYARROW_LIB_DIR AND NOT PYARROW_LIB_DIR STREQUAL "${_VARSHRED_PROBED_LIB_DIR}")
  set(_varshred_pa_given TRUE)
else()
  set(_varshred_pa_given FALSE)
endif()

if(NOT _varshred_pa_given)
  find_package(Python QUIET COMPONENTS Interpreter)
  set(_varshred_pa_rc 1)
  if(Python_EXECUTABLE)
    execute_process(
      COMMAND "${Python_EXECUTABLE}" -c
        "import pyarrow as pa; print(pa.get_include(), pa.get_library_dirs()[0], pa.cpp_build_info.so_version, sep=';', end='')"
      OUTPUT_VARIABLE _varshred_pa_info
      RESULT_VARIABLE _varshred_pa_rc
      ERROR_QUIET)
  endif()
  if(_varshred_pa_rc EQUAL 0)
    list(GET _varshred_pa_info 0 _varshred_include)
    list(GET _varshred_pa_info 1 _varshred_lib)
    list(GET _varshred_pa_info 2 _varshred_so)
  elseif(VARSHRED_PYARROW_FALLBACK_LIB_DIR AND EXISTS "${VARSHRED_PYARROW_FALLBACK_LIB_DIR}")
    set(_varshred_include "${VARSHRED_PYARROW_FALLBACK_INCLUDE_DIR}")
    set(_varshred_lib "${VARSHRED_PYARROW_FALLBACK_LIB_DIR}")
    set(_varshred_so "${VARSHRED_PYARROW_FALLBACK_SO_VERSION}")
  else()
    message(FATAL_ERROR "varshred: pyarrow (==26.*) must be importable by the Python "
                        "interpreter (found: '${Python_EXECUTABLE}'), or set PYARROW_LIB_DIR, "
                        "PYARROW_INCLUDE_DIR and PYARROW_SO_VERSION")
  endif()
  set(PYARROW_INCLUDE_DIR "${_varshred_include}" CACHE PATH "pyarrow C++ headers" FORCE)
  set(PYARROW_LIB_DIR "${_varshred_lib}" CACHE PATH "pyarrow shared libraries" FORCE)
  set(PYARROW_SO_VERSION "${_varshred_so}" CACHE STRING "pyarrow soname version" FORCE)
  set(_VARSHRED_PROBED_LIB_DIR "${_varshred_lib}" CACHE INTERNAL "")
endif()
if(NOT EXISTS "${PYARROW_LIB_DIR}/libarrow.so.${PYARROW_SO_VERSION}")
  message(FATAL_ERROR "varshred: no libarrow.so.${PYARROW_SO_VERSION} in '${PYARROW_LIB_DIR}'")
endif()
message(STATUS "varshred: pyarrow include=${PYARROW_INCLUDE_DIR} lib=${PYARROW_LIB_DIR} so=${PYARROW_SO_VERSION}")

foreach(_lib arrow parquet)
  add_library(pyarrow::${_lib} SHARED IMPORTED)
  set_target_properties(pyarrow::${_lib} PROPERTIES
    IMPORTED_LOCATION "${PYARROW_LIB_DIR}/lib${_lib}.so.${PYARROW_SO_VERSION}"
    INTERFACE_INCLUDE_DIRECTORIES "${PYARROW_INCLUDE_DIR}")
endforeach()
set_property(TARGET pyarrow::parquet PROPERTY INTERFACE_LINK_LIBRARIES pyarrow::arrow)
