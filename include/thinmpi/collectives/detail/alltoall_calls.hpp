#pragma once
/// \file
/// What alltoall.hpp's calls share, out of the family's header: the checks of an alltoallv's
/// arrays and buffers (each this rank's own: detail/root_checks.hpp) and the MPI calls of the
/// nonblocking forms.

#include <array>
#include <cstddef>
#include <cstdlib>
#include <span>
#include <utility>
#include <vector>

#include "thinmpi/collectives/detail/collective_buffers.hpp"
#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/displacements.hpp"
#include "thinmpi/collectives/detail/layout_calls.hpp"
#include "thinmpi/collectives/detail/root_checks.hpp"
#include "thinmpi/collectives/detail/v_calls.hpp"
#include "thinmpi/collectives/exchange_counts.hpp"
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

/// alltoallv with counts and displacements given, whose check failed: the checks again, in
/// order, each with its full context (given_layout on each side, the send buffer: this rank's
/// own, a failure ends the job; the receive buffer: completed into scratch, then the throw).
/// It takes the payloads, not their buffers, so that the hot path builds nothing for it.
template <class Send, class Into>
[[noreturn, gnu::cold, gnu::noinline]] void given_alltoallv_fails(MPI_Comm comm, const Send& send,
                                                                  const v_spans& arrays, Into& into,
                                                                  int ranks) {
  const collective_call call{"MPI_Alltoallv", comm};
  const const_buffer out = send_buffer(send);
  const mutable_buffer in = recv_buffer(into);
  v_layout sent;
  v_layout received;
  local_checks(call, [&] {
    sent =
        given_layout(call, arrays.send_counts, arrays.send_displs, ranks, "sendcounts", "sdispls");
    received =
        given_layout(call, arrays.recv_counts, arrays.recv_displs, ranks, "recvcounts", "rdispls");
  });
  check_local_room(call, out.count, sent.extent, out.type, "send buffer", "the blocks at sdispls");
  check_receive_room(
      call, in.count, received.extent, in.type, "the blocks at rdispls", [&](void* scratch) {
        return MPI_Alltoallv(out.data, arrays.send_counts.data(), arrays.send_displs.data(),
                             out.type, scratch, arrays.recv_counts.data(),
                             arrays.recv_displs.data(), in.type, comm);
      });
  std::abort();  // one of the checks failed
}

/// alltoallv on two layouts whose check failed: the checks again, in order, with their full
/// context (the payloads are taken, not their buffers, so that the hot path builds nothing for
/// it). The layouts and the send buffer are this rank's own: a failure ends the job; a receive
/// buffer too small completes into scratch, then throws (checked: every rank throws).
template <class Send, class Into>
[[noreturn, gnu::cold, gnu::noinline]] void layout_alltoallv_fails(MPI_Comm comm, const Send& send,
                                                                   const block_layout& sent,
                                                                   Into& into,
                                                                   const block_layout& received,
                                                                   int ranks) {
  const collective_call call{"MPI_Alltoallv", comm};
  const const_buffer out = send_buffer(send);
  const mutable_buffer in = recv_buffer(into);
  if (!layout_fits(sent, ranks) || !layout_fits(received, ranks)) {
    failed_check(call, [&] {
      const bool send_side = !layout_fits(sent, ranks);
      raise_layout_ranks(call, send_side ? sent.ranks() : received.ranks(), ranks,
                         send_side ? "sendcounts" : "recvcounts");
    });
  }
  check_local_room(call, out.count, sent.extent(), out.type, "send buffer",
                   "the blocks of the send layout");
  check_receive_room(
      call, in.count, received.extent(), in.type, "the blocks of the receive layout",
      [&](void* scratch) {
        return alltoallv_on(out, sent, {scratch, received.extent(), in.type}, received, comm);
      });
  std::abort();  // one of the checks failed
}

/// A nonblocking or persistent alltoallv's own copies of the four arrays (an array not given
/// stays empty).
[[nodiscard]] inline v_arrays copied_arrays(std::span<const int> sendcounts,
                                            std::span<const int> sdispls,
                                            std::span<const int> recvcounts,
                                            std::span<const int> rdispls) {
  return {{sendcounts.begin(), sendcounts.end()},
          {sdispls.begin(), sdispls.end()},
          {recvcounts.begin(), recvcounts.end()},
          {rdispls.begin(), rdispls.end()}};
}
/// Posts the MPI_Ialltoallv of a prepared state (v_state).
struct post_ialltoallv {
  template <class State>
  int operator()(State& s, MPI_Request* handle) const {
    const const_buffer out = s.out();
    const mutable_buffer in = s.in();
    const v_arrays& a = s.arrays;
    return MPI_Ialltoallv(out.data, a.send_counts.data(), a.send_displs.data(), out.type, in.data,
                          a.recv_counts.data(), a.recv_displs.data(), in.type, s.call.comm, handle);
  }
};

/// Room for the send side's packed displacements of an exchanging alltoallv: on the stack up to
/// 64 ranks (the common case allocates nothing for them), allocated above.
class send_displacements {
 public:
  explicit send_displacements(std::size_t ranks) : ranks_(ranks) {
    if (ranks > local_.size()) heap_.resize(ranks);
  }
  [[nodiscard]] std::span<int> get() noexcept {
    return {heap_.empty() ? local_.data() : heap_.data(), ranks_};
  }

