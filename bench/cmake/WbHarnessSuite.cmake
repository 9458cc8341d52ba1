# What the suites of the collectives harness (harness/coll_harness.c: wb_coll in
# WbCollectives.cmake, wb_neighbors in WbNeighbors.cmake) do alike, written once:
#   wb_add_thinmpi_kernel   a harness's thinmpi kernel, unless the build leaves thinmpi out
#   wb_add_harness_smoke    the ctests that launch a harness with every variant on 2 and 4 ranks
#   wb_harness_manifest     the <harness>.json that tells the driver about a harness (every
#                           harness's, wb_build.json included)

# wb_add_thinmpi_kernel(<harness> <FAMILY> <source> [<include dir>...]): unless WB_WITH_THINMPI
# is OFF, kernels/thinmpi/<source> as the object library wb_thinmpi_<family> (lower case) in
# <harness>, which gets WB_HAVE_THINMPI_<FAMILY>; sets WB_<FAMILY>_THINMPI and its _REASON for
# the manifest. A kernel that does not compile fails the build, and wrapper-bench's driver
# then builds again without thinmpi and names the error (core/build.py).
macro(wb_add_thinmpi_kernel harness family source)
  string(TOLOWER ${family} wb_kernel_name)
  set(wb_kernel_name wb_thinmpi_${wb_kernel_name})
  set(WB_${family}_THINMPI false)
  set(WB_${family}_THINMPI_REASON "left out of this build (WB_WITH_THINMPI=OFF)")
  if(WB_WITH_THINMPI)
    add_library(${wb_kernel_name} OBJECT kernels/thinmpi/${source})
    target_include_directories(${wb_kernel_name} PRIVATE ${ARGN})
    thinmpi_plain_program(${wb_kernel_name})
    target_link_libraries(${harness} PRIVATE ${wb_kernel_name} thinmpi::thinmpi)
    target_compile_definitions(${harness} PRIVATE WB_HAVE_THINMPI_${family})
    set(WB_${family}_THINMPI true)
    set(WB_${family}_THINMPI_REASON "")
  endif()
endmacro()

# wb_add_harness_smoke(<target>): ctests <target>_smoke.2ranks and .4ranks run every variant of
# the harness a few calls each and verify them (Open MPI: run as root, 4 ranks oversubscribed).
function(wb_add_harness_smoke target)
  if(NOT THINMPI_BUILD_TESTS)
    return()
  endif()
  foreach(ranks 2 4)
    set(name ${target}_smoke.${ranks}ranks)
    add_test(NAME ${name} COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks}
                                  $<TARGET_FILE:${target}> --variants all --count 5
                                  --iterations 4 --warmup 1 --blocks 2)
    # Open MPI: as root, oversubscribed, the PML named (cmake/ThinmpiTesting.cmake).
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "${THINMPI_TEST_ENVIRONMENT}")
    set_tests_properties(${name} PROPERTIES PROCESSORS ${ranks} TIMEOUT 120)
  endforeach()
endfunction()

# wb_harness_manifest(<name> HARNESS <target> [LIBRARIES] [AVAILABLE <key> <variable>]...
#                     [STRINGS <key> <variable>]... [JSON <key> <variable>]...)
# Writes <name>.json in the build folder, what the driver needs to know about one harness: the
# MPI and its launcher, the harness, with LIBRARIES the audit and C kernels libraries; then for
# each AVAILABLE key "<key>": the variable's true/false and "<key>_missing_reason": the variable
# <variable>_REASON; each STRINGS key the variable's text, each JSON key its JSON as it is.
# Values are given by variable name, so that lists and generator expressions pass whole.
function(wb_harness_manifest name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "LIBRARIES" "HARNESS" "AVAILABLE;STRINGS;JSON")
  set(entries "\"mpi\": \"${WB_MPI_VENDOR}\"" "\"mpiexec\": \"${MPIEXEC_EXECUTABLE}\""
              "\"harness\": \"$<TARGET_FILE:${ARG_HARNESS}>\"")
  if(ARG_LIBRARIES)
    list(APPEND entries "\"audit_library\": \"$<TARGET_FILE:wb_audit>\""
         "\"c_kernels_library\": \"$<TARGET_FILE:wb_ckernels>\"")
  endif()
  set(content "{\n  ${entries}")
  string(REPLACE ";" ",\n  " content "${content}")
  foreach(kind AVAILABLE STRINGS JSON)
    set(pairs ${ARG_${kind}})
    while(pairs)
      list(POP_FRONT pairs key variable)
      if(kind STREQUAL "AVAILABLE")
        string(APPEND content ",\n  \"${key}\": ${${variable}},\n  \"${key}_missing_reason\": "
               "\"${${variable}_REASON}\"")
      elseif(kind STREQUAL "STRINGS")
        string(APPEND content ",\n  \"${key}\": \"${${variable}}\"")
      else()
        string(APPEND content ",\n  \"${key}\": ${${variable}}")
      endif()
    endwhile()
  endforeach()
  file(GENERATE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/${name}.json CONTENT "${content}\n}\n")
endfunction()
