// Sample sort (examples/sample_sort.hpp) of 100,000 generated ints per rank, checked: each rank's
// share is sorted and below the next rank's, and the count and sum over all ranks are unchanged.
//
//   mpiexec -n 4 ./example_sample_sort

#include <algorithm>
#include <array>
#include <cstdio>
#include <functional>
#include <numeric>
#include <vector>

#include "sample_sort.hpp"

int main(int argc, char** argv) {
  thinmpi::environment env(argc, argv);
  auto world = thinmpi::world();
  const int rank = world.rank();
  std::vector<int> data(100000);
  std::minstd_rand random(static_cast<unsigned>(rank) + 1);
  for (int& value : data)
    value = static_cast<int>(random() % 1000000);
  const std::array<long long, 2> before{static_cast<long long>(data.size()),
                                        std::accumulate(data.begin(), data.end(), 0LL)};

  sample_sort_example::sort(world, data, 42);

  const std::array<long long, 2> after{static_cast<long long>(data.size()),
                                       std::accumulate(data.begin(), data.end(), 0LL)};
  const bool sorted = std::is_sorted(data.begin(), data.end());
  const int last = data.empty() ? -1 : data.back();
  const std::vector<int> lasts = world.allgather(last);
  bool ordered = true;
  for (int r = 0; r < rank; ++r)
    ordered = ordered && (data.empty() || lasts[static_cast<std::size_t>(r)] <= data.front());
  const bool ok = world.allreduce(sorted && ordered, std::logical_and<>{});
  const auto total_before = world.allreduce(before, std::plus<>{});
  const auto total_after = world.allreduce(after, std::plus<>{});
  if (rank == 0)
    std::printf("sample sort: %lld ints, sum %lld, %s\n", total_after[0], total_after[1],
                ok && total_before == total_after ? "sorted and a permutation" : "WRONG");
  return ok && total_before == total_after ? 0 : 1;
}
