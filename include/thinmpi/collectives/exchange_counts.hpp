#pragma once
/// \file
/// thinmpi::exchange_counts, the argument that makes a v-collective exchange its counts first,
/// and thinmpi::varying, what such a call returns.

#include <concepts>
#include <ranges>
#include <type_traits>
#include <vector>

#include "thinmpi/core/detail/buffers.hpp"

namespace thinmpi {

/// Passed to a v-collective (allgatherv, alltoallv, gatherv, scatterv) in place of counts: the
/// ranks first exchange their counts (one MPI_Allgather / MPI_Alltoall / MPI_Gather /
/// MPI_Scatter of one int each), then make the v-call. The cost is in the call's form:
///
///     std::vector<int> mine(world.rank() + 1, world.rank());        // a size of its own
///     auto all = world.allgatherv(mine, thinmpi::exchange_counts);  // 2 MPI calls
struct exchange_counts_t {
  explicit exchange_counts_t() = default;
};
/// See exchange_counts_t.
inline constexpr exchange_counts_t exchange_counts{};

/// What a v-collective that exchanged its counts received: the data, and each rank's count and
/// displacement (in elements), to reuse on the next call with the same shape (one MPI call).
///
/// `data` is a std::vector<E>, which C++ zeroes when it is sized, before MPI writes it: one
/// extra pass over the received bytes. Name another container as the call's first template
/// argument to skip it, for example one with thinmpi::default_init_allocator:
///
///     std::vector<int> out(world.size(), world.rank()), counts(world.size(), 1);
///     using ints = std::vector<int, thinmpi::default_init_allocator<int>>;
///     auto got = world.alltoallv<ints>(out, counts, thinmpi::exchange_counts);  // no memset
template <class E, class Data = std::vector<E>>
struct varying {
  Data data;                ///< every rank's block, in rank order
  std::vector<int> counts;  ///< elements from each rank
  std::vector<int> displs;  ///< where each rank's block starts in data
};

namespace detail {

/// The default first template argument of the exchanging v-collectives: std::vector<E>.
struct vector_of_elements {};

/// The container an exchanging v-collective receives into: Data, or std::vector<E> by default.
template <class Data, class E>
using varying_data_t =
    std::conditional_t<std::is_same_v<Data, vector_of_elements>, std::vector<E>, Data>;

/// What an exchanging v-collective with payload Send and container choice Data returns.
template <class Data, class Send>
using varying_for = varying<element_t<Send>, varying_data_t<Data, element_t<Send>>>;

/// Checks, with one sentence, that Data can hold what an exchanging v-collective receives.
template <class Data, class E>
consteval void require_varying_data() {
  using data = varying_data_t<Data, E>;
  static_assert(
      std::ranges::contiguous_range<data> && std::same_as<std::ranges::range_value_t<data>, E> &&
          requires(data d) { d.resize(std::size_t{}); },
      "thinmpi: the container named for an exchanging v-collective's result must be a "
      "contiguous, resizable container of the sent element type (for example "
      "std::vector<E, thinmpi::default_init_allocator<E>>)");
}

}  // namespace detail
}  // namespace thinmpi
