# The collectives suite of wrapper-bench (included by bench/CMakeLists.txt after the ping-pong
# harness, whose Boost.MPI and warning targets it reuses, and WbHarnessSuite.cmake, whose kernel
# check and smoke tests it shares with the neighbors suite):
#   wb_coll        the collectives harness: C, Boost.MPI and thinmpi collective variants and the
#                  programs (sample sort, BFS) in one binary, run at any number of ranks
#   libwb_ckernels gains the C collective variants (coll_bridge.c), which the mpi4py collectives
#                  kernel (mpi4py_coll.py) runs through ctypes as its same-process baseline
#   wb_coll.json   what the driver needs to know about it
#   libwb_thinmpi_coll_checked  the thinmpi variants again, built with
#                  THINMPI_CHECKED_COLLECTIVES=1 (thinmpi-checked/...: the checked mode's cost)
#
# thinmpi's collectives land in their own branches: kernels/thinmpi/thinmpi_coll.cpp (and the thinmpi
# programs) join the harness when they compile against this tree; the reason is recorded when not.

# The C variants of both collective harnesses (wb_coll here, wb_neighbors in WbNeighbors.cmake):
# libwb_ckernels's bridge finds the C baselines of either suite for the mpi4py kernels.
add_library(
  wb_c_coll OBJECT kernels/c/c_coll.c harness/coll_check.c harness/coll_timing.c
                   kernels/c/c_neighbors.c programs/sample_sort.c programs/bfs.c
                   programs/allgatherv.c programs/halo_2d.c programs/local_sort.cpp)
set_target_properties(wb_c_coll PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
# The C programs' local sort (local_sort.cpp) in the standard the thinmpi kernels are built in:
# GCC 12 inlines std::sort's helpers differently in gnu++17 and gnu++20 (4,400 instructions a
# sample sort of 4,096 ints), which would be a difference of the build, not of the programs.
target_compile_features(wb_c_coll PRIVATE cxx_std_20)
target_include_directories(wb_c_coll PUBLIC harness programs)
target_compile_options(wb_c_coll PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Werror>)
target_link_libraries(wb_c_coll PUBLIC MPI::MPI_C PRIVATE wb_c_warnings)
# local_sort.cpp includes mpi.h: without this Open MPI's C++ bindings would need libmpi_cxx.
target_compile_definitions(wb_c_coll PRIVATE OMPI_SKIP_MPICXX=1 MPICH_SKIP_MPICXX=1)

add_executable(wb_coll harness/coll_harness.c harness/harness_json.c harness/harness_args.c
                       harness/harness_frame.c harness/harness_windows.c harness/cxx_info.cpp)
set_target_properties(wb_coll PROPERTIES C_STANDARD 11 LINKER_LANGUAGE CXX)
target_link_libraries(wb_coll PRIVATE wb_c_coll MPI::MPI_C wb_c_warnings)

# The C collective variants in libwb_ckernels too, for the mpi4py collectives kernel (ctypes).
target_sources(wb_ckernels PRIVATE harness/coll_bridge.c)
target_link_libraries(wb_ckernels PRIVATE wb_c_coll)
set_target_properties(wb_ckernels PROPERTIES LINKER_LANGUAGE CXX)

set(WB_COLL_BOOST false)
if(WB_BOOST_MPI)
  add_library(wb_boost_coll OBJECT kernels/boost/boost_coll.cpp)
  target_compile_features(wb_boost_coll PRIVATE cxx_std_20)
  target_compile_definitions(wb_boost_coll PRIVATE OMPI_SKIP_MPICXX=1 MPICH_SKIP_MPICXX=1)
  target_include_directories(wb_boost_coll PRIVATE harness)
  target_link_libraries(wb_boost_coll PRIVATE MPI::MPI_CXX Boost::headers thinmpi_warnings)
  target_link_libraries(wb_coll PRIVATE wb_boost_coll ${WB_BOOST_MPI} Boost::serialization
                                        MPI::MPI_CXX)
  target_compile_definitions(wb_coll PRIVATE WB_HAVE_BOOST)
  set(WB_COLL_BOOST true)
endif()

# The checked mode's cost (THINMPI_CHECKED_COLLECTIVES=1: rooted and v-collectives agree on
# their arguments first, one MPI_Allreduce): the same kernel file built again, its variants
# named thinmpi-checked/... in the same harness beside the unchecked ones and C. The setting must
# be alike in every translation unit of a program (thinmpi's calls are inline functions of the
# same names either way, and a linker keeps one), so this copy is a shared library that hides
# every symbol but its table's: its thinmpi functions stay its own, never the harness's.
macro(wb_add_checked_coll_kernel)
  set(checked_definitions THINMPI_CHECKED_COLLECTIVES=1 WB_THINMPI_CHECKED=1)
  add_library(wb_thinmpi_coll_checked SHARED kernels/thinmpi/thinmpi_coll.cpp harness/coll_check.c)
  set_target_properties(
    wb_thinmpi_coll_checked PROPERTIES C_STANDARD 11 CXX_VISIBILITY_PRESET hidden
                                       C_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  target_compile_definitions(wb_thinmpi_coll_checked PRIVATE ${checked_definitions})
  target_include_directories(wb_thinmpi_coll_checked PRIVATE harness)
  get_target_property(warnings thinmpi_warnings INTERFACE_COMPILE_OPTIONS)
  target_compile_options(wb_thinmpi_coll_checked
                         PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:${warnings}>")
  target_link_libraries(wb_thinmpi_coll_checked PRIVATE thinmpi::thinmpi MPI::MPI_CXX
                                                        wb_c_warnings)
  target_link_libraries(wb_coll PRIVATE wb_thinmpi_coll_checked)
  target_compile_definitions(wb_thinmpi_coll PRIVATE WB_HAVE_THINMPI_CHECKED_COLL)
  set(WB_COLL_CHECKED true)
  set(WB_COLL_CHECKED_REASON "")
endmacro()

# The thinmpi collective kernels, and their checked mode, unless the build leaves thinmpi out.
wb_add_thinmpi_kernel(wb_coll COLL thinmpi_coll.cpp harness programs ${PROJECT_SOURCE_DIR}/examples)
set(WB_COLL_CHECKED false)
set(WB_COLL_CHECKED_REASON "${WB_COLL_THINMPI_REASON}")
if(WB_COLL_THINMPI)
  wb_add_checked_coll_kernel()
endif()

wb_harness_manifest(
  wb_coll HARNESS wb_coll LIBRARIES JSON boost WB_COLL_BOOST
  AVAILABLE thinmpi WB_COLL_THINMPI thinmpi_checked WB_COLL_CHECKED)

wb_add_harness_smoke(wb_coll)
