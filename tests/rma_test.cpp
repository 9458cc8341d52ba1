// One-sided communication (include/thinmpi/rma/): windows over a caller's range, allocated,
// shared and dynamic; fence, lock, lock_all and post/start/complete/wait epochs; put, get,
// accumulate, get_accumulate, fetch_and_op, compare_and_swap and the request-based forms, each
// checked against values every rank can predict and, where useful, against the same calls in
// plain C MPI on the same communicator. Bad input (a target outside the window, a displacement
// past it, a wrong lock type, an epoch of the wrong kind, an epoch or window moved from) is an
// mpi_error naming it, found before MPI is called, and the window works afterwards. The
// mistakes only one rank makes in a call every rank enters (a window's creation, a fence,
// free, post and start) end the job or, checked, throw on every rank: the cases of
// faults/root_only_rma_cases.hpp, run by root_only_abort and collectives_consistency_checked.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "support/mpi_error_match.hpp"
#include "support/ring.hpp"
#include "thinmpi/thinmpi.hpp"

namespace {

using thinmpi_test::error_from;
using thinmpi_test::mentions;
using thinmpi_test::ring;
using thinmpi_test::uz;

/// Whether MPI_Win_create works on MPI_COMM_WORLD in plain C (collective). Open MPI 4.1.4 as
/// Debian 12 configures it (osc = ^ucx,pt2pt in /etc/openmpi/openmpi-mca-params.conf) fails
/// MPI_Win_create and MPI_Win_create_dynamic on a single rank with MPI_ERR_WIN, in C as in
/// thinmpi: only osc/rdma is left for them, and it finds no RDMA-capable path for one process
/// (MPI_Win_allocate and MPI_Win_allocate_shared work: osc/sm). The tests of those two calls
/// skip there, and CreateFailureIsAnMpiError checks what thinmpi reports instead.
bool c_window_create_works() {
  static const bool works = [] {
    int buffer = 0;
    MPI_Win win = MPI_WIN_NULL;
    const int rc =
        MPI_Win_create(&buffer, sizeof buffer, sizeof buffer, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rc == MPI_SUCCESS) MPI_Win_free(&win);
    const int ok = rc == MPI_SUCCESS ? 1 : 0;
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all == 1;
  }();
  return works;
}

constexpr const char* create_quirk =
    "MPI_Win_create fails in plain C here (Open MPI 4.1 on one rank, osc = ^ucx,pt2pt)";

/// Whether one-sided communication runs on Open MPI's osc/rdma (Debian's default; the
/// multihost runs choose osc/pt2pt through OMPI_MCA_osc).
bool osc_rdma() {
#if defined(OMPI_MAJOR_VERSION)
  const char* osc = std::getenv("OMPI_MCA_osc");
  return osc == nullptr || std::string_view(osc).find("pt2pt") == std::string_view::npos;
#else
  return false;
#endif
}

/// The fewest ints most test windows hold (AllocatedPartsOfAnySizeAreReached covers 1 to 3).
constexpr std::size_t few = 4;

/// Every rank's window holds 4 + rank elements (so sizes differ between ranks).
std::size_t elements_at(int rank) {
  return 4 + uz(rank);
}

/// Sets this rank's part of an allocated window to `value` through an epoch (portable in both
/// memory models), then waits for every rank to have done so (collective).
template <class Window, class T>
void fill_window(Window& win, int rank, T value) {
  const std::vector<T> values(win.size_at(rank), value);  // MPI reads it until the unlock
  {
    auto epoch = win.lock(rank, thinmpi::lock_type::exclusive);
    epoch.put(values, rank, 0);
  }
  thinmpi::world().barrier();
}

/// What a window's element holds at `rank`, read through a lock epoch.
template <class Window, class T>
T read_element(Window& win, int rank, std::size_t disp) {
  T value{};
  auto epoch = win.lock(rank, thinmpi::lock_type::shared);
  epoch.get(value, rank, disp);
  epoch.unlock();
  return value;
}

/// "rank 2 is not in the window, whose 2 ranks are 0 to 1": MPI_ERR_RANK's sentence.
std::string not_in_window(int target, int size) {
  return "rank " + std::to_string(target) + " is not in the window, whose " +
         (size == 1 ? std::string("1 rank is 0")
                    : std::to_string(size) + " ranks are 0 to " + std::to_string(size - 1)) +
         " [MPI_ERR_RANK]";
}

TEST(RmaWindow, FencePutAndGetMatchPlainC) {
  if (!c_window_create_works()) GTEST_SKIP() << create_quirk;
  auto world = thinmpi::world();
  const ring r(world);
  std::vector<int> mine(elements_at(r.rank), -1);
  std::vector<int> got(3, -1);
  const std::vector<int> sent = thinmpi_test::iota_from(100 * r.rank, 4);
  {
    auto win = thinmpi::window<int>::create(world, std::span(mine));
    auto epoch = win.fence(thinmpi::rma_mode::noprecede);
    epoch.put(sent, r.next(), 0);
    epoch.fence();
    epoch.get(std::span(got), r.prev(), 1);
    epoch.end();
    EXPECT_FALSE(epoch.active());
  }
  // The same in C, into a second buffer.
  std::vector<int> c_mine(elements_at(r.rank), -1);
  std::vector<int> c_got(3, -1);
  MPI_Win c_win = MPI_WIN_NULL;
  MPI_Win_create(c_mine.data(), static_cast<MPI_Aint>(c_mine.size() * sizeof(int)), sizeof(int),
                 MPI_INFO_NULL, MPI_COMM_WORLD, &c_win);
  MPI_Win_fence(MPI_MODE_NOPRECEDE, c_win);
  MPI_Put(sent.data(), 4, MPI_INT, r.next(), 0, 4, MPI_INT, c_win);
  MPI_Win_fence(0, c_win);
  MPI_Get(c_got.data(), 3, MPI_INT, r.prev(), 1, 3, MPI_INT, c_win);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, c_win);
  MPI_Win_free(&c_win);

