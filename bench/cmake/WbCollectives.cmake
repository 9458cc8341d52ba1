# The collectives suite of wrapper-bench (included by bench/CMakeLists.txt after the ping-pong
# harness, whose Boost.MPI and warning targets it reuses):
#   wb_coll        the collectives harness: C, Boost.MPI and thinmpi collective variants and the
#                  programs (sample sort, BFS) in one binary, run at any number of ranks
#   libwb_ckernels gains the C collective variants (coll_bridge.c), which the mpi4py collectives
#                  kernel (mpi4py_coll.py) runs through ctypes as its same-process baseline
#   wb_coll.json   what the driver needs to know about it
#
# thinmpi's collectives land in their own branches: kernels/thinmpi_coll.cpp (and the thinmpi
# programs) join the harness when they compile against this tree; the reason is recorded when not.

# The C variants of both collective harnesses (wb_coll here, wb_neighbors in WbNeighbors.cmake):
# libwb_ckernels's bridge finds the C baselines of either suite for the mpi4py kernels.
add_library(
  wb_c_coll OBJECT kernels/c_coll.c kernels/coll_check.c kernels/coll_timing.c
                   kernels/c_neighbors.c programs/sample_sort.c programs/bfs.c
                   programs/allgatherv.c programs/halo_2d.c programs/local_sort.cpp)
set_target_properties(wb_c_coll PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
target_include_directories(wb_c_coll PUBLIC kernels programs)
target_compile_options(wb_c_coll PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Werror>)
target_link_libraries(wb_c_coll PUBLIC MPI::MPI_C PRIVATE wb_c_warnings)
# local_sort.cpp includes mpi.h: without this Open MPI's C++ bindings would need libmpi_cxx.
target_compile_definitions(wb_c_coll PRIVATE OMPI_SKIP_MPICXX=1 MPICH_SKIP_MPICXX=1)

add_executable(wb_coll kernels/coll_harness.c kernels/harness_json.c kernels/cxx_info.cpp)
set_target_properties(wb_coll PROPERTIES C_STANDARD 11 LINKER_LANGUAGE CXX)
target_link_libraries(wb_coll PRIVATE wb_c_coll MPI::MPI_C wb_c_warnings)

# The C collective variants in libwb_ckernels too, for the mpi4py collectives kernel (ctypes).
target_sources(wb_ckernels PRIVATE kernels/coll_bridge.c)
target_link_libraries(wb_ckernels PRIVATE wb_c_coll)
set_target_properties(wb_ckernels PROPERTIES LINKER_LANGUAGE CXX)

set(WB_COLL_BOOST false)
if(WB_BOOST_MPI)
  add_library(wb_boost_coll OBJECT kernels/boost_coll.cpp)
  target_compile_features(wb_boost_coll PRIVATE cxx_std_20)
  target_compile_definitions(wb_boost_coll PRIVATE OMPI_SKIP_MPICXX=1 MPICH_SKIP_MPICXX=1)
  target_include_directories(wb_boost_coll PRIVATE kernels)
  target_link_libraries(wb_boost_coll PRIVATE MPI::MPI_CXX Boost::headers thinmpi_warnings)
  target_link_libraries(wb_coll PRIVATE wb_boost_coll ${WB_BOOST_MPI} Boost::serialization
                                        MPI::MPI_CXX)
  target_compile_definitions(wb_coll PRIVATE WB_HAVE_BOOST)
  set(WB_COLL_BOOST true)
endif()

# Whether the thinmpi collective kernels compile against this tree's thinmpi.
set(WB_COLL_THINMPI false)
set(WB_COLL_THINMPI_REASON "left out of this build (WB_WITH_THINMPI=OFF)")
if(WB_WITH_THINMPI)
  unset(WB_THINMPI_COLL_COMPILES CACHE)
  get_target_property(warnings thinmpi_warnings INTERFACE_COMPILE_OPTIONS)
  set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
  try_compile(
    WB_THINMPI_COLL_COMPILES ${CMAKE_CURRENT_BINARY_DIR}/thinmpi_coll_check
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/kernels/thinmpi_coll.cpp
    CMAKE_FLAGS
      "-DINCLUDE_DIRECTORIES=${PROJECT_SOURCE_DIR}/include;${CMAKE_CURRENT_SOURCE_DIR}/kernels;\
${CMAKE_CURRENT_SOURCE_DIR}/programs;${PROJECT_SOURCE_DIR}/examples"
    COMPILE_DEFINITIONS ${warnings}
    LINK_LIBRARIES MPI::MPI_CXX
    CXX_STANDARD 20
    OUTPUT_VARIABLE WB_THINMPI_COLL_LOG)
  unset(CMAKE_TRY_COMPILE_TARGET_TYPE)
  if(WB_THINMPI_COLL_COMPILES)
    add_library(wb_thinmpi_coll OBJECT kernels/thinmpi_coll.cpp)
    target_include_directories(wb_thinmpi_coll PRIVATE kernels programs
                                                       ${PROJECT_SOURCE_DIR}/examples)
    target_link_libraries(wb_thinmpi_coll PRIVATE thinmpi::thinmpi thinmpi_warnings)
    target_link_libraries(wb_coll PRIVATE wb_thinmpi_coll thinmpi::thinmpi)
    target_compile_definitions(wb_coll PRIVATE WB_HAVE_THINMPI_COLL)
    set(WB_COLL_THINMPI true)
    set(WB_COLL_THINMPI_REASON "")
  else()
    file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/thinmpi_coll_check.log "${WB_THINMPI_COLL_LOG}")
    set(WB_COLL_THINMPI_REASON
        "bench/kernels/thinmpi_coll.cpp does not compile against this tree's thinmpi (its \
collectives API is not merged yet?): see ${CMAKE_CURRENT_BINARY_DIR}/thinmpi_coll_check.log")
    message(STATUS "wrapper-bench: no thinmpi collective cells: ${WB_COLL_THINMPI_REASON}")
  endif()
endif()

file(
  GENERATE
  OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/wb_coll.json
  CONTENT
    "{
  \"mpi\": \"${WB_MPI_VENDOR}\",
  \"mpiexec\": \"${MPIEXEC_EXECUTABLE}\",
  \"harness\": \"$<TARGET_FILE:wb_coll>\",
  \"audit_library\": \"$<TARGET_FILE:wb_audit>\",
  \"c_kernels_library\": \"$<TARGET_FILE:wb_ckernels>\",
  \"boost\": ${WB_COLL_BOOST},
  \"thinmpi\": ${WB_COLL_THINMPI},
  \"thinmpi_missing_reason\": \"${WB_COLL_THINMPI_REASON}\"
}
")

if(THINMPI_BUILD_TESTS)
  foreach(ranks 2 4)
    add_test(NAME wb_coll_smoke.${ranks}ranks
             COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} $<TARGET_FILE:wb_coll>
                     --variants all --count 5 --iterations 4 --warmup 1 --blocks 2)
    if(WB_MPI_VENDOR STREQUAL "openmpi")
      set_tests_properties(
        wb_coll_smoke.${ranks}ranks
        PROPERTIES ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;\
OMPI_MCA_rmaps_base_oversubscribe=1")
    endif()
    set_tests_properties(wb_coll_smoke.${ranks}ranks PROPERTIES PROCESSORS ${ranks} TIMEOUT 120)
  endforeach()
endif()
