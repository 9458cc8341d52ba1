// Tests for the rows of docs/reliability.md (the MPI Bugs Initiative's error classes) that are
// not shown by another suite: resources thinmpi frees by construction.

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

}  // namespace