  EXPECT_EQ(mine, c_mine);
  EXPECT_EQ(got, c_got);
  std::vector<int> expected = thinmpi_test::iota_from(100 * r.prev(), 4);
  expected.resize(elements_at(r.rank), -1);
  EXPECT_EQ(mine, expected);
  const int before_prev = (r.prev() + r.size - 1) % r.size;  // what prev's window received
  EXPECT_EQ(
      got, (std::vector<int>{100 * before_prev + 1, 100 * before_prev + 2, 100 * before_prev + 3}));
}

TEST(RmaWindow, HintsGoToMpiAndTheWindowsWork) {
  if (!c_window_create_works()) GTEST_SKIP() << create_quirk;
  auto world = thinmpi::world();
  const ring r(world);
  const thinmpi::info hints{{"no_locks", "true"}, {"accumulate_ordering", "none"}};
  std::vector<int> mine(4, -1);
  {
    auto win = thinmpi::window<int>::create(world, std::span(mine), hints);
    MPI_Info held = MPI_INFO_NULL;
    ASSERT_EQ(MPI_Win_get_info(win.native(), &held), MPI_SUCCESS);
    thinmpi::info kept = thinmpi::info::adopt(held);
    EXPECT_EQ(kept.get("no_locks"), std::optional<std::string>("true"));
    auto epoch = win.fence();
    const std::vector<int> sent = thinmpi_test::iota_from(10 * r.rank, 4);
    epoch.put(sent, r.next(), 0);
    epoch.end();
  }
  EXPECT_EQ(mine, thinmpi_test::iota_from(10 * r.prev(), 4));
  auto allocated = thinmpi::window<double>::allocate(world, 3, hints);
  auto fenced = allocated.fence();
  const std::vector<double> values{0.5 * r.rank, 1.0, 2.0};
  fenced.put(values, r.next(), 0);
  fenced.end();
  EXPECT_EQ(allocated.local()[0], 0.5 * r.prev());
  auto dynamic = thinmpi::dynamic_window<int>::create(world, hints);
  EXPECT_FALSE(dynamic.is_null());
  const thinmpi::communicator node = world.split_shared();
  auto shared = thinmpi::shared_window<int>::allocate(
      node, 2, thinmpi::info{{"alloc_shared_noncontig", "true"}});
  EXPECT_EQ(shared.local().size(), 2u);
}

TEST(RmaWindow, KnowsEverySizeAndItsModel) {
  if (!c_window_create_works()) GTEST_SKIP() << create_quirk;
  auto world = thinmpi::world();
  std::vector<double> mine(elements_at(world.rank()));
  auto win = thinmpi::window<double>::create(world, std::span(mine));
  EXPECT_EQ(win.rank(), world.rank());
  EXPECT_EQ(win.size(), world.size());
  EXPECT_EQ(win.local().data(), mine.data());
  for (int rank = 0; rank < world.size(); ++rank)
    EXPECT_EQ(win.size_at(rank), elements_at(rank));
  int* c_model = nullptr;
  int found = 0;
  MPI_Win_get_attr(win.native(), MPI_WIN_MODEL, &c_model, &found);
  ASSERT_NE(found, 0);
  EXPECT_EQ(win.model() == thinmpi::memory_model::unified, *c_model == MPI_WIN_UNIFIED);
  win.free();
  EXPECT_TRUE(win.is_null());
  EXPECT_TRUE(win.local().empty());
}

TEST(RmaWindow, CreateFailureIsAnMpiError) {
  if (c_window_create_works()) GTEST_SKIP() << "MPI_Win_create works here";
  int buffer = 0;
  const auto error = error_from(
      [&] { auto win = thinmpi::window<int>::create(thinmpi::world(), std::span(&buffer, 1)); });
  EXPECT_EQ(error.operation(), "MPI_Win_create");
  EXPECT_EQ(error.error_class(), MPI_ERR_WIN);
}

TEST(RmaWindow, ScalarsAndStructsAreElements) {
  struct particle {
    double x;
    int id;
  };
  auto world = thinmpi::world();
  const ring r(world);
  auto win = thinmpi::window<particle>::allocate(world, 2);
  const particle mine{1.5 * r.rank, r.rank};
  {
    auto epoch = win.fence();
    epoch.put(mine, r.next(), 1);
    epoch.end();
  }
  const auto got = read_element<thinmpi::window<particle>, particle>(win, r.rank, 1);
  EXPECT_EQ(got.id, r.prev());
  EXPECT_EQ(got.x, 1.5 * r.prev());
}

