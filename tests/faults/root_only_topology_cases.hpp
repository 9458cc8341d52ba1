#pragma once
// The topology constructors (include/thinmpi/topology/: cartesian_communicator, sub-grids,
// graph_communicator from adjacent lists or from edges) called on every rank with an argument
// only one rank has wrong. Each rank passes its own dims, periods,
// remain_dims and neighbor lists, so a rank whose check fails cannot know whether the others
// passed the same, and those that did not are inside MPI_Cart_create (MPI_Cart_sub,
// MPI_Dist_graph_create...) already: the job ends with the message; checked, every rank throws
// and the communicator goes on. The rank with the bad argument is `bad`, the last rank.
// Included by root_only_cases.hpp.

#include <mpi.h>

#include <vector>

#include "thinmpi/thinmpi.hpp"

namespace root_only {

inline const std::vector<bad_call>& topology_cases() {
  using thinmpi::comm_view;
  static const std::vector<bad_call> all{
      // Other dims on one rank: it would throw before MPI_Cart_create while the others block
      // in it (issue 28).
      {"cart_dims_past_the_ranks_on_one", false, MPI_ERR_DIMS, "ranks; the communicator has",
       [](comm_view w, int bad) {
         const int first = w.rank() == bad ? w.size() + 1 : w.size();
         thinmpi::cartesian_communicator grid(w, {first, 1}, {true, false});
       }},
      {"cart_dims_zero_on_one", false, MPI_ERR_DIMS, "every dimension needs at least one rank",
       [](comm_view w, int bad) {
         const int first = w.rank() == bad ? 0 : w.size();
         thinmpi::cartesian_communicator grid(w, {first}, {true});
       }},
      {"cart_periods_short_on_one", false, MPI_ERR_ARG, "periods has 1 entry; dims has 2",
       [](comm_view w, int bad) {
         const std::vector<bool> periods(w.rank() == bad ? 1 : 2, true);
         thinmpi::cartesian_communicator grid(w, {w.size(), 1}, periods);
       }},
      {"cart_sub_remain_short_on_one", false, MPI_ERR_ARG, "remain_dims has 1 entry; the grid has",
       [](comm_view w, int bad) {
         const thinmpi::cartesian_communicator grid(w, {w.size(), 1}, {true, false});
         const std::vector<bool> remain(w.rank() == bad ? 1 : 2, true);
         static_cast<void>(grid.sub(remain));
       }},
      {"graph_destination_outside_on_one", false, MPI_ERR_RANK, "destinations[0] is",
       [](comm_view w, int bad) {
         const int next = (w.rank() + 1) % w.size();
         const int prev = (w.rank() + w.size() - 1) % w.size();
         const int to = w.rank() == bad ? w.size() : next;
         thinmpi::graph_communicator graph(w, {prev}, {to});
       }},
      {"graph_weights_short_on_one", false, MPI_ERR_ARG, "destweights has 0 entries",
       [](comm_view w, int bad) {
         const int next = (w.rank() + 1) % w.size();
         const int prev = (w.rank() + w.size() - 1) % w.size();
         const std::vector<int> weights(w.rank() == bad ? 0 : 1, 1);
         thinmpi::graph_communicator graph(w, {prev}, {1}, {next}, weights);
       }},
      {"graph_edges_degrees_past_destinations_on_one", false, MPI_ERR_ARG,
       "destinations has 1 entry; the degrees add up to 2",
       [](comm_view w, int bad) {
         const int next = (w.rank() + 1) % w.size();
         const int degree = w.rank() == bad ? 2 : 1;
         static_cast<void>(thinmpi::graph_communicator::general(w, {w.rank()}, {degree}, {next}));
       }},
  };
  return all;
}

}  // namespace root_only
