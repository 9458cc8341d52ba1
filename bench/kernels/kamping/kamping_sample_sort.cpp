// KaMPIng's own sample sort application (examples/applications/sample-sort of the KaMPIng
// source, unmodified), timed in the collectives harness beside our sample sort:
//
//   kamping/sample_sort/example      kamping::sort (its kamping.hpp): allgather of the samples,
//                                    alltoallv of the flattened buckets (counts exchanged by
//                                    KaMPIng)                      vs c/sample_sort/program
//   kamping/sample_sort/example_mpi  mpi::sort (its mpi.hpp): the same in plain MPI calls
//                                                                  vs c/sample_sort/program
//
// What is ours: only this driver. Their sample_sort.cpp's main generates uint64_t keys, runs each
// sort once and times nothing, so it is not built; we include their two headers (through the
// include folder examples/applications, bench/cmake/WbPeerPrograms.cmake) and call their sort
// functions on the input of bench/programs (the same ints per rank as c/sample_sort/program,
// T = int), with the seed their main gives (seed 42 + rank + size). Each call copies the input
// first, as the C program's call does.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <numeric>
#include <vector>

// clang-format off: theirs, in this order (mpi.hpp uses what kamping.hpp includes).
#include <sample-sort/kamping.hpp>
#include <sample-sort/mpi.hpp>
// clang-format on

#include "coll_variant.h"
#include "cxx_variant.hpp"
#include "programs.h"
#include "sort_check.h"

namespace {

struct sort_state {
  MPI_Comm comm;
  seed_type seed;
  std::vector<int> input;
  std::vector<int> data;
  std::uint64_t calls = 0;
};

void* setup(MPI_Comm comm, std::size_t count) noexcept {
  return wb_cxx::in_setup([&]() -> void* {
    int rank = 0, size = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    auto* s = new sort_state{comm,
                             42 + static_cast<seed_type>(rank) + static_cast<seed_type>(size),
                             std::vector<int>(count),
                             {}};
    for (std::size_t i = 0; i < count; ++i)
      s->input[i] = wb_sort_input(rank, count, i);
    return s;
  });
}

sort_state& of(void* opaque) {
  return *static_cast<sort_state*>(opaque);
}

/// Runs one sort; an exception ends the job (it cannot cross the C harness).
template <class Sort>
void guarded(void* opaque, Sort sort) noexcept {
  wb_cxx::in_call("KaMPIng's sample sort", [&] {
    auto& s = of(opaque);
    wb_sort_next_input(s.data, s.input, s.calls);
    sort(s);
  });
}

void call_kamping(void* p) {
  guarded(p, [](sort_state& s) { kamping::sort(s.comm, s.data, s.seed); });
}

void call_mpi(void* p) {
  guarded(p, [](sort_state& s) { mpi::sort(s.comm, s.data, s.seed); });
}

int verify(void* p) {
  const auto& s = of(p);
  return wb_sort_check(s.comm, s.input.data(), s.input.size(), s.data.data(), s.data.size());
}

void teardown(void* p) {
  delete static_cast<sort_state*>(p);
}

constexpr wb_coll_variant variant(const char* form, void (*call)(void*)) {
  return wb_coll_variant{"kamping",       "sample_sort", form, "c/sample_sort/program",
                         WB_COLL_PROGRAM, setup,         call, verify,
                         teardown};
}

}  // namespace

extern "C" size_t wb_kamping_program_variants(const wb_coll_variant** table) {
  static const wb_coll_variant variants[] = {variant("example", call_kamping),
                                             variant("example_mpi", call_mpi)};
  *table = variants;
  return sizeof variants / sizeof variants[0];
}