// Sizes of 4, 8 and 12 bytes: MPICH 4.0.2 sends operations on the ranks after such a part into
// its padding unless the window asks for a multiple of 16 bytes (window::allocate does).
TEST(RmaWindow, AllocatedPartsOfAnySizeAreReached) {
  auto world = thinmpi::world();
  const ring r(world);
  const std::size_t count = static_cast<std::size_t>(r.rank % 3) + 1;
  auto win = thinmpi::window<int>::allocate(world, count);
  fill_window(win, r.rank, -1);
  EXPECT_EQ(win.size_at(r.rank), count);
  const int mine = 100 + r.rank;  // MPI reads it until the epoch ends
  {
    auto epoch = win.fence();
    const std::size_t last = win.size_at(r.next()) - 1;
    epoch.put(mine, r.next(), last);
    epoch.end();
  }
  // Read in this rank's own memory (the closing fence made it current): a get through the
  // window would be misplaced the same way as the put and hide the fault.
  EXPECT_EQ(win.local()[count - 1], 100 + r.prev());
}

TEST(RmaLock, ExclusiveAccumulateSumsEveryRank) {
  auto world = thinmpi::world();
  auto win = thinmpi::window<long>::allocate(world, 2);
  fill_window(win, world.rank(), 0L);
  const std::vector<long> contribution{1, world.rank()};
  for (int target = 0; target < world.size(); ++target) {
    auto epoch = win.lock(target, thinmpi::lock_type::exclusive);
    EXPECT_EQ(epoch.target(), target);
    epoch.accumulate(contribution, target, 0, std::plus<>{});
    epoch.unlock();
  }
  world.barrier();
  const long n = world.size();
  EXPECT_EQ((read_element<thinmpi::window<long>, long>(win, world.rank(), 0)), n);
  EXPECT_EQ((read_element<thinmpi::window<long>, long>(win, world.rank(), 1)), n * (n - 1) / 2);
}

TEST(RmaLock, FetchAndOpHandsOutEveryTicketOnce) {
  auto world = thinmpi::world();
  auto counter = thinmpi::window<long>::allocate(world, world.rank() == 0 ? 1 : 0);
  fill_window(counter, world.rank(), 0L);
  constexpr int per_rank = 5;
  std::vector<long> tickets;
  {
    auto epoch = counter.lock_all();
    const long one = 1;
    for (int i = 0; i < per_rank; ++i) {
      long ticket = -1;
      epoch.fetch_and_op(one, ticket, 0, 0, std::plus<>{});
      epoch.flush(0);
      tickets.push_back(ticket);
    }
    epoch.unlock_all();
  }
  std::vector<long> all(tickets.size() * uz(world.size()));
  world.allgather(tickets, all);
  std::sort(all.begin(), all.end());
  std::vector<long> expected(all.size());
  std::iota(expected.begin(), expected.end(), 0L);
  EXPECT_EQ(all, expected);
  world.barrier();
  if (world.rank() == 0) {
    EXPECT_EQ((read_element<thinmpi::window<long>, long>(counter, 0, 0)),
              static_cast<long>(all.size()));
  }
}

TEST(RmaLock, CompareAndSwapHasOneWinner) {
  auto world = thinmpi::world();
  auto win = thinmpi::window<int>::allocate(world, few);
  fill_window(win, world.rank(), -1);
  int seen = 0;
  const int expected = -1;
  const int mine = world.rank();
  {
    auto epoch = win.lock(0, thinmpi::lock_type::shared);
    epoch.compare_and_swap(expected, mine, seen, 0, 0);
  }
  const int won = seen == -1 ? 1 : 0;
  EXPECT_EQ(world.allreduce(won, std::plus<>{}), 1);
  world.barrier();
  int winner = -2;
  const int none = 0;
  {
    auto epoch = win.lock(0, thinmpi::lock_type::shared);
    epoch.fetch_and_op(none, winner, 0, 0, thinmpi::no_op);  // an atomic read
  }
  EXPECT_EQ(world.allreduce(seen == -1 ? world.rank() : -1, thinmpi::max), winner);
}

TEST(RmaLock, GetAccumulateReplacesAndReads) {
  auto world = thinmpi::world();
  const ring r(world);
  auto win = thinmpi::window<int>::allocate(world, few);
  fill_window(win, r.rank, r.rank);
  std::vector<int> before(3, -9);
  std::vector<int> now(3, -9);
  const std::vector<int> swapped{7, 8, 9};
  const std::vector<int> unused(3);
  {
    auto epoch = win.lock(r.next(), thinmpi::lock_type::exclusive);
    epoch.get_accumulate(swapped, before, r.next(), 0, thinmpi::replace);
    epoch.flush();
    epoch.get_accumulate(unused, now, r.next(), 0, thinmpi::no_op);
    epoch.unlock();
  }
  EXPECT_EQ(before, std::vector<int>(3, r.next()));
  EXPECT_EQ(now, swapped);
  const auto error = error_from([&] {
    auto epoch = win.lock(r.next());
    std::vector<int> short_result(2);
    epoch.get_accumulate(swapped, short_result, r.next(), 0, thinmpi::replace);
  });
  EXPECT_EQ(error.error_class(), MPI_ERR_COUNT);
  EXPECT_TRUE(mentions(error.what(), "the origin holds 3 elements and the result 2"));
}

