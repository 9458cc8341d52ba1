#pragma once
// Rooted collectives called on every rank with an argument only the root can see is wrong
// (include/thinmpi/collectives/detail/root_checks.hpp), and the other collectives with an
// argument only one rank has wrong (root_only_local_cases.hpp, the neighborhood collectives
// in root_only_neighbor_cases.hpp, and the arguments every rank must pass alike, the sparse
// exchange and the communicator constructors in root_only_alike_cases.hpp). Each case is what
// every rank
// calls; the root (the rank with the bad argument) is the last rank, so that a root mixed up
// with rank 0 shows. Shared by
// collectives_consistency_test.cpp (the checked mode, where every rank throws, and the cases
// the root completes into scratch) and faults/root_only_abort.cpp (the cases that end the job).

#include <mpi.h>

#include <string>
#include <vector>

#include "thinmpi/thinmpi.hpp"

namespace root_only {

/// One root-only bad argument: `call` is what every rank runs.
struct bad_call {
  const char* name;
  bool completes_into_scratch;  ///< unchecked: the root throws after a scratch receive
  int error_class;              ///< the class the root throws
  const char* root_says;        ///< part of the root's sentence
  void (*call)(thinmpi::comm_view world, int root);
  bool on_every_rank = false;  ///< every rank passes the bad argument, not only the root
};

inline std::size_t uz(int n) {
  return static_cast<std::size_t>(n);
}

/// Every rank's block for the gathers: three copies of 100 + rank.
inline std::vector<int> block_of(thinmpi::comm_view world) {
  return std::vector<int>(3, 100 + world.rank());
}

inline const std::vector<bad_call>& rooted_cases() {
  using thinmpi::comm_view;
  static const std::vector<bad_call> all{
      {"gather_into_too_small", true, MPI_ERR_COUNT, "is too small for",
       [](comm_view w, int root) {
         std::vector<int> into(w.rank() == root ? 3 * uz(w.size()) - 1 : 0);
         w.gather(block_of(w), into, root);
       }},
      {"gatherv_into_too_small", true, MPI_ERR_COUNT, "is too small for",
       [](comm_view w, int root) {
         const std::vector<int> counts(uz(w.size()), 3);
         std::vector<int> displs;
         for (int r = 0; r < w.size(); ++r)
           displs.push_back(3 * r);
         std::vector<int> into(3 * uz(w.size()) - 2);
         w.gatherv(block_of(w), into, counts, displs, root);
       }},
      {"gatherv_packed_into_too_small", true, MPI_ERR_COUNT, "is too small for",
       [](comm_view w, int root) {
         const std::vector<int> counts(uz(w.size()), 3);
         std::vector<int> into(2);
         w.gatherv(block_of(w), into, counts, root);
       }},
      {"gatherv_claimed_huge", false, MPI_ERR_COUNT, "is too small for",
       [](comm_view w, int root) {
         // The root claims 2^29 ints from every rank (2 GiB of scratch); they send 3.
         const std::vector<int> counts(uz(w.size()), w.rank() == root ? 1 << 29 : 3);
         const std::vector<int> displs(uz(w.size()), 0);
         std::vector<int> into(3 * uz(w.size()));
         w.gatherv(block_of(w), into, counts, displs, root);
       }},
      {"gather_in_place_uneven", false, MPI_ERR_COUNT, "equal blocks",
       [](comm_view w, int root) {
         std::vector<int> buffer = block_of(w);
         if (w.rank() == root) buffer.resize(3 * uz(w.size()) + 1);
         w.gather_in_place(buffer, root);
       }},
      {"gatherv_counts_too_long", false, MPI_ERR_ARG, "recvcounts has",
       [](comm_view w, int root) {
         const std::vector<int> counts(uz(w.size()) + 1, 3);
         const std::vector<int> displs(uz(w.size()), 0);
         std::vector<int> into(100);
         w.gatherv(block_of(w), into, counts, displs, root);
       }},
      {"gatherv_negative_count", false, MPI_ERR_ARG, "must not be negative",
       [](comm_view w, int root) {
         std::vector<int> counts(uz(w.size()), 3);
         counts.back() = -1;
         const std::vector<int> displs(uz(w.size()), 0);
         std::vector<int> into(100);
         w.gatherv(block_of(w), into, counts, displs, root);
       }},
      {"gatherv_displs_too_short", false, MPI_ERR_ARG, "displs has",
       [](comm_view w, int root) {
         const std::vector<int> counts(uz(w.size()), 3);
         const std::vector<int> displs(uz(w.size()) - 1, 0);
         std::vector<int> into(100);
         w.gatherv(block_of(w), into, counts, displs, root);
       }},
      {"gatherv_packed_counts_too_short", false, MPI_ERR_ARG, "recvcounts has",
       [](comm_view w, int root) {
         const std::vector<int> counts(uz(w.size()) - 1, 3);
         std::vector<int> into(100);
         w.gatherv(block_of(w), into, counts, root);
       }},
      {"scatter_too_few_blocks", false, MPI_ERR_COUNT, "is smaller than size",
       [](comm_view w, int root) {
         std::vector<int> mine(2);
         w.scatter(std::vector<int>(2 * uz(w.size()) - 1, 7), mine, root);
       }},
      {"scatter_in_place_uneven", false, MPI_ERR_COUNT, "equal blocks",
       [](comm_view w, int root) {
         std::vector<int> buffer(w.rank() == root ? 2 * uz(w.size()) + 1 : 2);
         w.scatter_in_place(buffer, root);
       }},
      {"iscatter_too_few_blocks", false, MPI_ERR_COUNT, "is smaller than size",
       [](comm_view w, int root) {
         const std::vector<int> send(uz(w.size()), 7);
         static_cast<void>(w.iscatter(send, std::vector<int>(2), root).wait());
       }},
      {"scatterv_counts_too_long", false, MPI_ERR_ARG, "sendcounts has",
       [](comm_view w, int root) {
         const std::vector<int> counts(uz(w.size()) + 1, 1);
         const std::vector<int> displs(uz(w.size()), 0);
         std::vector<int> mine(1);
         w.scatterv(std::vector<int>(100, 7), counts, displs, mine, root);
       }},
      {"scatterv_negative_count", false, MPI_ERR_ARG, "must not be negative",
       [](comm_view w, int root) {
         std::vector<int> counts(uz(w.size()), 1);
         counts.front() = -2;
         const std::vector<int> displs(uz(w.size()), 0);
         std::vector<int> mine(1);
         w.scatterv(std::vector<int>(100, 7), counts, displs, mine, root);
       }},
      {"scatterv_send_too_small", false, MPI_ERR_COUNT, "is too small for",
       [](comm_view w, int root) {
         const std::vector<int> counts(uz(w.size()), 2);
         std::vector<int> displs;
         for (int r = 0; r < w.size(); ++r)
           displs.push_back(2 * r);
         std::vector<int> mine(2);
         w.scatterv(std::vector<int>(2 * uz(w.size()) - 1, 7), counts, displs, mine, root);
       }},
      {"scatterv_exchanged_counts_too_short", false, MPI_ERR_ARG, "sendcounts has",
       [](comm_view w, int root) {
         const std::vector<int> counts(uz(w.size()) - 1, 1);
         static_cast<void>(
             w.scatterv(std::vector<int>(100, 7), counts, root, thinmpi::exchange_counts));
       }},
      {"scatterv_exchanged_send_too_small", false, MPI_ERR_COUNT, "is too small for",
       [](comm_view w, int root) {
         const std::vector<int> counts(uz(w.size()), 4);
         static_cast<void>(w.scatterv(std::vector<int>(4 * uz(w.size()) - 1, 7), counts, root,
                                      thinmpi::exchange_counts));
       }},
  };
  return all;
}

}  // namespace root_only

