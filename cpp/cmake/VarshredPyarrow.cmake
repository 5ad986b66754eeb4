# Imported targets for the Arrow C++ and Parquet C++ libraries shipped inside the
# pyarrow wheel. The wheel has no ArrowConfig.cmake, so the targets are made by hand
# and point at the versioned sonames (nothing is written into site-packages).
#
# Inputs (all optional): PYARROW_INCLUDE_DIR, PYARROW_LIB_DIR, PYARROW_SO_VERSION.
# Without them, the Python interpreter found by CMake is asked.

if(TARGET pyarrow::arrow)
  return()
endif()

if(NOT PYARROW_LIB_DIR OR NOT PYARROW_INCLUDE_DIR OR NOT PYARROW_SO_VERSION)
  find_package(Python REQUIRED COMPONENTS Interpreter)
  execute_process(
    COMMAND "${Python_EXECUTABLE}" -c
      "import pyarrow as pa; print(pa.get_include(), pa.get_library_dirs()[0], pa.cpp_build_info.so_version, sep=';', end='')"
    OUTPUT_VARIABLE _varshred_pa_info
    RESULT_VARIABLE _varshred_pa_rc)
  if(NOT _varshred_pa_rc EQUAL 0)
    message(FATAL_ERROR "varshred: pyarrow (==26.*) must be importable by ${Python_EXECUTABLE}")
  endif()
  list(GET _varshred_pa_info 0 PYARROW_INCLUDE_DIR)
  list(GET _varshred_pa_info 1 PYARROW_LIB_DIR)
  list(GET _varshred_pa_info 2 PYARROW_SO_VERSION)
endif()
set(PYARROW_INCLUDE_DIR "${PYARROW_INCLUDE_DIR}" CACHE PATH "pyarrow C++ headers")
set(PYARROW_LIB_DIR "${PYARROW_LIB_DIR}" CACHE PATH "pyarrow shared libraries")
set(PYARROW_SO_VERSION "${PYARROW_SO_VERSION}" CACHE STRING "pyarrow soname version")
message(STATUS "varshred: pyarrow include=${PYARROW_INCLUDE_DIR} lib=${PYARROW_LIB_DIR} so=${PYARROW_SO_VERSION}")

foreach(_lib arrow parquet)
  add_library(pyarrow::${_lib} SHARED IMPORTED)
  set_target_properties(pyarrow::${_lib} PROPERTIES
    IMPORTED_LOCATION "${PYARROW_LIB_DIR}/lib${_lib}.so.${PYARROW_SO_VERSION}"
    INTERFACE_INCLUDE_DIRECTORIES "${PYARROW_INCLUDE_DIR}")
endforeach()
set_property(TARGET pyarrow::parquet PROPERTY INTERFACE_LINK_LIBRARIES pyarrow::arrow)
