// Communicators: views and owners, the explicit ways to make new ones (dup, split,
// split_shared, subset), and the guarantee that nothing duplicates a communicator behind the
// caller's back.

#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "support/mpi_error_match.hpp"
#include "thinmpi/thinmpi.hpp"

namespace {

using thinmpi_test::throws_mpi_error;

int compare(MPI_Comm a, MPI_Comm b) {
  int result = MPI_UNEQUAL;
  MPI_Comm_compare(a, b, &result);
  return result;
}

MPI_Errhandler errhandler_of(MPI_Comm comm) {
  MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
  MPI_Comm_get_errhandler(comm, &handler);
  return handler;
}

bool returns_errors(MPI_Comm comm) {
  MPI_Errhandler handler = errhandler_of(comm);
  const bool result = handler == MPI_ERRORS_RETURN;
  MPI_Errhandler_free(&handler);
  return result;
}

static_assert(!std::is_copy_constructible_v<thinmpi::communicator>,
              "copying a communicator would be a hidden MPI_Comm_dup");
static_assert(!std::is_copy_assignable_v<thinmpi::communicator>);
static_assert(std::is_nothrow_move_constructible_v<thinmpi::communicator>);
static_assert(std::is_trivially_copyable_v<thinmpi::comm_view>);

// The families comm_view derives from are empty: a view is one MPI handle, passed in a register.
static_assert(sizeof(thinmpi::comm_view) == sizeof(MPI_Comm));
static_assert(std::is_trivially_copyable_v<thinmpi::comm_view>);

TEST(Communicator, WorldAndSelfMatchMpi) {
  auto world = thinmpi::world();
  int rank = -1;
  int size = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  EXPECT_EQ(world.rank(), rank);
  EXPECT_EQ(world.size(), size);
  EXPECT_EQ(world.native(), MPI_COMM_WORLD);
  EXPECT_EQ(thinmpi::self().size(), 1);
  EXPECT_EQ(thinmpi::self().rank(), 0);
  EXPECT_TRUE(returns_errors(MPI_COMM_WORLD));
  EXPECT_TRUE(returns_errors(MPI_COMM_SELF));
  EXPECT_TRUE(thinmpi::world() == world);
}

TEST(Communicator, TagUpperBoundIsTheAttribute) {
  int* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &found);
  ASSERT_NE(found, 0);
  EXPECT_EQ(thinmpi::world().tag_ub(), *value);
  EXPECT_GE(thinmpi::world().tag_ub(), 32767);
}

TEST(Communicator, DupIsANewCommunicatorThatFreesItself) {
  auto world = thinmpi::world();
  MPI_Comm raw = MPI_COMM_NULL;
  {
    thinmpi::communicator copy = world.dup();
    raw = copy.native();
    EXPECT_NE(raw, MPI_COMM_WORLD);
    EXPECT_EQ(compare(raw, MPI_COMM_WORLD), MPI_CONGRUENT);
    EXPECT_EQ(copy.rank(), world.rank());
    EXPECT_TRUE(returns_errors(raw));
    // A view of an owned communicator is just its handle.
    const thinmpi::comm_view view = copy;
    EXPECT_EQ(view.native(), raw);
    thinmpi::communicator moved = std::move(copy);
    EXPECT_TRUE(copy.is_null());  // NOLINT(bugprone-use-after-move): moved-from is null
    EXPECT_EQ(moved.native(), raw);
  }
  // Freed: a fresh dup may reuse the handle, and there is no leak to find at finalize.
  thinmpi::communicator again = world.dup();
  MPI_Comm released = again.release();
  EXPECT_TRUE(again.is_null());
  MPI_Comm_free(&released);
}

