#pragma once
/// \file
/// The correct path of a neighborhood alltoall where a neighbor repeats. When a rank is a
/// neighbor twice (both sides of a periodic dimension of 1 or 2 ranks, a graph edge named twice),
/// MPI defines which block lands in which slot: on a Cartesian grid the block sent towards +d
/// arrives in the neighbor's slot for -d and the other way round (MPI-4.1 section 8.6, the
/// erratum of mpi-forum/mpi-issues#153); on a graph the k-th edge to a rank matches the k-th
/// edge from it. MPI libraries get this wrong in some forms (Open MPI 4.1.4: the nonblocking and
/// persistent Cartesian forms; MPICH 4.0.2: neighbor_alltoallv/w on every Cartesian grid, and
/// neighbor_alltoall on graphs and on grids with two periodic dimensions of 1 rank;
/// topology/detail/neighbor_routes.hpp decides which, and docs/library.md lists them).
///
/// A routed_exchange does such an exchange as ONE MPI_Alltoallw on the topology's
/// communicator (MPI_Ialltoallw, MPI_Alltoallw_init for the other forms): per peer, one struct
/// datatype holding the blocks to it in the order of their keys, and one holding the receive
/// slots from it in the order of theirs, so the pairing is the datatypes' order and cannot
/// depend on how MPI matches messages. A collective call keeps the collective's own context:
/// no message of it can meet the program's point-to-point traffic. It costs arrays of
/// comm.size() entries and a datatype per peer: the price of a grid whose neighbors repeat,
/// which is small (a periodic dimension of 1 or 2 ranks).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "thinmpi/collectives/detail/persistent_calls.hpp"
#include "thinmpi/core/detail/large_count.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/narrow.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/requests/detail/request_access.hpp"

