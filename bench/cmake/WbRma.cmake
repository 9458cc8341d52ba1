# The rma suite of wrapper-bench (included by bench/CMakeLists.txt after the collectives suite,
# whose C objects and warning targets it reuses, and WbHarnessSuite.cmake, whose kernel, smoke-test
# and manifest helpers it shares):
#   wb_rma               the collectives harness (harness/coll_harness.c) built with the rma
#                        suite's variants: put, get and accumulate with lock/flush, with fence
#                        and in bandwidth form, fetch_and_op and compare_and_swap, the counter and
#                        histogram programs; C and thinmpi
#   wb_rma.json          what the driver needs to know about it
#   wb_rma_counter_c, wb_rma_histogram_c
#                        the C programs (bench/programs/rma_*.c) as programs of their own, which
#                        print what examples/rma_counter.cpp and rma_histogram.cpp print
# The C variants (kernels/c/c_rma.c, programs/rma_*.c) join wb_c_coll, so that libwb_ckernels has
# them for the mpi4py rma kernel (mpi4py_rma.py).

target_sources(wb_c_coll PRIVATE kernels/c/c_rma.c programs/rma_counter.c programs/rma_histogram.c
                                 programs/rma_local_sort.cpp)

add_executable(wb_rma harness/coll_harness.c harness/harness_json.c harness/harness_args.c
                      harness/harness_frame.c harness/harness_windows.c harness/cxx_info.cpp)
set_target_properties(wb_rma PROPERTIES C_STANDARD 11 LINKER_LANGUAGE CXX)
target_compile_definitions(wb_rma PRIVATE WB_RMA)
target_link_libraries(wb_rma PRIVATE wb_c_coll MPI::MPI_C wb_c_warnings)

foreach(program counter histogram)
  add_executable(wb_rma_${program}_c programs/rma_${program}.c programs/rma_local_sort.cpp)
  set_target_properties(wb_rma_${program}_c PROPERTIES C_STANDARD 11 LINKER_LANGUAGE CXX)
  target_compile_definitions(wb_rma_${program}_c PRIVATE WB_RMA_PROGRAM_MAIN OMPI_SKIP_MPICXX=1
                                                         MPICH_SKIP_MPICXX=1)
  target_include_directories(wb_rma_${program}_c PRIVATE harness programs)
  target_link_libraries(wb_rma_${program}_c PRIVATE MPI::MPI_C wb_c_warnings)
endforeach()

wb_add_thinmpi_kernel(wb_rma RMA thinmpi_rma.cpp harness programs ${PROJECT_SOURCE_DIR}/examples)

set(wb_rma_programs
    "{\"c/rma_counter/program\": \"$<TARGET_FILE:wb_rma_counter_c>\",
               \"c/rma_histogram/program\": \"$<TARGET_FILE:wb_rma_histogram_c>\"}")
wb_harness_manifest(wb_rma HARNESS wb_rma LIBRARIES JSON programs wb_rma_programs
                    AVAILABLE thinmpi WB_RMA_THINMPI)
