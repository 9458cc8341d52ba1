#pragma once
/// \file
/// The v-calls on a thinmpi::block_layout, shared by allgatherv and alltoallv: the one check a
/// layout leaves to each call (its blocks against the communicator's size), and the MPI call
/// itself, classic or (where the layout's displacements pass INT_MAX) MPI-4's `_c` form on
/// the arrays the layout widened once.

#include <cstddef>
#include <string>
#include <type_traits>

#include "thinmpi/collectives/block_layout.hpp"
#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/large_count.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/narrow.hpp"
#include "thinmpi/core/detail/raise.hpp"

namespace thinmpi::detail {

/// The error of check_layout_ranks: "the block_layout (recvcounts) has 3 blocks; the
/// communicator has 2 ranks".
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_layout_ranks(const collective_call& call,
                                                                      int blocks, int ranks,
                                                                      const char* which) {
  raise_collective(MPI_ERR_ARG, call, std::nullopt, MPI_DATATYPE_NULL,
                   std::string("the block_layout (") + which + ") has " +
                       counted(static_cast<std::size_t>(blocks), "block", "blocks") +
                       "; the communicator has " +
                       counted(static_cast<std::size_t>(ranks), "rank", "ranks"));
}
/// Whether a layout has one block per rank: one comparison (raise_layout_ranks where not;
/// `which` there names the array of MPI's call the layout stands for, "recvcounts").
[[gnu::always_inline]] inline bool layout_fits(const block_layout& layout, int ranks) noexcept {
  return layout.ranks() == ranks;
}

/// Whether this rank's block of a layout (one per rank, checked) is what it sends: one
/// comparison (a layout's counts are not negative). Where every block has the same count (the
/// layout knows it from when it was built) that count is compared and `rank_of`, which asks MPI
/// for this rank, is not called.
template <class RankOf>
[[gnu::always_inline]] inline bool own_block(const block_layout& layout, RankOf rank_of,
                                             std::size_t sending) {
  if (const int every = layout_access::uniform(layout); every >= 0) [[likely]] {
    return static_cast<std::size_t>(every) == sending;
  }
  return static_cast<std::size_t>(layout.counts()[static_cast<std::size_t>(rank_of())]) == sending;
}

/// One MPI_Allgatherv (or its `_c` form) into `in` at the layout's blocks.
template <auto Classic = &MPI_Allgatherv, auto Large = THINMPI_LARGE_COUNT_CALL(MPI_Allgatherv)>
[[gnu::always_inline]] inline int allgatherv_on(const const_buffer& out, const mutable_buffer& in,
                                                const block_layout& layout, MPI_Comm comm) {
  if (layout.fits_int()) [[likely]] {
    return Classic(out.data, to_int(out.count), out.type, in.data, layout.counts().data(),
                   layout.displs().data(), in.type, comm);
  }
  if constexpr (!std::is_null_pointer_v<decltype(Large)>) {
    const wide_layout& wide = layout_access::wide(layout);
    return Large(out.data, static_cast<MPI_Count>(out.count), out.type, in.data, wide.counts.data(),
                 wide.displs.data(), in.type, comm);
  } else {
    return MPI_ERR_INTERN;  // such a layout cannot be built here (block_layout::widen)
  }
}

/// alltoallv_on past INT_MAX: MPI-4's MPI_Alltoallv_c, a side that fits widened here (this
/// rare path only), or, where the MPI has no `_c` calls, nothing (no such layout is built).
/// The buffers by value: the hot path then keeps them in registers.
template <auto Large>
[[gnu::noinline]] int alltoallv_wide(const_buffer out, const block_layout& sent, mutable_buffer in,
                                     const block_layout& received, MPI_Comm comm) {
  if constexpr (!std::is_null_pointer_v<decltype(Large)>) {
    const wide_layout send_wide =
        sent.fits_int() ? wide_given(sent.counts(), sent.displs()) : layout_access::wide(sent);
    const wide_layout recv_wide = received.fits_int()
                                      ? wide_given(received.counts(), received.displs())
                                      : layout_access::wide(received);
    return Large(out.data, send_wide.counts.data(), send_wide.displs.data(), out.type, in.data,
                 recv_wide.counts.data(), recv_wide.displs.data(), in.type, comm);
  } else {
    return MPI_ERR_INTERN;  // such a layout cannot be built here (block_layout::widen)
  }
}

/// One MPI_Alltoallv (or its `_c` form) from the `sent` blocks of `out` to the `received`
/// blocks of `in`.
template <auto Classic = &MPI_Alltoallv, auto Large = THINMPI_LARGE_COUNT_CALL(MPI_Alltoallv)>
[[gnu::always_inline]] inline int alltoallv_on(const const_buffer& out, const block_layout& sent,
                                               const mutable_buffer& in,
                                               const block_layout& received, MPI_Comm comm) {
  if (sent.fits_int() && received.fits_int()) [[likely]] {
    return Classic(out.data, sent.counts().data(), sent.displs().data(), out.type, in.data,
                   received.counts().data(), received.displs().data(), in.type, comm);
  }
  return alltoallv_wide<Large>(out, sent, in, received, comm);
}

}  // namespace thinmpi::detail
