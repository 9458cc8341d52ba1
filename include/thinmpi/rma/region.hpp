#pragma once
/// \file
/// thinmpi::region, memory attached to a dynamic window as every rank can name it: the address
/// MPI knows it by at the rank that attached it, its element count and that rank. A plain
/// aggregate, so it travels as any value does (world.allgather(region, regions)); an epoch of a
/// dynamic window takes region.at(i) as its displacement and checks i and the count against it.

#include <cstddef>

#include "thinmpi/core/detail/mpi.hpp"

namespace thinmpi {

template <class T>
struct region_offset;

/// Elements of T attached to a dynamic window at `rank` (dynamic_window::attach returns it).
///
///     auto win = thinmpi::dynamic_window<int>::create(world);
///     std::vector<int> data(8);
///     std::vector<thinmpi::region<int>> regions(static_cast<std::size_t>(size));
///     const int value = rank;
///     thinmpi::region<int> mine = win.attach(std::span(data));
///     world.allgather(mine, regions);             // now every rank can name every region
///     auto epoch = win.lock_all();
///     epoch.put(value, 1, regions[1].at(3));      // element 3 of rank 1's region
template <class T>
struct region {
  MPI_Aint address;   ///< MPI_Get_address of the first element, at `rank`
  std::size_t count;  ///< elements attached
  int rank;           ///< the rank whose memory it is, in the window's group

  /// Element `index` of the region, as an epoch's displacement.
  [[nodiscard]] constexpr region_offset<T> at(std::size_t index) const noexcept {
    return {*this, index};
  }
};

/// An element of a region: the displacement the operations of a dynamic window's epochs take.
template <class T>
struct region_offset {
  region<T> where;    ///< the region
  std::size_t index;  ///< the element within it
};

}  // namespace thinmpi
