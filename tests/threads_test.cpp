// thinmpi under MPI_THREAD_MULTIPLE: several threads receiving messages of unknown size from
// any source at once (each with its own tag), and requests completed by another thread than the
// one that started them. Built with a GoogleTest main that asks for thread_level::multiple;
// scripts/tsan.sh runs these under ThreadSanitizer.

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "support/ring.hpp"
#include "thinmpi/thinmpi.hpp"

namespace {

using thinmpi_test::iota_from;
using thinmpi_test::ring;

bool multiple_provided() {
  return thinmpi::query_thread() == thinmpi::thread_level::multiple;
}

constexpr int thread_count = 4;
constexpr int rounds = 20;

/// What thread `t` of rank `from` sends in `round`: it names all three, and its length varies.
std::vector<int> payload(int from, int t, int round) {
  std::vector<int> values(static_cast<std::size_t>(1 + (round + t + from) % 7), from);
  values[0] = from * 1000000 + t * 1000 + round;
  return values;
}

// Each thread sends its tag to every rank and receives, with any_source and its own tag, the
// matching messages of every rank's thread: allocating receives (MPI_Mprobe + MPI_Mrecv) from
// several threads at once. With a plain probe then receive, two threads could match the same
// message; with matched probes each message goes to exactly one receive. Messages from one
// sender with one tag arrive in order, so each thread also checks the order.
TEST(Threads, AllocatingAnySourceReceivesWithDistinctTags) {
  if (!multiple_provided()) GTEST_SKIP() << "this MPI does not provide MPI_THREAD_MULTIPLE";
  auto world = thinmpi::world();
  const ring r(world);
  std::array<int, thread_count> failures{};
  std::vector<std::thread> threads;
  for (int t = 0; t < thread_count; ++t) {
    threads.emplace_back([&, t] {
      std::vector<thinmpi::owning_request<std::vector<int>>> sends;
      for (int round = 0; round < rounds; ++round) {
        for (int to = 0; to < r.size; ++to)
          sends.push_back(world.isend(payload(r.rank, t, round), to, t));
      }
      std::vector<int> next_round(static_cast<std::size_t>(r.size), 0);
      for (int i = 0; i < rounds * r.size; ++i) {
        auto [got, st] = world.recv_with_status<std::vector<int>>(thinmpi::any_source, t);
        const int from = st.source();
        const int round = next_round[static_cast<std::size_t>(from)]++;
        if (st.tag() != t || got != payload(from, t, round))
          ++failures[static_cast<std::size_t>(t)];
      }
      thinmpi::wait_all(sends);
    });
  }
  for (auto& thread : threads)
    thread.join();
  for (int t = 0; t < thread_count; ++t)
    EXPECT_EQ(failures[static_cast<std::size_t>(t)], 0) << "thread " << t;
}

// The same with nonblocking receives of unknown size, each thread completing its own with
// wait_any as the messages come.
TEST(Threads, ProbingRequestsInSeveralThreadsCompleteWithWaitAny) {
  if (!multiple_provided()) GTEST_SKIP() << "this MPI does not provide MPI_THREAD_MULTIPLE";
  auto world = thinmpi::world();
  const ring r(world);
  std::array<int, thread_count> received{};
  std::vector<std::thread> threads;
  for (int t = 0; t < thread_count; ++t) {
    threads.emplace_back([&, t] {
      std::vector<thinmpi::probing_request<std::vector<int>>> pending;
      for (int i = 0; i < r.size; ++i)
        pending.push_back(world.irecv<std::vector<int>>(thinmpi::any_source, 100 + t));
      std::vector<thinmpi::owning_request<std::vector<int>>> sends;
      for (int to = 0; to < r.size; ++to)
        sends.push_back(world.isend(payload(r.rank, t, 0), to, 100 + t));
      while (const auto index = thinmpi::wait_any(pending)) {
        const auto got = pending[*index].wait();
        if (!got.empty() && got[0] % 1000000 == t * 1000) ++received[static_cast<std::size_t>(t)];
      }
      thinmpi::wait_all(sends);
    });
  }
  for (auto& thread : threads)
    thread.join();
  for (int t = 0; t < thread_count; ++t)
    EXPECT_EQ(received[static_cast<std::size_t>(t)], r.size) << "thread " << t;
}

// Requests started on this thread and completed on another: the completion step (shrinking,
// handing back, matching a message of unknown size) runs on the thread that completes them.
TEST(Threads, RequestsCompletedByAnotherThread) {
  if (!multiple_provided()) GTEST_SKIP() << "this MPI does not provide MPI_THREAD_MULTIPLE";
  auto world = thinmpi::world();
  const ring r(world);
  std::vector<int> bounded(50, -1);
  auto borrowed = world.irecv(bounded, r.prev(), 1);
  auto owned = world.irecv(std::vector<int>(50), r.prev(), 2);
  auto unknown = world.irecv<std::vector<int>>(r.prev(), 3);
  auto barrier = world.ibarrier();
  std::vector<int> out = iota_from(r.rank, 5);
  const int* storage = out.data();
  auto sent = world.isend(std::move(out), r.next(), 2);
  auto sent_borrowed = world.isend(iota_from(r.rank, 4), r.next(), 1);
  std::optional<std::vector<int>> owned_got;
  std::optional<std::vector<int>> unknown_got;
  std::optional<std::vector<int>> handed_back;
  std::thread completer([&] {
    thinmpi::wait_all(borrowed, barrier);
    owned_got = owned.wait();
    while (!(unknown_got = unknown.test())) {
    }
    handed_back = sent.wait();
  });
  world.send(iota_from(r.rank, 6), r.next(), 3);
  completer.join();
  static_cast<void>(sent_borrowed.wait());
  EXPECT_EQ(bounded, iota_from(r.prev(), 4));
  EXPECT_EQ(owned_got, iota_from(r.prev(), 5));
  EXPECT_EQ(unknown_got, iota_from(r.prev(), 6));
  ASSERT_TRUE(handed_back.has_value());
  EXPECT_EQ(handed_back->data(), storage);
}

// A request moved to another thread and dropped there while active: it completes there
// (a matched receive is not lost, a send finishes before its buffer goes).
TEST(Threads, RequestsMovedToAnotherThreadAndDroppedThere) {
  if (!multiple_provided()) GTEST_SKIP() << "this MPI does not provide MPI_THREAD_MULTIPLE";
  auto world = thinmpi::world();
  const ring r(world);
  // A synchronous send of 256 KiB, above every eager limit of both MPIs (nonblocking_test's
  // DroppedSendCompletesBeforeItsBufferGoes says which): it cannot complete before the match.
  std::vector<int> inbox(1 << 16);
  auto receive = world.irecv(inbox, r.prev(), 4);
  auto send = world.issend(iota_from(r.rank, 1 << 16), r.next(), 4);
  std::thread dropper([s = std::move(send)]() mutable { auto gone = std::move(s); });
  dropper.join();
  receive.wait();
  EXPECT_EQ(inbox, iota_from(r.prev(), 1 << 16));
}

// Several threads receive with any_source and one tag, messages of different sizes. A probe
// followed by a receive would let two threads see the same message and one of them then
// receive another, of another size (truncated, or shorter than probed): MBI's message race.
// thinmpi's allocating receive is a matched probe (MPI_Mprobe + MPI_Mrecv), so each message
// goes whole to exactly one thread.
TEST(Threads, SameTagAnySourceReceivesNeverShareAMessage) {
  if (!multiple_provided()) GTEST_SKIP() << "this MPI does not provide MPI_THREAD_MULTIPLE";
  auto world = thinmpi::world();
  const ring r(world);
  constexpr int messages = thread_count * rounds;
  const auto message = [](int from, int i) {
    return std::vector<int>(static_cast<std::size_t>(1 + i % 13), from * 10000 + i);
  };
  std::vector<thinmpi::owning_request<std::vector<int>>> sends;
  for (int i = 0; i < messages; ++i)
    sends.push_back(world.isend(message(r.rank, i), r.next(), 7));
  std::array<std::vector<std::vector<int>>, thread_count> got;
  std::vector<std::thread> threads;
  for (int t = 0; t < thread_count; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < rounds; ++i) {
        got[static_cast<std::size_t>(t)].push_back(
            world.recv<std::vector<int>>(thinmpi::any_source, 7));
      }
    });
  }
  for (auto& thread : threads)
    thread.join();
  thinmpi::wait_all(sends);
  std::vector<int> seen(messages, 0);
  for (const auto& mine : got) {
    for (const auto& m : mine) {
      ASSERT_FALSE(m.empty());
      const int i = m[0] - r.prev() * 10000;
      ASSERT_TRUE(i >= 0 && i < messages) << m[0];
      EXPECT_EQ(m, message(r.prev(), i));  // whole: its own size and contents
      ++seen[static_cast<std::size_t>(i)];
    }
  }
  EXPECT_EQ(seen, std::vector<int>(messages, 1));  // each message once
}

// A struct whose datatype no other test builds: its first use happens in several threads at once.
struct first_used_by_threads {
  double weight;
  int id;
  short part;
};

// Every thread's first use of a derived datatype gets the same committed handle: it is built once
// (a function-local static behind the cache derived_datatype reads) and published to all.
TEST(Threads, ADerivedDatatypeFirstUsedByManyThreadsIsBuiltOnce) {
  if (!multiple_provided()) GTEST_SKIP() << "this MPI does not provide MPI_THREAD_MULTIPLE";
  std::array<MPI_Datatype, thread_count> seen{};
  std::vector<std::thread> threads;
  for (int t = 0; t < thread_count; ++t) {
    threads.emplace_back([&seen, t] {
      seen[static_cast<std::size_t>(t)] = thinmpi::datatype_of<first_used_by_threads>();
    });
  }
  for (auto& thread : threads)
    thread.join();
  for (const MPI_Datatype type : seen)
    EXPECT_EQ(type, seen[0]);
  MPI_Count size = 0;
  MPI_Type_size_x(seen[0], &size);
  EXPECT_EQ(size, static_cast<MPI_Count>(8 + 4 + 2));
}

}  // namespace
