#pragma once
/// \file
/// The context of a collective call for its error report (operation, communicator, root,
/// count), shared by the collective families. Cold code: only reached after a failure.

#include <cstddef>
#include <optional>
#include <string>
#include <utility>

#include "thinmpi/detail/mpi.hpp"
#include "thinmpi/detail/raise.hpp"

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

/// Throws unless rc is MPI_SUCCESS, with the collective's context.
[[gnu::always_inline]] inline void check_collective(int rc, const collective_call& call,
                                                    std::optional<std::size_t> count = std::nullopt,
                                                    MPI_Datatype type = MPI_DATATYPE_NULL) {
  if (rc != MPI_SUCCESS) [[unlikely]] {
    raise_collective(rc, call, count, type);
  }
}

/// Throws MPI_ERR_COUNT, before MPI is called, when a receive buffer has room for fewer than
/// `needed` elements of `type`: "the receive buffer of 4 x MPI_INT = 16 bytes is too small for
/// 6 x MPI_INT = 24 bytes (2 ranks x 3)".
inline void require_room(const collective_call& call, std::size_t room, std::size_t needed,
                         MPI_Datatype type, const std::string& why) {
  if (room >= needed) [[likely]] {
    return;
  }
  raise_collective(MPI_ERR_COUNT, call, room, type,
                   "the receive buffer of " + describe_elements(room, type) + " is too small for " +
                       describe_elements(needed, type) + " (" + why + ")");
}

/// Throws MPI_ERR_ARG, before MPI is called, when a per-rank array (counts, displacements) does
/// not have one entry per rank.
inline void require_per_rank(const collective_call& call, std::size_t entries, int ranks,
                             const char* what) {
  if (entries == static_cast<std::size_t>(ranks)) [[likely]] {
    return;
  }
  raise_collective(MPI_ERR_ARG, call, std::nullopt, MPI_DATATYPE_NULL,
                   std::string(what) + " has " + std::to_string(entries) +
                       " entries; the communicator has " + std::to_string(ranks) + " ranks");
}

}  // namespace thinmpi::detail
