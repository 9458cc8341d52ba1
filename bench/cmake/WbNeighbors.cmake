# The neighbors suite of wrapper-bench (included by bench/CMakeLists.txt after the collectives
# suite, whose C objects and warning targets it reuses):
#   wb_neighbors     the collectives harness (kernels/coll_harness.c) built with the neighbors
#                    suite's variants: neighborhood collectives on a ring and a torus, the halo
#                    program, the sparse exchange against the dense one; C and thinmpi
#   wb_neighbors.json what the driver needs to know about it
# The C variants (kernels/c_neighbors.c, programs/halo_2d.c) live in wb_c_coll, so that
# libwb_ckernels has them for the mpi4py neighbors kernel (mpi4py_neighbors.py).
#
# thinmpi's topology family and sparse exchange land from their own branches: the thinmpi
# variants (kernels/thinmpi_neighbors.cpp) join when they compile against this tree; the reason
# is recorded when not.

add_executable(wb_neighbors kernels/coll_harness.c kernels/harness_json.c kernels/cxx_info.cpp)
set_target_properties(wb_neighbors PROPERTIES C_STANDARD 11 LINKER_LANGUAGE CXX)
target_compile_definitions(wb_neighbors PRIVATE WB_NEIGHBORS)
target_link_libraries(wb_neighbors PRIVATE wb_c_coll MPI::MPI_C wb_c_warnings)

set(WB_NEIGHBORS_THINMPI false)
set(WB_NEIGHBORS_THINMPI_REASON "left out of this build (WB_WITH_THINMPI=OFF)")
if(WB_WITH_THINMPI)
  unset(WB_THINMPI_NEIGHBORS_COMPILES CACHE)
  get_target_property(warnings thinmpi_warnings INTERFACE_COMPILE_OPTIONS)
  set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
  try_compile(
    WB_THINMPI_NEIGHBORS_COMPILES ${CMAKE_CURRENT_BINARY_DIR}/thinmpi_neighbors_check
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/kernels/thinmpi_neighbors.cpp
    CMAKE_FLAGS
      "-DINCLUDE_DIRECTORIES=${PROJECT_SOURCE_DIR}/include;${CMAKE_CURRENT_SOURCE_DIR}/kernels;\
${CMAKE_CURRENT_SOURCE_DIR}/programs;${PROJECT_SOURCE_DIR}/examples"
    COMPILE_DEFINITIONS ${warnings}
    LINK_LIBRARIES MPI::MPI_CXX
    CXX_STANDARD 20
    OUTPUT_VARIABLE WB_THINMPI_NEIGHBORS_LOG)
  unset(CMAKE_TRY_COMPILE_TARGET_TYPE)
  if(WB_THINMPI_NEIGHBORS_COMPILES)
    add_library(wb_thinmpi_neighbors OBJECT kernels/thinmpi_neighbors.cpp)
    target_include_directories(wb_thinmpi_neighbors PRIVATE kernels programs
                                                            ${PROJECT_SOURCE_DIR}/examples)
    target_link_libraries(wb_thinmpi_neighbors PRIVATE thinmpi::thinmpi thinmpi_warnings)
    target_link_libraries(wb_neighbors PRIVATE wb_thinmpi_neighbors thinmpi::thinmpi)
    target_compile_definitions(wb_neighbors PRIVATE WB_HAVE_THINMPI_NEIGHBORS)
    set(WB_NEIGHBORS_THINMPI true)
    set(WB_NEIGHBORS_THINMPI_REASON "")
  else()
    file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/thinmpi_neighbors_check.log
         "${WB_THINMPI_NEIGHBORS_LOG}")
    set(WB_NEIGHBORS_THINMPI_REASON
        "bench/kernels/thinmpi_neighbors.cpp does not compile against this tree's thinmpi (its \
topology family or sparse exchange is not merged yet?): see \
${CMAKE_CURRENT_BINARY_DIR}/thinmpi_neighbors_check.log")
    message(STATUS "wrapper-bench: no thinmpi neighbors cells: ${WB_NEIGHBORS_THINMPI_REASON}")
  endif()
endif()

file(
  GENERATE
  OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/wb_neighbors.json
  CONTENT
    "{
  \"mpi\": \"${WB_MPI_VENDOR}\",
  \"mpiexec\": \"${MPIEXEC_EXECUTABLE}\",
  \"harness\": \"$<TARGET_FILE:wb_neighbors>\",
  \"audit_library\": \"$<TARGET_FILE:wb_audit>\",
  \"c_kernels_library\": \"$<TARGET_FILE:wb_ckernels>\",
  \"thinmpi\": ${WB_NEIGHBORS_THINMPI},
  \"thinmpi_missing_reason\": \"${WB_NEIGHBORS_THINMPI_REASON}\"
}
")

if(THINMPI_BUILD_TESTS)
  foreach(ranks 2 4)
    add_test(NAME wb_neighbors_smoke.${ranks}ranks
             COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks}
                     $<TARGET_FILE:wb_neighbors> --variants all --count 5 --iterations 4
                     --warmup 1 --blocks 2)
    if(WB_MPI_VENDOR STREQUAL "openmpi")
      set_tests_properties(
        wb_neighbors_smoke.${ranks}ranks
        PROPERTIES ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;\
OMPI_MCA_rmaps_base_oversubscribe=1")
    endif()
    set_tests_properties(wb_neighbors_smoke.${ranks}ranks PROPERTIES PROCESSORS ${ranks}
                                                                     TIMEOUT 120)
  endforeach()
endif()
