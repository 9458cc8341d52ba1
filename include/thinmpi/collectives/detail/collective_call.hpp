#pragma once
/// \file
/// The context of a collective call for its error report (operation, communicator, root,
/// count), shared by the collective families. Cold code: only reached after a failure.

#include <cstddef>
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

/// Throws unless rc is MPI_SUCCESS, with the collective's context.
[[gnu::always_inline]] inline void check_collective(int rc, const collective_call& call,
                                                    std::optional<std::size_t> count = std::nullopt,
                                                    MPI_Datatype type = MPI_DATATYPE_NULL) {
  if (rc != MPI_SUCCESS) [[unlikely]] {
    raise_collective(rc, call, count, type);
  }
}

}  // namespace thinmpi::detail
