# THINMPI_MPI_VENDOR: "openmpi" or "mpich", from what the MPI launcher says it is.
if(NOT DEFINED THINMPI_MPI_VENDOR)
  execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE _thinmpi_mpiexec_version
                  ERROR_VARIABLE _thinmpi_mpiexec_version)
  if(_thinmpi_mpiexec_version MATCHES "Open MPI|OpenRTE")
    set(THINMPI_MPI_VENDOR openmpi)
  else()
    set(THINMPI_MPI_VENDOR mpich)
  endif()
endif()