#include "faults/root_only_alike_cases.hpp"
#include "faults/root_only_local_cases.hpp"
#include "faults/root_only_neighbor_cases.hpp"
#include "faults/root_only_rma_cases.hpp"
#include "faults/root_only_topology_cases.hpp"

namespace root_only {

/// The rooted cases, then the rank-local ones of the other collectives, then the neighborhood
/// collectives' (all rank-local), then the alike, sparse-exchange and constructor cases, then
/// one-sided communication's (root_only_rma_cases.hpp).
inline const std::vector<bad_call>& cases() {
  static const std::vector<bad_call> all = [] {
    std::vector<bad_call> every = rooted_cases();
    every.insert(every.end(), local_cases().begin(), local_cases().end());
    every.insert(every.end(), neighbor_cases().begin(), neighbor_cases().end());
    every.insert(every.end(), topology_cases().begin(), topology_cases().end());
    every.insert(every.end(), alike_cases().begin(), alike_cases().end());
    every.insert(every.end(), rma_cases().begin(), rma_cases().end());
    return every;
  }();
  return all;
}

inline const bad_call* find(const std::string& name) {
  for (const bad_call& c : cases()) {
    if (name == c.name) return &c;
  }
  for (const bad_call& c : rma_ending_cases()) {
    if (name == c.name) return &c;
  }
  return nullptr;
}

}  // namespace root_only
