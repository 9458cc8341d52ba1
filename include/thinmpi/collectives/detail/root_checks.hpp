#pragma once
/// \file
/// The one rule for an argument error that only some ranks of a collective can see (the root's
/// buffer, counts or displacements; one rank's own count): the other ranks are inside the
/// collective already, or will be, and cannot be told, so the rank that finds it must not walk
/// away. Its check's cold branch calls failed_check(), which
///   - where the rank can still do its part safely (the root's receive buffer is too small, its
///     layout known), completes the collective into scratch, then throws;
///   - otherwise (the root cannot know what the others send, or they would receive data that is
///     not this call's) ends the job: the error's text on stderr in one write, then MPI_Abort.
/// An argument MPI requires to be the same on every rank (allgatherv's recvcounts, a root, a
/// reduction's count: alike_checks) is no different: a rank that finds it wrong cannot know
/// that the others passed the same, and any that did not are in the collective, so the job
/// ends too (a root outside the communicator, which MPI checks itself: raise_collective).
/// Built with THINMPI_CHECKED_COLLECTIVES=1 (CMake option THINMPI_CHECKED_COLLECTIVES), the
/// ranks agree on their arguments first instead (one MPI_Allreduce of 5 long longs with MPI_MAX:
/// failed_check on a rank that found an error, agree_if_checked on every other rank, which
/// also checks the root): an error any rank finds is an mpi_error on every rank, no rank enters
/// the collective, and the communicator goes on. The same agreement compares what no single
/// rank can check: the root and the size every rank must pass alike (alike_size), which differ
/// between ranks in a wrong program with no error from MPI (a broadcast from two roots, an
/// alltoall whose ranks send blocks of different sizes: data that is not the call's). Unchecked, a
/// passing check costs what it cost before: a comparison inline, its failure out of line.
///
///     if (is_root && room < needed) [[unlikely]] {
///       failed_check(call, [=] { raise_room(...); }, [=] { return receive_into_scratch(); });
///     }
///     agree_if_checked(call);
///     rc = MPI_Gather(...);

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "thinmpi/collectives/detail/collective_buffers.hpp"
#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/displacements.hpp"
#include "thinmpi/core/detail/comm_queries.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/core/error.hpp"

/// 1: rooted and v-collectives agree on their arguments first (one MPI_Allreduce per call), so
/// that an error one rank finds is an mpi_error on every rank. Define it alike in every
/// translation unit of a program (the CMake option THINMPI_CHECKED_COLLECTIVES sets it on the
/// thinmpi target). 0 (the default) compiles the agreement out.
#ifndef THINMPI_CHECKED_COLLECTIVES
#define THINMPI_CHECKED_COLLECTIVES 0
#endif

namespace thinmpi::detail {

/// Whether this program agrees on collective arguments first (THINMPI_CHECKED_COLLECTIVES).
inline constexpr bool checked_collectives = THINMPI_CHECKED_COLLECTIVES != 0;

/// The most a scratch receive allocates: the count it is sized by is what the caller claims (a
/// root's recvcounts, a neighbor's), not what arrives, so a claim of gigabytes would otherwise
/// be allocated to finish the collective (and fail, or take the node's memory). Past it the
/// scratch is refused (scratch_refusal) and the job ends with the error and the refusal.
inline constexpr std::size_t scratch_limit_bytes = std::size_t{256} << 20;

/// What the scratch class throws, before allocating, for more than scratch_limit_bytes;
/// failed_check ends the job with note() after the error's text.
class scratch_refusal {
 public:
  explicit scratch_refusal(std::size_t bytes) noexcept : bytes_(bytes) {}
  [[nodiscard]] std::string note() const {
    return "; receiving into " + counted(bytes_, "byte", "bytes") +
           " of scratch to finish the collective is refused: more than the scratch limit of " +
           counted(scratch_limit_bytes, "byte", "bytes");
  }

