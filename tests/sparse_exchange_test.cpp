// sparse_exchange (NBX): random few destinations, empty sends, self-sends, all-to-one,
// many-to-many (several messages to one rank), serialized payloads, views, the callback form and
// a callback that throws, the form that receives into caller storage; each checked against the
// messages every rank can regenerate and against an alltoallv with exchange_counts of the same
// data. Every exchange has a tag of its own (two exchanges in a row must not share one).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "support/mpi_error_match.hpp"
#include "support/ring.hpp"
#include "thinmpi/thinmpi.hpp"

namespace {

using thinmpi_test::ring;
using thinmpi_test::throws_mpi_error;
using thinmpi_test::uz;

using message_list = std::vector<std::pair<int, std::vector<int>>>;

/// Who sends what, as a rule every rank can evaluate for every other rank.
enum class pattern {
  random_few,    ///< 0 to 2 distinct random destinations, 0 to 5 elements each
  all_to_one,    ///< every rank to rank 0
  many_to_many,  ///< every rank to every rank, twice each, the second message empty on odd ranks
  self_only,     ///< every rank to itself
  nothing,       ///< no messages at all
  empty_to_next  ///< one empty message to the next rank
};

/// The messages rank `from` sends under `p` (trial t varies the random pattern).
message_list messages_of(pattern p, int from, int size, unsigned trial) {
  message_list out;
  const auto payload = [&](int to, std::size_t n) {
    std::vector<int> data;
    for (std::size_t k = 0; k < n; ++k)
      data.push_back(from * 10000 + to * 100 + static_cast<int>(k));
    return data;
  };
  switch (p) {
    case pattern::random_few: {
      std::mt19937 random(trial * 7919U + static_cast<unsigned>(from));
      std::vector<int> ranks(uz(size));
      for (int r = 0; r < size; ++r)
        ranks[uz(r)] = r;
      std::shuffle(ranks.begin(), ranks.end(), random);
      const std::size_t how_many = std::min<std::size_t>(random() % 3, ranks.size());
      for (std::size_t i = 0; i < how_many; ++i)
        out.emplace_back(ranks[i], payload(ranks[i], random() % 6));
      break;
    }
    case pattern::all_to_one:
      out.emplace_back(0, payload(0, uz(from) + 1));
      break;
    case pattern::many_to_many:
      for (int to = 0; to < size; ++to) {
        out.emplace_back(to, payload(to, 2));
        out.emplace_back(to, payload(to, from % 2 == 0 ? 3 : 0));
      }
      break;
    case pattern::self_only:
      out.emplace_back(from, payload(from, 4));
      break;
    case pattern::nothing:
      break;
    case pattern::empty_to_next:
      out.emplace_back((from + 1) % size, std::vector<int>{});
      break;
  }
  return out;
}

/// What rank `me` must receive: every rank's messages to it, by source, in the order listed.
message_list expected_at(pattern p, int me, int size, unsigned trial) {
  message_list in;
  for (int from = 0; from < size; ++from) {
    for (auto& [to, data] : messages_of(p, from, size, trial)) {
      if (to == me) in.emplace_back(from, data);
    }
  }
  return in;
}

/// The same data moved by alltoallv with exchange_counts: for each source, what it sent here,
/// its messages to this rank laid end to end.
std::vector<std::vector<int>> dense_exchange(const message_list& out, int size) {
  auto world = thinmpi::world();
  std::vector<int> send;
  std::vector<int> counts(uz(size), 0);
  for (int to = 0; to < size; ++to) {
    for (const auto& [dest, data] : out) {
      if (dest != to) continue;
      send.insert(send.end(), data.begin(), data.end());
      counts[uz(to)] += static_cast<int>(data.size());
    }
  }
  const auto got = world.alltoallv(send, counts, thinmpi::exchange_counts);
  std::vector<std::vector<int>> by_source(uz(size));
  for (int from = 0; from < size; ++from) {
    const auto at = got.data.begin() + got.displs[uz(from)];
    by_source[uz(from)].assign(at, at + got.counts[uz(from)]);
  }
  return by_source;
}

/// The sparse result joined per source, to compare with dense_exchange.
std::vector<std::vector<int>> joined_by_source(const message_list& got, int size) {
  std::vector<std::vector<int>> by_source(uz(size));
  for (const auto& [from, data] : got)
    by_source[uz(from)].insert(by_source[uz(from)].end(), data.begin(), data.end());
  return by_source;
}

/// Runs one exchange under p with tag and checks it both ways.
void check_pattern(pattern p, int tag, unsigned trial = 0) {
  auto world = thinmpi::world();
  const int me = world.rank();
  const int size = world.size();
  const message_list out = messages_of(p, me, size, trial);
  const message_list got = world.sparse_exchange(out, tag);
  EXPECT_EQ(got, expected_at(p, me, size, trial)) << "tag " << tag;
  EXPECT_EQ(joined_by_source(got, size), dense_exchange(out, size)) << "tag " << tag;
}

TEST(SparseExchange, RandomFewDestinations) {
  for (unsigned trial = 0; trial < 8; ++trial)
    check_pattern(pattern::random_few, 100 + static_cast<int>(trial), trial);
}

TEST(SparseExchange, NothingSentNothingReceived) {
  check_pattern(pattern::nothing, 200);
}

TEST(SparseExchange, EmptyMessagesArriveAsEmptyMessages) {
  check_pattern(pattern::empty_to_next, 201);
  const ring r(thinmpi::world());
  const message_list got =
      thinmpi::world().sparse_exchange(messages_of(pattern::empty_to_next, r.rank, r.size, 0), 202);
  ASSERT_EQ(got.size(), 1U);
  EXPECT_EQ(got[0].first, r.prev());
  EXPECT_TRUE(got[0].second.empty());
}

TEST(SparseExchange, SelfSends) {
  check_pattern(pattern::self_only, 300);
}

TEST(SparseExchange, AllToOne) {
  check_pattern(pattern::all_to_one, 400);
  auto world = thinmpi::world();
  const message_list got =
      world.sparse_exchange(messages_of(pattern::all_to_one, world.rank(), world.size(), 0), 401);
  EXPECT_EQ(got.size(), world.rank() == 0 ? uz(world.size()) : 0U);
}

TEST(SparseExchange, ManyToManyKeepsEachSendersOrder) {
  check_pattern(pattern::many_to_many, 500);
}

TEST(SparseExchange, MapsStringsScalarsAndViews) {
  auto world = thinmpi::world();
  const ring r(world);
  const std::map<int, std::string> words{{r.next(), "to " + std::to_string(r.next())}};
  const auto got = world.sparse_exchange(words, 600);
  ASSERT_EQ(got.size(), 1U);
  EXPECT_EQ(got[0], (std::pair<int, std::string>{r.prev(), "to " + std::to_string(r.rank)}));

  const std::vector<std::pair<int, double>> scalars{{r.prev(), 0.5 * r.rank}};
  const auto values = world.sparse_exchange(scalars, 601);
  ASSERT_EQ(values.size(), 1U);
  EXPECT_EQ(values[0], (std::pair<int, std::vector<double>>{r.next(), {0.5 * r.next()}}));

  // Column 1 of a 3 x 4 grid, straight from the grid, to the next rank and to proc_null.
  std::vector<int> grid(12);
  for (int i = 0; i < 12; ++i)
    grid[uz(i)] = r.rank * 100 + i;
  const auto column = thinmpi::strided(std::span(grid).subspan(1), 3, 4);
  const std::vector<std::pair<int, thinmpi::strided_view<int>>> halos{{r.next(), column},
                                                                      {thinmpi::proc_null, column}};
  const auto columns = world.sparse_exchange(halos, 602);
  ASSERT_EQ(columns.size(), 1U);
  const int p = r.prev() * 100;
  EXPECT_EQ(columns[0], (std::pair<int, std::vector<int>>{r.prev(), {p + 1, p + 5, p + 9}}));
}

TEST(SparseExchange, SerializedPayloads) {
  auto world = thinmpi::world();
  const ring r(world);
  using table = std::map<int, std::string>;
  std::vector<std::pair<int, table>> out{{r.next(), {{r.rank, "from " + std::to_string(r.rank)}}},
                                         {r.rank, {}}};
  const auto got = world.sparse_exchange(thinmpi::serialized(out), 700);
  std::vector<std::pair<int, table>> expected{
      {r.prev(), {{r.prev(), "from " + std::to_string(r.prev())}}}, {r.rank, {}}};
  std::stable_sort(expected.begin(), expected.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  EXPECT_EQ(got, expected);

  // The same values by alltoallv of serialized values (one per rank, empty where none is sent).
  std::vector<table> dense(uz(r.size));
  for (const auto& [to, value] : out)
    dense[uz(to)].insert(value.begin(), value.end());
  const std::vector<table> inbox =
      world.alltoallv(thinmpi::serialized(dense), thinmpi::exchange_counts);
  std::vector<table> from_sparse(uz(r.size));
  for (const auto& [from, value] : got)
    from_sparse[uz(from)].insert(value.begin(), value.end());
  EXPECT_EQ(from_sparse, inbox);

  // The callback form hands over each decoded value.
  std::vector<std::pair<int, table>> seen;
  world.sparse_exchange(thinmpi::serialized(out), 701, [&](int source, table&& value) {
    seen.emplace_back(source, std::move(value));
  });
  std::stable_sort(seen.begin(), seen.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  EXPECT_EQ(seen, expected);
}

TEST(SparseExchange, CallbackSeesEveryMessage) {
  auto world = thinmpi::world();
  const int me = world.rank();
  const int size = world.size();
  const message_list out = messages_of(pattern::many_to_many, me, size, 0);
  message_list seen;
  world.sparse_exchange(out, 800, [&](int source, std::span<const int> data) {
    seen.emplace_back(source, std::vector<int>(data.begin(), data.end()));
  });
  std::stable_sort(seen.begin(), seen.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  EXPECT_EQ(seen, expected_at(pattern::many_to_many, me, size, 0));
}

TEST(SparseExchange, IntoCallerStorageSeesEveryMessage) {
  auto world = thinmpi::world();
  const int me = world.rank();
  const int size = world.size();
  const message_list out = messages_of(pattern::many_to_many, me, size, 0);
  std::vector<int> inbox(3, -1);  // what is there stays: messages go after it
  std::vector<std::pair<int, std::size_t>> placed;
  world.sparse_exchange_into(out, 810, [&](int source, std::size_t count) {
    placed.emplace_back(source, inbox.size());
    inbox.resize(inbox.size() + count);
    return std::span<int>(inbox).last(count);
  });
  message_list seen;
  for (std::size_t m = 0; m < placed.size(); ++m) {
    const std::size_t end = m + 1 < placed.size() ? placed[m + 1].second : inbox.size();
    const std::span<const int> data =
        std::span<const int>(inbox).subspan(placed[m].second, end - placed[m].second);
    seen.emplace_back(placed[m].first, std::vector<int>(data.begin(), data.end()));
  }
  EXPECT_EQ(std::vector<int>(inbox.begin(), inbox.begin() + 3), std::vector<int>(3, -1));
  std::stable_sort(seen.begin(), seen.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  EXPECT_EQ(seen, expected_at(pattern::many_to_many, me, size, 0));
}

TEST(SparseExchange, IntoTooLittleRoomEndsTheExchangeFirst) {
  auto world = thinmpi::world();
  const int me = world.rank();
  const int size = world.size();
  // Every rank sends rank 0 three ints and the others one; rank 0 offers room for two.
  message_list out;
  for (int to = 0; to < size; ++to)
    out.emplace_back(to, to == 0 ? std::vector<int>{me, me, me} : std::vector<int>{me});
  std::vector<int> room(2);
  int calls = 0;
  const auto exchange = [&] {
    world.sparse_exchange_into(out, 820, [&](int, std::size_t) -> std::vector<int>& {
      ++calls;
      return room;
    });
  };
  if (me == 0) {
    EXPECT_TRUE(throws_mpi_error(exchange, MPI_ERR_TRUNCATE,
                                 "place(source, count) returned room for 2 of the 3 elements"));
    EXPECT_EQ(calls, 1);
  } else {
    exchange();
    EXPECT_EQ(calls, size);
  }
  check_pattern(pattern::many_to_many, 821);  // the communicator is usable after
}

TEST(SparseExchange, ACallbackThatThrowsEndsTheExchangeFirst) {
  auto world = thinmpi::world();
  const int me = world.rank();
  const int size = world.size();
  const message_list out = messages_of(pattern::many_to_many, me, size, 0);
  int calls = 0;
  // Rank 0's callback throws at its first message; it still receives the rest, so every other
  // rank completes, and it throws once the exchange is over.
  const auto exchange = [&] {
    world.sparse_exchange(out, 900, [&](int, std::span<const int>) {
      ++calls;
      if (me == 0) throw std::runtime_error("callback refused");
    });
  };
  if (me == 0) {
    EXPECT_THROW(exchange(), std::runtime_error);
    EXPECT_EQ(calls, 1);
  } else {
    exchange();
    EXPECT_EQ(calls, 2 * size);
  }
  check_pattern(pattern::many_to_many, 901);  // the communicator is usable after
}

// Rank 0 exchanges ints; every other rank sends it three chars, which are not whole ints (the
// ranks passed different payload types). Rank 0, which sends nothing, receives them anyway, so that
// no sender waits in its MPI_Issend, finishes the exchange, then throws MPI_ERR_TYPE; the others
// return. Each form of the exchange in turn (it hung before: rank 0 threw at the first such
// message).
TEST(SparseExchange, AMessageOfAnotherTypeIsReceivedThenThrown) {
  auto world = thinmpi::world();
  const int me = world.rank();
  if (world.size() < 2) GTEST_SKIP() << "needs a second rank to send another type";
  const auto other_ranks = [&](int tag) {
    const std::vector<std::pair<int, std::vector<char>>> chars{{0, {'a', 'b', 'c'}}};
    EXPECT_TRUE(world.sparse_exchange(chars, tag).empty());
  };
  const std::string says = "is not a whole number of elements";
  const message_list none;
  if (me == 0) {
    EXPECT_TRUE(
        throws_mpi_error([&] { (void)world.sparse_exchange(none, 1100); }, MPI_ERR_TYPE, says));
  } else {
    other_ranks(1100);
  }
  if (me == 0) {
    int calls = 0;
    EXPECT_TRUE(throws_mpi_error(
        [&] { world.sparse_exchange(none, 1101, [&](int, std::span<const int>) { ++calls; }); },
        MPI_ERR_TYPE, says));
    EXPECT_EQ(calls, 0);  // the callback never sees a message of another type
  } else {
    other_ranks(1101);
  }
  if (me == 0) {
    std::vector<int> inbox;
    EXPECT_TRUE(throws_mpi_error(
        [&] {
          world.sparse_exchange_into(none, 1102, [&](int, std::size_t n) {
            inbox.resize(inbox.size() + n);
            return std::span<int>(inbox).last(n);
          });
        },
        MPI_ERR_TYPE, says));
    EXPECT_TRUE(inbox.empty());  // place() is not asked for room for one
  } else {
    other_ranks(1102);
  }
  check_pattern(pattern::many_to_many, 1103);  // the communicator is usable after
}

// A destination outside the communicator or a negative tag, on one rank or every rank: the
// job ends (root_only_abort.sparse_exchange_*); checked, every rank throws (AlikeErrors and
// the sparse_exchange_* cases of collectives_consistency_checked_test).

}  // namespace
