// Two coupled models over an intercommunicator: the lower half of the ranks runs an "ocean",
// the upper half an "atmosphere", each on its own communicator. Every step each model reduces
// its mean temperature over its own ranks, the two roots swap them across the intercommunicator
// (a broadcast each way, the root's side named in the call), and every cell relaxes toward
// the other model's mean. At the end the atmosphere's root gathers the ocean's cells across the
// intercommunicator and the whole run is checked against the same computation made serially.
//
//   mpiexec -n 4 ./example_coupled_models    (2 ranks or more)

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <vector>

#include "thinmpi/thinmpi.hpp"

namespace {

constexpr int cells_per_rank = 8;
constexpr int steps = 50;
constexpr double rate = 0.1;

double start_value(bool ocean, int cell) {
  return ocean ? 10.0 + 0.5 * cell : 30.0 - 0.25 * cell;
}

/// Both models on one process: the reference for every rank's result.
struct serial_run {
  std::vector<double> ocean, air;
  serial_run(int ocean_cells, int air_cells) {
    for (int c = 0; c < ocean_cells; ++c)
      ocean.push_back(start_value(true, c));
    for (int c = 0; c < air_cells; ++c)
      air.push_back(start_value(false, c));
    for (int s = 0; s < steps; ++s) {
      const double ocean_mean = mean(ocean), air_mean = mean(air);
      for (double& x : ocean)
        x += rate * (air_mean - x);
      for (double& x : air)
        x += rate * (ocean_mean - x);
    }
  }
  static double mean(const std::vector<double>& v) {
    double sum = 0;
    for (const double x : v)
      sum += x;
    return sum / static_cast<double>(v.size());
  }
};

}  // namespace

int main(int argc, char** argv) {
  thinmpi::environment env(argc, argv);
  auto world = thinmpi::world();
  if (world.size() < 2) {
    if (world.rank() == 0) std::printf("coupled_models: run on 2 ranks or more\n");
    return 1;
  }
  const int ocean_ranks = world.size() / 2;
  const bool ocean = world.rank() < ocean_ranks;
  const thinmpi::communicator model = world.split(ocean ? 0 : 1);
  // Leaders: each model's rank 0; the bridge is world, where the other leader is rank 0 or
  // ocean_ranks.
  const thinmpi::intercommunicator coupler =
      thinmpi::intercommunicator::create(model, 0, world, ocean ? ocean_ranks : 0, 1);

  std::vector<double> cells;
  for (int c = 0; c < cells_per_rank; ++c)
    cells.push_back(start_value(ocean, model.rank() * cells_per_rank + c));
  const int my_cells = model.size() * cells_per_rank;
  for (int s = 0; s < steps; ++s) {
    double sum = 0;
    for (const double x : cells)
      sum += x;
    const double my_mean = model.allreduce(sum, std::plus<>{}) / my_cells;
    double other_mean = 0;
    // The ocean's root sends first, then the atmosphere's: each call names the root's side,
    // and a broadcast reaches every rank of the other group.
    if (ocean) {
      coupler.bcast(my_mean, thinmpi::local_root(0));
      coupler.bcast(other_mean, thinmpi::remote_root(0));
    } else {
      coupler.bcast(other_mean, thinmpi::remote_root(0));
      coupler.bcast(my_mean, thinmpi::local_root(0));
    }
    for (double& x : cells)
      x += rate * (other_mean - x);
  }
  // The check: the atmosphere's root gathers the ocean's cells across the intercommunicator,
  // and its own model's cells over its communicator; both against the serial run.
  const serial_run reference(ocean_ranks * cells_per_rank,
                             (world.size() - ocean_ranks) * cells_per_rank);
  bool same = true;
  if (ocean) {
    coupler.gather(cells, thinmpi::remote_root(0));
  } else {
    std::vector<double> ocean_cells(static_cast<std::size_t>(ocean_ranks * cells_per_rank));
    coupler.gather(ocean_cells, thinmpi::local_root(0));
    if (model.rank() == 0) {
      for (std::size_t c = 0; c < ocean_cells.size(); ++c)
        same = same && std::fabs(ocean_cells[c] - reference.ocean[c]) < 1e-12;
    }
    const auto first = static_cast<std::size_t>(model.rank() * cells_per_rank);
    for (std::size_t c = 0; c < cells.size(); ++c)
      same = same && std::fabs(cells[c] - reference.air[first + c]) < 1e-12;
  }
  const bool ok = world.allreduce(same, std::logical_and<>{});
  if (world.rank() == ocean_ranks) {
    std::printf("coupled_models: ocean on %d ranks, atmosphere on %d, %d steps, %s\n", ocean_ranks,
                world.size() - ocean_ranks, steps, ok ? "both match the serial run" : "WRONG");
  }
  return ok ? 0 : 1;
}
