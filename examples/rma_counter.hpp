#pragma once
/// \file
/// A global counter in one-sided communication: rank 0's window holds one long, and every rank
/// draws tickets from it with fetch_and_op (MPI_Fetch_and_op with MPI_SUM) under a shared lock,
/// without rank 0 taking part. examples/rma_counter.cpp runs and checks it; wrapper-bench's rma
/// suite runs it against bench/programs/rma_counter.c.
///
/// The lines between the START and END markers are the ones counted by scripts/count_lines.py.

#include <algorithm>
#include <cstddef>
#include <functional>
#include <numeric>
#include <vector>

#include "thinmpi/thinmpi.hpp"

namespace rma_counter_example {

/// What a run found: the tickets drawn over all ranks, whether they are 0 .. tickets-1 each
/// drawn once, and what the counter reads at the end.
struct outcome {
  std::size_t tickets;
  bool each_drawn_once;
  long counter_reads;
  [[nodiscard]] bool ok() const {
    return each_drawn_once && counter_reads == static_cast<long>(tickets);
  }
};

//> START COUNTER THINMPI
inline outcome draw(thinmpi::comm_view world, std::size_t per_rank) {
  auto counter = thinmpi::window<long>::allocate(world, world.rank() == 0 ? 1 : 0);
  const long zero = 0;
  const long one = 1;
  if (world.rank() == 0) {
    auto epoch = counter.lock(0, thinmpi::lock_type::exclusive);
    epoch.put(zero, 0, 0);
  }
  world.barrier();

  std::vector<long> tickets(per_rank);
  {
    auto epoch = counter.lock(0, thinmpi::lock_type::shared);
    for (long& ticket : tickets) {
      epoch.fetch_and_op(one, ticket, 0, 0, std::plus<>{});
      epoch.flush();  // the ticket has arrived
    }
  }  // unlock

  std::vector<long> all(per_rank * static_cast<std::size_t>(world.size()));
  world.allgather(tickets, all);
  world.barrier();
  long final_value = -1;
  {
    auto epoch = counter.lock(0, thinmpi::lock_type::shared);
    const long nothing = 0;
    epoch.fetch_and_op(nothing, final_value, 0, 0, thinmpi::no_op);
    epoch.unlock();
  }
  std::sort(all.begin(), all.end());
  std::vector<long> expected(all.size());
  std::iota(expected.begin(), expected.end(), 0L);
  return {all.size(), all == expected, final_value};
}
//> END COUNTER THINMPI

}  // namespace rma_counter_example