 private:
  std::size_t ranks_;
  std::array<int, 64> local_;  // not zeroed: every entry is written before MPI reads it
  std::vector<int> heap_{};
};

/// alltoallv(send, sendcounts, exchange_counts) whose send side failed its scan: the checks
/// of the send counts and buffer again, for the error (this rank's own: the job ends; checked:
/// every rank throws).
[[noreturn, gnu::cold, gnu::noinline]] inline void exchanged_alltoallv_sent_fails(
    MPI_Comm comm, const const_buffer& out, std::span<const int> sendcounts, int ranks) {
  const collective_call call{"MPI_Alltoall", comm};
  v_layout sent;
  local_checks(call, [&] {
    std::vector<int> displs;
    sent = packed_displacements(call, sendcounts, ranks, "sendcounts", displs);
  });
  check_local_room(call, out.count, sent.extent, out.type, "send buffer", "the sum of sendcounts");
  std::abort();  // one of the checks failed
}
/// The same for the counts received (this rank's own too).
[[noreturn, gnu::cold, gnu::noinline]] inline void exchanged_alltoallv_received_fails(
    MPI_Comm comm, std::span<const int> counts, int ranks, MPI_Datatype type) {
  const collective_call call{"MPI_Alltoallv", comm};
  local_checks(call, [&] {
    std::vector<int> displs;
    check_varying_fits(packed_displacements(call, counts, ranks, "recvcounts", displs), call, type);
  });
  std::abort();  // one of the checks failed
}

/// alltoallv(send, sendcounts, exchange_counts) into `all` (a thinmpi::varying: Fresh, the
/// returning form's new one, built at its sizes; else the caller's, resized): the send
/// displacements, an MPI_Alltoall of the counts, the received displacements, the data sized, the
/// MPI_Alltoallv. Every count and array is this rank's own: a failure ends the job (checked: every
/// rank throws, at each agreement).
template <bool Fresh, class E, class Data>
[[gnu::always_inline]] inline void alltoallv_exchanging(collective_call call,
                                                        const const_buffer& out,
                                                        std::span<const int> sendcounts,
                                                        varying<E, Data>& all, int ranks) {
  const auto n = static_cast<std::size_t>(ranks);
  send_displacements storage(n);
  const std::span<int> send_displs = storage.get();
  // Scalars only on the hot path: passes that throw nothing, one comparison per check; the
  // failing branches redo the checks for their error, out of line.
  packed_scan sent;
  if (sendcounts.size() == n) [[likely]] {
    sent = scan_packed(sendcounts, send_displs);
  }
  if (sendcounts.size() != n || sent.negative || out.count < sent.layout.extent) [[unlikely]] {
    exchanged_alltoallv_sent_fails(call.comm, out, sendcounts, ranks);
  }
  agree_if_checked(call);
  size_for<Fresh>(all.counts, n);
  check_collective(
      MPI_Alltoall(sendcounts.data(), 1, MPI_INT, all.counts.data(), 1, MPI_INT, call.comm), call);
  call.operation = "MPI_Alltoallv";
  // What arrived is this rank's own: the second agreement, checked.
  size_for<Fresh>(all.displs, n);
  const packed_scan received = scan_packed(all.counts, all.displs);
  if (received.negative || !received.layout.fits_int) [[unlikely]] {
    exchanged_alltoallv_received_fails(call.comm, all.counts, ranks, out.type);
  }
  agree_if_checked(call);
  size_for<Fresh>(all.data, received.layout.extent);
  const mutable_buffer in = recv_buffer(all.data);
  const int rc = alltoallv_call(out, in, {sendcounts, send_displs, all.counts, all.displs},
                                sent.layout, received.layout, call);
  check_collective(rc, call, out.count, out.type);
}

/// One MPI_Alltoall of `block` elements to and from each rank (MPI_Alltoall_c past INT_MAX).
inline int alltoall(const void* send, MPI_Datatype send_type, void* into, std::size_t block,
                    MPI_Datatype type, MPI_Comm comm) {
  return counted_call<&MPI_Alltoall, THINMPI_LARGE_COUNT_CALL(MPI_Alltoall)>(
      counts_at<1, 4>{}, send, block, send_type, into, block, type, comm);
}

/// alltoall(send, into) whose `into` has room for fewer elements than `send` holds: the receive
/// into scratch (`block` elements from each rank), then the throw (check_receive_room). It
/// takes the payloads, not their buffers, so that the hot path builds nothing for it.
template <class Send, class Into>
[[noreturn, gnu::cold, gnu::noinline]] void alltoall_room_fails(MPI_Comm comm, const Send& send,
                                                                Into& into, std::size_t block) {
  const collective_call call{"MPI_Alltoall", comm};
  const const_buffer out = send_buffer(send);
  const mutable_buffer in = recv_buffer(into);
  check_receive_room(
      call, in.count, out.count, in.type, "one block from each rank",
      [&](void* scratch) { return alltoall(out.data, out.type, scratch, block, in.type, comm); });
  std::abort();  // the check failed
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
