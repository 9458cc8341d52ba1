#pragma once
/// \file
/// inter_view and intercommunicator: a communicator between two disjoint groups of processes,
/// the way coupled codes (an ocean and an atmosphere model, a solver and its in-situ analysis),
/// a parent and the processes it spawned, or two jobs that connected talk (MPI-4.0 section 7.6).
///
/// Point-to-point goes across: a rank names a rank of the other group (send, recv, isend,
/// sendrecv, probe, the persistent forms, exactly as on a comm_view). The collectives move data
/// from one group to the other (collectives/intercomm.hpp: a rooted one says in its form which
/// side holds the root); barrier waits for both groups. merge() makes one communicator of both
/// groups. What has no meaning between two groups (the scans, the in-place forms, the
/// neighborhood collectives) does not compile on one, with one sentence saying so.
///
///     // world's lower half runs the ocean, the upper half the atmosphere
///     const bool ocean = world.rank() < world.size() / 2;
///     thinmpi::communicator half = world.split(ocean ? 0 : 1);
///     thinmpi::intercommunicator coupler = thinmpi::intercommunicator::create(
///         half, 0, world, ocean ? world.size() / 2 : 0, 7);
///     if (ocean) coupler.bcast(std::vector<double>(8, 1.0), thinmpi::local_root(0));
///     else { std::vector<double> sst(8); coupler.bcast(sst, thinmpi::remote_root(0)); }

#include <string>

#include "thinmpi/collectives/barrier.hpp"
#include "thinmpi/collectives/intercomm.hpp"
#include "thinmpi/communicator/communicator.hpp"
#include "thinmpi/communicator/detail/owning.hpp"
#include "thinmpi/communicator/group.hpp"
#include "thinmpi/core/detail/comm_queries.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/p2p/nonblocking.hpp"
#include "thinmpi/p2p/persistent.hpp"
#include "thinmpi/p2p/probe.hpp"
#include "thinmpi/p2p/recv.hpp"
#include "thinmpi/p2p/recv_reuse.hpp"
#include "thinmpi/p2p/send.hpp"
#include "thinmpi/p2p/sendrecv.hpp"

