#pragma once
/// \file
/// V-collectives whose displacements pass INT_MAX. Classic v-calls take int counts and int
/// displacements; MPI-4's `_c` calls (MPICH 4.0) take MPI_Count counts and MPI_Aint
/// displacements. Open MPI 4.1 has no `_c` calls, and a derived datatype cannot move a
/// displacement, so there such a call is an mpi_error stating the sizes, raised before MPI is
/// called. A family calls the classic v-call when v_layout::fits_int, else:
///
///     #if THINMPI_HAS_LARGE_COUNT_CALLS
///       const wide_layout wide = wide_packed(counts);
///       rc = MPI_Allgatherv_c(..., wide.counts.data(), wide.displs.data(), ...);
///     #else
///       raise_past_int(call, layout.extent, type, "the sum of recvcounts");
///     #endif
///
/// allgatherv_call and alltoallv_call, below, are that choice for the blocking allgatherv and
/// alltoallv.

#include <cstddef>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/displacements.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/large_count.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/narrow.hpp"
#include "thinmpi/core/detail/raise.hpp"

namespace thinmpi::detail {

/// Counts and displacements as the `_c` calls take them.
struct wide_layout {
  std::vector<MPI_Count> counts;
  std::vector<MPI_Aint> displs;
};

/// `counts` laid end to end in rank order: their exclusive prefix sum, in MPI_Aint.
inline wide_layout wide_packed(std::span<const int> counts) {
  wide_layout wide{std::vector<MPI_Count>(counts.begin(), counts.end()),
                   std::vector<MPI_Aint>(counts.size())};
  MPI_Aint next = 0;
  for (std::size_t rank = 0; rank < counts.size(); ++rank) {
    wide.displs[rank] = next;
    next += counts[rank];
  }
  return wide;
}

/// `counts` and `displs` widened as they are.
inline wide_layout wide_given(std::span<const int> counts, std::span<const int> displs) {
  return {std::vector<MPI_Count>(counts.begin(), counts.end()),
          std::vector<MPI_Aint>(displs.begin(), displs.end())};
}

/// Throws MPI_ERR_COUNT, before MPI is called, for a v-collective whose blocks reach past
/// INT_MAX elements on an MPI library without `_c` calls (Open MPI 4.1): "the blocks span
/// 3000000000 x MPI_CHAR = 3000000000 bytes (the sum of recvcounts); displacements past
/// INT_MAX need the MPI-4 large-count calls (MPI_Allgatherv_c), which this MPI library lacks".
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_past_int(const collective_call& call,
                                                                  std::size_t extent,
                                                                  MPI_Datatype type,
                                                                  const char* why,
                                                                  const char* large_call) {
  raise_collective(MPI_ERR_COUNT, call, std::nullopt, type,
                   "the blocks span " + describe_elements(extent, type) + " (" + why +
                       "); displacements past INT_MAX need the MPI-4 large-count call " +
                       large_call + ", which this MPI library lacks");
}

/// Throws, before MPI is called, where packed displacements pass INT_MAX and this MPI library
/// has no `_c` call to take them (Open MPI 4.1).
inline void check_packed_fits(const v_layout& layout, const collective_call& call,
                              MPI_Datatype type, const char* why, const char* large_call) {
  if (!THINMPI_HAS_LARGE_COUNT_CALLS && !layout.fits_int) [[unlikely]] {
    raise_past_int(call, layout.extent, type, why, large_call);
  }
}

/// The error of exchanged counts that add up past INT_MAX: thinmpi::varying holds int
/// displacements.
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_varying_past_int(
    const v_layout& layout, const collective_call& call, MPI_Datatype type) {
  raise_collective(MPI_ERR_COUNT, call, std::nullopt, type,
                   "the exchanged counts add up to " + describe_elements(layout.extent, type) +
                       "; thinmpi::varying holds int displacements: receive into your own "
                       "buffer with the counts-given form");
}
/// See raise_varying_past_int.
inline void check_varying_fits(const v_layout& layout, const collective_call& call,
                               MPI_Datatype type) {
  if (!layout.fits_int) [[unlikely]] {
    raise_varying_past_int(layout, call, type);
  }
}

/// One MPI_Allgatherv; past INT_MAX the MPI-4 MPI_Allgatherv_c (MPICH), else an error.
/// Classic and Large name another call of the same arguments (MPI_Neighbor_allgatherv and its
/// `_c` variant, THINMPI_LARGE_COUNT_CALL), `large_name` the `_c` call for the error.
template <auto Classic = &MPI_Allgatherv, auto Large = THINMPI_LARGE_COUNT_CALL(MPI_Allgatherv)>
int allgatherv_call(const const_buffer& out, const mutable_buffer& in, std::span<const int> counts,
                    std::span<const int> displs, const v_layout& layout,
                    const collective_call& call, const char* large_name = "MPI_Allgatherv_c") {
  if (layout.fits_int) [[likely]] {
    return Classic(out.data, to_int(out.count), out.type, in.data, counts.data(), displs.data(),
                   in.type, call.comm);
  }
  if constexpr (!std::is_null_pointer_v<decltype(Large)>) {
    const wide_layout wide = wide_packed(counts);
    return Large(out.data, static_cast<MPI_Count>(out.count), out.type, in.data, wide.counts.data(),
                 wide.displs.data(), in.type, call.comm);
  } else {
    raise_past_int(call, layout.extent, in.type, "the sum of recvcounts", large_name);
  }
}

/// One MPI_Alltoallv; blocks laid end to end past INT_MAX take MPI-4's MPI_Alltoallv_c (MPICH),
/// else an error (given displacements are ints, so only packed ones can pass INT_MAX). Classic,
/// Large and `large_name` as for allgatherv_call (MPI_Neighbor_alltoallv).
template <auto Classic = &MPI_Alltoallv, auto Large = THINMPI_LARGE_COUNT_CALL(MPI_Alltoallv)>
int alltoallv_call(const const_buffer& out, const mutable_buffer& in, const v_spans& arrays,
                   const v_layout& sent, const v_layout& received, const collective_call& call,
                   const char* large_name = "MPI_Alltoallv_c") {
  if (sent.fits_int && received.fits_int) [[likely]] {
    return Classic(out.data, arrays.send_counts.data(), arrays.send_displs.data(), out.type,
                   in.data, arrays.recv_counts.data(), arrays.recv_displs.data(), in.type,
                   call.comm);
  }
  if constexpr (!std::is_null_pointer_v<decltype(Large)>) {
    const wide_layout wide_send = wide_packed(arrays.send_counts);
    const wide_layout wide_recv = wide_packed(arrays.recv_counts);
    return Large(out.data, wide_send.counts.data(), wide_send.displs.data(), out.type, in.data,
                 wide_recv.counts.data(), wide_recv.displs.data(), in.type, call.comm);
  } else {
    const v_layout& past = sent.fits_int ? received : sent;
    raise_past_int(call, past.extent, in.type,
                   sent.fits_int ? "the sum of recvcounts" : "the sum of sendcounts", large_name);
  }
}

}  // namespace thinmpi::detail
