#pragma once
/// \file
/// The context of a collective call for its error report (operation, communicator, root,
/// count), shared by the collective families. Cold code: only reached after a failure.

#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"

namespace thinmpi::detail {

/// The operation, communicator and root (if it has one) of a collective call.
struct collective_call {
  const char* operation;
  MPI_Comm comm;
  std::optional<int> root{};
};

/// Throws the mpi_error of a failed collective: its operation, root, the count of `type`
/// elements this rank contributes, and thinmpi's own sentence where MPI gives none.
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_collective(
    int code, const collective_call& call, std::optional<std::size_t> count = std::nullopt,
    MPI_Datatype type = MPI_DATATYPE_NULL, std::string problem = {}) {
  raise(code, error_site{.operation = call.operation,
                         .comm = call.comm,
                         .peer_role = "root",
                         .peer = call.root,
                         .count = count,
                         .type = type,
                         .problem = std::move(problem)});
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
