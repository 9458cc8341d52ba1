#pragma once
// The MPI calls a piece of code makes, counted through MPI's profiling interface: a test
// binary linked with support/pmpi_audit.cpp defines the MPI functions listed there, each of
// which counts itself on the calling thread (while calls_of() records there) and calls its
// PMPI_ twin. The audit checks what the documentation of each call says it makes: the calls
// are compared as a whole, so an extra one among those counted fails the check.

#include <map>
#include <string>
#include <utility>

namespace thinmpi_test {

/// MPI function name -> how many times it was called.
using call_counts = std::map<std::string, int>;

namespace detail {
/// The record of the calls_of() running on this thread, or null.
call_counts*& active_audit() noexcept;
}  // namespace detail

/// The counted MPI calls `body` makes on this thread (see the file comment).
template <class Body>
call_counts calls_of(Body&& body) {
  call_counts counts;
  call_counts*& active = detail::active_audit();
  call_counts* const outer = std::exchange(active, &counts);
  try {
    std::forward<Body>(body)();
  } catch (...) {
    active = outer;
    throw;
  }
  active = outer;
  return counts;
}

}  // namespace thinmpi_test
