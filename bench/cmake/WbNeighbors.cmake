# The neighbors suite of wrapper-bench (included by bench/CMakeLists.txt after the collectives
# suite, whose C objects and warning targets it reuses, and WbHarnessSuite.cmake, whose kernel
# check and smoke tests it shares):
#   wb_neighbors     the collectives harness (harness/coll_harness.c) built with the neighbors
#                    suite's variants: neighborhood collectives on a ring and a torus, the halo
#                    program, the sparse exchange against the dense one; C and thinmpi
#   wb_neighbors.json what the driver needs to know about it
# The C variants (kernels/c/c_neighbors.c, programs/halo_2d.c) live in wb_c_coll, so that
# libwb_ckernels has them for the mpi4py neighbors kernel (mpi4py_neighbors.py).
#
# thinmpi's topology family and sparse exchange land from their own branches: the thinmpi
# variants (kernels/thinmpi/thinmpi_neighbors.cpp) join when they compile against this tree; the reason
# is recorded when not.

add_executable(wb_neighbors harness/coll_harness.c harness/harness_json.c harness/harness_args.c
                            harness/harness_frame.c harness/harness_windows.c harness/cxx_info.cpp)
set_target_properties(wb_neighbors PROPERTIES C_STANDARD 11 LINKER_LANGUAGE CXX)
target_compile_definitions(wb_neighbors PRIVATE WB_NEIGHBORS)
target_link_libraries(wb_neighbors PRIVATE wb_c_coll MPI::MPI_C wb_c_warnings)

wb_add_thinmpi_kernel(wb_neighbors NEIGHBORS thinmpi_neighbors.cpp harness programs
                      ${PROJECT_SOURCE_DIR}/examples)

wb_harness_manifest(wb_neighbors HARNESS wb_neighbors LIBRARIES AVAILABLE thinmpi
                    WB_NEIGHBORS_THINMPI)

wb_add_harness_smoke(wb_neighbors)
