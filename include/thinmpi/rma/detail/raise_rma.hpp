#pragma once
/// \file
/// The one error path of the one-sided family: a failed RMA call, or one thinmpi refused before
/// calling MPI (a target outside the window, an epoch of the wrong kind), becomes a
/// thinmpi::mpi_error naming the operation, the target, the displacement, the count and the
/// target's window size. Everything here runs only after something failed.

#include <cstddef>
#include <optional>
#include <string>
#include <utility>

#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/core/error.hpp"

namespace thinmpi::detail {

/// Where an RMA error happened; the fields that do not apply stay empty.
struct rma_site {
  const char* operation = "";
  int rank = 0;  ///< the calling rank in the window's group
  int size = 0;  ///< ranks in the window's group
  std::optional<int> target{};
  std::optional<std::ptrdiff_t> displacement{};  ///< in elements (bytes for a dynamic window)
  std::optional<std::size_t> count{};
  MPI_Datatype type = MPI_DATATYPE_NULL;
  std::optional<std::size_t> window_count{};  ///< elements of the target's window, when known
  std::string problem{};  ///< thinmpi's own sentence; MPI's explanation when empty
};

/// "thinmpi: MPI_Put(target 2, displacement 10, 4 x MPI_INT = 16 bytes, target window 8 x
/// MPI_INT = 32 bytes) failed on rank 0 of 3: ... [MPI_ERR_RMA_RANGE]"
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_rma(int code, const rma_site& site) {
  mpi_error::report report = make_report(code, error_site{.operation = site.operation,
                                                          .peer_role = "target",
                                                          .peer = site.target,
                                                          .count = site.count,
                                                          .type = site.type});
  if (site.size > 0) {  // 0: no window to name the rank in (a window moved from)
    report.rank = site.rank;
    report.comm_size = site.size;
  }
  std::string args;
  const auto append = [&args](const std::string& part) {
    args += args.empty() ? part : ", " + part;
  };
  if (site.target) append("target " + std::to_string(*site.target));
  if (site.displacement) append("displacement " + std::to_string(*site.displacement));
  if (site.count) append(describe_elements(*site.count, site.type));
  if (site.window_count) {
    append("target window " + describe_elements(*site.window_count, site.type));
  }
  std::string what = "thinmpi: " + std::string(site.operation) + "(" + args + ") failed";
  if (site.size > 0) {
    what += " on rank " + std::to_string(site.rank) + " of " + std::to_string(site.size);
  }
  what += ": ";
  const std::string reason = site.problem.empty() ? mpi_reason(report.mpi_message) : site.problem;
  what += reason.empty() ? std::string("MPI error") : reason;
  what += " [" + error_class_name(report.error_class) + "]";
  throw mpi_error(what, std::move(report));
}

}  // namespace thinmpi::detail
