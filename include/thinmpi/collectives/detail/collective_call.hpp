#pragma once
/// \file
/// The context of a collective call for its error report (operation, communicator, root,
/// count), shared by the collective families, and the end of the job for an error the other
/// ranks of a collective cannot be told about (end_job; detail/root_checks.hpp says when).
/// Cold code: only reached after a failure.

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/core/error.hpp"

namespace thinmpi::detail {

/// The operation, communicator and root (if it has one) of a collective call.
struct collective_call {
  const char* operation;
  MPI_Comm comm;
  std::optional<int> root{};
};

/// Ends the job for an error the other ranks of `call` cannot see: they are inside the
/// collective, and leaving would strand them or hand them data that is not this call's. The
/// text goes to stderr in one write (a launcher may end the job as soon as MPI_Abort is called).
/// `note` (if any) follows the error's text: why the rank could not complete into scratch, or
/// why it cannot know what the others passed. `checked_throws`: whether the checked build
/// (THINMPI_CHECKED_COLLECTIVES=1) makes every rank throw instead, which the message then says;
/// false where the job ends in every build (a failure found in a wait, inside MPI, or where no
/// call of every rank exists to agree in).
[[noreturn, gnu::cold, gnu::noinline]] inline void end_job(const collective_call& call,
                                                           const mpi_error& error,
                                                           const std::string& note = {},
                                                           bool checked_throws = true) noexcept {
  const std::string text =
      std::string(error.what()) + note +
      "; the other ranks are in the collective and cannot be told, so the job is aborted " +
      (checked_throws
           ? "(MPI_Abort; THINMPI_CHECKED_COLLECTIVES=1 makes every rank throw instead)\n"
           : "(MPI_Abort, in every build)\n");
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
  MPI_Abort(call.comm == MPI_COMM_NULL ? MPI_COMM_WORLD : call.comm, 1);
  std::abort();  // MPI_Abort does not return
}

/// end_job's note for an argument MPI requires to be the same on every rank (a root, a
/// reduction's count, allgatherv's recvcounts): a rank that finds it wrong cannot know whether
/// the others passed the same (and throw) or a right one (and wait in the collective).
inline constexpr const char* alike_note =
    "; every rank must pass the same (MPI requires it), and this rank cannot know that the "
    "others did";

/// The error site of a collective: its operation, root, the count of `type` elements this rank
/// contributes, and thinmpi's own sentence where MPI gives none.
inline error_site collective_site(const collective_call& call, std::optional<std::size_t> count,
                                  MPI_Datatype type, std::string problem) {
  return error_site{.operation = call.operation,
                    .comm = call.comm,
                    .peer_role = "root",
                    .peer = call.root,
                    .count = count,
                    .type = type,
                    .problem = std::move(problem)};
}

/// Throws the mpi_error of a failed collective (collective_site). A root outside the
/// communicator is the one argument MPI checks itself on the ranks that pass it (both MPIs
/// return MPI_ERR_ROOT before communicating): a rank that gets it cannot know whether the
/// others passed the same root, so the job ends (end_job, alike_note) instead of this rank
/// leaving the others in the collective. Checked collectives find it before the agreement
/// (agree_if_checked), so that there every rank throws; MPI never sees it.
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_collective(
    int code, const collective_call& call, std::optional<std::size_t> count = std::nullopt,
    MPI_Datatype type = MPI_DATATYPE_NULL, std::string problem = {}) {
  const error_site site = collective_site(call, count, type, std::move(problem));
  if (mpi_is_running() && mpi_error_class(code) == MPI_ERR_ROOT) {
    try {
      raise(code, site);
    } catch (const mpi_error& error) {
      end_job(call, error, alike_note);
    }
  }
  raise(code, site);
}

/// raise_collective_at's count when a call states none.
inline constexpr std::size_t no_count = std::numeric_limits<std::size_t>::max();

/// raise_collective from scalars, for the failing branch of a hot path: a collective_call or
/// an optional count handed on there makes GCC 12 store it in memory before every MPI call
/// (issue 18: 6 stores an allreduce), where its parts in registers cost nothing until they are
/// needed. The root stays an optional (one store of an empty one): its value_or() on the hot
/// path is a -Wmaybe-uninitialized false positive of GCC 12 on MPICH.
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_collective_at(
    int code, const char* operation, MPI_Comm comm, std::optional<int> root, std::size_t count,
    MPI_Datatype type) {
  raise_collective(code, collective_call{operation, comm, root},
                   count == no_count ? std::nullopt : std::optional<std::size_t>(count), type);
}

/// Throws unless rc is MPI_SUCCESS, with the collective's context.
[[gnu::always_inline]] inline void check_collective(int rc, const collective_call& call,
                                                    std::optional<std::size_t> count = std::nullopt,
                                                    MPI_Datatype type = MPI_DATATYPE_NULL) {
  if (rc != MPI_SUCCESS) [[unlikely]] {
    raise_collective_at(rc, call.operation, call.comm, call.root, count.value_or(no_count), type);
  }
}

}  // namespace thinmpi::detail
