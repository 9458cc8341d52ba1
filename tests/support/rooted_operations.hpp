#pragma once
// Every rooted collective in every form (blocking, nonblocking, in place, exchanging counts,
// persistent `_init`), each given arguments that are right for a communicator of `n` ranks so
// that the root (or the communicator) is the one thing wrong: bad_input_test sweeps them on the
// null communicator, collectives_consistency_checked_test with roots outside the communicator
// (on every rank, and on one rank only). Unchecked, a root outside the communicator ends the
// job (faults/root_only_alike_cases.hpp), so that sweep runs in the checked build.

#include <functional>
#include <vector>

#include "support/ring.hpp"
#include "thinmpi/thinmpi.hpp"

namespace thinmpi_test {

/// Calls over the whole communicator. Rooted collectives take the root as their argument and
/// are swept with roots outside the communicator too. Each call is given arguments that are
/// right for a communicator of `n` ranks, so that the root (or the communicator) is the one
/// thing wrong.
struct collective_operation {
  const char* name;
  bool rooted;
  std::function<void(thinmpi::comm_view, int root, int n)> call;
};

/// One element from each of n ranks, and where each goes.
inline std::vector<int> ones(int n) {
  return std::vector<int>(uz(n), 1);
}
inline std::vector<int> each_at_its_rank(int n) {
  std::vector<int> displs(uz(n));
  for (int r = 0; r < n; ++r)
    displs[uz(r)] = r;
  return displs;
}

inline constexpr std::plus<> plus{};

/// One round of a persistent request: an error may come at its creation, start or wait.
template <class Request>
void run_round(Request&& request) {
  request.start();
  request.wait();
}
inline constexpr thinmpi::exchange_counts_t exchanging = thinmpi::exchange_counts;

inline std::vector<collective_operation> rooted_operations() {
  using thinmpi::comm_view;
  using ints = std::vector<int>;
  return {
    {"bcast", true,
     [](comm_view c, int root, int) {
       int value = 1;
       c.bcast(value, root);
     }},
        {"bcast exchanging counts", true,
         [](comm_view c, int root, int) {
           ints v(2);
           c.bcast(v, root, exchanging);
         }},
        {"ibcast", true,
         [](comm_view c, int root, int) { c.ibcast(std::vector<int>(2), root).wait(); }},
#if THINMPI_HAS_PERSISTENT_COLLECTIVES
        {"bcast_init", true,
         [](comm_view c, int root, int) {
           int value = 1;
           auto round = c.bcast_init(value, root);
           round.start();
           round.wait();
         }},
#endif
        {"gather", true, [](comm_view c, int root, int) { static_cast<void>(c.gather(1, root)); }},
        {"gather into", true,
         [](comm_view c, int root, int n) {
           ints into(uz(n));
           c.gather(1, into, root);
         }},
        {"gather_in_place", true,
         [](comm_view c, int root, int n) {
           ints buffer(uz(n));
           c.gather_in_place(buffer, root);
         }},
        {"gatherv", true,
         [](comm_view c, int root, int n) {
           ints into(uz(n));
           c.gatherv(ints(1), into, ones(n), root);
         }},
        {"gatherv with displacements", true,
         [](comm_view c, int root, int n) {
           ints into(uz(n));
           c.gatherv(ints(1), into, ones(n), each_at_its_rank(n), root);
         }},
        {"gatherv exchanging counts", true,
         [](comm_view c, int root, int) {
           static_cast<void>(c.gatherv(std::vector<int>(2), root, exchanging));
         }},
        {"igather", true,
         [](comm_view c, int root, int) { static_cast<void>(c.igather(1, root).wait()); }},
        {"scatter", true,
         [](comm_view c, int root, int) {
           std::vector<int> mine(1);
           c.scatter(std::vector<int>(64), mine, root);
         }},
        {"scatter_in_place", true,
         [](comm_view c, int root, int n) {
           ints buffer(uz(n));
           c.scatter_in_place(buffer, root);
         }},
        {"scatterv", true,
         [](comm_view c, int root, int n) {
           ints mine(1);
           c.scatterv(ints(uz(n)), ones(n), each_at_its_rank(n), mine, root);
         }},
        {"scatterv exchanging counts", true,
         [](comm_view c, int root, int n) {
           static_cast<void>(c.scatterv(ints(uz(n)), ones(n), root, exchanging));
         }},
        {"iscatter", true,
         [](comm_view c, int root, int n) {
           static_cast<void>(c.iscatter(ints(uz(n)), ints(1), root).wait());
         }},
        {"reduce", true,
         [](comm_view c, int root, int) { static_cast<void>(c.reduce(1, plus, root)); }},
        {"reduce into", true,
         [](comm_view c, int root, int) {
           ints into(2);
           c.reduce(ints(2), into, plus, root);
         }},
        {"reduce_in_place", true,
         [](comm_view c, int root, int) {
           ints buffer(2);
           c.reduce_in_place(buffer, plus, root);
         }},
        {"ireduce", true,
         [](comm_view c, int root, int) { static_cast<void>(c.ireduce(1, plus, root).wait()); }},
        {"ireduce into", true,
         [](comm_view c, int root, int) {
           static_cast<void>(c.ireduce(ints(2), ints(2), plus, root).wait());
         }},
        {"ireduce_in_place", true,
         [](comm_view c, int root, int) {
           static_cast<void>(c.ireduce_in_place(ints(2), plus, root).wait());
         }},
#if THINMPI_HAS_PERSISTENT_COLLECTIVES
        {"reduce_init", true, [](comm_view c, int root, int) {
           int mine = 1;
           int total = 0;
           auto round = c.reduce_init(mine, total, plus, root);
           round.start();
           round.wait();
         }},
#endif
  };
}

}  // namespace thinmpi_test
