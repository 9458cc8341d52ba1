// Serialization through MPI: every supported type, nested, empty and large, arrives intact
// through send/recv, ssend, sendrecv, isend/irecv, the completion functions and recv_reuse
// (decoded into the caller's value, whose storage it keeps); malformed messages received from
// another rank are errors that name the type and the offset.
// Ranks exchange with their ring neighbours, so the tests run on 1, 2 and 4.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

#include "support/ring.hpp"
#include "support/serial_samples.hpp"
#include "thinmpi/thinmpi.hpp"

namespace {

using thinmpi::serialized;
using thinmpi_test::ring;

/// Sends value to the next rank and returns what the previous rank sent with the same seed.
template <class T, class Make>
void round_trip(Make make) {
  auto world = thinmpi::world();
  const ring r(world);
  const T mine = make(r.rank);
  auto sent = world.isend(serialized(mine), r.next(), 11);
  const T theirs = world.recv<serialized<T>>(r.prev(), 11);
  EXPECT_EQ(theirs, make(r.prev()));
  static_cast<void>(sent.wait());
}

TEST(Serialization, AWrapperReferstoItsValueOrHoldsATemporaryAndEncodesIt) {
  const auto names = thinmpi_test::sample_strings(2);
  const serialized referring(names);  // serialized<const std::vector<std::string>&>
  EXPECT_EQ(&referring.value(), &names);
  const serialized holding(thinmpi_test::sample_strings(2));  // the temporary moved in
  EXPECT_EQ(holding.value(), names);
  const thinmpi::serialized_bytes bytes = referring.encode();
  const auto expected = thinmpi::to_bytes(names);
  EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), expected.begin(), expected.end()));
  EXPECT_EQ(thinmpi::from_bytes<std::vector<std::string>>(holding.encode()), names);
}

TEST(Serialization, StringsInAVector) {
  round_trip<std::vector<std::string>>(thinmpi_test::sample_strings);
}

TEST(Serialization, AggregateStructWithoutUserCode) {
  round_trip<thinmpi_test::record>(thinmpi_test::sample_record);
}

TEST(Serialization, ClassWithPrivateStateThroughItsSerializeMember) {
  round_trip<thinmpi_test::account>([](int seed) {
    return thinmpi_test::account("owner " + std::to_string(seed), seed * 100LL);
  });
}

TEST(Serialization, NestedContainers) {
  round_trip<thinmpi_test::nested>(thinmpi_test::sample_nested);
  round_trip<thinmpi_test::mixed>(thinmpi_test::sample_mixed);
}

TEST(Serialization, UnorderedContainers) {
  round_trip<std::unordered_map<std::string, std::set<int>>>([](int seed) {
    return std::unordered_map<std::string, std::set<int>>{{"one", {1}},
                                                          {"s", {seed, 2 * seed + 1}}};
  });
  round_trip<std::unordered_set<std::string>>([](int seed) {
    return std::unordered_set<std::string>{"a", std::to_string(seed)};
  });
}

TEST(Serialization, OptionalsAndVariants) {
  using both = std::vector<std::variant<std::monostate, int, std::string, std::optional<double>>>;
  round_trip<both>([](int seed) {
    return both{std::monostate{}, seed, std::string("text"), std::nullopt, std::optional(2.5)};
  });
}

TEST(Serialization, EmptyValues) {
  round_trip<std::vector<std::string>>([](int) { return std::vector<std::string>{}; });
  round_trip<std::string>([](int) { return std::string(); });
  round_trip<std::map<int, std::string>>([](int) { return std::map<int, std::string>{}; });
  round_trip<std::vector<std::string>>([](int) { return std::vector<std::string>(5); });
  round_trip<std::optional<std::vector<int>>>(
      [](int) { return std::optional<std::vector<int>>(); });
}

