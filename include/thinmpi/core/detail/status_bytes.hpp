#pragma once
/// \file
/// The byte count of a completed receive, read without an MPI call where the implementation's
/// MPI_Status layout is known, so that checking what arrived costs nothing on the hot path.

#include <cstddef>

#include "thinmpi/core/detail/mpi.hpp"

namespace thinmpi::detail {

/// Bytes received (or, after a truncation on OpenMPI, bytes in the incoming message).
[[nodiscard]] inline std::size_t status_bytes(const MPI_Status& status) noexcept {
#if defined(OPEN_MPI)
  // Open MPI 1.x-5.x: the byte count is the size_t _ucount (ompi/include/mpi.h.in).
  return status._ucount;
#elif defined(MPICH)
  // MPICH 3.x-4.x: 63-bit count split over count_lo and count_hi_and_cancelled >> 1
  // (MPIR_STATUS_GET_COUNT in src/include/mpir_status.h).
  const auto high =
      static_cast<std::size_t>(static_cast<unsigned>(status.count_hi_and_cancelled) >> 1);
  return (high << 32) + static_cast<unsigned>(status.count_lo);
#else
  MPI_Count bytes = 0;
  MPI_Get_elements_x(&status, MPI_BYTE, &bytes);
  return bytes < 0 ? 0 : static_cast<std::size_t>(bytes);
#endif
}

/// Makes `status` say `bytes` bytes were received and nothing was cancelled: a receive that MPI
/// did not carry (node_channel's shared memory) reports its size as MPI's receives do.
inline void set_status_bytes(MPI_Status& status, std::size_t bytes) noexcept {
#if defined(OPEN_MPI)
  status._ucount = bytes;
  status._cancelled = 0;
#elif defined(MPICH)
  status.count_lo = static_cast<int>(static_cast<unsigned>(bytes & 0xffffffffU));
  status.count_hi_and_cancelled = static_cast<int>((bytes >> 32) << 1);
#else
  MPI_Status_set_elements_x(&status, MPI_BYTE, static_cast<MPI_Count>(bytes));
  MPI_Status_set_cancelled(&status, 0);
#endif
}

}  // namespace thinmpi::detail
