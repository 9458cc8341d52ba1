// Serialized values through the collectives: bcast, gatherv, allgatherv, scatterv and alltoallv
// of thinmpi::serialized(x) with thinmpi::exchange_counts. Every rank can build what any rank
// sends from that rank's number, so each checks what arrived against values it computes itself.
// Sizes differ from rank to rank and some ranks send empty values. Errors: an invalid root, a
// vector that is not one value per rank (every rank throws, none is left waiting), and malformed
// bytes sent by a rank that uses the plain byte collectives of the same protocol.

#include <gtest/gtest.h>

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "support/ring.hpp"
#include "support/serial_samples.hpp"
#include "thinmpi/thinmpi.hpp"

namespace {

using thinmpi::exchange_counts;
using thinmpi::serialized;
using thinmpi_test::uz;

using strings = std::vector<std::string>;
using table = std::map<int, std::string>;

/// Rank r's strings: empty on every third rank, else r + 1 strings of growing length.
strings strings_of(int r) {
  strings values;
  if (r % 3 == 1) return values;
  for (int i = 0; i <= r; ++i)
    values.push_back(thinmpi_test::numbered("s", r) + std::string(uz(i * 7), 'x'));
  return values;
}

/// Rank r's table: empty on rank 0, else r entries.
table table_of(int r) {
  table values;
  for (int key = 0; key < r; ++key)
    values[key * 10 + r] = std::string(uz(key + r), static_cast<char>('a' + key % 26));
  return values;
}

/// What rank `from` sends rank `to` in an alltoallv: empty when they are equal.
strings strings_between(int from, int to) {
  if (from == to) return {};
  return strings(uz(from + 1), thinmpi_test::numbered("to ", to) + std::string(uz(from), '.'));
}

TEST(SerializedBcast, EveryRootsValueReachesEveryRank) {
  auto world = thinmpi::world();
  for (int root = 0; root < world.size(); ++root) {
    strings names = world.rank() == root ? strings_of(root + 2) : strings{"stale", "values"};
    world.bcast(serialized(names), root, exchange_counts);
    EXPECT_EQ(names, strings_of(root + 2));

    table entries = world.rank() == root ? table_of(root + 3) : table{{-1, "old"}};
    world.bcast(serialized(entries), root, exchange_counts);
    EXPECT_EQ(entries, table_of(root + 3));

    thinmpi_test::record record =
        world.rank() == root ? thinmpi_test::sample_record(root) : thinmpi_test::record{};
    world.bcast(serialized(record), root, exchange_counts);
    EXPECT_EQ(record, thinmpi_test::sample_record(root));
  }
}

TEST(SerializedBcast, AnEmptyValueReplacesWhatTheOtherRanksHeld) {
  auto world = thinmpi::world();
  strings names = world.rank() == 0 ? strings{} : strings{"not", "empty"};
  world.bcast(serialized(names), 0, exchange_counts);
  EXPECT_TRUE(names.empty());
}

TEST(SerializedGatherv, TheRootGetsEveryRanksValueInRankOrder) {
  auto world = thinmpi::world();
  for (int root = 0; root < world.size(); ++root) {
    const std::optional<std::vector<table>> tables =
        world.gatherv(serialized(table_of(world.rank())), root, exchange_counts);
    const auto records =
        world.gatherv(serialized(thinmpi_test::sample_record(world.rank())), root, exchange_counts);
    ASSERT_EQ(tables.has_value(), world.rank() == root);
    ASSERT_EQ(records.has_value(), world.rank() == root);
    if (world.rank() != root) continue;
    ASSERT_EQ(tables->size(), uz(world.size()));
    ASSERT_EQ(records->size(), uz(world.size()));
    for (int r = 0; r < world.size(); ++r) {
      EXPECT_EQ((*tables)[uz(r)], table_of(r));
      EXPECT_EQ((*records)[uz(r)], thinmpi_test::sample_record(r));
    }
  }
}

TEST(SerializedAllgatherv, EveryRankGetsEveryRanksValue) {
  auto world = thinmpi::world();
  const strings mine = strings_of(world.rank());
  const std::vector<strings> all = world.allgatherv(serialized(mine), exchange_counts);
  const std::vector<table> tables =
      world.allgatherv(serialized(table_of(world.rank())), exchange_counts);
  ASSERT_EQ(all.size(), uz(world.size()));
  ASSERT_EQ(tables.size(), uz(world.size()));
  for (int r = 0; r < world.size(); ++r) {
    EXPECT_EQ(all[uz(r)], strings_of(r));
    EXPECT_EQ(tables[uz(r)], table_of(r));
  }
}

TEST(SerializedScatterv, EachRankGetsItsValueFromEveryRoot) {
  auto world = thinmpi::world();
  for (int root = 0; root < world.size(); ++root) {
    std::vector<thinmpi_test::record> records;
    std::vector<strings> names;
    if (world.rank() == root) {
      for (int r = 0; r < world.size(); ++r) {
        records.push_back(thinmpi_test::sample_record(r + root));
        names.push_back(strings_of(r));
      }
    }
    const thinmpi_test::record mine = world.scatterv(serialized(records), root, exchange_counts);
    EXPECT_EQ(mine, thinmpi_test::sample_record(world.rank() + root));
    const strings my_names = world.scatterv(serialized(names), root, exchange_counts);
    EXPECT_EQ(my_names, strings_of(world.rank()));
  }
}

TEST(SerializedAlltoallv, EachRankGetsWhatEveryRankSentIt) {
  auto world = thinmpi::world();
  std::vector<strings> outbox;
  for (int to = 0; to < world.size(); ++to)
    outbox.push_back(strings_between(world.rank(), to));
  const std::vector<strings> inbox = world.alltoallv(serialized(outbox), exchange_counts);
  ASSERT_EQ(inbox.size(), uz(world.size()));
  for (int from = 0; from < world.size(); ++from)
    EXPECT_EQ(inbox[uz(from)], strings_between(from, world.rank()));
}

// A root outside the communicator: the job ends; checked, every rank throws MPI_ERR_ROOT naming
// it (RootsOutsideTheCommunicator in collectives_consistency_checked_test sweeps the serialized
// bcast, gatherv and scatterv too).

/// Calls `call`, which must throw an mpi_error whose message contains `expected`.
template <class Call>
void expect_error_containing(Call call, const std::string& expected) {
  try {
    call();
    ADD_FAILURE() << "no error; expected one saying: " << expected;
  } catch (const thinmpi::mpi_error& e) {
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
  }
}

TEST(SerializedCollectives, AVectorThatIsNotOneValuePerRankFailsOnEveryRankWithoutAHang) {
  auto world = thinmpi::world();
  const std::string wrong_size =
      "the vector of serialized values has " + std::to_string(world.size() + 1) +
      " entries; the communicator has " + std::to_string(world.size()) +
      (world.size() == 1 ? " rank" : " ranks");  // the sentence counts in the singular too
  // scatterv: the root's vector is read; every other rank learns from the count exchange.
  const std::vector<strings> too_many(uz(world.size() + 1), strings{"x"});
  expect_error_containing(
      [&] { static_cast<void>(world.scatterv(serialized(too_many), 0, exchange_counts)); },
      world.rank() == 0 ? wrong_size : "rank 0 could not send its serialized values");
  // alltoallv: rank 0's vector is wrong; every rank receives its -1 and throws.
  const std::vector<strings> outbox(uz(world.size() + (world.rank() == 0 ? 1 : 0)));
  expect_error_containing(
      [&] { static_cast<void>(world.alltoallv(serialized(outbox), exchange_counts)); },
      world.rank() == 0 ? wrong_size : "rank 0 could not send its serialized values");
  // Nothing was left half done: the next collectives match up.
  const std::vector<strings> all =
      world.allgatherv(serialized(strings_of(world.rank())), exchange_counts);
  ASSERT_EQ(all.size(), uz(world.size()));
  EXPECT_EQ(all.back(), strings_of(world.size() - 1));
}

/// Bytes that do not decode as a std::string: a length of 2^64 - 1.
std::vector<std::byte> malformed_string() {
  return std::vector<std::byte>(9, std::byte{0xff});
}

TEST(SerializedCollectives, MalformedBytesNameTheTypeTheOffsetAndTheSendingRank) {
  auto world = thinmpi::world();
  if (world.size() < 2) GTEST_SKIP() << "needs a rank to send malformed bytes to another";
  // bcast: the root speaks the protocol with plain calls (the byte size, then the bytes).
  if (world.rank() == 0) {
    std::vector<std::byte> bytes = malformed_string();
    unsigned long long size = bytes.size();
    world.bcast(size, 0);
    world.bcast(bytes, 0);
  } else {
    std::string text = "kept";
    try {
      world.bcast(serialized(text), 0, exchange_counts);
      ADD_FAILURE() << "malformed bytes decoded";
    } catch (const thinmpi::serialization_error& e) {
      EXPECT_NE(e.type_name().find("string"), std::string::npos) << e.type_name();
      EXPECT_EQ(e.offset(), 0U);
      EXPECT_EQ(e.message_bytes(), 9U);
      EXPECT_NE(std::string(e.what()).find("thinmpi::decode(root 0)"), std::string::npos)
          << e.what();
    }
    EXPECT_EQ(text, "kept");  // a failed decode leaves the value as it was
  }
  // allgatherv: rank 1 sends its count and malformed bytes with the plain calls.
  if (world.rank() == 1) {
    const std::vector<std::byte> bytes = malformed_string();
    const std::vector<int> counts = world.allgather(static_cast<int>(bytes.size()));
    std::size_t total = 0;
    for (const int count : counts)
      total += uz(count);
    std::vector<std::byte> all(total);
    world.allgatherv(bytes, all, counts);
  } else {
    try {
      static_cast<void>(world.allgatherv(serialized(std::string("fine")), exchange_counts));
      ADD_FAILURE() << "malformed bytes decoded";
    } catch (const thinmpi::serialization_error& e) {
      EXPECT_NE(e.type_name().find("string"), std::string::npos) << e.type_name();
      EXPECT_NE(std::string(e.what()).find("thinmpi::decode(block of rank 1)"), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
