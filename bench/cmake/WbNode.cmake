# The node suite of wrapper-bench (included by bench/CMakeLists.txt after wb_kernels, whose C and
# thinmpi objects it reuses, and WbHarnessSuite.cmake, whose smoke tests and manifest it
# shares):
#   wb_node        the ping-pong harness (harness/harness.c, harness_run.c) built with WB_NODE:
#                  the point-to-point variants plus the node suite's (kernels/c/c_node.c: the
#                  floor of a message of n bytes and C's message rate; kernels/thinmpi/thinmpi_node.cpp:
#                  thinmpi::node_channel), on 2 ranks or on pairs of ranks at the same time
#   wb_node.json   what the driver needs to know about it
add_executable(wb_node harness/harness.c harness/harness_run.c harness/harness_json.c
                       harness/harness_args.c harness/harness_windows.c harness/cxx_info.cpp
                       kernels/c/c_node.c)
set_target_properties(wb_node PROPERTIES C_STANDARD 11 LINKER_LANGUAGE CXX)
target_compile_definitions(wb_node PRIVATE WB_NODE)
target_link_libraries(wb_node PRIVATE wb_c_kernels MPI::MPI_C wb_c_warnings)
target_compile_options(wb_node PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Werror>)

# thinmpi's MPI path (thinmpi/char_span) comes with wb_kernels' thinmpi objects; the channel's
# variants with thinmpi's other kernels.
set(WB_NODE_THINMPI false)
if(WB_THINMPI)
  target_link_libraries(wb_node PRIVATE wb_thinmpi_kernels thinmpi::thinmpi)
  target_compile_definitions(wb_node PRIVATE WB_HAVE_THINMPI)
endif()
if(NOT WB_THINMPI)
  set(WB_NODE_THINMPI_REASON "${WB_THINMPI_REASON}")
elseif(NOT EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/kernels/thinmpi/thinmpi_node.cpp)
  set(WB_NODE_THINMPI_REASON "bench/kernels/thinmpi/thinmpi_node.cpp is not in this tree yet")
else()
  add_library(wb_thinmpi_node OBJECT kernels/thinmpi/thinmpi_node.cpp)
  target_include_directories(wb_thinmpi_node PRIVATE harness)
  thinmpi_plain_program(wb_thinmpi_node)
  target_link_libraries(wb_node PRIVATE wb_thinmpi_node)
  target_compile_definitions(wb_node PRIVATE WB_HAVE_THINMPI_NODE)
  set(WB_NODE_THINMPI true)
  set(WB_NODE_THINMPI_REASON "")
endif()

wb_harness_manifest(wb_node HARNESS wb_node AVAILABLE thinmpi WB_NODE_THINMPI)
wb_add_harness_smoke(wb_node)
