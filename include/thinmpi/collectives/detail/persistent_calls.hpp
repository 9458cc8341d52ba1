#pragma once
/// \file
/// Where the MPI library has persistent collectives: MPI-4's MPI_Bcast_init, ... (MPICH 4.0),
/// or Open MPI 4.1's MPIX_Bcast_init, ... (the pcollreq extension in mpi-ext.h).

#include "thinmpi/core/detail/mpi.hpp"

#if MPI_VERSION >= 4
/// 1 when persistent collectives (`..._init`) exist in this MPI library.
#define THINMPI_HAS_PERSISTENT_COLLECTIVES 1
/// The persistent collective `MPI_<name>` of this MPI library. Internal to thinmpi.
#define THINMPI_PERSISTENT_CALL(name) MPI_##name
#elif defined(OPEN_MPI) && __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define THINMPI_HAS_PERSISTENT_COLLECTIVES 1
#define THINMPI_PERSISTENT_CALL(name) MPIX_##name
#endif
#endif

#ifndef THINMPI_HAS_PERSISTENT_COLLECTIVES
#define THINMPI_HAS_PERSISTENT_COLLECTIVES 0
#endif
