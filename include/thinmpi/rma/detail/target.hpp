#pragma once
/// \file
/// Origin-side bounds: a displacement and a count become the MPI_Aint target displacement of
/// one RMA call, after checking, before MPI is called, that the elements lie inside the
/// target's window (a window made by create or allocate: the sizes every rank allgathered at
/// creation) or inside the region named (a dynamic window). Inline and branch-predicted: the
/// checks are a few comparisons on the path of every operation.

#include <cstddef>
#include <string>

#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/rma/detail/raise_rma.hpp"
#include "thinmpi/rma/detail/window_state.hpp"
#include "thinmpi/rma/region.hpp"

namespace thinmpi::detail {

/// "elements 10 to 13 lie past the end of the window at rank 2, which holds 8"
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_outside(
    const window_state& state, const char* operation, int target, std::size_t disp,
    std::size_t count, std::size_t room, const char* what) {
  rma_site where = state.site(operation);
  where.target = target;
  where.displacement = static_cast<std::ptrdiff_t>(disp);
  where.count = count;
  where.window_count = room;
  where.problem = "elements " + std::to_string(disp) + " to " + std::to_string(disp + count - 1) +
                  " lie past the end of the " + what + " at rank " + std::to_string(target) +
                  ", which holds " + std::to_string(room) + " (checked before calling MPI)";
  state.raise(MPI_ERR_RMA_RANGE, where);
}

/// get_accumulate with origin and result of different lengths.
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_mismatch(const window_state& state,
                                                                  const char* operation, int target,
                                                                  std::size_t origin,
                                                                  std::size_t result) {
  rma_site where = state.site(operation);
  where.target = target;
  where.count = result;
  where.problem = "the origin holds " + std::to_string(origin) + " elements and the result " +
                  std::to_string(result) + "; they must hold as many";
  state.raise(MPI_ERR_COUNT, where);
}

/// The displacement of `count` elements at element `disp` of target's window, checked.
[[gnu::always_inline]] inline MPI_Aint target_disp(const window_state& state, const char* operation,
                                                   int target, std::size_t disp,
                                                   std::size_t count) {
  state.check_rank(operation, target);
  if (target == MPI_PROC_NULL) return 0;
  const std::size_t room = state.extents[static_cast<std::size_t>(target)];
  if (disp > room || count > room - disp) [[unlikely]] {
    raise_outside(state, operation, target, disp, count, room, "window");
  }
  return static_cast<MPI_Aint>(disp);
}

/// The address of `count` elements at `at` of a region attached to a dynamic window, checked
/// against the region (whether the target still has it attached, only the target knows).
template <class T>
[[gnu::always_inline]] inline MPI_Aint target_disp(const window_state& state, const char* operation,
                                                   int target, const region_offset<T>& at,
                                                   std::size_t count) {
  state.check_rank(operation, target);
  if (target == MPI_PROC_NULL) return 0;
  if (at.where.rank != target) [[unlikely]] {
    rma_site where = state.site(operation);
    where.target = target;
    where.count = count;
    where.problem = "the region named is attached at rank " + std::to_string(at.where.rank) +
                    ", not at the target";
    state.raise(MPI_ERR_RMA_RANGE, where);
  }
  if (at.index > at.where.count || count > at.where.count - at.index) [[unlikely]] {
    raise_outside(state, operation, target, at.index, count, at.where.count, "region attached");
  }
  return MPI_Aint_add(at.where.address, static_cast<MPI_Aint>(at.index * sizeof(T)));
}

/// The displacement of an error report: an element of a window, or an element of a region.
inline void locate(rma_site& where, const window_state& state, int target, std::size_t disp) {
  where.displacement = static_cast<std::ptrdiff_t>(disp);
  if (target >= 0 && target < static_cast<int>(state.extents.size())) {
    where.window_count = state.extents[static_cast<std::size_t>(target)];
  }
}
template <class T>
void locate(rma_site& where, const window_state&, int, const region_offset<T>& at) {
  where.displacement = static_cast<std::ptrdiff_t>(at.index);
  where.window_count = at.where.count;
}

/// Throws what MPI reported for a one-sided call.
template <class Disp>
[[noreturn, gnu::cold, gnu::noinline]] void raise_rma_call(int rc, const window_state& state,
                                                           const char* operation, int target,
                                                           const Disp& disp, std::size_t count) {
  rma_site where = state.site(operation);
  where.target = target;
  where.count = count;
  locate(where, state, target, disp);
  state.raise(rc, where);
}

}  // namespace thinmpi::detail
