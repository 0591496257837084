#===- FindMLIR22.cmake - locate MLIR/LLVM 22 and its CMake helpers ---------===#
#
# Usage (from dialect/CMakeLists.txt):
#   list(APPEND CMAKE_MODULE_PATH "${CMAKE_CURRENT_SOURCE_DIR}/../cmake")
#   find_package(MLIR22 REQUIRED)
#
# Looks for MLIRConfig.cmake of LLVM 22 in, in order: -DMLIR_DIR=..., the
# MLIR_SYS_220_PREFIX environment variable (the one mlir-sys reads, set in
# .cargo/config.toml), and Debian's /usr/lib/llvm-22. Debian 12 also ships
# LLVM 14 as the default `llvm-config`, so the search never uses the default
# system paths.
#
# On success it loads MLIR's and LLVM's CMake modules (TableGen, AddLLVM,
# AddMLIR), adds their include directories and definitions, and sets
# MLIR22_FOUND, MLIR22_PREFIX and MLIR22_VERSION.

set(_mlir22_hints)
if(DEFINED ENV{MLIR_SYS_220_PREFIX})
  list(APPEND _mlir22_hints "$ENV{MLIR_SYS_220_PREFIX}/lib/cmake/mlir")
endif()
list(APPEND _mlir22_hints "/usr/lib/llvm-22/lib/cmake/mlir")

find_package(MLIR CONFIG QUIET NO_DEFAULT_PATH HINTS ${MLIR_DIR} ${_mlir22_hints})
unset(_mlir22_hints)

set(MLIR22_VERSION "${LLVM_PACKAGE_VERSION}")
if(MLIR_FOUND)
  get_filename_component(MLIR22_PREFIX "${MLIR_DIR}/../../.." ABSOLUTE)
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(MLIR22
  REQUIRED_VARS MLIR_DIR MLIR22_PREFIX
  VERSION_VAR MLIR22_VERSION)

if(MLIR22_FOUND)
  if(NOT LLVM_VERSION_MAJOR EQUAL 22)
    message(FATAL_ERROR "MLIR at ${MLIR_DIR} is LLVM ${LLVM_PACKAGE_VERSION}; LLVM 22 is required "
                        "(install libmlir-22-dev, or pass -DMLIR_DIR=<prefix>/lib/cmake/mlir)")
  endif()
  list(APPEND CMAKE_MODULE_PATH "${MLIR_CMAKE_DIR}" "${LLVM_CMAKE_DIR}")
  include(TableGen)
  include(AddLLVM)
  include(AddMLIR)
  include_directories(SYSTEM ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
  separate_arguments(_mlir22_definitions NATIVE_COMMAND "${LLVM_DEFINITIONS}")
  add_definitions(${_mlir22_definitions})
  unset(_mlir22_definitions)
endif()