namespace thinmpi {

class intercommunicator;

namespace detail {

template <class...>
inline constexpr bool needs_intracommunicator = false;

/// Fails to compile, with one sentence naming the fix.
template <class... Args>
consteval void require_intracommunicator() {
  static_assert(needs_intracommunicator<Args...>,
                "thinmpi: this operation has no meaning between the two groups of an "
                "intercommunicator (MPI defines no scan across groups, no MPI_IN_PLACE there, no "
                "process topology on one): merge() the intercommunicator into a "
                "thinmpi::communicator and call it there");
}

/// The names of the operations that have no intercommunicator meaning.
class no_intercomm_meaning {
 public:
  template <class... Args>
  void scan(Args&&...) const {
    require_intracommunicator<Args...>();
  }
  template <class... Args>
  void exscan(Args&&...) const {
    require_intracommunicator<Args...>();
  }
  template <class... Args>
  void iscan(Args&&...) const {
    require_intracommunicator<Args...>();
  }
  template <class... Args>
  void iexscan(Args&&...) const {
    require_intracommunicator<Args...>();
  }
  template <class... Args>
  void scan_in_place(Args&&...) const {
    require_intracommunicator<Args...>();
  }
  template <class... Args>
  void exscan_in_place(Args&&...) const {
    require_intracommunicator<Args...>();
  }
  template <class... Args>
  void allreduce_in_place(Args&&...) const {
    require_intracommunicator<Args...>();
  }
  template <class... Args>
  void reduce_in_place(Args&&...) const {
    require_intracommunicator<Args...>();
  }
  template <class... Args>
  void neighbor_allgather(Args&&...) const {
    require_intracommunicator<Args...>();
  }
  template <class... Args>
  void neighbor_alltoall(Args&&...) const {
    require_intracommunicator<Args...>();
  }
  template <class... Args>
  void neighbor_alltoallv(Args&&...) const {
    require_intracommunicator<Args...>();
  }
  template <class... Args>
  void split_shared(Args&&...) const {
    require_intracommunicator<Args...>();
  }
};

}  // namespace detail

/// A non-owning handle of an MPI intercommunicator (see the file comment). Copying it copies
/// the handle. Operations throw thinmpi::mpi_error on failure.
class inter_view : public p2p_send<inter_view>,
                   public p2p_recv<inter_view>,
                   public p2p_recv_reuse<inter_view>,
                   public p2p_sendrecv<inter_view>,
                   public p2p_probe<inter_view>,
                   public p2p_nonblocking<inter_view>,
                   public p2p_persistent<inter_view>,
                   public collective_barrier<inter_view>,
                   public collective_intercomm<inter_view>,
                   public detail::no_intercomm_meaning {
 public:
  /// The null intercommunicator.
  inter_view() noexcept = default;
  /// Wraps comm and makes MPI return errors on it (MPI_ERRORS_RETURN). An intracommunicator is
  /// an mpi_error (MPI_ERR_COMM) naming it (MPI_Comm_test_inter).
  explicit inter_view(MPI_Comm comm) : comm_(comm) {
    if (comm_ == MPI_COMM_NULL) return;
    int inter = 0;
    detail::check(MPI_Comm_test_inter(comm_, &inter), "MPI_Comm_test_inter", comm_);
    if (inter == 0) [[unlikely]] {
      detail::raise(MPI_ERR_COMM, detail::error_site{.operation = "thinmpi::inter_view",
                                                     .comm = comm_,
                                                     .problem = "this is an intracommunicator; use "
                                                                "thinmpi::comm_view for it"});
    }
    detail::check(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler",
                  comm_);
  }

  /// The MPI handle, for calling MPI directly.
  [[nodiscard]] MPI_Comm native() const noexcept { return comm_; }
  /// Whether this is the null intercommunicator.
  [[nodiscard]] bool is_null() const noexcept { return comm_ == MPI_COMM_NULL; }
  /// This process's rank in its own (local) group.
  [[nodiscard]] int rank() const { return detail::rank_in(comm_); }
  /// The number of ranks of the local group.
  [[nodiscard]] int size() const { return detail::size_of(comm_); }
  /// The number of ranks of the other (remote) group: the ranks that point-to-point calls and
  /// the collectives' blocks name (MPI_Comm_remote_size).
  [[nodiscard]] int remote_size() const { return detail::remote_size_of(comm_); }
  /// The local group (MPI_Comm_group).
  [[nodiscard]] thinmpi::group group() const { return detail::group_of(comm_); }
  /// The remote group (MPI_Comm_remote_group).
  [[nodiscard]] thinmpi::group remote_group() const {
    MPI_Group g = MPI_GROUP_NULL;
    detail::check(MPI_Comm_remote_group(comm_, &g), "MPI_Comm_remote_group", comm_);
    return thinmpi::group::adopt(g);
  }
  /// One communicator of both groups (MPI_Intercomm_merge, collective over both): the group
  /// whose ranks pass `high` = true comes after the other; where both pass the same, MPI
  /// chooses the order.
  [[nodiscard]] communicator merge(bool high) const {
    MPI_Comm out = MPI_COMM_NULL;
    detail::check(MPI_Intercomm_merge(comm_, high ? 1 : 0, &out), "MPI_Intercomm_merge", comm_);
    return detail::adopt_created(out);
  }
  /// A new intercommunicator between the same groups (MPI_Comm_dup).
  [[nodiscard]] intercommunicator dup() const;

 protected:
  MPI_Comm comm_ = MPI_COMM_NULL;  ///< the handle; intercommunicator owns it, a view does not
};

/// An owned MPI intercommunicator, freed (MPI_Comm_free) when destroyed. Move-only, as
/// thinmpi::communicator (detail::owning).
class intercommunicator : public detail::owning<inter_view> {
 public:
  /// The null intercommunicator.
  intercommunicator() noexcept = default;
  /// Takes ownership of comm (it will be freed); see inter_view(MPI_Comm).
  [[nodiscard]] static intercommunicator adopt(MPI_Comm comm) {
    return intercommunicator(inter_view(comm));
  }

  /// An intercommunicator between the ranks of `local` and those of another, disjoint
  /// communicator (MPI_Intercomm_create, collective over both): `local_leader` is a rank of
  /// `local`, `remote_leader` the other leader's rank in `bridge`, a communicator both leaders
  /// belong to (only the leaders use it; `tag` tells apart creations that run at once). Every
  /// rank of `local` passes the same arguments.
  [[nodiscard]] static intercommunicator create(comm_view local, int local_leader, comm_view bridge,
                                                int remote_leader, int tag) {
    MPI_Comm out = MPI_COMM_NULL;
    detail::check(MPI_Intercomm_create(local.native(), local_leader, bridge.native(), remote_leader,
                                       tag, &out),
                  "MPI_Intercomm_create", local.native());
    return adopt(out);
  }

  /// Waits for every communication on it to finish, then frees it (MPI_Comm_disconnect,
  /// collective over both groups): what a spawned or connected pair of jobs calls to part, so
  /// that each may finalize alone. Leaves the null intercommunicator.
  void disconnect() {
    if (comm_ == MPI_COMM_NULL) return;
    detail::check(MPI_Comm_disconnect(&comm_), "MPI_Comm_disconnect", comm_);
    comm_ = MPI_COMM_NULL;
  }

 private:
  explicit intercommunicator(inter_view view) noexcept : owning(view) {}
};

inline intercommunicator inter_view::dup() const {
  MPI_Comm out = MPI_COMM_NULL;
  detail::check(MPI_Comm_dup(comm_, &out), "MPI_Comm_dup", comm_);
  return intercommunicator::adopt(out);
}

}  // namespace thinmpi
