// GoogleTest main for MPI tests: every rank runs every test; rank 0 prints the usual report,
// the other ranks print only their failures, tagged with their rank. Ranks meet at a barrier
// after each test so that one test's messages never reach the next, and the exit code is the
// same on every rank: non-zero if any rank failed. Built with THINMPI_TEST_THREAD_MULTIPLE
// (thinmpi_add_mpi_test(... THREADS)) it asks MPI for thread_level::multiple.

#include <gtest/gtest.h>

#include <cstdio>

#include "thinmpi/thinmpi.hpp"

namespace {

class rank_failure_printer : public testing::EmptyTestEventListener {
 public:
  explicit rank_failure_printer(int rank) : rank_(rank) {}

  void OnTestPartResult(const testing::TestPartResult& result) override {
    if (!result.failed()) return;
    std::fprintf(stderr, "[rank %d] %s:%d: Failure\n%s\n", rank_,
                 result.file_name() != nullptr ? result.file_name() : "?", result.line_number(),
                 result.summary());
  }

 private:
  int rank_;
};

class barrier_after_each_test : public testing::EmptyTestEventListener {
 public:
  void OnTestEnd(const testing::TestInfo&) override { thinmpi::world().barrier(); }
};

}  // namespace

int main(int argc, char** argv) {
#if defined(THINMPI_TEST_THREAD_MULTIPLE)
  thinmpi::environment env(argc, argv, thinmpi::thread_level::multiple);
#else
  thinmpi::environment env(argc, argv);
#endif
  testing::InitGoogleTest(&argc, argv);
  const int rank = thinmpi::world().rank();
  testing::TestEventListeners& listeners = testing::UnitTest::GetInstance()->listeners();
  if (rank != 0) {
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new rank_failure_printer(rank));
  }
  listeners.Append(new barrier_after_each_test);
  const int failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  int any_failed = 0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return any_failed;
}
