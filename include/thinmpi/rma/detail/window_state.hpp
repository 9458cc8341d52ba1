#pragma once
/// \file
/// What a window and its epochs share: the MPI_Win, every rank's window size (for origin-side
/// bounds checks), and which epochs this rank has open on it (so that an epoch of the wrong
/// kind, or a free inside an epoch, is an error before MPI sees it). Windows and epochs hold it
/// through a std::shared_ptr: an epoch that outlives its window finds the window freed and does
/// nothing, instead of calling MPI on a freed handle.
///
/// Also the one rule for an error that only this rank finds (issue 28: no one-rank mistake
/// hangs), with the machinery of the collectives (collectives/detail/root_checks.hpp):
///   - in a call every rank of the window enters (creation, a fence, free), or while a fence
///     epoch is open on this rank (every rank is in it, and this rank would leave it early):
///     failed_check, so that unchecked the job ends with the error on stderr, and with
///     THINMPI_CHECKED_COLLECTIVES=1 every rank throws (the others at their next fence, which
///     agrees first) and the window goes on;
///   - in post or start, whose partners wait for this rank in MPI_Win_start, MPI_Win_complete
///     or MPI_Win_wait: the job ends in both builds (end_pairwise), since the groups pair ranks
///     and no call reaches the ranks this one would strand;
///   - anywhere else (lock, lock_all, operations outside a fence epoch): this rank throws, and
///     no other rank waits for it.
/// A window of one rank strands nobody: there every error is thrown.

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <string>
#include <vector>

#include "thinmpi/collectives/detail/root_checks.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/core/error.hpp"
#include "thinmpi/rma/detail/raise_rma.hpp"

namespace thinmpi::detail {

/// The access epoch this rank has open on a window (at most one kind at a time; several lock
/// epochs on different targets may be open together).
enum class access_kind { none, fence, lock, lock_all, start };

/// end_job's note for post and start: why not even the checked build can make every rank throw.
inline constexpr const char* pairwise_note =
    "; post and start pair this rank with the ranks of its groups, which wait for it in "
    "MPI_Win_start, MPI_Win_complete or MPI_Win_wait, and no call of every rank exists to tell "
    "them, so this ends the job in the checked build too";

/// end_job's note where MPI itself failed inside a call every rank (or a partner) enters.
inline constexpr const char* mpi_inside_note =
    "; MPI failed inside a call the other ranks enter too, and may have left them in it";

/// "rma_mode::nocheck (MPI_MODE_NOCHECK) is not an assertion MPI_Win_fence takes (it takes
/// nostore, noput, noprecede and nosucceed)"
inline std::string assertion_refused(int bits, const char* operation, const char* takes) {
  const std::string named = bits == MPI_MODE_NOCHECK ? "rma_mode::nocheck (MPI_MODE_NOCHECK)"
                                                     : "the assertion bits " + std::to_string(bits);
  return named + " " + (bits == MPI_MODE_NOCHECK ? "is not an assertion " : "are not assertions ") +
         operation + " takes (it takes " + takes + ")";
}

/// Ends the job (end_job) with the error of `code` at `where` and `note`, in both builds.
[[noreturn, gnu::cold, gnu::noinline]] inline void end_job_with(const collective_call& call,
                                                                int code, const rma_site& where,
                                                                const char* note) noexcept {
  try {
    raise_rma(code, where);
  } catch (const mpi_error& error) {
    end_job(call, error, note, false);
  }
  std::abort();  // raise_rma always throws
}

struct window_state {
  MPI_Win win = MPI_WIN_NULL;
  int rank = 0;
  int size = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;  ///< the element datatype, for error reports
  /// Checked builds (THINMPI_CHECKED_COLLECTIVES=1): a duplicate of the window's communicator,
  /// where its ranks agree before each fence and free. MPI_COMM_NULL otherwise.
  MPI_Comm comm = MPI_COMM_NULL;
  /// Elements of each rank's window, from the allgather at creation; empty for a dynamic window.
  std::vector<std::size_t> extents;
  access_kind access = access_kind::none;
  std::vector<int> locked;  ///< targets of the open lock epochs
  bool exposed = false;     ///< a post (exposure) epoch is open
  /// Checked builds: an agreement of the open fence epoch found an error, so every rank left
  /// the epoch's sequence of fences; only its end (end() or the destructor) may follow.
  mutable bool fence_abandoned = false;

  [[nodiscard]] rma_site site(const char* operation) const {
    return rma_site{.operation = operation, .rank = rank, .size = size, .type = type};
  }
  /// The collective context of a call every rank of the window enters, for root_checks.hpp.
  [[nodiscard]] collective_call call(const char* operation) const { return {operation, comm}; }