namespace thinmpi::detail {

/// Who a topology's blocks go to and come from, and how blocks to the same rank pair up: the
/// out-block with key k to a rank lands in that rank's in-slot whose key is k.
struct neighbor_pairing {
  std::vector<int> sources;           ///< in-neighbors in MPI's order (MPI_PROC_NULL kept)
  std::vector<int> destinations;      ///< out-neighbors in MPI's order
  std::vector<int> source_keys;       ///< per in-slot
  std::vector<int> destination_keys;  ///< per out-block
};

/// One block of one side of a neighborhood exchange: `count` elements of `type`, `offset`
/// bytes into the buffer.
struct exchange_block {
  MPI_Aint offset = 0;
  std::size_t count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
};

/// The blocks of one side laid as MPI lays a neighbor_alltoall's: equal blocks of `count`
/// elements of `type`, one per neighbor, end to end.
[[nodiscard]] inline std::vector<exchange_block> equal_blocks(std::size_t neighbors,
                                                              std::size_t count,
                                                              MPI_Datatype type) {
  MPI_Aint lower_bound = 0;
  MPI_Aint extent = 0;
  check(MPI_Type_get_extent(type, &lower_bound, &extent), "MPI_Type_get_extent");
  std::vector<exchange_block> blocks(neighbors);
  for (std::size_t i = 0; i < neighbors; ++i) {
    blocks[i] = {static_cast<MPI_Aint>(i * count) * extent, count, type};
  }
  return blocks;
}

/// The blocks of one side of a neighbor_alltoallv: counts[i] elements of `type` at displs[i].
[[nodiscard]] inline std::vector<exchange_block> varying_blocks(std::span<const int> counts,
                                                                std::span<const int> displs,
                                                                MPI_Datatype type) {
  MPI_Aint lower_bound = 0;
  MPI_Aint extent = 0;
  check(MPI_Type_get_extent(type, &lower_bound, &extent), "MPI_Type_get_extent");
  std::vector<exchange_block> blocks(counts.size());
  for (std::size_t i = 0; i < counts.size(); ++i) {
    blocks[i] = {static_cast<MPI_Aint>(displs[i]) * extent, static_cast<std::size_t>(counts[i]),
                 type};
  }
  return blocks;
}

/// The blocks of one side of a neighbor_alltoallw: counts[i] of types[i], displs[i] bytes in.
[[nodiscard]] inline std::vector<exchange_block> typed_blocks(std::span<const int> counts,
                                                              std::span<const MPI_Aint> displs,
                                                              std::span<const MPI_Datatype> types) {
  std::vector<exchange_block> blocks(counts.size());
  for (std::size_t i = 0; i < counts.size(); ++i) {
    blocks[i] = {displs[i], static_cast<std::size_t>(counts[i]), types[i]};
  }
  return blocks;
}

/// A neighborhood exchange thinmpi routes itself, as one MPI call that owns the arrays and
/// datatypes MPI reads until it completes (a nonblocking or persistent request keeps it in its
/// state). Two routes:
///   - matched (a grid or graph whose neighbors repeat): MPI_Alltoallw over the communicator,
///     one struct datatype per peer holding its blocks in key order (see the file comment);
///   - per neighbor (neighbor_alltoall on a graph thinmpi did not make, on MPICH 4.0):
///     MPI_Neighbor_alltoallw with
///     the equal blocks spelled out, byte displacements, so any count fits.
class routed_exchange {
 public:
  /// The matched route: `sent` (one block per out-neighbor, offsets from `send`) into
  /// `received` (one per in-neighbor) on `comm`, paired by `pairing`.
  routed_exchange(MPI_Comm comm, const neighbor_pairing& pairing, const void* send,
                  std::span<const exchange_block> sent, std::span<const exchange_block> received)
      : comm_(comm), matched_(true) {
    const std::vector<exchange_block> absolute = absolute_blocks(send, sent);
    int ranks = 0;
    check(MPI_Comm_size(comm, &ranks), "MPI_Comm_size", comm);
    // Open MPI 4.1.4's MPI_Ialltoallw and MPIX_Alltoallw_init on a communicator with a
    // topology read the datatype arrays by the topology's degrees, not by the communicator's
    // size (ompi_coll_base_retain_datatypes_w; a 1-rank grid of 2 dimensions read 4 entries of
    // a 1-entry array and crashed): the arrays reach as far as either, the extra entries 0 of
    // MPI_BYTE.
    const std::size_t entries = std::max(
        {static_cast<std::size_t>(ranks), pairing.sources.size(), pairing.destinations.size()});
    send_ = side(entries);
    recv_ = side(entries);
    try {
      by_peer(send_, pairing.destinations, pairing.destination_keys, absolute);
      by_peer(recv_, pairing.sources, pairing.source_keys, received);
    } catch (...) {
      release();
      throw;
    }
  }
  /// The per-neighbor route: MPI_Neighbor_alltoallw of `sent` (offsets from `send`) into
  /// `received`.
  routed_exchange(MPI_Comm comm, const void* send, std::span<const exchange_block> sent,
                  std::span<const exchange_block> received)
      : comm_(comm), matched_(false) {
    try {
      send_ = per_neighbor(absolute_blocks(send, sent));
      recv_ = per_neighbor(received);
    } catch (...) {
      release();
      throw;
    }
  }
  routed_exchange(const routed_exchange&) = delete;
  routed_exchange& operator=(const routed_exchange&) = delete;
  ~routed_exchange() { release(); }

