#pragma once
/// \file
/// The collectives of an intercommunicator (thinmpi::inter_view derives from this family):
/// bcast, gather(v), scatter(v), reduce, allgather(v), alltoall(v) and allreduce between its
/// two groups (MPI-4.0 section 6.2.2). Data goes from one group to the other, never within a
/// group. The v-forms take the counts and displacements the caller gives (one entry per rank
/// of the other group); thinmpi exchanges none.
///
/// A rooted collective names in its form which side holds the root: thinmpi::local_root(r) on
/// every rank of the root's group (rank r of it is the root, the others take part in name only),
/// thinmpi::remote_root(r) on every rank of the other group. thinmpi passes MPI_ROOT or
/// MPI_PROC_NULL for the first, r for the second, so neither appears in user code; the local
/// side costs MPI_Comm_rank and MPI_Comm_size (both local) beside the one collective call.
///
///     // in the ocean group:      inter.bcast(grid, thinmpi::local_root(0));
///     // in the atmosphere group: inter.bcast(grid, thinmpi::remote_root(0));
///
/// A local error one rank finds (its local root outside its group, a root's buffer not a whole
/// number of blocks of the other group) ends the job in every build, with the error's text:
/// the other group is in the collective, or will be, and there is no call of both groups in
/// which THINMPI_CHECKED_COLLECTIVES could agree first. A rooted call with a plain int root
/// does not compile here: it would not say which group the root is in.

#include <concepts>
#include <cstddef>
#include <cstdlib>
#include <exception>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "thinmpi/collectives/detail/collective_buffers.hpp"
#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/displacements.hpp"
#include "thinmpi/collectives/detail/reduction_call.hpp"
#include "thinmpi/collectives/detail/reduction_op.hpp"
#include "thinmpi/collectives/detail/root_checks.hpp"
#include "thinmpi/collectives/ops.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/comm_queries.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/narrow.hpp"
#include "thinmpi/core/detail/raise.hpp"

