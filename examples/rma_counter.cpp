// A global counter in one-sided communication: rank 0's window holds one long, and every rank
// draws tickets from it with fetch_and_op (MPI_Fetch_and_op with MPI_SUM) under a shared lock,
// without rank 0 taking part. The tickets of all ranks are then checked to be 0 .. N-1, each
// drawn once, and the counter to read N.

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <numeric>
#include <vector>

#include "thinmpi/thinmpi.hpp"

int main(int argc, char** argv) {
  thinmpi::environment env(argc, argv);
  auto world = thinmpi::world();
  constexpr std::size_t per_rank = 1000;

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
  const bool ok = all == expected && final_value == static_cast<long>(all.size());
  if (world.rank() == 0) {
    std::printf("%zu tickets from %d ranks, %s; the counter reads %ld\n", all.size(), world.size(),
                ok ? "each drawn once" : "NOT each drawn once", final_value);
  }
  return ok ? 0 : 1;
}
