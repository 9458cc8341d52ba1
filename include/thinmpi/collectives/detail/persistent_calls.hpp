#pragma once
/// \file
/// Whether the MPI library has persistent collectives, decided here and nowhere else: MPI-4's
/// MPI_Bcast_init, ... (MPICH 4.0), or Open MPI 4.1's MPIX_Bcast_init, ... (the pcollreq
/// extension in mpi-ext.h). A family's `_init` member calls persistent_call<which>(...) with no
/// preprocessor block of its own; on a library without them, it fails to compile with one
/// sentence naming the nonblocking form to use instead.
///
///     return persistent_call<persistent_collective::bcast>(data, count, type, root, comm,
///                                                          MPI_INFO_NULL, &handle);

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

namespace thinmpi::detail {

/// The persistent collectives thinmpi offers, by the name of their nonblocking twin.
enum class persistent_collective {
  barrier,
  bcast,
  allgather,
  allgatherv,
  alltoall,
  alltoallv,
  alltoallw,  ///< thinmpi's own path of the neighborhood alltoalls (routed_exchange.hpp)
  allreduce,
  reduce,
  reduce_scatter_block,
  reduce_scatter,
  scan,
  exscan,
  neighbor_allgather,  ///< the neighborhood collectives of topology/
  neighbor_allgatherv,
  neighbor_alltoall,
  neighbor_alltoallv,
  neighbor_alltoallw,
};

/// Whether this MPI library has persistent collectives; a template so that the check below
/// waits until an `_init` member is used.
template <class...>
inline constexpr bool has_persistent_collectives = THINMPI_HAS_PERSISTENT_COLLECTIVES != 0;

/// MPICH 4.0.2's MPI_Allgather_init (recursive doubling, on 2 and 4 ranks) copies each rank's
/// own block once, at init: later rounds send the first round's data (reproduced in plain C;
/// pmodels/mpich#6423, #7078 for gather). Its MPI_Allgatherv_init with equal blocks is
/// correct, so allgather_init calls that there.
#if defined(MPICH_NUMVERSION)
inline constexpr bool persistent_allgather_resends_first_round = true;
#else
inline constexpr bool persistent_allgather_resends_first_round = false;
#endif

/// Sets up the persistent collective Which of this MPI library (MPI_<Which>_init, or Open MPI
/// 4.1's MPIX_<Which>_init) with args as MPI takes them, info and request last; returns MPI's
/// return code.
template <persistent_collective Which, class... Args>
[[nodiscard, gnu::always_inline]] inline int persistent_call([[maybe_unused]] Args... args) {
  static_assert(has_persistent_collectives<Args...>,
                "thinmpi: this MPI library has no persistent collectives (MPI-4 MPI_..._init, or "
                "Open MPI's MPIX_ extension); use the nonblocking form of the call (ibcast(), "
                "iallreduce(), ...)");
#if THINMPI_HAS_PERSISTENT_COLLECTIVES
  using enum persistent_collective;
  if constexpr (Which == barrier) {
    return THINMPI_PERSISTENT_CALL(Barrier_init)(args...);
  } else if constexpr (Which == bcast) {
    return THINMPI_PERSISTENT_CALL(Bcast_init)(args...);
  } else if constexpr (Which == allgather) {
    return THINMPI_PERSISTENT_CALL(Allgather_init)(args...);
  } else if constexpr (Which == allgatherv) {
    return THINMPI_PERSISTENT_CALL(Allgatherv_init)(args...);
  } else if constexpr (Which == alltoall) {
    return THINMPI_PERSISTENT_CALL(Alltoall_init)(args...);
  } else if constexpr (Which == alltoallv) {
    return THINMPI_PERSISTENT_CALL(Alltoallv_init)(args...);
  } else if constexpr (Which == alltoallw) {
    return THINMPI_PERSISTENT_CALL(Alltoallw_init)(args...);
  } else if constexpr (Which == allreduce) {
    return THINMPI_PERSISTENT_CALL(Allreduce_init)(args...);
  } else if constexpr (Which == reduce) {
    return THINMPI_PERSISTENT_CALL(Reduce_init)(args...);
  } else if constexpr (Which == reduce_scatter_block) {
    return THINMPI_PERSISTENT_CALL(Reduce_scatter_block_init)(args...);
  } else if constexpr (Which == reduce_scatter) {
    return THINMPI_PERSISTENT_CALL(Reduce_scatter_init)(args...);
  } else if constexpr (Which == scan) {
    return THINMPI_PERSISTENT_CALL(Scan_init)(args...);
  } else if constexpr (Which == neighbor_allgather) {
    return THINMPI_PERSISTENT_CALL(Neighbor_allgather_init)(args...);
  } else if constexpr (Which == neighbor_allgatherv) {
    return THINMPI_PERSISTENT_CALL(Neighbor_allgatherv_init)(args...);
  } else if constexpr (Which == neighbor_alltoall) {
    return THINMPI_PERSISTENT_CALL(Neighbor_alltoall_init)(args...);
  } else if constexpr (Which == neighbor_alltoallv) {
    return THINMPI_PERSISTENT_CALL(Neighbor_alltoallv_init)(args...);
  } else if constexpr (Which == neighbor_alltoallw) {
    return THINMPI_PERSISTENT_CALL(Neighbor_alltoallw_init)(args...);
  } else {
    static_assert(Which == exscan);
    return THINMPI_PERSISTENT_CALL(Exscan_init)(args...);
  }
#else
  return MPI_ERR_OTHER;  // not reached: the static_assert above stops the build
#endif
}

}  // namespace thinmpi::detail
