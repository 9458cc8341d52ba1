# thinmpi_add_mpi_test(<name> FILES <src>... NP <n>... [LIBRARIES <lib>...] [TIMEOUT <s>]
#                      [THREADS])
#
# Builds <name> from FILES with the MPI-aware GoogleTest main and registers one ctest test per
# rank count: <name>.1ranks, <name>.2ranks, ... each run under mpiexec -n <n>. THREADS: the
# main asks for MPI_THREAD_MULTIPLE.

include(${CMAKE_CURRENT_LIST_DIR}/ThinmpiMpiVendor.cmake)
if(THINMPI_MPI_VENDOR STREQUAL "openmpi")
  # More ranks than cores is how the 4-rank tests run on small machines.
  set(THINMPI_MPIEXEC_FLAGS --oversubscribe)
  # OpenMPI refuses to run as root without both of these; harmless otherwise.
  set(THINMPI_TEST_ENVIRONMENT OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
                               OMPI_MCA_rmaps_base_oversubscribe=1)
else()
  set(THINMPI_MPIEXEC_FLAGS)
  set(THINMPI_TEST_ENVIRONMENT)
endif()
message(STATUS "thinmpi: testing with ${THINMPI_MPI_VENDOR} (${MPIEXEC_EXECUTABLE})")

function(thinmpi_add_mpi_launch name np)
  add_test(NAME ${name}.${np}ranks
           COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np} ${THINMPI_MPIEXEC_FLAGS}
                   ${MPIEXEC_PREFLAGS} ${ARGN} ${MPIEXEC_POSTFLAGS})
  set_tests_properties(${name}.${np}ranks PROPERTIES PROCESSORS ${np} LABELS "mpi;np${np}"
                                                     ENVIRONMENT "${THINMPI_TEST_ENVIRONMENT}")
endfunction()

function(thinmpi_add_mpi_test name)
  cmake_parse_arguments(ARG "THREADS" "TIMEOUT" "FILES;NP;LIBRARIES" ${ARGN})
  if(NOT ARG_NP)
    message(FATAL_ERROR "thinmpi_add_mpi_test(${name}): declare the rank counts with NP")
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 120)
  endif()
  set(main thinmpi_gtest_main)
  if(ARG_THREADS)
    set(main thinmpi_gtest_main_threads)
  endif()
  add_executable(${name} ${ARG_FILES})
  target_link_libraries(${name} PRIVATE thinmpi::thinmpi ${main} thinmpi_warnings ${ARG_LIBRARIES})
  foreach(np IN LISTS ARG_NP)
    thinmpi_add_mpi_launch(${name} ${np} $<TARGET_FILE:${name}>)
    set_tests_properties(${name}.${np}ranks PROPERTIES TIMEOUT ${ARG_TIMEOUT})
  endforeach()
endfunction()