namespace thinmpi {

/// The root of a collective on an intercommunicator is rank `rank` of this rank's own group:
/// every rank of that group passes it (see the file comment).
struct local_root {
  /// The root's rank in this rank's group.
  constexpr explicit local_root(int r) noexcept : rank(r) {}
  int rank;  ///< the root's rank in the local group
};

/// The root of a collective on an intercommunicator is rank `rank` of the other group: every
/// rank of this group passes it.
struct remote_root {
  /// The root's rank in the other group.
  constexpr explicit remote_root(int r) noexcept : rank(r) {}
  int rank;  ///< the root's rank in the remote group
};

namespace detail {

template <class...>
inline constexpr bool needs_root_side = false;

/// Fails to compile: a rooted collective on an intercommunicator with an int root.
template <class... Args>
consteval void require_root_side() {
  static_assert(needs_root_side<Args...>,
                "thinmpi: on an intercommunicator a rooted collective says which group holds the "
                "root: pass thinmpi::local_root(r) on every rank of the root's group and "
                "thinmpi::remote_root(r) on every rank of the other group, not an int");
}

/// An error one rank of an intercommunicator's collective finds alone: the job ends (see the
/// file comment). `raise` throws the error.
template <class Raise>
[[noreturn, gnu::cold, gnu::noinline]] void inter_fails(const collective_call& call, Raise raise) {
  try {
    raise();
  } catch (const mpi_error& error) {
    end_job(call, error, {}, false);
  }
  std::abort();  // raise() always throws
}

/// The size of the other group (MPI_Comm_remote_size; local).
[[nodiscard]] inline int remote_size_of(MPI_Comm comm) {
  int n = 0;
  check(MPI_Comm_remote_size(comm, &n), "MPI_Comm_remote_size", comm);
  return n;
}

/// What this rank passes as the root of a collective whose root is rank `root` of its group:
/// MPI_ROOT on that rank, MPI_PROC_NULL on the others. A root outside the group ends the job
/// (no rank of the group would be the root, and the other group would wait for it forever).
[[nodiscard]] inline int local_root_role(const collective_call& call, int root) {
  const int n = size_of(call.comm);
  if (root < 0 || root >= n) [[unlikely]] {
    inter_fails(call, [&] {
      raise(MPI_ERR_ROOT,
            collective_site(call, std::nullopt, MPI_DATATYPE_NULL,
                            "local root " + std::to_string(root) +
                                " is not a rank of this group of " +
                                counted(static_cast<std::size_t>(n), "rank", "ranks")));
    });
  }
  return rank_in(call.comm) == root ? MPI_ROOT : MPI_PROC_NULL;
}

/// The count of one rank's block in a buffer of `count` elements that holds one block for each
/// of the other group's `ranks`; a count that is not a whole number of blocks ends the job.
[[nodiscard]] inline int block_per_rank(const collective_call& call, std::size_t count,
                                        MPI_Datatype type, int ranks, const char* which) {
  const auto n = static_cast<std::size_t>(ranks);
  if (n == 0 || count % n != 0 || !fits_int(count / n)) [[unlikely]] {
    inter_fails(call, [&] {
      raise(
          MPI_ERR_COUNT,
          collective_site(call, count, type,
                          std::string("the ") + which + " holds " + describe_elements(count, type) +
                              ", not one block of at most INT_MAX elements for each of the " +
                              counted(n, "rank", "ranks") + " of the other group"));
    });
  }
  return static_cast<int>(count / n);
}

/// A count that must fit the int the call takes; past it the job ends.
[[nodiscard]] inline int inter_count(const collective_call& call, std::size_t count,
                                     MPI_Datatype type) {
  if (!fits_int(count)) [[unlikely]] {
    inter_fails(call, [&] { raise_int_count(call, count, type); });
  }
  return static_cast<int>(count);
}

/// Checks the other group's blocks in a buffer of `room` elements: `counts` and `displs` hold
/// one entry per rank of the other group (`ranks`), none negative, and the blocks lie within
/// the buffer. A mistake ends the job (see the file comment).
inline void check_inter_layout(const collective_call& call, std::span<const int> counts,
                               std::span<const int> displs, int ranks, std::size_t room,
                               MPI_Datatype type, const char* counts_name, const char* displs_name,
                               const char* buffer) {
  v_layout layout{};
  const std::exception_ptr error = failure_of(
      [&] { layout = given_layout(call, counts, displs, ranks, counts_name, displs_name); });
  if (error) [[unlikely]] {
    inter_fails(call, [&] { std::rethrow_exception(error); });
  }
  if (room < layout.extent) [[unlikely]] {
    inter_fails(call, [&] {
      raise_room(call, room, layout.extent, type, buffer,
                 "the other group's blocks at the displacements");
    });
  }
}

}  // namespace detail

/// The collectives between the two groups of an intercommunicator (see the file comment).
template <class Comm>
class collective_intercomm {
 public:
  /// The root's group: the root sends `values` to every rank of the other group (one
  /// MPI_Bcast with MPI_ROOT); the group's other ranks send nothing (`values` is not read).
  template <class Buffer>
  void bcast(const Buffer& values, local_root root) const {
    detail::require_sendable<Buffer>();
    const detail::collective_call call{"MPI_Bcast", comm(), root.rank};
    const int role = detail::local_root_role(call, root.rank);
    const detail::const_buffer in = detail::send_buffer(values);
    detail::check_collective(
        MPI_Bcast(const_cast<void*>(in.data), detail::inter_count(call, in.count, in.type), in.type,
                  role, comm()),
        call, in.count, in.type);
  }
  /// The other group: every rank receives the root's values into `into`, whose size must be
  /// the root's (one MPI_Bcast).
  template <class Buffer>
  void bcast(Buffer&& into, remote_root root) const {
    detail::require_receivable<Buffer&&>();
    const detail::collective_call call{"MPI_Bcast", comm(), root.rank};
    const detail::mutable_buffer out = detail::recv_buffer(into);
    detail::check_collective(MPI_Bcast(out.data, detail::inter_count(call, out.count, out.type),
                                       out.type, root.rank, comm()),
                             call, out.count, out.type);
  }