TEST(RmaRequests, OwningAndBorrowingRequests) {
  auto world = thinmpi::world();
  const ring r(world);
  auto win = thinmpi::window<int>::allocate(world, 4);
  fill_window(win, r.rank, 0);
  {
    auto epoch = win.lock_all();
    auto put = epoch.rput(std::vector<int>{r.rank, r.rank, r.rank}, r.next(), 0);
    const std::vector<int> back = put.wait();  // owned: handed back, locally complete
    EXPECT_EQ(back, std::vector<int>(3, r.rank));
    const int one = 1;
    auto added = epoch.raccumulate(one, r.next(), 3, std::plus<>{});
    static_cast<void>(added.wait());  // borrowed: nothing to hand back
    epoch.flush_all();
    // Only this rank writes into next's window: after the flush, all of it is there.
    auto got = epoch.rget(std::vector<int>(4), r.next(), 0);
    EXPECT_EQ(got.wait(), (std::vector<int>{r.rank, r.rank, r.rank, 1}));
    std::vector<int> into(2, -1);
    auto borrowed = epoch.rget(std::span(into), r.next(), 0);
    while (!borrowed.test()) {
    }
    EXPECT_EQ(into, std::vector<int>(2, r.rank));
    auto swapped = epoch.rget_accumulate(std::vector<int>{5}, std::vector<int>(1), r.next(), 3,
                                         thinmpi::replace);
    EXPECT_EQ(swapped.wait(), std::vector<int>{1});
    epoch.unlock_all();
  }
  world.barrier();
  EXPECT_EQ((read_element<thinmpi::window<int>, int>(win, r.rank, 0)), r.prev());
  EXPECT_EQ((read_element<thinmpi::window<int>, int>(win, r.rank, 3)), 5);
}

TEST(RmaSharedWindow, PeersSegmentsAreSpans) {
  auto world = thinmpi::world();
  auto node = world.split_shared();
  const ring r(node);
  auto win = thinmpi::shared_window<int>::allocate(node, uz(r.rank) + 1);
  EXPECT_EQ(win.local().size(), uz(r.rank) + 1);
  {
    auto epoch = win.lock_all();
    for (int& element : win.local())
      element = 10 * r.rank;
    epoch.sync();
    node.barrier();
    epoch.sync();
    const std::span<int> left = win.shared_query(r.prev());
    ASSERT_EQ(left.size(), uz(r.prev()) + 1);
    for (const int element : left)
      EXPECT_EQ(element, 10 * r.prev());
    EXPECT_EQ(win.size_at(r.prev()), uz(r.prev()) + 1);
    // RMA on the shared window works as on any other.
    int got = -1;
    epoch.get(got, r.prev(), 0);
    epoch.flush(r.prev());
    EXPECT_EQ(got, 10 * r.prev());
    node.barrier();
  }
}

TEST(RmaDynamicWindow, AttachPutDetach) {
  if (!c_window_create_works()) GTEST_SKIP() << create_quirk;
  auto world = thinmpi::world();
  const ring r(world);
  auto win = thinmpi::dynamic_window<int>::create(world);
  std::vector<int> data(elements_at(r.rank), -1);
  const thinmpi::region<int> mine = win.attach(std::span(data));
  EXPECT_EQ(mine.count, data.size());
  EXPECT_EQ(mine.rank, r.rank);
  std::vector<thinmpi::region<int>> regions(uz(r.size));
  world.allgather(mine, regions);
  const int value = r.rank;
  {
    auto epoch = win.lock_all();
    epoch.put(value, r.next(), regions[uz(r.next())].at(1));
    const auto past = error_from(
        [&] { epoch.put(value, r.next(), regions[uz(r.next())].at(elements_at(r.next()))); });
    EXPECT_EQ(past.error_class(), MPI_ERR_RMA_RANGE);
    EXPECT_TRUE(mentions(
        past.what(), "past the end of the region attached at rank " + std::to_string(r.next())));
    if (r.size > 2) {
      const auto elsewhere =
          error_from([&] { epoch.put(value, r.prev(), regions[uz(r.next())].at(0)); });
      EXPECT_TRUE(mentions(elsewhere.what(), "is attached at rank " + std::to_string(r.next())));
    }
  }
  world.barrier();
  EXPECT_EQ(data[1], r.prev());
  win.detach(mine);
  const auto twice = error_from([&] { win.detach(mine); });
  EXPECT_EQ(twice.error_class(), MPI_ERR_RMA_ATTACH);
  win.free();
}

