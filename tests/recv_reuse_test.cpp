// Receives of unknown size into reused capacity (recv_reuse: no reallocation while the capacity
// suffices) and into a new container with a bound (recv_at_most: one MPI_Recv, an error stating
// the sizes when the message is larger).

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "support/mpi_error_match.hpp"
#include "support/ring.hpp"
#include "thinmpi/thinmpi.hpp"

namespace {

using thinmpi_test::contains;
using thinmpi_test::error_from;
using thinmpi_test::iota_from;
using thinmpi_test::ring;

TEST(RecvReuse, SizesTheVectorAndKeepsItsStorageWhileItFits) {
  auto world = thinmpi::world();
  const ring r(world);
  std::vector<int> in;
  in.reserve(1000);
  const int* storage = in.data();
  for (const std::size_t n :
       {std::size_t{500}, std::size_t{1000}, std::size_t{0}, std::size_t{10}, std::size_t{999}}) {
    const auto out = iota_from(r.rank, n);
    auto sent = world.isend(out, r.next(), 1);
    const thinmpi::status st = world.recv_reuse(in, r.prev(), 1);
    EXPECT_EQ(in, iota_from(r.prev(), n)) << n;
    EXPECT_EQ(st.count(), n);
    EXPECT_EQ(st.source(), r.prev());
    EXPECT_EQ(in.data(), storage) << "reallocated for " << n << " ints";
    sent.wait();
  }
  // Larger than the capacity: one new allocation, the new size.
  const auto out = iota_from(r.rank, 5000);
  auto sent = world.isend(out, r.next(), 2);
  world.recv_reuse(in, r.prev(), 2);
  EXPECT_EQ(in, iota_from(r.prev(), 5000));
  EXPECT_GE(in.capacity(), 5000u);
  sent.wait();
}

TEST(RecvReuse, StringsAndAnySource) {
  auto world = thinmpi::world();
  const ring r(world);
  std::string in;
  in.reserve(200);
  const char* storage = in.data();
  for (const std::size_t n : {std::size_t{150}, std::size_t{3}, std::size_t{200}}) {
    const std::string out(n, static_cast<char>('a' + r.rank));
    auto sent = world.isend(out, r.next(), 3);
    const thinmpi::status st = world.recv_reuse(in, thinmpi::any_source, 3);
    EXPECT_EQ(st.source(), r.prev());
    EXPECT_EQ(in, std::string(n, static_cast<char>('a' + r.prev())));
    EXPECT_EQ(in.data(), storage);
    sent.wait();
  }
}

TEST(RecvReuse, BytesThatAreNotWholeElementsAreAnErrorAndConsumed) {
  auto world = thinmpi::world();
  const ring r(world);
  const std::vector<char> six(6, 'x');
  auto sent = world.isend(six, r.next(), 4);
  std::vector<int> in;
  const auto e = error_from([&] { world.recv_reuse(in, r.prev(), 4); });
  EXPECT_EQ(e.error_class(), MPI_ERR_TYPE);
  EXPECT_TRUE(contains(e.what(), "6 bytes")) << e.what();
  sent.wait();
  // The bad message was taken: the next one on the same tag is received.
  const auto out = iota_from(r.rank, 2);
  auto next = world.isend(out, r.next(), 4);
  world.recv_reuse(in, r.prev(), 4);
  EXPECT_EQ(in, iota_from(r.prev(), 2));
  next.wait();
}

TEST(RecvReuse, AFailedProbeNamesTheCallSourceAndTagAndLeavesTheVector) {
  auto world = thinmpi::world();
  const int outside = world.size() + 3;
  std::vector<int> in{7, 8};
  const auto e = error_from([&] { world.recv_reuse(in, outside, 9); });
  EXPECT_EQ(e.error_class(), MPI_ERR_RANK);
  EXPECT_TRUE(contains(e.what(), "MPI_Mprobe")) << e.what();
  EXPECT_TRUE(contains(e.what(), "source " + std::to_string(outside))) << e.what();
  EXPECT_TRUE(contains(e.what(), "tag 9")) << e.what();
  EXPECT_EQ(in, (std::vector<int>{7, 8}));
  // The communicator still carries messages.
  const ring r(world);
  auto sent = world.isend(iota_from(r.rank, 3), r.next(), 9);
  world.recv_reuse(in, r.prev(), 9);
  EXPECT_EQ(in, iota_from(r.prev(), 3));
  sent.wait();
}

TEST(RecvAtMost, ReceivesUpToTheBoundInOneCall) {
  auto world = thinmpi::world();
  const ring r(world);
  for (const std::size_t n : {std::size_t{0}, std::size_t{7}, std::size_t{64}}) {
    const auto out = iota_from(r.rank, n);
    auto sent = world.isend(out, r.next(), 5);
    EXPECT_EQ(world.recv_at_most<std::vector<int>>(r.prev(), 5, 64), iota_from(r.prev(), n));
    sent.wait();
  }
  const std::string text = "framed";
  auto sent = world.isend(text, r.next(), 6);
  EXPECT_EQ(world.recv_at_most<std::string>(r.prev(), 6, 100), "framed");
  sent.wait();
}

TEST(RecvAtMost, ALargerMessageIsAnErrorStatingTheSizes) {
  auto world = thinmpi::world();
  const ring r(world);
  const auto out = iota_from(r.rank, 65);
  auto sent = world.isend(out, r.next(), 7);
  const auto e =
      error_from([&] { static_cast<void>(world.recv_at_most<std::vector<int>>(r.prev(), 7, 64)); });
  EXPECT_EQ(e.error_class(), MPI_ERR_TRUNCATE);
  EXPECT_TRUE(contains(e.what(), "64 x MPI_INT = 256 bytes")) << e.what();
  if (contains(thinmpi::library_version(), "Open MPI")) {
    EXPECT_TRUE(contains(e.what(), "260 bytes")) << e.what();
  }
  sent.wait();
}

}  // namespace
