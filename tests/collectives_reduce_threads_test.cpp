// Stateful reductions under MPI_THREAD_MULTIPLE: two threads, each on its own communicator,
// reduce with lambdas that capture different state, many times over, at the same time. Every
// result must be the one of the calling thread's own lambda (the slots that carry a stateful
// operation into MPI's callback are taken and given back concurrently).

#include <gtest/gtest.h>

#include <functional>
#include <thread>
#include <vector>

#include "thinmpi/thinmpi.hpp"

namespace {

TEST(ReduceThreads, StatefulLambdasFromTwoThreads) {
  if (thinmpi::query_thread() != thinmpi::thread_level::multiple) {
    GTEST_SKIP() << "this MPI library does not provide MPI_THREAD_MULTIPLE";
  }
  auto world = thinmpi::world();
  thinmpi::communicator comms[2] = {world.dup(), world.dup()};
  const int mine = world.rank() + 11;
  const int total = world.allreduce(mine, std::plus<>{});
  constexpr int rounds = 300;
  int wrong[2] = {0, 0};
  const auto work = [&](int which) {
    for (int round = 0; round < rounds; ++round) {
      // State that differs between the threads and changes on every call.
      const int modulus = (which == 0 ? 7 : 13) + round % 4;
      const auto sum_mod = [modulus](int a, int b) { return (a + b) % modulus; };
      const std::vector<int> values(3, mine % modulus);
      const std::vector<int> sums = comms[which].allreduce(values, sum_mod);
      auto request = comms[which].iallreduce(mine % modulus, thinmpi::commutative(sum_mod));
      const int nonblocking = request.wait();
      for (const int s : sums)
        wrong[which] += s != total % modulus;
      wrong[which] += nonblocking != total % modulus;
    }
  };
  std::thread other(work, 1);
  work(0);
  other.join();
  EXPECT_EQ(wrong[0], 0);
  EXPECT_EQ(wrong[1], 0);
}

}  // namespace