 private:
  std::size_t bytes_;
};

/// What the checked agreement returns: the worst error class any rank found (0: none) and the
/// lowest rank that found it; the smallest and largest root the ranks passed (a rooted call's);
/// the smallest and largest alike value (alike_size, in bytes).
struct agreement {
  int error_class;
  int rank;
  long long root_low;
  long long root_high;
  long long alike_low;
  long long alike_high;
};

/// Checked mode: every rank tells the others the error class it found (0: none), its root and
/// its alike value: one MPI_Allreduce of 5 MPI_LONG_LONG with MPI_MAX (the class and the rank
/// in one key, so that the lowest rank wins among equals; each value and its negation, so that
/// the maximum of both gives the range).
[[gnu::noinline]] inline agreement agree_on_arguments(const collective_call& call, int found_class,
                                                      long long alike = 0) {
  const int rank = rank_in(call.comm);
  const long long root = call.root.value_or(0);
  constexpr long long lowest_rank_first = std::numeric_limits<int>::max();
  const long long mine[5] = {
      (static_cast<long long>(found_class) << 32) | (lowest_rank_first - rank), root, -root, alike,
      -alike};
  long long most[5] = {};
  check(MPI_Allreduce(mine, most, 5, MPI_LONG_LONG, MPI_MAX, call.comm),
        "MPI_Allreduce (checked collectives: the ranks agree on their arguments)", call.comm);
  return {static_cast<int>(most[0] >> 32),
          static_cast<int>(lowest_rank_first - (most[0] & 0xffffffffLL)),
          -most[2],
          most[1],
          -most[4],
          most[3]};
}

/// A size MPI requires to be the same on every rank and only the checked build compares
/// between ranks (agree_if_checked): an alltoall's or allgather's block, a broadcast's buffer,
/// a reduction's count. `what` names it in the error ("blocks"); compared in bytes.
struct alike_size {
  const char* what = nullptr;
  std::size_t count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
};

/// Checked mode: the ranks passed different roots, or different alike sizes; every rank throws
/// this, with the range.
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_values_differ(const collective_call& call,
                                                                       int error_class,
                                                                       const std::string& what,
                                                                       long long low,
                                                                       long long high) {
  raise(error_class,
        collective_site(call, std::nullopt, MPI_DATATYPE_NULL,
                        "the ranks passed different " + what + " (from " + std::to_string(low) +
                            " to " + std::to_string(high) +
                            "); every rank must pass the same (MPI requires it); no rank "
                            "entered the collective (checked collectives)"));
}

/// Checked mode, on a rank that found nothing: another rank did; this rank's error names the
/// call, that rank and the class.
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_found_elsewhere(
    const collective_call& call, int error_class, int rank) {
  // raise(), not raise_collective: an agreed MPI_ERR_ROOT is thrown, not the end of the job.
  raise(error_class,
        collective_site(call, std::nullopt, MPI_DATATYPE_NULL,
                        "rank " + std::to_string(rank) + " found an error in its arguments (" +
                            error_class_name(error_class) +
                            "); no rank entered the collective (checked collectives)"));
}

/// Checked mode: a root outside the communicator, this rank's own error before the agreement
/// (unchecked, MPI finds it: raise_collective).
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_root_outside(const collective_call& call,
                                                                      int ranks) {
  raise(MPI_ERR_ROOT,
        collective_site(call, std::nullopt, MPI_DATATYPE_NULL,
                        "root " + std::to_string(call.root.value_or(-1)) +
                            " is not a rank of this communicator of " +
                            counted(static_cast<std::size_t>(ranks), "rank", "ranks")));
}

/// What the rank whose check failed does: call it, with closures that capture by value, from
/// the check's cold branch (or a cold function), so that nothing of it is on the hot path.
/// `raise` throws the check's mpi_error. Unchecked, `complete` then does this rank's part of the
/// collective into scratch and returns true (the error is thrown), or returns false where that
/// cannot be done safely (the job ends). Checked, this rank's error class goes to the
/// agreement (agree_if_checked on the other ranks), then the error is thrown.
template <class Raise, class Complete>
[[noreturn, gnu::cold, gnu::noinline]] void failed_check(const collective_call& call, Raise raise,
                                                         Complete complete) {
  try {
    raise();
  } catch (const mpi_error& error) {
    if constexpr (checked_collectives) {
      static_cast<void>(complete);
      agree_on_arguments(call, error.error_class() != 0 ? error.error_class() : MPI_ERR_OTHER);
      throw;
    } else {
      std::string refused;
      try {
        if (complete()) throw;
      } catch (const scratch_refusal& refusal) {
        refused = refusal.note();
      } catch (const std::bad_alloc&) {
        refused = "; the scratch to finish the collective could not be allocated";
      }
      end_job(call, error, refused);
    }
  }
  std::abort();  // raise() always throws
}
/// failed_check() where nothing can be completed: the job ends (checked: every rank throws).
template <class Raise>
[[noreturn, gnu::cold, gnu::noinline]] void failed_check(const collective_call& call, Raise raise) {
  failed_check(call, raise, [] { return false; });
}

/// Every rank whose checks passed calls this before entering the collective. Unchecked it is
/// nothing. Checked, the ranks agree (agree_on_arguments, matched by failed_check on a rank
/// whose check failed) and this rank throws if any other rank failed. A rooted call's root is
/// checked here (MPI_Comm_size, local), so that a root outside the communicator on one rank is
/// an error on every rank, not MPI's on that rank alone; then every rank throws MPI_ERR_ROOT
/// if the ranks passed different roots, MPI_ERR_COUNT if they passed different `alike` sizes.
[[gnu::always_inline]] inline void agree_if_checked(const collective_call& call,
                                                    alike_size alike = {}) {
  if constexpr (checked_collectives) {
    if (call.root) {
      const int ranks = size_of(call.comm);
      if (*call.root < 0 || *call.root >= ranks) [[unlikely]] {
        failed_check(call, [&] { raise_root_outside(call, ranks); });
      }
    }
    long long bytes = 0;
    if (alike.what != nullptr) {
      int type_size = 0;
      check(MPI_Type_size(alike.type, &type_size), "MPI_Type_size", call.comm);
      bytes = static_cast<long long>(alike.count) * type_size;
    }
    const agreement agreed = agree_on_arguments(call, 0, bytes);
    if (agreed.error_class != 0) [[unlikely]] {
      raise_found_elsewhere(call, agreed.error_class, agreed.rank);
    }
    if (agreed.root_low != agreed.root_high) [[unlikely]] {
      raise_values_differ(call, MPI_ERR_ROOT, "roots", agreed.root_low, agreed.root_high);
    }
    if (agreed.alike_low != agreed.alike_high) [[unlikely]] {
      raise_values_differ(call, MPI_ERR_COUNT, std::string(alike.what) + ", in bytes",
                          agreed.alike_low, agreed.alike_high);
    }
  } else {
    static_cast<void>(call);
    static_cast<void>(alike);
  }
}

/// Runs checks that throw mpi_error (a v-collective's layout: a loop over the ranks) out of
/// line, and returns what they threw: nothing on the hot path, the error for settle_checks.
template <class Checks>
[[gnu::noinline]] std::exception_ptr failure_of(Checks&& checks) noexcept {
  try {
    checks();
  } catch (...) {
    return std::current_exception();
  }
  return nullptr;
}

/// Checks of arguments only this rank sees (its own counts or displacements, its send buffer),
/// which throw mpi_error: run out of line (failure_of); a failure ends the job, as failed_check
/// does where nothing can be completed (checked: every rank throws).
template <class Checks>
[[gnu::always_inline]] inline void local_checks(const collective_call& call, Checks&& checks) {
  const std::exception_ptr error = failure_of(std::forward<Checks>(checks));
  if (error) [[unlikely]] {
    failed_check(call, [error] { std::rethrow_exception(error); });
  }
}

/// The failure of an alike check, unchecked: the job ends (end_job with alike_note). It takes
/// the error alone (MPI_Abort on MPI_COMM_WORLD, which ends the job as the call's communicator
/// would), so that the handler keeps nothing of the call alive on the hot path (GCC 12 spent a
/// register move on it in allgatherv's layout check). Called from the handler: an error of the
/// communicator itself (the null communicator, whose size a check asked for) is rethrown, as
/// every operation on it throws; no collective began on it.
[[noreturn, gnu::cold, gnu::noinline]] inline void alike_check_fails(const mpi_error& error) {
  if (error.error_class() == MPI_ERR_COMM) throw;
  end_job(collective_call{"", MPI_COMM_WORLD}, error, alike_note);
}

/// Checks every rank makes alike, on arguments MPI requires to be the same on every rank (the
/// recvcounts of allgatherv and reduce_scatter, the block of alltoall): a rank that finds one
/// wrong cannot know that the others passed the same, and any that did not are in the
/// collective. Unchecked, a failure ends the job (alike_check_fails); the checks stay inline
/// (a comparison, a cold call that throws) and the handler costs the passing path nothing.
/// Checked, a failure goes through the agreement like any other: every rank throws.
template <class Checks>
[[gnu::always_inline]] inline void alike_checks(const collective_call& call, Checks&& checks) {
  if constexpr (checked_collectives) {
    local_checks(call, std::forward<Checks>(checks));
  } else {
    static_cast<void>(call);
    try {
      checks();
    } catch (const mpi_error& error) {
      alike_check_fails(error);
    }
  }
}

/// The error of a buffer only this rank sees, too small where its part cannot be done safely
/// (a send buffer: the others would receive data that is not this call's): the job ends
/// (checked: every rank throws).
[[noreturn, gnu::cold, gnu::noinline]] inline void local_room_fails(
    const collective_call& call, std::size_t room, std::size_t needed, MPI_Datatype type,
    const char* which, const char* why) {
  failed_check(call, [&] { raise_room(call, room, needed, type, which, why); });
}
/// check_room for such a buffer (see local_room_fails): one comparison on the hot path.
[[gnu::always_inline]] inline void check_local_room(const collective_call& call, std::size_t room,
                                                    std::size_t needed, MPI_Datatype type,
                                                    const char* which, const char* why) {
  if (room < needed) [[unlikely]] {
    local_room_fails(call, room, needed, type, which, why);
  }
}

/// This rank's own count fits the int its collective takes (the v-calls' own count, a count
/// exchange's int); past it the job ends: the others would wait for this rank's part
/// (checked: every rank throws).
template <class Buffer>
[[gnu::always_inline]] inline void own_count_fits(const collective_call& call, const Buffer& own) {
  if (!fits_int(own.count)) [[unlikely]] {
    failed_check(
        call, [call, count = own.count, type = own.type] { raise_int_count(call, count, type); });
  }
}

/// What a rank whose receive buffer failed a check does where its part cannot be done (a
/// persistent call, whose rounds the others would start alone): the job ends.
struct no_completion {};

/// Room for `count` elements of `type` that nobody reads: where a root completes a collective
/// whose own buffer failed a check, so that no block stays in flight for a later call.
class scratch {
 public:
  /// Throws scratch_refusal past scratch_limit_bytes, std::bad_alloc if the room is not there.
  scratch(std::size_t count, MPI_Datatype type) {
    const std::size_t bytes = bytes_for(count, type);
    if (bytes > scratch_limit_bytes) throw scratch_refusal(bytes);
    bytes_.resize(bytes);
    MPI_Aint lb = 0;
    MPI_Aint true_extent = 0;
    check(MPI_Type_get_true_extent(type, &lb, &true_extent), "MPI_Type_get_true_extent");
    offset_ = lb;
  }
  /// The bytes `count` elements of `type` span (SIZE_MAX where that does not fit a size_t).
  [[nodiscard]] static std::size_t bytes_for(std::size_t count, MPI_Datatype type) {
    MPI_Aint lb = 0;
    MPI_Aint extent = 0;
    MPI_Aint true_lb = 0;
    MPI_Aint true_extent = 0;
    check(MPI_Type_get_extent(type, &lb, &extent), "MPI_Type_get_extent");
    check(MPI_Type_get_true_extent(type, &true_lb, &true_extent), "MPI_Type_get_true_extent");
    if (count == 0) return 0;
    const auto each = static_cast<std::size_t>(extent);
    const auto last = static_cast<std::size_t>(true_extent);
    constexpr std::size_t most = std::numeric_limits<std::size_t>::max();
    if (each != 0 && count - 1 > (most - last) / each) return most;
    return (count - 1) * each + last;
  }
  /// The address MPI takes: the buffer's start less the type's true lower bound.
  [[nodiscard]] void* data() noexcept {
    return reinterpret_cast<void*>(reinterpret_cast<std::intptr_t>(bytes_.data()) - offset_);
  }

