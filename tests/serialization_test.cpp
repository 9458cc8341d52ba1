// Serialization through MPI: every supported type, nested, empty and large, arrives intact
// through send/recv, ssend, sendrecv, isend/irecv and the completion functions; malformed
// messages received from another rank are errors that name the type and the offset.
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

}  // namespace