TEST(Serialization, ContiguousTriviallyCopyableRunsAreOneBlock) {
  round_trip<std::vector<thinmpi_test::point>>([](int seed) {
    return std::vector<thinmpi_test::point>{{1.0, 2.0}, {static_cast<double>(seed), -1.0}};
  });
  // 8 bytes of length + 3 points of 16 bytes: no per-element framing.
  EXPECT_EQ(thinmpi::serialized_size(std::vector<thinmpi_test::point>(3)), 8u + 3u * 16u);
  EXPECT_EQ(thinmpi::serialized_size(std::string("abc")), 8u + 3u);
}

TEST(Serialization, LargeValueRoundTrips) {
  round_trip<std::vector<std::string>>([](int seed) {
    std::vector<std::string> many(20000);
    for (std::size_t i = 0; i < many.size(); ++i)
      many[i] =
          std::string(i % 97, static_cast<char>('a' + (i + static_cast<std::size_t>(seed)) % 26));
    return many;
  });
}

TEST(Serialization, BlockingSendAndSsendToAnotherRank) {
  auto world = thinmpi::world();
  if (world.size() < 2) GTEST_SKIP() << "needs a second rank for a blocking send";
  const std::map<int, std::string> table{{1, "one"}, {2, "two"}};
  if (world.rank() == 0) {
    world.send(serialized(table), 1, 3);
    world.ssend(serialized(std::map<int, std::string>{{3, "three"}}), 1, 4);
  } else if (world.rank() == 1) {
    auto [got, st] = world.recv_with_status<serialized<std::map<int, std::string>>>(0, 3);
    EXPECT_EQ(got, table);
    EXPECT_EQ(st.source(), 0);
    EXPECT_EQ(st.bytes(), thinmpi::serialized_size(table));
    EXPECT_EQ((world.recv<serialized<std::map<int, std::string>>>(0, 4)),
              (std::map<int, std::string>{{3, "three"}}));
  }
}

TEST(Serialization, SendrecvBothWays) {
  auto world = thinmpi::world();
  const ring r(world);
  const auto mine = thinmpi_test::sample_record(r.rank);
  const auto theirs =
      world.sendrecv<serialized<thinmpi_test::record>>(serialized(mine), r.next(), 5, r.prev(), 5);
  EXPECT_EQ(theirs, thinmpi_test::sample_record(r.prev()));
  // A serialized send into a plain bounded receive: one MPI_Sendrecv of the bytes.
  std::vector<std::byte> raw(1000);
  const thinmpi::status st =
      world.sendrecv(serialized(std::string("hello")), r.next(), 6, raw, r.prev(), 6);
  EXPECT_EQ(st.bytes(), 8u + 5u);
  EXPECT_EQ(thinmpi::from_bytes<std::string>(raw), "hello");
}

TEST(Serialization, NonblockingRequestsOwnTheBytesAndDecodeOnCompletion) {
  auto world = thinmpi::world();
  const ring r(world);
  auto pending = world.irecv<serialized<thinmpi_test::nested>>(r.prev(), 8);
  auto other = world.irecv<serialized<std::string>>(r.prev(), 9);
  {
    // The value is a temporary: the request owns the encoded bytes, not the value.
    auto a = world.isend(serialized(thinmpi_test::sample_nested(r.rank)), r.next(), 8);
    auto b = world.issend(serialized(std::string(1000, 'z')), r.next(), 9);
    thinmpi::wait_all(a, b, pending, other);
  }
  EXPECT_FALSE(pending.active());
  EXPECT_EQ(pending.wait(), thinmpi_test::sample_nested(r.prev()));
  EXPECT_EQ(other.wait(), std::string(1000, 'z'));
}

TEST(Serialization, WaitAnyAndTestSeeSerializedReceives) {
  auto world = thinmpi::world();
  const ring r(world);
  std::vector<thinmpi::serialized_request<std::vector<std::string>>> pending;
  pending.push_back(world.irecv<serialized<std::vector<std::string>>>(r.prev(), 21));
  auto sent = world.isend(serialized(thinmpi_test::sample_strings(r.rank)), r.next(), 21);
  const auto index = thinmpi::wait_any(pending);
  ASSERT_TRUE(index.has_value());
  EXPECT_EQ(*index, 0u);
  EXPECT_EQ(pending[0].last_status().source(), r.prev());
  const auto got = pending[0].test();
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(*got, thinmpi_test::sample_strings(r.prev()));
  static_cast<void>(sent.wait());
}