  /// The sending group: each rank sends `values` to the root of the other group (one
  /// MPI_Gather); every rank sends the same count.
  template <class Buffer>
  void gather(const Buffer& values, remote_root root) const {
    detail::require_sendable<Buffer>();
    const detail::collective_call call{"MPI_Gather", comm(), root.rank};
    const detail::const_buffer in = detail::send_buffer(values);
    const int n = detail::inter_count(call, in.count, in.type);
    detail::check_collective(
        MPI_Gather(in.data, n, in.type, nullptr, 0, in.type, root.rank, comm()), call, in.count,
        in.type);
  }
  /// The root's group: the root receives into `into` one block from each rank of the other
  /// group, in their rank order (one MPI_Gather with MPI_ROOT; MPI_Comm_remote_size too);
  /// `into` holds remote_size() blocks of the count each sends. `into` is not used on the
  /// group's other ranks.
  template <class Buffer>
  void gather(Buffer&& into, local_root root) const {
    detail::require_receivable<Buffer&&>();
    const detail::collective_call call{"MPI_Gather", comm(), root.rank};
    const int role = detail::local_root_role(call, root.rank);
    const detail::mutable_buffer out = detail::recv_buffer(into);
    const int block = role == MPI_ROOT
                          ? detail::block_per_rank(call, out.count, out.type,
                                                   detail::remote_size_of(comm()), "root's buffer")
                          : 0;
    detail::check_collective(
        MPI_Gather(nullptr, 0, out.type, out.data, block, out.type, role, comm()), call, out.count,
        out.type);
  }

  /// The root's group: the root sends block i of `values` to rank i of the other group (one
  /// MPI_Scatter with MPI_ROOT; MPI_Comm_remote_size too): `values` holds remote_size()
  /// blocks. The group's other ranks send nothing.
  template <class Buffer>
  void scatter(const Buffer& values, local_root root) const {
    detail::require_sendable<Buffer>();
    const detail::collective_call call{"MPI_Scatter", comm(), root.rank};
    const int role = detail::local_root_role(call, root.rank);
    const detail::const_buffer in = detail::send_buffer(values);
    const int block = role == MPI_ROOT
                          ? detail::block_per_rank(call, in.count, in.type,
                                                   detail::remote_size_of(comm()), "root's values")
                          : 0;
    detail::check_collective(
        MPI_Scatter(in.data, block, in.type, nullptr, 0, in.type, role, comm()), call, in.count,
        in.type);
  }
  /// The other group: each rank receives its block into `into`, whose size is the block's
  /// (one MPI_Scatter).
  template <class Buffer>
  void scatter(Buffer&& into, remote_root root) const {
    detail::require_receivable<Buffer&&>();
    const detail::collective_call call{"MPI_Scatter", comm(), root.rank};
    const detail::mutable_buffer out = detail::recv_buffer(into);
    const int n = detail::inter_count(call, out.count, out.type);
    detail::check_collective(
        MPI_Scatter(nullptr, 0, out.type, out.data, n, out.type, root.rank, comm()), call,
        out.count, out.type);
  }

  /// The contributing group: every rank's `values` are reduced element-wise with op, the
  /// result going to the root of the other group (one MPI_Reduce).
  template <class Send, class Op>
  void reduce(const Send& values, Op op, remote_root root) const {
    detail::require_reduction<Send, Op>();
    const detail::collective_call call{"MPI_Reduce", comm(), root.rank};
    const detail::const_buffer in = detail::send_buffer(values);
    const auto bound = detail::bind_op<detail::element_t<Send>>(op);
    detail::check_collective(
        MPI_Reduce(in.data, nullptr, detail::inter_count(call, in.count, in.type), in.type,
                   bound.get(), root.rank, comm()),
        call, in.count, in.type);
  }
  /// The root's group: the root receives into `into` the reduction of the other group's
  /// values, whose count is into's (one MPI_Reduce with MPI_ROOT). `into` is not used on the
  /// group's other ranks; `op` must be the other group's.
  template <class Recv, class Op>
  void reduce(Recv&& into, Op op, local_root root) const {
    detail::require_reduction<Recv, Op>();
    detail::require_receivable<Recv&&>();
    const detail::collective_call call{"MPI_Reduce", comm(), root.rank};
    const int role = detail::local_root_role(call, root.rank);
    const detail::mutable_buffer out = detail::recv_buffer(into);
    const auto bound = detail::bind_op<detail::element_t<Recv>>(op);
    // MPI says the root's send buffer is not significant here, but MPICH 4.0.2 refuses a null
    // one (MPI_ERR_BUFFER): it gets the address of a byte MPI never reads.
    static const unsigned char unread = 0;
    detail::check_collective(
        MPI_Reduce(&unread, out.data, detail::inter_count(call, out.count, out.type), out.type,
                   bound.get(), role, comm()),
        call, out.count, out.type);
  }