  /// The blocking exchange (MPI_Alltoallw / MPI_Neighbor_alltoallw) into `recv`, which may be
  /// null (nothing in it: MPI is handed a valid address instead). The send side is at absolute
  /// addresses (MPI_BOTTOM): Open MPI 4.1.4's libnbc takes a send buffer equal to the receive
  /// buffer for MPI_IN_PLACE (NBC_IN_PLACE), and neighbor_alltoallw allows one buffer for both
  /// where the blocks do not overlap.
  [[nodiscard]] int run(void* recv) const {
    const void* send = MPI_BOTTOM;
    recv = address(recv);
    if (matched_) {
      return MPI_Alltoallw(send, send_.counts.data(), send_.displs.data(), send_.types.data(), recv,
                           recv_.counts.data(), recv_.displs.data(), recv_.types.data(), comm_);
    }
    return MPI_Neighbor_alltoallw(send, ints(send_.counts), aints(send_.byte_displs),
                                  types(send_.types), recv, ints(recv_.counts),
                                  aints(recv_.byte_displs), types(recv_.types), comm_);
  }
  /// The nonblocking exchange (MPI_Ialltoallw / MPI_Ineighbor_alltoallw) into `recv`, its
  /// request into `request`.
  [[nodiscard]] int post(void* recv, MPI_Request* request) const {
    const void* send = MPI_BOTTOM;
    recv = address(recv);
    if (matched_) {
      return MPI_Ialltoallw(send, send_.counts.data(), send_.displs.data(), send_.types.data(),
                            recv, recv_.counts.data(), recv_.displs.data(), recv_.types.data(),
                            comm_, request);
    }
    return MPI_Ineighbor_alltoallw(send, ints(send_.counts), aints(send_.byte_displs),
                                   types(send_.types), recv, ints(recv_.counts),
                                   aints(recv_.byte_displs), types(recv_.types), comm_, request);
  }
  /// The persistent exchange (MPI_Alltoallw_init / MPI_Neighbor_alltoallw_init; Open MPI 4.1:
  /// MPIX_), into `request`.
  [[nodiscard]] int init(void* recv, MPI_Request* request) const {
    const void* send = MPI_BOTTOM;
    recv = address(recv);
    if (matched_) {
      return persistent_call<persistent_collective::alltoallw>(
          send, send_.counts.data(), send_.displs.data(), send_.types.data(), recv,
          recv_.counts.data(), recv_.displs.data(), recv_.types.data(), comm_, MPI_INFO_NULL,
          request);
    }
    return persistent_call<persistent_collective::neighbor_alltoallw>(
        send, ints(send_.counts), aints(send_.byte_displs), types(send_.types), recv,
        ints(recv_.counts), aints(recv_.byte_displs), types(recv_.types), comm_, MPI_INFO_NULL,
        request);
  }

 private:
  /// `buffer`, or where it is null (an empty container) the address of a byte nobody reads.
  template <class T>
  static T* address(T* buffer) noexcept {
    static std::byte nothing{};
    return buffer != nullptr ? buffer : &nothing;
  }
  /// `blocks` with their offsets made absolute addresses, from `base` (MPI_Get_address).
  static std::vector<exchange_block> absolute_blocks(const void* base,
                                                     std::span<const exchange_block> blocks) {
    MPI_Aint at = 0;
    check(MPI_Get_address(address(base), &at), "MPI_Get_address");
    std::vector<exchange_block> absolute(blocks.begin(), blocks.end());
    for (exchange_block& block : absolute)
      block.offset = MPI_Aint_add(at, block.offset);
    return absolute;
  }
  /// One side's arrays: matched, per rank of the communicator (1 of its struct type, or 0 of
  /// MPI_BYTE for a rank that is no neighbor on this side; displacements all 0, the offsets
  /// live in the struct types); per neighbor, a count, byte displacement and type each.
  struct side_arrays {
    std::vector<int> counts{};
    std::vector<int> displs{};
    std::vector<MPI_Aint> byte_displs{};
    std::vector<MPI_Datatype> types{};
  };
  static side_arrays side(std::size_t ranks) {
    return {std::vector<int>(ranks, 0),
            std::vector<int>(ranks, 0),
            {},
            std::vector<MPI_Datatype>(ranks, MPI_BYTE)};
  }
  // Arrays of no entries may have no address; MPI reads none of them then.
  static const int* ints(const std::vector<int>& v) noexcept {
    static constexpr int none = 0;
    return v.empty() ? &none : v.data();
  }
  static const MPI_Aint* aints(const std::vector<MPI_Aint>& v) noexcept {
    static constexpr MPI_Aint none = 0;
    return v.empty() ? &none : v.data();
  }
  static const MPI_Datatype* types(const std::vector<MPI_Datatype>& v) noexcept {
    static const MPI_Datatype none = MPI_BYTE;
    return v.empty() ? &none : v.data();
  }

