#pragma once
/// \file
/// The one place that includes <mpi.h>, without the deprecated MPI C++ bindings.

#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>

/// 1 when the MPI library has the MPI-4 large-count (`_c`) functions, e.g. MPICH 4.0.
#if MPI_VERSION >= 4
#define THINMPI_HAS_LARGE_COUNT_CALLS 1
#else
#define THINMPI_HAS_LARGE_COUNT_CALLS 0
#endif