  /// Every rank sends `values` to every rank of the other group and receives into `into` one
  /// block from each of them, in their rank order (one MPI_Allgather; MPI_Comm_remote_size):
  /// `into` holds remote_size() blocks of the count each rank of the other group sends.
  template <class Send, class Recv>
  void allgather(const Send& values, Recv&& into) const {
    allgather_from(values, std::forward<Recv>(into), detail::remote_size_of(comm()));
  }
  /// The other group's values, each rank's block in rank order, in a std::vector: every rank of
  /// the other group sends as many elements as this rank does (one MPI_Allgather;
  /// MPI_Comm_remote_size).
  template <class Send>
  [[nodiscard]] std::vector<detail::element_t<Send>> allgather(const Send& values) const {
    detail::require_sendable<Send>();
    const int ranks = detail::remote_size_of(comm());
    std::vector<detail::element_t<Send>> out(detail::send_buffer(values).count *
                                             static_cast<std::size_t>(ranks));
    allgather_from(values, out, ranks);
    return out;
  }

  /// Block i of `values` goes to rank i of the other group; block i of `into` comes from it
  /// (one MPI_Alltoall; MPI_Comm_remote_size). Both hold remote_size() blocks of one size.
  template <class Send, class Recv>
  void alltoall(const Send& values, Recv&& into) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Recv&&>();
    detail::require_same_elements<Send, Recv>();
    const detail::collective_call call{"MPI_Alltoall", comm()};
    const int ranks = detail::remote_size_of(comm());
    const detail::const_buffer in = detail::send_buffer(values);
    const detail::mutable_buffer out = detail::recv_buffer(into);
    const int send_block = detail::block_per_rank(call, in.count, in.type, ranks, "values");
    const int recv_block =
        detail::block_per_rank(call, out.count, out.type, ranks, "receive buffer");
    detail::check_collective(
        MPI_Alltoall(in.data, send_block, in.type, out.data, recv_block, out.type, comm()), call,
        in.count, in.type);
  }
  /// The root's group: the root receives block i of the other group (`counts[i]` elements)
  /// into `into` at `displs[i]` (one MPI_Gatherv with MPI_ROOT; MPI_Comm_remote_size too).
  /// `counts` and `displs` hold one entry per rank of the other group and are read on the root
  /// only, which checks them against `into` before MPI writes.
  template <class Buffer>
  void gatherv(Buffer&& into, std::span<const int> counts, std::span<const int> displs,
               local_root root) const {
    detail::require_receivable<Buffer&&>();
    const detail::collective_call call{"MPI_Gatherv", comm(), root.rank};
    const int role = detail::local_root_role(call, root.rank);
    const detail::mutable_buffer out = detail::recv_buffer(into);
    if (role == MPI_ROOT) {
      detail::check_inter_layout(call, counts, displs, detail::remote_size_of(comm()), out.count,
                                 out.type, "recvcounts", "displs", "root's buffer");
    }
    const bool is_root = role == MPI_ROOT;
    detail::check_collective(MPI_Gatherv(nullptr, 0, out.type, is_root ? out.data : nullptr,
                                         is_root ? counts.data() : nullptr,
                                         is_root ? displs.data() : nullptr, out.type, role, comm()),
                             call, out.count, out.type);
  }
  /// The sending group: each rank sends `values`, of its own size, to the root of the other
  /// group (one MPI_Gatherv), which names the count it takes from each.
  template <class Buffer>
  void gatherv(const Buffer& values, remote_root root) const {
    detail::require_sendable<Buffer>();
    const detail::collective_call call{"MPI_Gatherv", comm(), root.rank};
    const detail::const_buffer in = detail::send_buffer(values);
    detail::check_collective(
        MPI_Gatherv(in.data, detail::inter_count(call, in.count, in.type), in.type, nullptr,
                    nullptr, nullptr, in.type, root.rank, comm()),
        call, in.count, in.type);
  }
  /// The root's group: the root sends `counts[i]` elements of `values` at `displs[i]` to rank i
  /// of the other group (one MPI_Scatterv with MPI_ROOT; MPI_Comm_remote_size too), checked
  /// against `values` first; read on the root only.
  template <class Buffer>
  void scatterv(const Buffer& values, std::span<const int> counts, std::span<const int> displs,
                local_root root) const {
    detail::require_sendable<Buffer>();
    const detail::collective_call call{"MPI_Scatterv", comm(), root.rank};
    const int role = detail::local_root_role(call, root.rank);
    const detail::const_buffer in = detail::send_buffer(values);
    const bool is_root = role == MPI_ROOT;
    if (is_root) {
      detail::check_inter_layout(call, counts, displs, detail::remote_size_of(comm()), in.count,
                                 in.type, "sendcounts", "displs", "root's values");
    }
    detail::check_collective(
        MPI_Scatterv(is_root ? in.data : nullptr, is_root ? counts.data() : nullptr,
                     is_root ? displs.data() : nullptr, in.type, nullptr, 0, in.type, role, comm()),
        call, in.count, in.type);
  }
  /// The other group: each rank receives its block into `into`, whose size is the count the
  /// root names for it (one MPI_Scatterv).
  template <class Buffer>
  void scatterv(Buffer&& into, remote_root root) const {
    detail::require_receivable<Buffer&&>();
    const detail::collective_call call{"MPI_Scatterv", comm(), root.rank};
    const detail::mutable_buffer out = detail::recv_buffer(into);
    detail::check_collective(
        MPI_Scatterv(nullptr, nullptr, nullptr, out.type, out.data,
                     detail::inter_count(call, out.count, out.type), out.type, root.rank, comm()),
        call, out.count, out.type);
  }
  /// Every rank sends `values` to every rank of the other group and receives `counts[i]`
  /// elements from its rank i into `into` at `displs[i]` (one MPI_Allgatherv;
  /// MPI_Comm_remote_size), checked against `into` first.
  template <class Send, class Recv>
  void allgatherv(const Send& values, Recv&& into, std::span<const int> counts,
                  std::span<const int> displs) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Recv&&>();
    detail::require_same_elements<Send, Recv>();
    const detail::collective_call call{"MPI_Allgatherv", comm()};
    const detail::const_buffer in = detail::send_buffer(values);
    const detail::mutable_buffer out = detail::recv_buffer(into);
    detail::check_inter_layout(call, counts, displs, detail::remote_size_of(comm()), out.count,
                               out.type, "recvcounts", "displs", "receive buffer");
    detail::check_collective(
        MPI_Allgatherv(in.data, detail::inter_count(call, in.count, in.type), in.type, out.data,
                       counts.data(), displs.data(), out.type, comm()),
        call, in.count, in.type);
  }
  /// Block i of `values` (`send_counts[i]` elements at `send_displs[i]`) goes to rank i of the
  /// other group; block i of `into` comes from it (one MPI_Alltoallv; MPI_Comm_remote_size).
  /// Each array holds one entry per rank of the other group, checked against its buffer first.
  template <class Send, class Recv>
  void alltoallv(const Send& values, std::span<const int> send_counts,
                 std::span<const int> send_displs, Recv&& into, std::span<const int> recv_counts,
                 std::span<const int> recv_displs) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Recv&&>();
    detail::require_same_elements<Send, Recv>();
    const detail::collective_call call{"MPI_Alltoallv", comm()};
    const int ranks = detail::remote_size_of(comm());
    const detail::const_buffer in = detail::send_buffer(values);
    const detail::mutable_buffer out = detail::recv_buffer(into);
    detail::check_inter_layout(call, send_counts, send_displs, ranks, in.count, in.type,
                               "sendcounts", "sdispls", "values");
    detail::check_inter_layout(call, recv_counts, recv_displs, ranks, out.count, out.type,
                               "recvcounts", "rdispls", "receive buffer");
    detail::check_collective(
        MPI_Alltoallv(in.data, send_counts.data(), send_displs.data(), in.type, out.data,
                      recv_counts.data(), recv_displs.data(), out.type, comm()),
        call, in.count, in.type);
  }

  /// alltoall into a new std::vector of values' size.
  template <class Send>
  [[nodiscard]] std::vector<detail::element_t<Send>> alltoall(const Send& values) const {
    detail::require_sendable<Send>();
    std::vector<detail::element_t<Send>> out(detail::send_buffer(values).count);
    alltoall(values, out);
    return out;
  }

  /// Every rank receives into `into` the element-wise reduction of the other group's values
  /// (one MPI_Allreduce); both groups pass the same count and op.
  template <class Send, class Recv, class Op>
  void allreduce(const Send& values, Recv&& into, Op op) const {
    detail::require_reduction<Send, Op>();
    detail::require_reduction_target<Send, Recv&&>();
    const detail::collective_call call{"MPI_Allreduce", comm()};
    const detail::const_buffer in = detail::send_buffer(values);
    const detail::mutable_buffer out = detail::recv_buffer(into);
    if (out.count != in.count) [[unlikely]] {
      detail::inter_fails(call, [&] {
        detail::raise_room(call, out.count, in.count, in.type, "receive buffer",
                           "an intercommunicator's allreduce receives as many elements as it "
                           "sends");
      });
    }
    const auto bound = detail::bind_op<detail::element_t<Send>>(op);
    detail::check_collective(
        MPI_Allreduce(in.data, out.data, detail::inter_count(call, in.count, in.type), in.type,
                      bound.get(), comm()),
        call, in.count, in.type);
  }
  /// The reduction of the other group's values, as the intracommunicator's allreduce returns it
  /// (a value for a scalar, a container for a range). One MPI_Allreduce.
  template <class Send, class Op>
  [[nodiscard]] detail::reduction_result_t<Send> allreduce(const Send& values, Op op) const {
    detail::require_reduction<Send, Op>();
    auto result =
        detail::make_result<detail::reduction_result_t<Send>>(detail::send_buffer(values).count);
    allreduce(values, result, op);
    return result;
  }

  /// A rooted collective with an int root does not compile here (see the file comment).
  template <class Buffer, std::integral Root>
  void bcast(Buffer&&, Root) const {
    detail::require_root_side<Buffer, Root>();
  }
  /// See bcast(Buffer&&, int).
  template <class Buffer, std::integral Root>
  void gather(Buffer&&, Root) const {
    detail::require_root_side<Buffer, Root>();
  }
  /// See bcast(Buffer&&, int).
  template <class Buffer, std::integral Root>
  void gatherv(Buffer&&, Root) const {
    detail::require_root_side<Buffer, Root>();
  }
  /// See bcast(Buffer&&, int).
  template <class Buffer, class Counts, class Displs, std::integral Root>
  void gatherv(Buffer&&, Counts&&, Displs&&, Root) const {
    detail::require_root_side<Buffer, Root>();
  }
  /// See bcast(Buffer&&, int).
  template <class Buffer, std::integral Root>
  void scatterv(Buffer&&, Root) const {
    detail::require_root_side<Buffer, Root>();
  }
  /// See bcast(Buffer&&, int).
  template <class Buffer, class Counts, class Displs, std::integral Root>
  void scatterv(Buffer&&, Counts&&, Displs&&, Root) const {
    detail::require_root_side<Buffer, Root>();
  }
  /// See bcast(Buffer&&, int).
  template <class Buffer, std::integral Root>
  void scatter(Buffer&&, Root) const {
    detail::require_root_side<Buffer, Root>();
  }
  /// See bcast(Buffer&&, int).
  template <class Buffer, class Op, std::integral Root>
  void reduce(Buffer&&, Op, Root) const {
    detail::require_root_side<Buffer, Root>();
  }

 private:
  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }

  /// allgather() with the other group's size known (one MPI_Allgather).
  template <class Send, class Recv>
  void allgather_from(const Send& values, Recv&& into, int ranks) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Recv&&>();
    detail::require_same_elements<Send, Recv>();
    const detail::collective_call call{"MPI_Allgather", comm()};
    const detail::const_buffer in = detail::send_buffer(values);
    const detail::mutable_buffer out = detail::recv_buffer(into);
    const int block = detail::block_per_rank(call, out.count, out.type, ranks, "receive buffer");
    detail::check_collective(MPI_Allgather(in.data, detail::inter_count(call, in.count, in.type),
                                           in.type, out.data, block, out.type, comm()),
                             call, in.count, in.type);
  }
};

}  // namespace thinmpi
