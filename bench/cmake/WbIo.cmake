# The io suite of wrapper-bench (included by bench/CMakeLists.txt after wb_kernels, whose C
# objects (floor.c) and libwb_ckernels it builds on, and WbHarnessSuite.cmake, whose kernel and
# manifest helpers it shares):
#   wb_io         the io harness (harness/io_harness.c): C MPI-IO (io_c.c), POSIX pwrite/pread
#                 as the floor (io_posix.c) and thinmpi::file (thinmpi_io.cpp) side by side in
#                 one process, each instance with a file of its own (io_layout.c, io_instance.c)
#   wb_io.json    what the driver needs to know about it
# The C and POSIX variants join libwb_ckernels too (io_bridge.c), for the mpi4py io kernel
# (kernels/mpi4py/mpi4py_io.py), which measures mpi4py's MPI.File against them in its own process.
add_library(wb_c_io OBJECT harness/io_layout.c harness/io_instance.c kernels/c/io_c.c
                           harness/io_posix.c)
set_target_properties(wb_c_io PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
target_include_directories(wb_c_io PUBLIC harness)
target_link_libraries(wb_c_io PUBLIC MPI::MPI_C PRIVATE wb_c_warnings)

target_sources(wb_ckernels PRIVATE harness/io_bridge.c)
target_link_libraries(wb_ckernels PRIVATE wb_c_io)

add_executable(wb_io harness/io_harness.c harness/harness_json.c harness/harness_args.c
                     harness/harness_frame.c)
set_target_properties(wb_io PROPERTIES C_STANDARD 11 LINKER_LANGUAGE CXX)
target_link_libraries(wb_io PRIVATE wb_c_io wb_c_kernels MPI::MPI_C wb_c_warnings)

wb_add_thinmpi_kernel(wb_io IO thinmpi_io.cpp harness)

wb_harness_manifest(wb_io HARNESS wb_io LIBRARIES AVAILABLE thinmpi WB_IO_THINMPI)

# Every variant a few calls at two sizes on 2 ranks (a 2x1 grid) and 3 (3x1, rows that do not
# divide), in this build folder (the disk); each file is checked and deleted.
if(THINMPI_BUILD_TESTS)
  foreach(ranks 2 3)
    set(name wb_io_smoke.${ranks}ranks)
    add_test(NAME ${name} COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks}
                                  $<TARGET_FILE:wb_io> --variants all --sizes 64:4,1048576:4
                                  --warmup 1 --blocks 2 --dir ${CMAKE_CURRENT_BINARY_DIR})
    # Open MPI: as root, oversubscribed, the PML named (cmake/ThinmpiTesting.cmake).
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "${THINMPI_TEST_ENVIRONMENT}")
    set_tests_properties(${name} PROPERTIES PROCESSORS ${ranks} TIMEOUT 120)
  endforeach()
endif()