TEST(Serialization, MessagesAreTheBytesOfToBytes) {
  // What goes on the wire is exactly to_bytes(value): a plain receive of bytes sees it.
  auto world = thinmpi::world();
  const ring r(world);
  const auto mine = thinmpi_test::sample_mixed(r.rank);
  auto sent = world.isend(serialized(mine), r.next(), 12);
  const auto raw = world.recv<std::vector<std::byte>>(r.prev(), 12);
  const auto expected = thinmpi::to_bytes(thinmpi_test::sample_mixed(r.prev()));
  ASSERT_EQ(raw.size(), expected.size());
  EXPECT_TRUE(std::equal(raw.begin(), raw.end(), expected.begin()));
  static_cast<void>(sent.wait());
}

TEST(Serialization, MalformedMessageFromAnotherRankNamesTypeOffsetAndSource) {
  auto world = thinmpi::world();
  const ring r(world);
  // Nine bytes claiming a string of 2^64 - 1 characters.
  std::vector<std::byte> evil(9, std::byte{0xff});
  auto sent = world.isend(evil, r.next(), 13);
  try {
    static_cast<void>(world.recv<serialized<std::string>>(r.prev(), 13));
    ADD_FAILURE() << "a malformed message was accepted";
  } catch (const thinmpi::serialization_error& e) {
    EXPECT_EQ(e.offset(), 0u);
    EXPECT_EQ(e.message_bytes(), 9u);
    EXPECT_EQ(e.peer(), r.prev());
    EXPECT_EQ(e.tag(), 13);
    EXPECT_NE(std::string(e.what()).find("exceeds the 1 byte left"), std::string::npos) << e.what();
    // The type as users write it (issue 17): std::string, not std::__cxx11::basic_string<char>.
    EXPECT_NE(std::string(e.what()).find("as std::string"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("basic_string"), std::string::npos) << e.what();
  }
  // And through a nonblocking receive: wait() throws the same error.
  auto sent_again = world.isend(evil, r.next(), 14);
  auto pending = world.irecv<serialized<std::vector<int>>>(r.prev(), 14);
  EXPECT_THROW(static_cast<void>(pending.wait()), thinmpi::serialization_error);
  sent.wait();
  sent_again.wait();
}

/// n strings of 20 + i chars (longer than std::string keeps in itself), seeded.
std::vector<std::string> long_strings(int seed, std::size_t n) {
  std::vector<std::string> strings;
  for (std::size_t i = 0; i < n; ++i)
    strings.emplace_back(20 + i,
                         static_cast<char>('a' + (static_cast<std::size_t>(seed) + i) % 26));
  return strings;
}

/// n entries, keys seeded, values of 30 chars.
std::map<int, std::string> long_table(int seed, int n) {
  std::map<int, std::string> table;
  for (int k = 0; k < n; ++k)
    table[7 * k + seed] = std::string(30, static_cast<char>('a' + k % 26));
  return table;
}

/// Sends `value` to the next rank and receives the previous rank's into `into` with recv_reuse.
template <class T>
thinmpi::status reuse_round(const T& value, T& into, int tag) {
  auto world = thinmpi::world();
  const ring r(world);
  auto sent = world.isend(serialized(value), r.next(), tag);
  const thinmpi::status st = world.recv_reuse(serialized(into), r.prev(), tag);
  static_cast<void>(sent.wait());
  return st;
}

TEST(Serialization, RecvReuseDecodesIntoTheCallersVectorAndItsStringsKeepTheirBuffers) {
  auto world = thinmpi::world();
  const ring r(world);
  std::vector<std::string> into(5);
  std::vector<const char*> buffers;
  for (auto& s : into) {
    s.reserve(64);
    buffers.push_back(s.data());
  }
  const std::string* elements = into.data();
  // Fewer strings than it holds: the first three are read into, the other two dropped.
  const thinmpi::status st = reuse_round(long_strings(r.rank, 3), into, 31);
  EXPECT_EQ(into, long_strings(r.prev(), 3));
  EXPECT_EQ(st.source(), r.prev());
  EXPECT_EQ(st.tag(), 31);
  EXPECT_EQ(st.bytes(), thinmpi::serialized_size(long_strings(r.prev(), 3)));
  EXPECT_EQ(into.data(), elements);
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_EQ(into[i].data(), buffers[i]) << "string " << i << " was rebuilt";
  // More than it holds: the kept strings move with the vector and keep their buffers; the five
  // new ones are built.
  static_cast<void>(reuse_round(long_strings(r.rank, 8), into, 32));
  EXPECT_EQ(into, long_strings(r.prev(), 8));
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_EQ(into[i].data(), buffers[i]) << "string " << i << " was rebuilt";
  // Empty, then strings again.
  static_cast<void>(reuse_round(std::vector<std::string>{}, into, 33));
  EXPECT_TRUE(into.empty());
  static_cast<void>(reuse_round(thinmpi_test::sample_strings(r.rank), into, 34));
  EXPECT_EQ(into, thinmpi_test::sample_strings(r.prev()));
}

TEST(Serialization, RecvReuseDecodesIntoTheCallersMapReusingItsNodes) {
  auto world = thinmpi::world();
  const ring r(world);
  std::map<int, std::string> into;
  for (int k = 0; k < 6; ++k)
    into[1000 + k].reserve(64);
  std::set<const std::string*> nodes;
  std::set<const char*> buffers;
  for (const auto& entry : into) {
    nodes.insert(&entry.second);
    buffers.insert(entry.second.data());
  }
  // Four entries of other keys into six nodes: four nodes reused (their strings' buffers too).
  static_cast<void>(reuse_round(long_table(r.rank, 4), into, 35));
  EXPECT_EQ(into, long_table(r.prev(), 4));
  for (const auto& [key, value] : into) {
    EXPECT_TRUE(nodes.count(&value) == 1) << "key " << key << " got a new node";
    EXPECT_TRUE(buffers.count(value.data()) == 1) << "key " << key << "'s string was rebuilt";
  }
  // Nine into four: the four kept nodes are reused, five are new.
  static_cast<void>(reuse_round(long_table(r.rank, 9), into, 36));
  EXPECT_EQ(into, long_table(r.prev(), 9));
  const auto reused = std::count_if(into.begin(), into.end(),
                                    [&](const auto& entry) { return nodes.count(&entry.second); });
  EXPECT_EQ(reused, 4);
  // The same keys again: their values are read in place, every node stays where it is.
  std::vector<const std::string*> held;
  for (const auto& entry : into)
    held.push_back(&entry.second);
  static_cast<void>(reuse_round(long_table(r.rank, 9), into, 43));
  EXPECT_EQ(into, long_table(r.prev(), 9));
  std::size_t k = 0;
  for (const auto& entry : into)
    EXPECT_EQ(&entry.second, held[k++]) << "key " << entry.first << " got another node";
  // The first keys again, then others: the first stay in place, the others reuse the rest.
  auto mixed = long_table(r.rank, 3);
  mixed[-5] = "before them all";  // a key below the kept ones: the tree is relinked from there
  mixed[1000] = std::string(40, 'z');
  static_cast<void>(reuse_round(mixed, into, 44));
  auto expected = long_table(r.prev(), 3);
  expected[-5] = "before them all";
  expected[1000] = std::string(40, 'z');
  EXPECT_EQ(into, expected);
}

/// Values of every shape whose alternatives, engagement and sizes change with the seed, so a
/// decode into the value made from another seed must replace, grow and shrink what it holds.
using shifting = std::tuple<std::vector<std::variant<int, std::string>>, std::optional<std::string>,
                            std::unordered_map<std::string, std::vector<int>>,
                            std::set<std::string>, std::vector<std::vector<std::string>>>;

shifting sample_shifting(int seed) {
  shifting value;
  auto& [variants, optional, unordered, set, nested] = value;
  for (int i = 0; i < 3 + seed % 3; ++i) {
    if ((i + seed) % 2 == 0) {
      variants.emplace_back(i * seed);
    } else {
      variants.emplace_back(thinmpi_test::numbered("alternative ", i + seed));
    }
  }
  if (seed % 2 == 0) optional = std::string(25, 'o');
  for (int i = 0; i < 2 + seed % 4; ++i)
    unordered[thinmpi_test::numbered("key ", i + seed)] =
        std::vector<int>(static_cast<std::size_t>(i), seed);
  for (int i = 0; i < 4 - seed % 3; ++i)
    set.insert(thinmpi_test::numbered("member of the set ", i * seed));
  nested.resize(static_cast<std::size_t>(1 + seed % 3), long_strings(seed, 2));
  return value;
}

TEST(Serialization, RecvReuseReplacesWhatTheValueHeldWithWhatWasSent) {
  auto world = thinmpi::world();
  const ring r(world);
  for (const int held : {r.rank + 1, r.rank + 2, r.rank + 5}) {
    shifting into = sample_shifting(held);
    static_cast<void>(reuse_round(sample_shifting(r.rank), into, 37));
    EXPECT_EQ(into, sample_shifting(r.prev())) << "holding the value of seed " << held;
  }
  auto record = thinmpi_test::sample_record(r.rank + 4);
  static_cast<void>(reuse_round(thinmpi_test::sample_record(r.rank), record, 38));
  EXPECT_EQ(record, thinmpi_test::sample_record(r.prev()));
  auto nested = thinmpi_test::sample_nested(r.rank + 3);
  static_cast<void>(reuse_round(thinmpi_test::sample_nested(r.rank), nested, 39));
  EXPECT_EQ(nested, thinmpi_test::sample_nested(r.prev()));
}

TEST(Serialization, RecvReuseOfAMalformedMessageNamesItAndLeavesTheValueEmpty) {
  auto world = thinmpi::world();
  const ring r(world);
  // Two entries of one key, in the map's wire format: a duplicate at the second entry, after
  // the first has been read into one of the held nodes.
  const std::vector<std::pair<int, std::string>> twice{{1, "a"}, {1, "b"}};
  std::map<int, std::string> table = long_table(r.rank, 3);
  auto sent = world.isend(serialized(twice), r.next(), 40);
  try {
    static_cast<void>(world.recv_reuse(serialized(table), r.prev(), 40));
    ADD_FAILURE() << "a duplicate key was accepted";
  } catch (const thinmpi::serialization_error& e) {
    EXPECT_EQ(e.peer(), r.prev());
    EXPECT_EQ(e.tag(), 40);
    EXPECT_NE(std::string(e.what()).find("duplicate key"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(table.empty()) << "the held or part-read entries were left";
  static_cast<void>(sent.wait());
  // The same duplicate into a map holding the first key: read in place, then the duplicate.
  table = {{1, "one"}, {2, "two"}};
  auto sent_twice = world.isend(serialized(twice), r.next(), 45);
  EXPECT_THROW(static_cast<void>(world.recv_reuse(serialized(table), r.prev(), 45)),
               thinmpi::serialization_error);
  EXPECT_TRUE(table.empty());
  static_cast<void>(sent_twice.wait());
  // A vector of strings cut short after its first string: nothing of it is left either.
  std::vector<std::string> names = long_strings(r.rank, 4);
  auto bytes = thinmpi::to_bytes(long_strings(r.rank, 2));
  bytes.resize(bytes.size() - 3);
  auto cut = world.isend(bytes, r.next(), 41);
  EXPECT_THROW(static_cast<void>(world.recv_reuse(serialized(names), r.prev(), 41)),
               thinmpi::serialization_error);
  EXPECT_TRUE(names.empty());
  static_cast<void>(cut.wait());
  // The receive still works afterwards, into the emptied value.
  static_cast<void>(reuse_round(long_strings(r.rank, 2), names, 42));
  EXPECT_EQ(names, long_strings(r.prev(), 2));
}

}  // namespace