// The error classes of a dynamic window's regions (docs/library.md, "Dynamic windows"):
// thinmpi's own checks, before MPI is called (a region's index or count past it, a region of
// another rank: MPI_ERR_RMA_RANGE; a detach of a region this rank has not attached:
// MPI_ERR_RMA_ATTACH), and what each MPI says where only the target knows.
TEST(RmaDynamicWindow, RegionErrorClasses) {
  if (!c_window_create_works()) GTEST_SKIP() << create_quirk;
  auto world = thinmpi::world();
  const ring r(world);
  auto win = thinmpi::dynamic_window<int>::create(world);
  std::vector<int> data(4, -1);
  const thinmpi::region<int> mine = win.attach(std::span(data));
  std::vector<thinmpi::region<int>> regions(uz(r.size));
  world.allgather(mine, regions);
  const thinmpi::region<int>& next = regions[uz(r.next())];
  const int value = 1;
  {
    auto epoch = win.lock_all();
    const auto past = error_from([&] { epoch.put(value, r.next(), next.at(4)); });
    EXPECT_EQ(past.error_class(), MPI_ERR_RMA_RANGE);
    if (r.size > 1) {
      const auto elsewhere = error_from([&] { epoch.put(value, r.rank, next.at(0)); });
      EXPECT_EQ(elsewhere.error_class(), MPI_ERR_RMA_RANGE);
    }
  }
  if (r.size > 1) {
    const auto foreign = error_from([&] { win.detach(next); });
    EXPECT_EQ(foreign.error_class(), MPI_ERR_RMA_ATTACH);
    EXPECT_TRUE(mentions(
        foreign.what(),
        "this rank has no such region attached (attached by rank " + std::to_string(r.next())));
  }
  // Where only MPI can tell: Open MPI 4.1.4's osc/rdma (Debian's default) refuses memory that
  // overlaps a region attached already (MPI_ERR_RMA_ATTACH) and says MPI_ERR_RMA_RANGE at the
  // origin for a region its target has detached; its osc/pt2pt (the multihost runs) and MPICH
  // 4.0.2 take the one and say nothing of the other (the put lands in the memory that was
  // attached, here still alive).
  const bool says = osc_rdma();
  if (says) {
    const auto overlap =
        error_from([&] { static_cast<void>(win.attach(std::span(data).first(2))); });
    EXPECT_EQ(overlap.error_class(), MPI_ERR_RMA_ATTACH);
  }
  win.detach(mine);
  world.barrier();  // every region is detached
  if (says) {
    auto epoch = win.lock_all();
    const auto detached = error_from([&] { epoch.put(value, r.next(), next.at(0)); });
    EXPECT_EQ(detached.error_class(), MPI_ERR_RMA_RANGE);
  }
  win.free();
}

TEST(RmaPscw, RingOfPostStartCompleteWait) {
  auto world = thinmpi::world();
  const ring r(world);
  auto win = thinmpi::window<int>::allocate(world, few);
  const std::span<int> mine = win.local();
  const std::vector<int> sent{r.rank, r.rank + 1};
  {
    auto exposure = win.post({r.prev()});
    auto access = win.start({r.next()});
    access.put(sent, r.next(), 0);
    if (r.size > 2) {
      const auto outside = error_from([&] { access.put(sent, r.prev(), 0); });
      EXPECT_EQ(outside.error_class(), MPI_ERR_RMA_SYNC);
      EXPECT_TRUE(mentions(outside.what(), "not in the group this access epoch started with"));
    }
    access.complete();
    exposure.wait();
  }
  // After wait() the exposed memory holds what the origins put.
  EXPECT_EQ(mine[0], r.prev());
  EXPECT_EQ(mine[1], r.prev() + 1);
}

TEST(RmaEpochs, DestructorEndsTheEpoch) {
  auto world = thinmpi::world();
  const ring r(world);
  auto win = thinmpi::window<int>::allocate(world, few);
  const std::span<int> mine = win.local();
  const int value = r.rank;
  {
    auto epoch = win.fence();
    epoch.put(value, r.next(), 0);
  }  // MPI_Win_fence(MPI_MODE_NOSUCCEED)
  EXPECT_EQ(mine[0], r.prev());
  world.barrier();                 // before prev's lock epoch writes it again
  const int doubled = 2 * r.rank;  // declared before the epoch: MPI may read it until unlock
  {
    auto epoch = win.lock(r.next());
    epoch.put(doubled, r.next(), 0);
  }  // MPI_Win_unlock
  world.barrier();
  EXPECT_EQ((read_element<thinmpi::window<int>, int>(win, r.rank, 0)), 2 * r.prev());
}

TEST(RmaEpochs, ProcNullTargetDoesNothing) {
  auto world = thinmpi::world();
  auto win = thinmpi::window<int>::allocate(world, few);
  fill_window(win, world.rank(), -1);
  const int value = 5;
  auto epoch = win.fence();
  epoch.put(value, MPI_PROC_NULL, 100);
  epoch.end();
  EXPECT_EQ(win.local()[0], -1);
}

