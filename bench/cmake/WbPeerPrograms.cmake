# The peers' own sample-sort applications in the collectives harness (included by WbPeers.cmake;
# wb_peer_programs() is called by wb_peers_join_collectives() once wb_coll exists):
#   wb_kamping_programs  kernels/kamping/kamping_sample_sort.cpp: KaMPIng's examples/applications/
#                        sample-sort (kamping.hpp and mpi.hpp) on our input
#   wb_mpl_programs      kernels/mpl/mpl_sample_sort.cpp and programs/mpl_sort_mpi.c: MPL's
#                        examples/parallel_sort_mpl.cc and parallel_sort_mpi.c on our input
# Their files are compiled from the peer's unpacked source, unmodified, through a system include
# folder (their warnings are theirs); only the drivers around them are ours. Built where the peer's
# kernels are (WB_KAMPING, WB_MPL) and its source has the example.

function(wb_peer_programs)
  if(WB_KAMPING AND EXISTS ${kamping_dir}/examples/applications/sample-sort/kamping.hpp)
    wb_peer_objects(wb_kamping_programs
                    "${WB_KAMPING_INCLUDES};${kamping_dir}/examples/applications"
                    "${WB_KAMPING_DEFINITIONS}" kernels/kamping/kamping_sample_sort.cpp)
    target_include_directories(wb_kamping_programs PRIVATE programs)
    target_link_libraries(wb_coll PRIVATE wb_kamping_programs)
    target_compile_definitions(wb_coll PRIVATE WB_HAVE_KAMPING_PROGRAMS)
  endif()
  if(WB_MPL AND EXISTS ${mpl_dir}/examples/parallel_sort_mpl.cc)
    wb_peer_objects(wb_mpl_programs "${mpl_dir};${mpl_dir}/examples" ""
                    kernels/mpl/mpl_sample_sort.cpp)
    target_include_directories(wb_mpl_programs PRIVATE programs)
    add_library(wb_mpl_sort_mpi OBJECT programs/mpl_sort_mpi.c)
    set_target_properties(wb_mpl_sort_mpi PROPERTIES C_STANDARD 11)
    target_include_directories(wb_mpl_sort_mpi SYSTEM PRIVATE ${mpl_dir}/examples)
    target_include_directories(wb_mpl_sort_mpi PRIVATE harness programs)
    target_link_libraries(wb_mpl_sort_mpi PRIVATE MPI::MPI_C wb_c_warnings)
    target_link_libraries(wb_coll PRIVATE wb_mpl_programs wb_mpl_sort_mpi)
    target_compile_definitions(wb_coll PRIVATE WB_HAVE_MPL_PROGRAMS)
  endif()
endfunction()