 private:
  std::vector<std::byte> bytes_;
  MPI_Aint offset_ = 0;
};

/// A receive buffer of `room` elements too small for the `needed` this rank receives, which
/// only this rank sees: the rank still does its part, `into(scratch)` (the collective's own MPI
/// call into scratch of `needed` elements; a nonblocking one waits there), so that every other
/// rank completes with its own data, then throws MPI_ERR_COUNT (raise_room). `into` may be
/// no_completion: the job ends. Scratch past scratch_limit_bytes (or that cannot be allocated)
/// is refused: the job ends (failed_check). Checked: every rank throws, nothing was entered.
template <class Into>
[[noreturn, gnu::cold, gnu::noinline]] void receive_into_scratch(const collective_call& call,
                                                                 std::size_t room,
                                                                 std::size_t needed,
                                                                 MPI_Datatype type, const char* why,
                                                                 Into into) {
  const auto raise = [&] { raise_room(call, room, needed, type, "receive buffer", why); };
  if constexpr (std::is_same_v<Into, no_completion>) {
    failed_check(call, raise);
  } else {
    failed_check(call, raise, [&] {
      scratch blocks(needed, type);
      // A failure here is MPI's; the rank reports its own error, the cause.
      static_cast<void>(into(blocks.data()));
      return true;
    });
  }
}
/// check_room for a receive buffer only this rank sees (see receive_into_scratch): one
/// comparison on the hot path.
template <class Into>
[[gnu::always_inline]] inline void check_receive_room(const collective_call& call, std::size_t room,
                                                      std::size_t needed, MPI_Datatype type,
                                                      const char* why, Into into) {
  if (room < needed) [[unlikely]] {
    receive_into_scratch(call, room, needed, type, why, std::move(into));
  }
}

}  // namespace thinmpi::detail