TEST(RmaErrors, TargetOutsideTheWindow) {
  auto world = thinmpi::world();
  const ring r(world);
  auto win = thinmpi::window<int>::allocate(world, elements_at(r.rank));
  auto epoch = win.lock_all();
  const std::vector<int> two{1, 2};
  for (const int bad : {-5, r.size}) {
    const auto error = error_from([&] { epoch.put(two, bad, 0); });
    EXPECT_EQ(error.error_class(), MPI_ERR_RANK);
    EXPECT_TRUE(mentions(error.what(), "MPI_Put(target " + std::to_string(bad)));
    EXPECT_TRUE(mentions(error.what(), not_in_window(bad, r.size)));
  }
  const std::size_t room = elements_at(r.next());
  const auto past = error_from([&] { epoch.put(two, r.next(), room - 1); });
  EXPECT_EQ(past.error_class(), MPI_ERR_RMA_RANGE);
  EXPECT_EQ(past.operation(), "MPI_Put");
  EXPECT_EQ(past.peer(), r.next());
  EXPECT_EQ(past.count(), 2u);
  EXPECT_TRUE(mentions(past.what(), "MPI_Put(target " + std::to_string(r.next()) +
                                        ", displacement " + std::to_string(room - 1) +
                                        ", 2 x MPI_INT = 8 bytes, target window " +
                                        std::to_string(room) + " x MPI_INT"));
  EXPECT_TRUE(mentions(past.what(), "[MPI_ERR_RMA_RANGE]"));
  std::vector<int> into(3);
  EXPECT_EQ(error_from([&] { epoch.get(into, r.next(), room - 2); }).error_class(),
            MPI_ERR_RMA_RANGE);
  EXPECT_EQ(
      error_from([&] { epoch.accumulate(two, r.next(), room + 5, std::plus<>{}); }).error_class(),
      MPI_ERR_RMA_RANGE);
  // Nothing reached MPI: the window works, and the last elements are reachable.
  epoch.put(two, r.next(), room - 2);
  epoch.unlock_all();
  world.barrier();
  EXPECT_EQ((read_element<thinmpi::window<int>, int>(win, r.rank, elements_at(r.rank) - 1)), 2);
}

/// Every operation of `epoch` (the request-based ones too, where it has them) to `target`, a
/// rank outside the window: each is MPI_ERR_RANK naming the operation, the target and the size,
/// whatever the epoch may access.
template <bool with_requests, class Epoch>
void expect_every_operation_outside(Epoch& epoch, int target, int size) {
  const int one = 1;
  int result = 0;
  std::vector<std::pair<std::string, std::function<void()>>> calls{
      {"MPI_Put", [&] { epoch.put(one, target, 0); }},
      {"MPI_Get", [&] { epoch.get(result, target, 0); }},
      {"MPI_Accumulate", [&] { epoch.accumulate(one, target, 0, std::plus<>{}); }},
      {"MPI_Get_accumulate",
       [&] { epoch.get_accumulate(one, result, target, 0, thinmpi::replace); }},
      {"MPI_Fetch_and_op", [&] { epoch.fetch_and_op(one, result, target, 0, std::plus<>{}); }},
      {"MPI_Compare_and_swap", [&] { epoch.compare_and_swap(one, one, result, target, 0); }},
  };
  if constexpr (with_requests) {
    calls.push_back({"MPI_Rput", [&] { static_cast<void>(epoch.rput(one, target, 0)); }});
    calls.push_back({"MPI_Rget", [&] { static_cast<void>(epoch.rget(result, target, 0)); }});
    calls.push_back({"MPI_Raccumulate",
                     [&] { static_cast<void>(epoch.raccumulate(one, target, 0, std::plus<>{})); }});
    calls.push_back({"MPI_Rget_accumulate", [&] {
                       static_cast<void>(
                           epoch.rget_accumulate(one, result, target, 0, thinmpi::replace));
                     }});
  }
  for (const auto& [operation, call] : calls) {
    SCOPED_TRACE(operation);
    const auto error = error_from(call);
    EXPECT_EQ(error.error_class(), MPI_ERR_RANK);
    EXPECT_TRUE(mentions(error.what(), operation + "(target " + std::to_string(target)));
    EXPECT_TRUE(mentions(error.what(), not_in_window(target, size)));
  }
}

// The program: `auto e = win.lock(right); e.put(x, size, 0)` said MPI_ERR_RMA_SYNC,
// advising to lock a rank that does not exist. A rank outside the window is MPI_ERR_RANK in
// every epoch kind that throws on this rank alone (a lock, lock_all, an access epoch), for every
// operation; a fence epoch's is a one-rank mistake (root_only_rma_cases.hpp's
// put_outside_window_in_fence). The window works afterwards.
TEST(RmaErrors, ARankOutsideTheWindowIsMpiErrRankInEveryEpoch) {
  auto world = thinmpi::world();
  const ring r(world);
  auto win = thinmpi::window<int>::allocate(world, few);
  for (const int outside : {r.size, r.size + 3, -5}) {
    SCOPED_TRACE(outside);
    {
      auto epoch = win.lock(r.next());
      expect_every_operation_outside<true>(epoch, outside, r.size);
    }
    {
      auto epoch = win.lock_all();
      expect_every_operation_outside<true>(epoch, outside, r.size);
      const auto flush = error_from([&] { epoch.flush(outside); });
      EXPECT_TRUE(mentions(flush.what(), not_in_window(outside, r.size)));
    }
    {
      auto exposure = win.post({r.prev()});
      auto access = win.start({r.next()});
      expect_every_operation_outside<false>(access, outside, r.size);
      access.complete();
      exposure.wait();
    }
    const auto lock = error_from([&] { auto epoch = win.lock(outside); });
    EXPECT_TRUE(mentions(lock.what(), "MPI_Win_lock(target " + std::to_string(outside)));
    EXPECT_TRUE(mentions(lock.what(), not_in_window(outside, r.size)));
  }
  world.barrier();
  const int value = 40 + r.rank;
  {
    auto epoch = win.lock(r.next());
    epoch.put(value, r.next(), 0);
  }
  world.barrier();
  EXPECT_EQ((read_element<thinmpi::window<int>, int>(win, r.rank, 0)), 40 + r.prev());
}

