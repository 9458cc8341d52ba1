// Tests for the rows of docs/reliability.md (the MPI Bugs Initiative's error classes) that are
// not shown by another suite: resources thinmpi frees by construction, persistent requests.

#include <gtest/gtest.h>

#include "thinmpi/thinmpi.hpp"

// The MPI profiling interface counts the communicators and groups this program makes and frees
// (each call goes on to the real PMPI_ function): a leak then fails the test on every MPI, not
// only where it runs out of something (MPICH 4.0 has 2048 context ids; Open MPI's limit is far
// higher, so a leaking loop of 3000 passes there).
namespace {
long communicators_made = 0;
long communicators_freed = 0;
long groups_made = 0;
long groups_freed = 0;
void count_made(int rc, MPI_Comm made) {
  if (rc == MPI_SUCCESS && made != MPI_COMM_NULL) ++communicators_made;
}
}  // namespace

extern "C" {
int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* out) {
  const int rc = PMPI_Comm_dup(comm, out);
  count_made(rc, *out);
  return rc;
}
int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* out) {
  const int rc = PMPI_Comm_create(comm, group, out);
  count_made(rc, *out);
  return rc;
}
int MPI_Comm_free(MPI_Comm* comm) {
  ++communicators_freed;
  return PMPI_Comm_free(comm);
}
int MPI_Comm_group(MPI_Comm comm, MPI_Group* group) {
  const int rc = PMPI_Comm_group(comm, group);
  if (rc == MPI_SUCCESS) ++groups_made;
  return rc;
}
int MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group* out) {
  const int rc = PMPI_Group_incl(group, n, ranks, out);
  if (rc == MPI_SUCCESS) ++groups_made;
  return rc;
}
int MPI_Group_free(MPI_Group* group) {
  ++groups_freed;
  return PMPI_Group_free(group);
}
}

namespace {

// MBI "resource leak" (communicator and group leaks): thinmpi::communicator frees itself, and
// subset() frees the groups it makes, so 3000 communicators and 3000 pairs of groups come and
// go; the counts above show each one freed (on MPICH the loop would also run out of context
// ids after about 2000).
TEST(ResourceLeak, CommunicatorsAndGroupsAreFreed) {
  auto world = thinmpi::world();
  const long comms_before = communicators_made - communicators_freed;
  const long groups_before = groups_made - groups_freed;
  for (int i = 0; i < 1500; ++i) {
    const auto copy = world.dup();
    ASSERT_FALSE(copy.is_null());
    const auto all = world.subset({0});
    ASSERT_EQ(all.is_null(), world.rank() != 0);
  }
  EXPECT_EQ(communicators_made - communicators_freed, comms_before);
  EXPECT_EQ(groups_made - groups_freed, groups_before);
  EXPECT_GE(groups_made, 3000);  // the counting itself works: two groups a subset()
  const auto last = world.dup();
  EXPECT_EQ(last.size(), world.size());
  EXPECT_EQ(communicators_made - communicators_freed, comms_before + 1);
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
