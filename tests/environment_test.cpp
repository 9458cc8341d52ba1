// The environment and the queries that need no communicator.

#include <gtest/gtest.h>

#include <string>

#include "thinmpi/thinmpi.hpp"

namespace {

TEST(Environment, MpiIsRunning) {
  EXPECT_TRUE(thinmpi::initialized());
  EXPECT_FALSE(thinmpi::finalized());
}

TEST(Environment, ASecondEnvironmentUsesTheRunningMpi) {
  int provided = -1;
  MPI_Query_thread(&provided);
  const thinmpi::environment second;
  EXPECT_FALSE(second.owns_mpi());
  EXPECT_EQ(static_cast<int>(second.provided()), provided);
  EXPECT_EQ(thinmpi::query_thread(), second.provided());
}  // destroying it must not finalize: the next tests still communicate

TEST(Environment, StillRunningAfterTheSecondEnvironment) {
  EXPECT_FALSE(thinmpi::finalized());
  EXPECT_GE(thinmpi::world().size(), 1);
}

TEST(Environment, ClockAndNames) {
  const double before = thinmpi::wtime();
  const double after = thinmpi::wtime();
  EXPECT_GE(after, before);
  EXPECT_GT(thinmpi::wtick(), 0.0);
  EXPECT_LT(thinmpi::wtick(), 1.0);
  EXPECT_FALSE(thinmpi::processor_name().empty());
  const std::string version = thinmpi::library_version();
  EXPECT_TRUE(version.find("Open MPI") != std::string::npos ||
              version.find("MPICH") != std::string::npos)
      << version;
}

TEST(Environment, ThreadLevelsAreOrderedAsInMpi) {
  EXPECT_LT(static_cast<int>(thinmpi::thread_level::single),
            static_cast<int>(thinmpi::thread_level::multiple));
  EXPECT_EQ(static_cast<int>(thinmpi::thread_level::funneled), MPI_THREAD_FUNNELED);
  EXPECT_EQ(static_cast<int>(thinmpi::thread_level::serialized), MPI_THREAD_SERIALIZED);
  EXPECT_EQ(static_cast<int>(thinmpi::thread_level::multiple), MPI_THREAD_MULTIPLE);
  EXPECT_LT(static_cast<int>(thinmpi::thread_level::funneled),
            static_cast<int>(thinmpi::thread_level::serialized));
  EXPECT_LT(static_cast<int>(thinmpi::thread_level::serialized),
            static_cast<int>(thinmpi::thread_level::multiple));
}

TEST(Environment, ASecondEnvironmentAskingForSerializedGetsTheRunningLevel) {
  const thinmpi::environment second(thinmpi::thread_level::serialized);
  EXPECT_FALSE(second.owns_mpi());
  EXPECT_EQ(second.provided(), thinmpi::query_thread());
}

}  // namespace
