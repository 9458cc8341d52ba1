// Tests for the rows of docs/reliability.md (the MPI Bugs Initiative's error classes) that are
// not shown by another suite: resources thinmpi frees by construction, persistent requests.

#include <gtest/gtest.h>

#include "thinmpi/thinmpi.hpp"

namespace {

// MBI "resource leak" (communicator and group leaks). MPICH 4.0 has 2048 context ids: a program
// that creates communicators in a loop without MPI_Comm_free fails after about 2000 of them
// (Open MPI's limit is higher). thinmpi::communicator frees itself, and subset() frees the
// groups it makes, so 3000 come and go.
TEST(ResourceLeak, CommunicatorsAndGroupsAreFreed) {
  auto world = thinmpi::world();
  for (int i = 0; i < 1500; ++i) {
    const auto copy = world.dup();
    ASSERT_FALSE(copy.is_null());
    const auto all = world.subset({0});
    ASSERT_EQ(all.is_null(), world.rank() != 0);
  }
  const auto last = world.dup();
  EXPECT_EQ(last.size(), world.size());
}

// MBI "request lifecycle" for persistent requests: starting a round while one runs is an error
// that names the request (MPI leaves it undefined); the request stays usable; one never started
// is freed by its destructor without a round.
TEST(RequestLifecycle, PersistentStartWhileActiveIsAnError) {
  auto world = thinmpi::world();
  auto barrier = world.barrier_init();
  const auto never_started = world.barrier_init();
  barrier.start();
  try {
    barrier.start();
    ADD_FAILURE() << "a second start() of a running round did not throw";
  } catch (const thinmpi::mpi_error& e) {
    EXPECT_EQ(e.error_class(), MPI_ERR_REQUEST) << e.what();
  }
  EXPECT_TRUE(barrier.active());
  barrier.wait();
  EXPECT_FALSE(barrier.active());
  barrier.start();
  barrier.wait();
  EXPECT_FALSE(never_started.active());
}

}  // namespace
