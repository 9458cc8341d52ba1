// MPL's own parallel sort application, timed in the collectives harness beside our sample sort:
//
//   mpl/sample_sort/example      parallel_sort (examples/parallel_sort_mpl.cc of the MPL source,
//                                unmodified): allgather of size - 1 samples per rank, allgather
//                                of the block sizes, alltoallv over indexed layouts
//                                                                  vs c/sample_sort/program
//   mpl/sample_sort/example_mpi  its plain-MPI twin, parallel_sort_mpi.c
//                                (bench/programs/mpl_sort_mpi.c)  vs c/sample_sort/program
//
// What is ours: only this driver. Their .cc is included whole (its folder is a system include
// folder, bench/cmake/WbPeerPrograms.cmake), its main renamed by a macro, because that main sorts
// 10^8 / size random doubles once and times nothing. Their parallel_sort is a template: it sorts
// the ints of bench/programs's input (T = int, the same ints per rank as c/sample_sort/program)
// on mpl::environment::comm_world(), which is MPI_COMM_WORLD, the harness's communicator.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <iterator>
#include <mpl/mpl.hpp>
#include <random>
#include <vector>

#define main wb_mpl_parallel_sort_main
#include <parallel_sort_mpl.cc>
#undef main

#include "coll_variant.h"
#include "cxx_variant.hpp"
#include "programs.h"
#include "sort_check.h"

extern "C" const wb_coll_variant wb_mpl_sort_mpi;  // bench/programs/mpl_sort_mpi.c

namespace {

struct sort_state {
  MPI_Comm comm;
  std::vector<int> input;
  std::vector<int> data;
  std::uint64_t calls = 0;
};

void* setup(MPI_Comm comm, std::size_t count) noexcept {
  int rank = 0, same = MPI_UNEQUAL;
  MPI_Comm_compare(comm, MPI_COMM_WORLD, &same);
  if (same != MPI_IDENT) return nullptr;  // their sort runs on comm_world()
  MPI_Comm_rank(comm, &rank);
  auto* s = new (std::nothrow) sort_state{comm, {}, {}};
  if (!s) return nullptr;
  try {
    s->input.resize(count);
  } catch (const std::exception&) {
    delete s;
    return nullptr;
  }
  for (std::size_t i = 0; i < count; ++i)
    s->input[i] = wb_sort_input(rank, count, i);
  return s;
}

sort_state& of(void* opaque) {
  return *static_cast<sort_state*>(opaque);
}

void call(void* p) noexcept {
  wb_cxx::in_call("MPL's parallel sort", [p] {
    auto& s = of(p);
    wb_sort_next_input(s.data, s.input, s.calls);
    parallel_sort(s.data);
  });
}

int verify(void* p) {
  const auto& s = of(p);
  return wb_sort_check(s.comm, s.input.data(), s.input.size(), s.data.data(), s.data.size());
}

void teardown(void* p) {
  delete static_cast<sort_state*>(p);
}

}  // namespace

// MPL's environment (the static object behind comm_world()) is destroyed after the harness's
// MPI_Finalize, and its communicators' destructors call MPI_Comm_compare to learn whether they
// hold MPI_COMM_WORLD or MPI_COMM_SELF (which they must not free); an MPL program lets that
// environment finalize MPI after them. Once MPI is finalized, wb_coll answers the comparison
// from the handles (the process is ending; nothing is left to free), as mpl_coll.cpp does for
// MPI_Op_free; before, it is PMPI_Comm_compare.
extern "C" int MPI_Comm_compare(MPI_Comm first, MPI_Comm second, int* result) {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) {
    *result = first == second ? MPI_IDENT : MPI_UNEQUAL;
    return MPI_SUCCESS;
  }
  return PMPI_Comm_compare(first, second, result);
}

extern "C" size_t wb_mpl_program_variants(const wb_coll_variant** table) {
  static const wb_coll_variant variants[] = {
      {"mpl", "sample_sort", "example", "c/sample_sort/program", WB_COLL_PROGRAM, setup, call,
       verify, teardown},
      wb_mpl_sort_mpi};
  *table = variants;
  return sizeof variants / sizeof variants[0];
}
