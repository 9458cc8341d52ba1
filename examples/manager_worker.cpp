// A manager that spawns its workers: started alone (mpiexec -n 1), it starts three copies of
// its own program (MPI_Comm_spawn through thinmpi::spawn), hands each a share of 3000 tasks
// over the intercommunicator (a scatter from its side), and takes the workers' sums back (a
// reduce to its side), checked against the serial sum. A worker knows it is one by having a
// parent (thinmpi::parent()).
//
//   mpiexec -n 1 ./example_manager_worker    (Open MPI; MPICH on ch4:ucx cannot spawn)

#include <cstddef>
#include <cstdio>
#include <functional>
#include <vector>

#include "thinmpi/thinmpi.hpp"

namespace {

constexpr int workers = 3;
constexpr int tasks_per_worker = 1000;

long long work(int task) {
  return static_cast<long long>(task) * task % 1009;
}

int worker(const thinmpi::inter_view& manager) {
  std::vector<int> mine(static_cast<std::size_t>(tasks_per_worker));
  manager.scatter(mine, thinmpi::remote_root(0));
  long long sum = 0;
  for (const int task : mine)
    sum += work(task);
  manager.reduce(sum, std::plus<>{}, thinmpi::remote_root(0));
  thinmpi::disconnect_parent();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  thinmpi::environment env(argc, argv);
  if (const thinmpi::inter_view manager = thinmpi::parent(); !manager.is_null()) {
    return worker(manager);
  }
  thinmpi::spawned team;
  try {
    team = thinmpi::spawn(thinmpi::self(), 0, argv[0], {}, workers);
  } catch (const thinmpi::mpi_error& e) {
    std::printf("manager_worker: this MPI cannot spawn: %s\n", e.what());
    return 0;
  }
  std::vector<int> tasks;
  for (int t = 0; t < workers * tasks_per_worker; ++t)
    tasks.push_back(t);
  team.children.scatter(tasks, thinmpi::local_root(0));  // 1000 tasks to each worker
  long long total = 0;
  team.children.reduce(total, std::plus<>{}, thinmpi::local_root(0));
  team.children.disconnect();
  long long serial = 0;
  for (const int t : tasks)
    serial += work(t);
  std::printf("manager_worker: %d workers summed %zu tasks: %s\n", workers, tasks.size(),
              total == serial ? "matches the serial sum" : "WRONG");
  return total == serial ? 0 : 1;
}
