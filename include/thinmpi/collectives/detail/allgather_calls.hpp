#pragma once
/// \file
/// What allgather.hpp's calls share, out of the family's header: the checks of an allgatherv's
/// counts, displacements and own count, each in its class of detail/root_checks.hpp (the same
/// on every rank, or this rank's own), and the MPI calls of the nonblocking and persistent
/// forms.

#include <cstddef>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "thinmpi/collectives/detail/collective_buffers.hpp"
#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/displacements.hpp"
#include "thinmpi/collectives/detail/layout_calls.hpp"
#include "thinmpi/collectives/detail/persistent_calls.hpp"
#include "thinmpi/collectives/detail/root_checks.hpp"
#include "thinmpi/collectives/detail/v_calls.hpp"
#include "thinmpi/collectives/exchange_counts.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/comm_queries.hpp"
#include "thinmpi/core/detail/large_count.hpp"
#include "thinmpi/core/detail/mpi.hpp"

namespace thinmpi::detail {

/// Throws MPI_ERR_COUNT, before MPI is called, unless this rank's entry of the receive counts
/// is what it sends (MPI would truncate or fail on the other ranks).
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_own_count(const collective_call& call,
                                                                   std::span<const int> counts,
                                                                   int rank, std::size_t sending,
                                                                   MPI_Datatype type) {
  const auto own = static_cast<std::size_t>(rank);
  raise_collective(MPI_ERR_COUNT, call, sending, type,
                   "recvcounts[" + std::to_string(rank) + "] is " +
                       std::to_string(own < counts.size() ? counts[own] : 0) +
                       " but this rank sends " + std::to_string(sending));
}
/// See raise_own_count (counts has one entry per rank, checked before). What this rank sends
/// is its own: the others would wait for a block it cannot give, so a mismatch ends the job
/// (checked: every rank throws; detail/root_checks.hpp).
[[gnu::always_inline]] inline void check_own_count(const collective_call& call,
                                                   std::span<const int> counts, int rank,
                                                   std::size_t sending, MPI_Datatype type) {
  const auto own = static_cast<std::size_t>(rank);
  if (own >= counts.size() || counts[own] < 0 || static_cast<std::size_t>(counts[own]) != sending)
      [[unlikely]] {
    failed_check(call, [&] { raise_own_count(call, counts, rank, sending, type); });
  }
}

/// One MPI_Allgather of `count` elements from each rank (MPI_Allgather_c past INT_MAX).
inline int allgather(const const_buffer& out, void* into, MPI_Datatype type, MPI_Comm comm) {
  return counted_call<&MPI_Allgather, THINMPI_LARGE_COUNT_CALL(MPI_Allgather)>(
      counts_at<1, 4>{}, out.data, out.count, out.type, into, out.count, type, comm);
}

/// allgather(send, into) whose `into` has room for fewer than `needed` elements: the receive
/// into scratch, then the throw (check_receive_room). It takes the payloads, not their
/// buffers, so that the hot path builds nothing for it.
template <class Send, class Into>
[[noreturn, gnu::cold, gnu::noinline]] void allgather_room_fails(MPI_Comm comm, const Send& send,
                                                                 Into& into, std::size_t needed) {
  const collective_call call{"MPI_Allgather", comm};
  const const_buffer out = send_buffer(send);
  const mutable_buffer in = recv_buffer(into);
  check_receive_room(call, in.count, needed, in.type, "one block per rank",
                     [&](void* scratch) { return allgather(out, scratch, in.type, comm); });
  std::abort();  // the check failed
}

/// allgatherv(send, all, exchange_counts) whose exchanged counts failed their scan
/// (scan_packed): packed_displacements and check_varying_fits, for the error (the counts are
/// the same on every rank: every rank throws).
[[noreturn, gnu::cold, gnu::noinline]] inline void exchanged_allgatherv_fails(
    MPI_Comm comm, std::span<const int> counts, int ranks, MPI_Datatype type) {
  const collective_call call{"MPI_Allgatherv", comm};
  std::vector<int> displs;
  check_varying_fits(packed_displacements(call, counts, ranks, "recvcounts", displs), call, type);
  std::abort();  // one of the checks failed
}

/// allgatherv(send, exchange_counts) into `all` (a thinmpi::varying: Fresh, the returning
/// form's new one, built at its sizes; else the caller's, resized): an MPI_Allgather of this
/// rank's count, the displacements, the data sized, the MPI_Allgatherv. The exchanged counts
/// are the same on every rank, so every rank makes their checks alike (out of line: scalars
/// only on the hot path).
template <bool Fresh, class E, class Data>
[[gnu::always_inline]] inline void allgatherv_exchanging(const const_buffer& out,
                                                         varying<E, Data>& all, int ranks,
                                                         MPI_Comm comm) {
  collective_call call{"MPI_Allgather", comm};
  own_count_fits(call, out);
  agree_if_checked(call);
  const auto n = static_cast<std::size_t>(ranks);
  size_for<Fresh>(all.counts, n);
  const int mine = to_int(out.count);
  check_collective(MPI_Allgather(&mine, 1, MPI_INT, all.counts.data(), 1, MPI_INT, comm), call);
  call.operation = "MPI_Allgatherv";
  size_for<Fresh>(all.displs, n);
  const packed_scan blocks = scan_packed(all.counts, all.displs);
  if (blocks.negative || !blocks.layout.fits_int) [[unlikely]] {
    exchanged_allgatherv_fails(comm, all.counts, ranks, out.type);
  }
  size_for<Fresh>(all.data, blocks.layout.extent);
  const int rc = MPI_Allgatherv(out.data, mine, out.type, all.data.data(), all.counts.data(),
                                all.displs.data(), out.type, comm);
  check_collective(rc, call, out.count, out.type);
}

/// The stages of iallgatherv(send, exchange_counts) (count_exchange_state): an MPI_Iallgather
/// of this rank's one count, then the MPI_Iallgatherv.
inline int iallgather_counts(const int* sent, int* received, MPI_Comm comm, MPI_Request* request) {
  return MPI_Iallgather(sent, 1, MPI_INT, received, 1, MPI_INT, comm, request);
}
inline int iallgatherv_blocks(const const_buffer& out, const v_spans& arrays, void* into,
                              MPI_Comm comm, MPI_Request* request) {
  return MPI_Iallgatherv(out.data, arrays.send_counts[0], out.type, into, arrays.recv_counts.data(),
                         arrays.recv_displs.data(), out.type, comm, request);
}

/// Sets up a persistent allgather on a checked state. On MPICH, an MPI_Allgatherv_init of
/// equal blocks (persistent_allgather_resends_first_round says why), reading counts and
/// displacements the state owns.
template <class State>
int allgather_init_call(State& s, int ranks, MPI_Request* handle) {
  const const_buffer out = s.out();
  const mutable_buffer in = s.in();
  const int count = to_int(out.count);
  if constexpr (persistent_allgather_resends_first_round) {
    check_int_count(s.call, s.arrived, out.type);  // the displacements fit
    s.arrays.recv_counts.assign(static_cast<std::size_t>(ranks), count);
    s.arrays.recv_displs.resize(s.arrays.recv_counts.size());
    for (std::size_t r = 0; r < s.arrays.recv_displs.size(); ++r) {
      s.arrays.recv_displs[r] = static_cast<int>(r) * count;
    }
    return persistent_call<persistent_collective::allgatherv>(
        out.data, count, out.type, in.data, s.arrays.recv_counts.data(),
        s.arrays.recv_displs.data(), in.type, s.call.comm, MPI_INFO_NULL, handle);
  } else {
    return persistent_call<persistent_collective::allgather>(
        out.data, count, out.type, in.data, count, in.type, s.call.comm, MPI_INFO_NULL, handle);
  }
}

/// allgatherv on a layout whose check failed: the checks again, in order, each with its full
/// context. The blocks against the communicator's size are the same on every rank (every rank
/// throws); a receive buffer too small completes into scratch, then throws; this rank's own
/// count ends the job (checked: every rank throws; detail/root_checks.hpp).
/// It takes the payloads, not their buffers, so that the hot path builds nothing for it.
template <class Send, class Into>
[[noreturn, gnu::cold, gnu::noinline]] void layout_allgatherv_fails(MPI_Comm comm, const Send& send,
                                                                    Into& into,
                                                                    const block_layout& layout,
                                                                    int ranks, int rank) {
  const collective_call call{"MPI_Allgatherv", comm};
  const const_buffer out = send_buffer(send);
  const mutable_buffer in = recv_buffer(into);
  if (!layout_fits(layout, ranks)) {
    alike_checks(call, [&] { raise_layout_ranks(call, layout.ranks(), ranks, "recvcounts"); });
  }
  check_receive_room(call, in.count, layout.extent(), in.type, "the blocks of the layout",
                     [&](void* scratch) {
                       return allgatherv_on(out, {scratch, layout.extent(), in.type}, layout, comm);
                     });
  check_own_count(call, layout.counts(), rank, out.count, out.type);
  std::abort();  // one of the checks failed
}

/// Whether this rank's entry of per-rank counts (one per rank, none negative: checked) is what
/// it sends: one comparison.
[[gnu::always_inline]] inline bool own_entry(std::span<const int> counts, int rank,
                                             std::size_t sending) noexcept {
  return static_cast<std::size_t>(counts[static_cast<std::size_t>(rank)]) == sending;
}

/// allgatherv with counts and displacements given, whose check failed: the checks again, in
/// allgatherv_layout's order, each with its full context (recvcounts', the same on every rank;
/// the displacements, this rank's own; the receive room, completed into scratch before the
/// throw; this rank's own count). It takes the payloads, not their buffers, so that the hot
/// path builds nothing for it.
template <class Send, class Into>
[[noreturn, gnu::cold, gnu::noinline]] void given_allgatherv_fails(MPI_Comm comm, const Send& send,
                                                                   Into& into,
                                                                   std::span<const int> recvcounts,
                                                                   std::span<const int> displs,
                                                                   int ranks, int rank) {
  const collective_call call{"MPI_Allgatherv", comm};
  const const_buffer out = send_buffer(send);
  const mutable_buffer in = recv_buffer(into);
  alike_checks(call,
               [&] { static_cast<void>(counts_total(call, recvcounts, ranks, "recvcounts")); });
  v_layout layout;
  local_checks(call, [&] {
    layout = given_layout(call, recvcounts, displs, ranks, "recvcounts", "displs");
  });
  check_receive_room(call, in.count, layout.extent, in.type, "the blocks at displs",
                     [&](void* scratch) {
                       return MPI_Allgatherv(out.data, to_int(out.count), out.type, scratch,
                                             recvcounts.data(), displs.data(), in.type, comm);
                     });
  check_own_count(call, recvcounts, rank, out.count, out.type);
  std::abort();  // one of the checks failed
}

/// The counts (and displacements) of an allgatherv, checked: recvcounts is the same on
/// every rank (MPI requires it), and so is its check; the displacements are this rank's own
/// (a failure ends the job; checked: every rank throws). Packed ones are written to `packed`.
/// `large_call`: the blocking form's large-count call, whose absence (MPI-3) makes packed
/// displacements past INT_MAX an error here; nullptr for the nonblocking and persistent forms,
/// which take int counts only and say so themselves.
inline v_layout allgatherv_layout(const collective_call& call, const mutable_buffer& in,
                                  std::span<const int> recvcounts,
                                  const std::span<const int>* displs, std::vector<int>& packed,
                                  const char* large_call) {
  const int n = size_of(call.comm);
  v_layout layout;
  alike_checks(call, [&] {
    if (displs != nullptr) {
      static_cast<void>(counts_total(call, recvcounts, n, "recvcounts"));
    } else {
      layout = packed_displacements(call, recvcounts, n, "recvcounts", packed);
      if (large_call != nullptr) {
        check_packed_fits(layout, call, in.type, "the sum of recvcounts", large_call);
      }
    }
  });
  if (displs != nullptr) {
    local_checks(
        call, [&] { layout = given_layout(call, recvcounts, *displs, n, "recvcounts", "displs"); });
  }
  return layout;
}

}  // namespace thinmpi::detail
