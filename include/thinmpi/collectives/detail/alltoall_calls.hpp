#pragma once
/// \file
/// What alltoall.hpp's calls share, out of the family's header: the checks of an alltoallv's
/// arrays and buffers (each this rank's own: detail/root_checks.hpp) and the MPI calls of the
/// nonblocking forms.

#include <cstddef>
#include <span>
#include <utility>

#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/displacements.hpp"
#include "thinmpi/collectives/detail/root_checks.hpp"
#include "thinmpi/collectives/detail/v_calls.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/large_count.hpp"
#include "thinmpi/core/detail/mpi.hpp"

namespace thinmpi::detail {

/// plan_alltoallv's loops over the ranks, out of line.
inline void alltoallv_layouts(const collective_call& call, int ranks, v_arrays& arrays,
                              const mutable_buffer& in, bool displs_given, v_layout& sent,
                              v_layout& received) {
  if (displs_given) {
    sent =
        given_layout(call, arrays.send_counts, arrays.send_displs, ranks, "sendcounts", "sdispls");
    received =
        given_layout(call, arrays.recv_counts, arrays.recv_displs, ranks, "recvcounts", "rdispls");
  } else {
    sent = packed_displacements(call, arrays.send_counts, ranks, "sendcounts", arrays.send_displs);
    received =
        packed_displacements(call, arrays.recv_counts, ranks, "recvcounts", arrays.recv_displs);
    if (!THINMPI_HAS_LARGE_COUNT_CALLS && !(sent.fits_int && received.fits_int)) [[unlikely]] {
      const v_layout& past = sent.fits_int ? received : sent;
      raise_past_int(call, past.extent, in.type,
                     sent.fits_int ? "the sum of recvcounts" : "the sum of sendcounts",
                     "MPI_Alltoallv_c");
    }
  }
}

/// Checks both sides of an alltoallv against its buffers, before MPI is called: one entry per
/// rank, none negative, the send buffer large enough; computes (and owns) the displacements not
/// given. Returns the layouts of the send and the receive side; the caller checks the receive
/// buffer against the second. Every array and buffer is this rank's own: a failure ends the
/// job (checked: every rank throws; detail/root_checks.hpp).
inline std::pair<v_layout, v_layout> plan_alltoallv(const collective_call& call, int ranks,
                                                    v_arrays& arrays, const const_buffer& out,
                                                    const mutable_buffer& in, bool displs_given) {
  v_layout sent;
  v_layout received;
  local_checks(call,
               [&] { alltoallv_layouts(call, ranks, arrays, in, displs_given, sent, received); });
  check_local_room(call, out.count, sent.extent, out.type, "send buffer",
                   displs_given ? "the blocks at sdispls" : "the sum of sendcounts");
  return {sent, received};
}

/// One MPI_Alltoall of `block` elements to and from each rank (MPI_Alltoall_c past INT_MAX).
inline int alltoall(const void* send, MPI_Datatype send_type, void* into, std::size_t block,
                    MPI_Datatype type, MPI_Comm comm) {
  return counted_call<&MPI_Alltoall, THINMPI_LARGE_COUNT_CALL(MPI_Alltoall)>(
      counts_at<1, 4>{}, send, block, send_type, into, block, type, comm);
}

/// The stages of ialltoallv(send, sendcounts, exchange_counts) (count_exchange_state): an
/// MPI_Ialltoall of the counts, one int per pair of ranks, then the MPI_Ialltoallv.
inline int ialltoall_counts(const int* sent, int* received, MPI_Comm comm, MPI_Request* request) {
  return MPI_Ialltoall(sent, 1, MPI_INT, received, 1, MPI_INT, comm, request);
}
inline int ialltoallv_blocks(const const_buffer& out, const v_spans& arrays, void* into,
                             MPI_Comm comm, MPI_Request* request) {
  return MPI_Ialltoallv(out.data, arrays.send_counts.data(), arrays.send_displs.data(), out.type,
                        into, arrays.recv_counts.data(), arrays.recv_displs.data(), out.type, comm,
                        request);
}

}  // namespace thinmpi::detail