  /// Raises an error found on this window: while a fence epoch is open on this rank, as an
  /// error of a collective this rank alone found (fail_collectively); otherwise thrown.
  [[noreturn, gnu::cold, gnu::noinline]] void raise(int code, const rma_site& where) const {
    if (access == access_kind::fence) fail_collectively(code, where);
    raise_rma(code, where);
  }
  /// An error this rank alone found in a call every rank of the window enters, or inside a
  /// fence epoch: unchecked the job ends; checked, every rank throws (failed_check).
  [[noreturn, gnu::cold, gnu::noinline]] void fail_collectively(int code,
                                                                const rma_site& where) const {
    if (size <= 1) raise_rma(code, where);
    if (access == access_kind::fence) fence_abandoned = true;
    failed_check(call(where.operation), [&] { raise_rma(code, where); });
  }
  /// An error this rank found in post or start: the job ends in both builds (pairwise_note).
  [[noreturn, gnu::cold, gnu::noinline]] void end_pairwise(int code, const rma_site& where) const {
    end_with(code, where, pairwise_note);
  }
  /// MPI's own failure of a call every rank (fence, creation, free) or a partner (post, start)
  /// enters: the others may be inside it, where no agreement reaches them, so the job ends.
  [[noreturn, gnu::cold, gnu::noinline]] void mpi_failed_inside(int rc,
                                                                const char* operation) const {
    end_with(rc, site(operation), mpi_inside_note);
  }
  /// The job ends with the error and `note` (end_job), in both builds; thrown on one rank.
  [[noreturn, gnu::cold, gnu::noinline]] void end_with(int code, const rma_site& where,
                                                       const char* note) const {
    if (size <= 1) raise_rma(code, where);
    end_job_with(call(where.operation), code, where, note);
  }
  /// Throws a synchronization error thinmpi found before calling MPI (raise's rule).
  [[noreturn]] void refuse(const char* operation, int code, std::string problem) const {
    rma_site where = site(operation);
    where.problem = std::move(problem);
    raise(code, where);
  }

  /// The epochs open on this rank, in words ("a fence epoch", ...); empty when none is.
  [[nodiscard]] std::string open_epochs() const {
    std::string text;
    switch (access) {
      case access_kind::none:
        break;
      case access_kind::fence:
        text = "a fence epoch";
        break;
      case access_kind::lock: {
        text = "a lock epoch on rank";
        for (std::size_t i = 0; i < locked.size(); ++i)
          text += (i == 0 ? " " : ", ") + std::to_string(locked[i]);
        break;
      }
      case access_kind::lock_all:
        text = "a lock_all epoch";
        break;
      case access_kind::start:
        text = "an access epoch (start)";
        break;
    }
    if (exposed) text += std::string(text.empty() ? "" : " and ") + "an exposure epoch (post)";
    return text;
  }
  /// "cannot open a fence epoch while a lock_all epoch is open on this rank; end it first"
  [[nodiscard]] std::string busy_with(const std::string& what) const {
    return "cannot " + what + " while " + open_epochs() + " is open on this rank; end it first";
  }

  /// Whether target is a rank of the window (or MPI_PROC_NULL): two compares.
  [[nodiscard, gnu::always_inline]] bool has_rank(int target) const noexcept {
    return (target >= 0 && target < size) || target == MPI_PROC_NULL;
  }
  /// Throws MPI_ERR_RANK unless target is a rank of the window (or MPI_PROC_NULL). Inline on
  /// every operation's path: two compares, the message built out of line.
  [[gnu::always_inline]] void check_rank(const char* operation, int target) const {
    // Written as the failing case (not !has_rank): clang 14 then keeps two branches, where the
    // negation became a branchless compare of three conditions on every operation's path.
    if ((target < 0 || target >= size) && target != MPI_PROC_NULL) [[unlikely]] {
      raise_bad_rank(operation, target);
    }
  }
  /// "the target rank 2 is not in the window, whose 2 ranks are 0 to 1" [MPI_ERR_RANK]
  [[nodiscard]] rma_site bad_rank_site(const char* operation, int target) const {
    rma_site where = site(operation);
    where.target = target;
    where.problem = "rank " + std::to_string(target) + " is not in the window, whose " +
                    counted(static_cast<std::size_t>(size), "rank is", "ranks are") +
                    (size == 1 ? " 0" : " 0 to " + std::to_string(size - 1));
    return where;
  }
  [[noreturn, gnu::cold, gnu::noinline]] void raise_bad_rank(const char* operation,
                                                             int target) const {
    raise(MPI_ERR_RANK, bad_rank_site(operation, target));
  }

  void open_lock(const char* operation, int target) {
    check_rank(operation, target);
    if (access != access_kind::none && access != access_kind::lock) [[unlikely]] {
      refuse(operation, MPI_ERR_RMA_SYNC, busy_with("lock rank " + std::to_string(target)));
    }
    if (std::find(locked.begin(), locked.end(), target) != locked.end()) [[unlikely]] {
      refuse(operation, MPI_ERR_RMA_SYNC,
             "rank " + std::to_string(target) +
                 " is locked already by another lock epoch of this rank; unlock it first");
    }
    locked.push_back(target);
    access = access_kind::lock;
  }
  void close_lock(int target) noexcept {
    locked.erase(std::remove(locked.begin(), locked.end(), target), locked.end());
    if (locked.empty()) access = access_kind::none;
  }
  void open_lock_all(const char* operation) {
    if (access != access_kind::none) [[unlikely]] {
      refuse(operation, MPI_ERR_RMA_SYNC, busy_with("open a lock_all epoch"));
    }
    access = access_kind::lock_all;
  }
  void close_access() noexcept { access = access_kind::none; }

  /// Whether an epoch is open on this rank: MPI_Win_free would be erroneous.
  [[nodiscard]] bool busy() const noexcept { return access != access_kind::none || exposed; }
};

}  // namespace thinmpi::detail