// Passive-target synchronization is this rank's own (MPI_Win_lock and MPI_Win_lock_all are not
// collective): a mistake there throws on this rank, and no other rank waits for it.
TEST(RmaErrors, APassiveTargetMistakeThrowsOnItsRankAlone) {
  auto world = thinmpi::world();
  const ring r(world);
  auto win = thinmpi::window<int>::allocate(world, few);
  if (r.rank == r.size - 1) {
    EXPECT_EQ(error_from([&] { auto epoch = win.lock(r.size); }).error_class(), MPI_ERR_RANK);
    // MPI's own check: Open MPI says MPI_ERR_ASSERT, MPICH MPI_ERR_ARG.
    const auto mode = error_from([&] { auto epoch = win.lock_all(thinmpi::rma_mode::noput); });
    EXPECT_EQ(mode.operation(), "MPI_Win_lock_all");
  }
  world.barrier();  // every rank gets here: none was waiting for the last one
  const int value = 50 + r.rank;
  {
    auto epoch = win.lock_all();
    epoch.put(value, r.next(), 1);
  }
  world.barrier();
  EXPECT_EQ((read_element<thinmpi::window<int>, int>(win, r.rank, 1)), 50 + r.prev());
}

// Windows whose ranks chose element types of different sizes: every rank sees every unit in
// the creation's allgather, so every rank throws MPI_ERR_DISP (and frees the window).
TEST(RmaErrors, WindowsOfDifferentElementSizesThrowOnEveryRank) {
  auto world = thinmpi::world();
  if (world.size() < 2) GTEST_SKIP() << "one rank has one element type";
  const bool last = world.rank() == world.size() - 1;
  const auto error = error_from([&] {
    if (last) {
      auto win = thinmpi::window<double>::allocate(world, 2);
    } else {
      auto win = thinmpi::window<int>::allocate(world, 2);
    }
  });
  EXPECT_EQ(error.error_class(), MPI_ERR_DISP);
  EXPECT_EQ(error.operation(), "MPI_Win_allocate");
  EXPECT_TRUE(mentions(error.what(), last ? "rank 0's window holds elements of 4 bytes and this "
                                            "rank's of 8 bytes"
                                          : "window holds elements of 8 bytes and this rank's of "
                                            "4 bytes"));
  auto win = thinmpi::window<int>::allocate(world, 2);  // the communicator goes on
  EXPECT_EQ(win.size_at(0), 2u);
}

TEST(RmaErrors, WrongLockTypeAndWrongRank) {
  auto world = thinmpi::world();
  const ring r(world);
  auto win = thinmpi::window<int>::allocate(world, few);
  const auto bad_type =
      error_from([&] { auto epoch = win.lock(0, static_cast<thinmpi::lock_type>(12345)); });
  EXPECT_EQ(bad_type.error_class(), MPI_ERR_LOCKTYPE);
  EXPECT_TRUE(mentions(bad_type.what(), "lock type 12345 is neither"));
  EXPECT_EQ(error_from([&] { auto epoch = win.lock(r.size); }).error_class(), MPI_ERR_RANK);
  auto epoch = win.lock(r.rank, thinmpi::lock_type::shared);
  if (r.size > 1) {
    const int value = 1;
    const auto other = error_from([&] { epoch.put(value, r.next(), 0); });
    EXPECT_EQ(other.error_class(), MPI_ERR_RMA_SYNC);
    EXPECT_TRUE(mentions(other.what(), "this epoch locks rank " + std::to_string(r.rank)));
  }
  const auto twice = error_from([&] { auto again = win.lock(r.rank); });
  EXPECT_EQ(twice.error_class(), MPI_ERR_RMA_SYNC);
  EXPECT_TRUE(mentions(twice.what(), "is locked already"));
  epoch.unlock();
  const int value = 3;
  const auto ended = error_from([&] { epoch.put(value, r.rank, 0); });
  EXPECT_EQ(ended.error_class(), MPI_ERR_RMA_SYNC);
  EXPECT_TRUE(mentions(ended.what(), "the epoch has ended"));
  auto again = win.lock(r.rank);  // usable after each error
  again.put(value, r.rank, 0);
  again.unlock();
}