TEST(Communicator, SplitByParity) {
  auto world = thinmpi::world();
  const int color = world.rank() % 2;
  thinmpi::communicator half = world.split(color, -world.rank());
  const int expected_size = (world.size() + 1 - color) / 2;
  EXPECT_EQ(half.size(), expected_size);
  // key = -rank reverses the order within each half
  EXPECT_EQ(half.rank(), expected_size - 1 - world.rank() / 2);
  const int sum = color == 0 ? 0 : 1;
  auto sent = half.isend(sum, (half.rank() + 1) % half.size(), 0);
  EXPECT_EQ(half.recv<int>((half.rank() + half.size() - 1) % half.size(), 0), sum);
  sent.wait();
}

TEST(Communicator, SplitWithUndefinedColorGivesNull) {
  auto world = thinmpi::world();
  const bool member = world.rank() == 0;
  thinmpi::communicator only_zero = world.split(member ? 0 : thinmpi::undefined);
  EXPECT_EQ(only_zero.is_null(), !member);
  if (member) {
    EXPECT_EQ(only_zero.size(), 1);
  }
}

TEST(Communicator, SplitSharedHoldsTheRanksOfThisNode) {
  auto world = thinmpi::world();
  thinmpi::communicator node = world.split_shared();
  EXPECT_GE(node.size(), 1);
  EXPECT_LE(node.size(), world.size());
  EXPECT_TRUE(returns_errors(node.native()));
}

TEST(Communicator, SubsetInTheOrderGiven) {
  auto world = thinmpi::world();
  std::vector<int> reversed;
  for (int r = world.size() - 1; r >= 0; r -= 2)
    reversed.push_back(r);
  thinmpi::communicator subset = world.subset(reversed);
  const bool member = (world.size() - 1 - world.rank()) % 2 == 0;
  ASSERT_EQ(subset.is_null(), !member);
  if (member) {
    EXPECT_EQ(subset.size(), static_cast<int>(reversed.size()));
    EXPECT_EQ(subset.rank(), (world.size() - 1 - world.rank()) / 2);
  }
  thinmpi::communicator first = world.subset({0});
  EXPECT_EQ(first.is_null(), world.rank() != 0);
}

// A rank outside the communicator in subset(), or a negative color in split(): the job ends
// (root_only_abort.subset_rank_outside_on_one, .split_negative_color_on_one); checked, every
// rank throws (AlikeErrors in collectives_consistency_checked_test).

/// Set to true by MPI when a communicator carrying the attribute below is freed.
bool adopted_was_freed = false;
int note_freed(MPI_Comm, int, void*, void*) {
  adopted_was_freed = true;
  return MPI_SUCCESS;
}

TEST(Communicator, AdoptTakesOwnershipOfAHandle) {
  MPI_Comm raw = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &raw);
  int keyval = MPI_KEYVAL_INVALID;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, &note_freed, &keyval, nullptr);
  MPI_Comm_set_attr(raw, keyval, nullptr);
  adopted_was_freed = false;
  {
    const thinmpi::communicator adopted = thinmpi::communicator::adopt(raw);
    EXPECT_EQ(adopted.native(), raw);
    EXPECT_EQ(adopted.size(), thinmpi::world().size());
    EXPECT_TRUE(returns_errors(raw));  // adopted handles raise, as every thinmpi one does
    EXPECT_FALSE(adopted_was_freed);
  }  // the owner frees it (MPI_Comm_free runs the attribute's delete function)
  EXPECT_TRUE(adopted_was_freed);
  MPI_Comm_free_keyval(&keyval);
}

TEST(Communicator, WrappingAForeignCommunicatorMakesItReturnErrors) {
  MPI_Comm foreign = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &foreign);
  MPI_Comm_set_errhandler(foreign, MPI_ERRORS_ARE_FATAL);
  const thinmpi::comm_view view(foreign);
  EXPECT_TRUE(returns_errors(foreign));
  // The error comes back as an exception naming the call, not as MPI's fatal handler's abort.
  EXPECT_TRUE(throws_mpi_error([&] { view.send(1, view.size() + 1, 0); }, MPI_ERR_RANK,
                               "MPI_Send(dest " + std::to_string(view.size() + 1)));
  MPI_Comm_free(&foreign);
}

}  // namespace
