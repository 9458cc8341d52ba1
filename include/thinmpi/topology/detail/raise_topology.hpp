#pragma once
/// \file
/// The errors of the topology calls that thinmpi finds before calling MPI (a rank outside the
/// communicator, dims that cannot make the grid, a list of the wrong length): the operation
/// and one sentence naming the argument.

#include <span>
#include <string>
#include <utility>

#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"

namespace thinmpi::detail {

/// Throws a topology error thinmpi found before calling MPI: `code`, the operation, and a
/// sentence naming the argument.
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_topology(int code, const char* operation,
                                                                  MPI_Comm comm,
                                                                  std::string problem) {
  raise(code, error_site{.operation = operation, .comm = comm, .problem = std::move(problem)});
}

/// "2 x 3"
inline std::string dims_text(std::span<const int> dims) {
  std::string text;
  for (const int d : dims)
    text += (text.empty() ? "" : " x ") + std::to_string(d);
  return text.empty() ? "no dimensions" : text;
}

}  // namespace thinmpi::detail