// Passive-target epochs are this rank's own: an epoch of the wrong kind inside one is an error
// on this rank alone (inside a fence epoch, which every rank is in, it is a one-rank mistake:
// root_only_rma_cases.hpp's lock_all_inside_fence and fence_inside_lock_all).
TEST(RmaErrors, EpochOfTheWrongKindInsideAPassiveOne) {
  auto world = thinmpi::world();
  auto win = thinmpi::window<int>::allocate(world, few);
  {
    auto all = win.lock_all();
    const auto lock = error_from([&] { auto inner = win.lock(0); });
    EXPECT_EQ(lock.error_class(), MPI_ERR_RMA_SYNC);
    EXPECT_TRUE(mentions(lock.what(), "cannot lock rank 0 while a lock_all epoch is open"));
    all.unlock_all();
  }
  {
    auto one = win.lock(world.rank());
    const auto all = error_from([&] { auto inner = win.lock_all(); });
    EXPECT_EQ(all.error_class(), MPI_ERR_RMA_SYNC);
    EXPECT_TRUE(mentions(all.what(), "while a lock epoch on rank " + std::to_string(world.rank())));
  }
  auto again = win.lock_all();  // usable after each error
  again.unlock_all();
}

// A window freed, or never made, is MPI_ERR_WIN saying which, on this rank alone: free is
// collective, so no other rank waits in a call of that window (a window moved from on one rank
// while the others call it ends the job: root_only_rma_cases.hpp's fence_on_moved_window).
TEST(RmaErrors, AFreedOrUnmadeWindowSaysWhich) {
  auto world = thinmpi::world();
  auto win = thinmpi::window<int>::allocate(world, few);
  win.free();
  EXPECT_TRUE(win.is_null());
  EXPECT_TRUE(win.local().empty());
  for (const auto& error :
       {error_from([&] { auto again = win.fence(); }), error_from([&] { win.free(); }),
        error_from([&] { auto again = win.lock(0); })}) {
    EXPECT_EQ(error.error_class(), MPI_ERR_WIN);
    EXPECT_TRUE(mentions(error.what(), "failed: the window was freed [MPI_ERR_WIN]"));
  }
  thinmpi::window<int> never;
  const auto unmade = error_from([&] { auto epoch = never.lock_all(); });
  EXPECT_TRUE(mentions(unmade.what(),
                       "MPI_Win_lock_all() failed: the window was never made "
                       "(default-constructed) [MPI_ERR_WIN]"));
}

// "[MPI error class 47]" with no rank was what a moved-from epoch said: now it names the rank,
// the move and the class.
TEST(RmaErrors, MovedFromEpochsAndWindowsSaySo) {
  auto world = thinmpi::world();
  const ring r(world);
  auto win = thinmpi::window<int>::allocate(world, few);
  const int value = 1;
  {
    auto epoch = win.lock(r.rank);
    auto moved = std::move(epoch);
    EXPECT_FALSE(epoch.active());
    const std::string where =
        " failed on rank " + std::to_string(r.rank) + " of " + std::to_string(r.size) + ": ";
    const std::string says =
        "this epoch was moved from; use the epoch it was moved to [MPI_ERR_RMA_SYNC]";
    const auto put = error_from([&] { epoch.put(value, r.rank, 0); });
    EXPECT_EQ(put.error_class(), MPI_ERR_RMA_SYNC);
    EXPECT_TRUE(mentions(put.what(), "thinmpi: MPI_Put()" + where + says));
    EXPECT_TRUE(
        mentions(error_from([&] { epoch.unlock(); }).what(), "MPI_Win_unlock()" + where + says));
    EXPECT_TRUE(
        mentions(error_from([&] { epoch.flush(); }).what(), "MPI_Win_flush()" + where + says));
    moved.put(value, r.rank, 0);  // the epoch it was moved to works
    moved.unlock();
    const auto ended = error_from([&] { moved.put(value, r.rank, 0); });
    EXPECT_TRUE(mentions(ended.what(), "the epoch has ended; open a new one [MPI_ERR_RMA_SYNC]"));
  }
  auto other = std::move(win);
  const auto moved_window = error_from([&] { auto epoch = win.lock_all(); });
  EXPECT_EQ(moved_window.error_class(), MPI_ERR_WIN);
  EXPECT_TRUE(mentions(moved_window.what(),
                       "thinmpi: MPI_Win_lock_all() failed: this window was moved from; use the "
                       "window it was moved to [MPI_ERR_WIN]"));
  auto epoch = other.lock_all();
  epoch.put(value, r.rank, 0);
  epoch.unlock_all();
  EXPECT_EQ(thinmpi::error_class_name(MPI_ERR_RMA_SYNC), "MPI_ERR_RMA_SYNC");
  EXPECT_EQ(thinmpi::error_class_name(MPI_ERR_RMA_ATTACH), "MPI_ERR_RMA_ATTACH");
}

TEST(RmaErrors, EpochOutlivingItsWindowFindsItFreed) {
  auto world = thinmpi::world();
  auto win = thinmpi::window<int>::allocate(world, few);
  auto epoch = win.lock_all();
  auto moved = std::move(win);  // the epoch follows the window's state, not the object
  const int value = 1;
  epoch.put(value, world.rank(), 0);
  moved = thinmpi::window<int>();  // ends the epoch on this rank, then frees (collective)
  EXPECT_FALSE(epoch.active());
  const auto error = error_from([&] { epoch.put(value, world.rank(), 0); });
  EXPECT_TRUE(mentions(error.what(), "the epoch's window was freed"));
}

}  // namespace