  /// The per-neighbor arrays of `blocks` (a count past INT_MAX becomes 1 of a spanning type).
  side_arrays per_neighbor(std::span<const exchange_block> blocks) {
    side_arrays arrays{std::vector<int>(blocks.size()),
                       {},
                       std::vector<MPI_Aint>(blocks.size()),
                       std::vector<MPI_Datatype>(blocks.size())};
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      arrays.byte_displs[i] = blocks[i].offset;
      if (fits_int(blocks[i].count)) {
        arrays.counts[i] = static_cast<int>(blocks[i].count);
        arrays.types[i] = blocks[i].type;
      } else {
        arrays.counts[i] = 1;
        arrays.types[i] = own(spanning(blocks[i].count, blocks[i].type));
      }
    }
    return arrays;
  }

  /// For every rank among `neighbors`, one struct datatype of its blocks in key order.
  void by_peer(side_arrays& arrays, const std::vector<int>& neighbors, const std::vector<int>& keys,
               std::span<const exchange_block> blocks) {
    std::vector<std::size_t> order(neighbors.size());
    for (std::size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    // By rank, then by key: the blocks of each rank together, in the order they pair up.
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return neighbors[a] != neighbors[b] ? neighbors[a] < neighbors[b] : keys[a] < keys[b];
    });
    std::size_t first = 0;
    while (first < order.size()) {
      const int rank = neighbors[order[first]];
      std::size_t last = first;
      while (last < order.size() && neighbors[order[last]] == rank)
        ++last;
      if (rank != MPI_PROC_NULL) {
        arrays.types[static_cast<std::size_t>(rank)] = struct_of(order, first, last, blocks);
        arrays.counts[static_cast<std::size_t>(rank)] = 1;
      }
      first = last;
    }
  }

  /// The struct datatype of blocks order[first, last), committed and owned.
  MPI_Datatype struct_of(const std::vector<std::size_t>& order, std::size_t first, std::size_t last,
                         std::span<const exchange_block> blocks) {
    const std::size_t n = last - first;
    std::vector<int> lengths(n);
    std::vector<MPI_Aint> offsets(n);
    std::vector<MPI_Datatype> parts(n);
    std::vector<MPI_Datatype> spans;  // blocks past INT_MAX elements, freed once in the struct
    for (std::size_t i = 0; i < n; ++i) {
      const exchange_block& block = blocks[order[first + i]];
      offsets[i] = block.offset;
      lengths[i] = fits_int(block.count) ? static_cast<int>(block.count) : 1;
      parts[i] = fits_int(block.count) ? block.type
                                       : spans.emplace_back(spanning(block.count, block.type));
    }
    MPI_Datatype whole = MPI_DATATYPE_NULL;
    const int rc = MPI_Type_create_struct(static_cast<int>(n), lengths.data(), offsets.data(),
                                          parts.data(), &whole);
    for (MPI_Datatype& span : spans)
      MPI_Type_free(&span);
    check(rc, "MPI_Type_create_struct");
    return own(whole);
  }

  /// `count` elements of `type` as one element (uncommitted, the caller's to free).
  static MPI_Datatype spanning(std::size_t count, MPI_Datatype type) {
    MPI_Datatype whole = MPI_DATATYPE_NULL;
    const large_count_type spanned(count, type);
    check(MPI_Type_dup(spanned.get(), &whole), "MPI_Type_dup");
    return whole;
  }

  /// Commits `type` and frees it with this exchange.
  MPI_Datatype own(MPI_Datatype type) {
    owned_.push_back(type);
    check(MPI_Type_commit(&owned_.back()), "MPI_Type_commit");
    return owned_.back();
  }

  void release() noexcept {
    if (mpi_finalized()) return;
    for (MPI_Datatype& type : owned_)
      MPI_Type_free(&type);
    owned_.clear();
  }

  MPI_Comm comm_;
  bool matched_;
  side_arrays send_{};
  side_arrays recv_{};
  std::vector<MPI_Datatype> owned_{};
};

}  // namespace thinmpi::detail
