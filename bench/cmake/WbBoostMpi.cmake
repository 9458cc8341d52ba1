# wb_find_boost_mpi(): sets WB_BOOST_MPI (the Boost.MPI library to link, or empty) and
# WB_BOOST_MPI_REASON (why there is none), never pairing a Boost.MPI with another MPI.
#
# A library given in the cache variable WB_BOOST_MPI_LIBRARY (e.g. the one that
# bench/setup/build-boost-mpi.sh builds for MPICH) is used when `ldd` shows it links this build's
# MPI; without one, the system's libboost_mpi (Debian's links OpenMPI) is checked the same way.

set(WB_BOOST_MPI_LIBRARY "" CACHE FILEPATH "Boost.MPI built against this build's MPI")

# Sets <out> to the MPI library that `ldd <library>` shows: openmpi, mpich or unknown.
function(wb_linked_mpi library out)
  execute_process(COMMAND ldd ${library} OUTPUT_VARIABLE linked ERROR_QUIET)
  if(linked MATCHES "libmpi\\.so")
    set(${out} openmpi PARENT_SCOPE)
  elseif(linked MATCHES "libmpich\\.so|libmpi_.*mpich")
    set(${out} mpich PARENT_SCOPE)
  else()
    set(${out} unknown PARENT_SCOPE)
  endif()
endfunction()

function(wb_find_boost_mpi vendor)
  set(library ${WB_BOOST_MPI_LIBRARY})
  if(NOT library)
    find_library(WB_SYSTEM_BOOST_MPI boost_mpi)
    set(library ${WB_SYSTEM_BOOST_MPI})
  endif()
  find_package(Boost 1.66 QUIET COMPONENTS serialization)
  if(NOT Boost_FOUND)
    set(reason "Boost.Serialization headers or library not found")
  elseif(NOT library)
    set(reason "no Boost.MPI library (install libboost-mpi-dev, or give WB_BOOST_MPI_LIBRARY)")
  else()
    wb_linked_mpi(${library} linked)
    if(NOT linked STREQUAL vendor)
      set(reason "${library} links ${linked}, not ${vendor}")
    endif()
  endif()
  if(reason)
    message(STATUS "wrapper-bench: no Boost.MPI cells for ${vendor}: ${reason}")
    set(WB_BOOST_MPI "" PARENT_SCOPE)
  else()
    message(STATUS "wrapper-bench: Boost.MPI for ${vendor}: ${library}")
    set(WB_BOOST_MPI ${library} PARENT_SCOPE)
  endif()
  set(WB_BOOST_MPI_REASON "${reason}" PARENT_SCOPE)
endfunction()
