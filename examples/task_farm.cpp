// A task farm: rank 0 hands out small tasks one at a time, each worker returns a result and gets
// the next task; any worker may answer first (any_source). Messages are a few bytes, the kind
// MPI's matching and request machinery costs most on. The same farm runs twice, over the
// communicator (MPI) and over a thinmpi::node_channel (shared memory within a node), and both
// results are checked against a serial computation; the time per task of each is printed, not
// judged (wrapper-bench's node suite measures the channel).
//
//   mpiexec -n 4 ./example_task_farm

#include <cstdint>
#include <cstdio>

#include "thinmpi/thinmpi.hpp"

namespace {

constexpr int tasks = 3000;
constexpr int task_tag = 1;
constexpr int result_tag = 2;
constexpr int stop = -1;

struct result {
  int task;
  std::int64_t steps;
};

/// The work of one task: the Collatz steps of the 8 numbers of its block, summed.
std::int64_t work(int task) {
  std::int64_t total = 0;
  for (std::int64_t n = std::int64_t{task} * 8 + 1; n <= std::int64_t{task} * 8 + 8; ++n) {
    for (std::int64_t x = n; x != 1; x = x % 2 == 0 ? x / 2 : 3 * x + 1)
      ++total;
  }
  return total;
}

/// Runs the farm over `link` (a communicator or a node_channel: both send and receive so);
/// returns the sum of the results on rank 0.
template <class Link>
std::int64_t farm(const Link& link, int rank, int size) {
  if (size == 1) {  // nobody to hand tasks to
    std::int64_t sum = 0;
    for (int t = 0; t < tasks; ++t)
      sum += work(t);
    return sum;
  }
  if (rank != 0) {
    while (true) {
      const int task = link.template recv<int>(0, task_tag);
      if (task == stop) return 0;
      link.send(result{task, work(task)}, 0, result_tag);
    }
  }
  int next = 0;
  for (int w = 1; w < size; ++w)  // one task for each worker to begin with
    link.send(next < tasks ? next++ : stop, w, task_tag);
  std::int64_t sum = 0;
  for (int done = 0; done < tasks; ++done) {
    auto [r, st] = link.template recv_with_status<result>(thinmpi::any_source, result_tag);
    sum += r.steps;
    link.send(next < tasks ? next++ : stop, st.source(), task_tag);
  }
  return sum;
}

}  // namespace

int main(int argc, char** argv) {
  thinmpi::environment env(argc, argv);
  auto world = thinmpi::world();
  const int rank = world.rank();
  const int size = world.size();
  thinmpi::node_channel channel(world);

  world.barrier();
  double start = MPI_Wtime();
  const std::int64_t by_mpi = farm(world, rank, size);
  const double mpi_time = MPI_Wtime() - start;
  world.barrier();
  start = MPI_Wtime();
  const std::int64_t by_channel = farm(channel, rank, size);
  const double channel_time = MPI_Wtime() - start;

  if (rank == 0) {
    std::int64_t serial = 0;
    for (int t = 0; t < tasks; ++t)
      serial += work(t);
    const bool ok = by_mpi == serial && by_channel == serial;
    std::printf(
        "task farm: %d tasks on %d workers, %s; %.2f us a task by MPI, %.2f us over the "
        "node channel\n",
        tasks, size - 1, ok ? "both match the serial sum" : "MISMATCH", mpi_time / tasks * 1e6,
        channel_time / tasks * 1e6);
    return ok ? 0 : 1;
  }
}
