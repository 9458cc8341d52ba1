// The framed protocol (framed.hpp): every size around the frame arrives whole, through blocking
// and nonblocking receives, from any source; a small framed message is a plain message that C
// MPI_Recv takes; a message of one frame or more is exactly a frame and a continuation; what is
// not a frame is an error, never misread. Serialized values travel as their encoded bytes,
// framed the same way, and a malformed encoding is a serialization error naming its source.

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "support/mpi_error_match.hpp"
#include "support/ring.hpp"
#include "support/serial_samples.hpp"
#include "thinmpi/thinmpi.hpp"

namespace {

using thinmpi_test::contains;
using thinmpi_test::error_from;
using thinmpi_test::iota_from;
using thinmpi_test::ring;

std::string letters_from(int start, std::size_t n) {
  std::string text(n, ' ');
  for (std::size_t i = 0; i < n; ++i)
    text[i] = static_cast<char>('a' + (static_cast<std::size_t>(start) + i) % 26);
  return text;
}

constexpr std::size_t frame_ints = thinmpi::framed_channel::default_frame_size / sizeof(int);

/// Sizes that matter: empty, one, around one frame of ints, several frames, large.
const std::vector<std::size_t> sizes_around_the_frame = {0,
                                                         1,
                                                         frame_ints - 5,
                                                         frame_ints - 4,
                                                         frame_ints - 1,
                                                         frame_ints,
                                                         frame_ints + 1,
                                                         2 * frame_ints - 1,
                                                         2 * frame_ints,
                                                         100'000};

TEST(Framed, EverySizeAroundTheFrameArrivesWhole) {
  auto world = thinmpi::world();
  const ring r(world);
  const thinmpi::framed_channel channel(world);
  for (const std::size_t n : sizes_around_the_frame) {
    const auto out = iota_from(r.rank, n);
    auto sent = channel.isend(out, r.next(), 4);
    const auto [in, st] = channel.recv_with_status<std::vector<int>>(r.prev(), 4);
    EXPECT_EQ(in, iota_from(r.prev(), n)) << n << " ints";
    EXPECT_EQ(st.source(), r.prev());
    EXPECT_EQ(st.tag(), 4);
    EXPECT_EQ(st.count(), n);
    sent.wait();
  }
}

TEST(Framed, StringsAndVectorsThatAreNotZeroedFirst) {
  auto world = thinmpi::world();
  const ring r(world);
  const thinmpi::framed_channel channel(world);
  using uninit = std::vector<int, thinmpi::default_init_allocator<int>>;
  constexpr std::size_t f = thinmpi::framed_channel::default_frame_size;
  for (const std::size_t n : {std::size_t{0}, std::size_t{7}, f - 1, f, f + 1, std::size_t{4095},
                              std::size_t{4096}, std::size_t{4097}, std::size_t{70'000}}) {
    const std::string text = letters_from(r.rank, n);
    const auto ints = iota_from(r.rank, n);
    auto sent_text = channel.isend(text, r.next(), 1);
    auto sent_ints = channel.isend(ints, r.next(), 2);
    EXPECT_EQ(channel.recv<std::string>(r.prev(), 1), letters_from(r.prev(), n)) << n;
    const auto in = channel.recv<uninit>(r.prev(), 2);
    EXPECT_EQ(std::vector<int>(in.begin(), in.end()), iota_from(r.prev(), n)) << n;
    thinmpi::wait_all(sent_text, sent_ints);
  }
}

TEST(Framed, ElementsThatDoNotDivideTheFrame) {
  // 12-byte elements: a frame of 4096 bytes is 341 of them (4092 bytes), the split is inside
  // an element.
  auto world = thinmpi::world();
  const ring r(world);
  const thinmpi::framed_channel channel(world, 4096);
  for (const std::size_t n :
       {std::size_t{340}, std::size_t{341}, std::size_t{342}, std::size_t{1000}}) {
    std::vector<std::array<int, 3>> out(n);
    for (std::size_t i = 0; i < n; ++i)
      out[i] = {r.rank, static_cast<int>(i), -static_cast<int>(i)};
    auto sent = channel.isend(out, r.next(), 5);
    const auto in = channel.recv<std::vector<std::array<int, 3>>>(r.prev(), 5);
    ASSERT_EQ(in.size(), n);
    for (std::size_t i = 0; i < n; ++i)
      EXPECT_EQ(in[i], (std::array<int, 3>{r.prev(), static_cast<int>(i), -static_cast<int>(i)}));
    sent.wait();
  }
}

struct point3 {  // 24 bytes, no padding: an MPI struct datatype; a short frame is 25 bytes
  double x;
  double y;
  double z;
};

TEST(Framed, StructElementsGoThroughFullAndShortFrames) {
  auto world = thinmpi::world();
  const ring r(world);
  const thinmpi::framed_channel channel(world, 4096);  // 170 points (4080 bytes) a frame
  for (const std::size_t n : {std::size_t{169}, std::size_t{170}, std::size_t{171},
                              std::size_t{339}, std::size_t{340}, std::size_t{5000}}) {
    std::vector<point3> out(n);
    for (std::size_t i = 0; i < n; ++i)
      out[i] = {static_cast<double>(r.rank), static_cast<double>(i), -static_cast<double>(i)};
    auto sent = channel.isend(out, r.next(), 5);
    const auto [in, st] = channel.recv_with_status<std::vector<point3>>(r.prev(), 5);
    ASSERT_EQ(in.size(), n);
    EXPECT_EQ(st.count(), n);
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_EQ(in[i].x, static_cast<double>(r.prev()));
      EXPECT_EQ(in[i].y, static_cast<double>(i));
      EXPECT_EQ(in[i].z, -static_cast<double>(i));
    }
    sent.wait();
  }
}

TEST(Framed, ASmallFramedMessageIsAPlainMessageThatCReceives) {
  // The channel sends a small payload as its bytes (MPI_BYTE): a C receive of bytes takes it,
  // and so does one of MPI_INT (the same bytes on one data representation).
  auto world = thinmpi::world();
  const ring r(world);
  const thinmpi::framed_channel channel(world);
  const auto out = iota_from(r.rank, 100);
  auto sent = channel.isend(out, r.next(), 6);
  auto again = channel.isend(out, r.next(), 7);
  std::vector<int> in(frame_ints, -1);
  MPI_Status st;
  ASSERT_EQ(MPI_Recv(in.data(), static_cast<int>(in.size() * sizeof(int)), MPI_BYTE, r.prev(), 6,
                     MPI_COMM_WORLD, &st),
            MPI_SUCCESS);
  int count = 0;
  MPI_Get_count(&st, MPI_BYTE, &count);
  EXPECT_EQ(count, 400);
  std::vector<int> typed(frame_ints, -1);
  ASSERT_EQ(MPI_Recv(typed.data(), static_cast<int>(typed.size()), MPI_INT, r.prev(), 7,
                     MPI_COMM_WORLD, &st),
            MPI_SUCCESS);
  MPI_Get_count(&st, MPI_INT, &count);
  EXPECT_EQ(count, 100);
  in.resize(100);
  typed.resize(100);
  EXPECT_EQ(in, iota_from(r.prev(), 100));
  EXPECT_EQ(typed, iota_from(r.prev(), 100));
  thinmpi::wait_all(sent, again);
}

TEST(Framed, AWidePayloadIsAFullFrameUpToTwoFramesThenAShortFrame) {
  // Elements wider than a byte: up to two frames, the first message is a full frame (the
  // payload's first bytes, the 16-byte header at its end) and the continuation the rest; from
  // two frames up, it is a short frame, the header and one byte more (17 bytes: no payload of
  // whole ints has that size), and the continuation is the whole payload.
  auto world = thinmpi::world();
  const ring r(world);
  const thinmpi::framed_channel channel(world);
  const std::size_t frame_bytes = frame_ints * sizeof(int);
  int tag = 20;  // one per payload, so that the probe below cannot see the next one
  for (const std::size_t n : {frame_ints + 10, 2 * frame_ints - 1, 2 * frame_ints}) {
    ++tag;
    const bool full = n < 2 * frame_ints;
    const auto out = iota_from(r.rank, n);
    auto sent = channel.isend(out, r.next(), tag);
    std::vector<std::byte> frame(frame_bytes + 100);
    MPI_Status st;
    ASSERT_EQ(MPI_Recv(frame.data(), static_cast<int>(frame.size()), MPI_BYTE, r.prev(), tag,
                       MPI_COMM_WORLD, &st),
              MPI_SUCCESS);
    int count = 0;
    MPI_Get_count(&st, MPI_BYTE, &count);
    EXPECT_EQ(static_cast<std::size_t>(count), full ? frame_bytes : 17) << n;
    const std::size_t header_at = full ? frame_bytes - 16 : 0;
    std::uint64_t total = 0;
    std::uint32_t continuation_tag = 0;
    std::uint32_t magic = 0;
    std::memcpy(&total, frame.data() + header_at, 8);
    std::memcpy(&continuation_tag, frame.data() + header_at + 8, 4);
    std::memcpy(&magic, frame.data() + header_at + 12, 4);
    EXPECT_EQ(total, n * sizeof(int));
    EXPECT_EQ(magic, 0x7f4d5046U);
    const std::size_t carried = full ? frame_ints - 4 : 0;
    std::vector<int> first(carried);
    if (carried != 0) std::memcpy(first.data(), frame.data(), carried * sizeof(int));
    EXPECT_EQ(first, iota_from(r.prev(), carried));
    if (!full) {
      EXPECT_EQ(frame[16], std::byte{0});
    }
    // The rest is on the channel's own communicator, with the tag the frame names: nothing
    // more on the user's.
    int waiting = 1;
    MPI_Iprobe(r.prev(), tag, MPI_COMM_WORLD, &waiting, MPI_STATUS_IGNORE);
    EXPECT_EQ(waiting, 0);
    std::vector<int> rest(n + 100);
    ASSERT_EQ(
        MPI_Recv(rest.data(), static_cast<int>(rest.size() * sizeof(int)), MPI_BYTE, r.prev(),
                 static_cast<int>(continuation_tag), channel.continuation_comm().native(), &st),
        MPI_SUCCESS);
    MPI_Get_count(&st, MPI_BYTE, &count);
    EXPECT_EQ(static_cast<std::size_t>(count), (n - carried) * sizeof(int));
    rest.resize(n - carried);
    EXPECT_EQ(rest, iota_from(r.prev() + static_cast<int>(carried), n - carried));
    sent.wait();
  }
}

TEST(Framed, AByteWidePayloadOfOneFrameOrMoreIsAFullFrameAndTheRest) {
  // Bytes: every size below a frame is a payload, so the first message is exactly one frame,
  // the payload's first bytes and the header in its last 16 bytes; the continuation is the rest.
  auto world = thinmpi::world();
  const ring r(world);
  const thinmpi::framed_channel channel(world);
  const std::size_t frame = thinmpi::framed_channel::default_frame_size;
  const std::string out = letters_from(r.rank, frame + 10);
  auto sent = channel.isend(out, r.next(), 8);
  std::string first(frame + 100, ' ');
  MPI_Status st;
  ASSERT_EQ(MPI_Recv(first.data(), static_cast<int>(first.size()), MPI_BYTE, r.prev(), 8,
                     MPI_COMM_WORLD, &st),
            MPI_SUCCESS);
  int count = 0;
  MPI_Get_count(&st, MPI_BYTE, &count);
  EXPECT_EQ(static_cast<std::size_t>(count), frame);
  const std::size_t carried = frame - 16;
  std::uint64_t total = 0;
  std::memcpy(&total, first.data() + carried, 8);
  EXPECT_EQ(total, frame + 10);
  first.resize(carried);
  const std::string theirs = letters_from(r.prev(), frame + 10);
  EXPECT_EQ(first, theirs.substr(0, carried));
  std::string rest(100, ' ');
  ASSERT_EQ(MPI_Recv(rest.data(), static_cast<int>(rest.size()), MPI_BYTE, r.prev(), MPI_ANY_TAG,
                     channel.continuation_comm().native(), &st),
            MPI_SUCCESS);
  MPI_Get_count(&st, MPI_BYTE, &count);
  EXPECT_EQ(count, 26);
  rest.resize(26);
  EXPECT_EQ(rest, theirs.substr(carried));
  sent.wait();
}

TEST(Framed, AMessageOfAShortFramesSizeWithoutAHeaderIsAnError) {
  // 17 bytes arriving for ints: a short frame's size, but no frame header. Other partial sizes
  // are reported as partial elements. Neither is misread, and the channel stays usable.
  auto world = thinmpi::world();
  const ring r(world);
  const thinmpi::framed_channel channel(world);
  const std::vector<std::byte> junk(18, std::byte{1});
  auto sent = world.isend(std::span(junk.data(), 17), r.next(), 9);
  const auto e =
      error_from([&] { static_cast<void>(channel.recv<std::vector<int>>(r.prev(), 9)); });
  EXPECT_TRUE(contains(e.what(), "without a frame header")) << e.what();
  EXPECT_TRUE(contains(e.what(), "17 bytes")) << e.what();
  sent.wait();
  auto odd = world.isend(std::span(junk.data(), 18), r.next(), 9);
  const auto partial =
      error_from([&] { static_cast<void>(channel.recv<std::vector<int>>(r.prev(), 9)); });
  EXPECT_EQ(partial.error_class(), MPI_ERR_TYPE) << partial.what();
  odd.wait();
  const auto three = iota_from(r.rank, 3);
  auto fine = channel.isend(three, r.next(), 9);
  EXPECT_EQ(channel.recv<std::vector<int>>(r.prev(), 9), iota_from(r.prev(), 3));
  fine.wait();
}

TEST(Framed, APlainMessageOfOneFrameIsAnErrorNotAPayload) {
  auto world = thinmpi::world();
  const ring r(world);
  const thinmpi::framed_channel channel(world);
  const std::vector<int> plain(frame_ints, 0);
  auto sent = world.isend(plain, r.next(), 9);
  const auto e =
      error_from([&] { static_cast<void>(channel.recv<std::vector<int>>(r.prev(), 9)); });
  EXPECT_TRUE(contains(e.what(), "without a frame header")) << e.what();
  EXPECT_TRUE(contains(e.what(), std::to_string(frame_ints * sizeof(int)) + " bytes")) << e.what();
  sent.wait();
}

TEST(Framed, APlainMessageLargerThanAFrameIsATruncation) {
  auto world = thinmpi::world();
  const ring r(world);
  // A small frame keeps the plain message (260 bytes) under both MPIs' eager limits, so on
  // both this is the truncation of an eager message: Open MPI 4.1.4 writes a truncated message
  // above its eager limit past the receive buffer (docs/library.md), which no wrapper can
  // prevent without a probe before the receive, so the rendezvous case is not tried here.
  constexpr std::size_t small_frame = 256;
  // Measured here (nonblocking_test's DroppedSendCompletesBeforeItsBufferGoes): Open MPI 4.1.4
  // sends up to 4040 bytes eagerly, MPICH 4.0.2 at least 8193.
  constexpr std::size_t smallest_eager_limit = 4040;
  const thinmpi::framed_channel channel(world, small_frame);
  const std::vector<int> larger(small_frame / sizeof(int) + 1, 0);
  static_assert((small_frame / sizeof(int) + 1) * sizeof(int) < smallest_eager_limit);
  auto sent_larger = world.isend(larger, r.next(), 10);
  const auto t =
      error_from([&] { static_cast<void>(channel.recv<std::vector<int>>(r.prev(), 10)); });
  EXPECT_EQ(t.error_class(), MPI_ERR_TRUNCATE) << t.what();
  EXPECT_TRUE(contains(t.what(), "256 bytes")) << t.what();
  sent_larger.wait();
}

TEST(Framed, AnySourceTakesEachContinuationFromItsFramesSource) {
  auto world = thinmpi::world();
  const ring r(world);
  if (r.size < 2) GTEST_SKIP() << "needs several senders";
  const thinmpi::framed_channel channel(world);
  const std::size_t large = 3 * frame_ints + static_cast<std::size_t>(r.rank);
  if (r.rank != 0) {
    // Large, small, large: the receiver's any_source receives interleave the senders.
    const auto first = iota_from(r.rank * 1000, large);
    const auto second = iota_from(r.rank * 1000, static_cast<std::size_t>(r.rank));
    channel.send(first, 0, 11);
    channel.send(second, 0, 11);
    channel.send(first, 0, 11);
    return;
  }
  std::vector<int> seen(static_cast<std::size_t>(r.size), 0);
  for (int i = 0; i < 3 * (r.size - 1); ++i) {
    const auto [in, st] = channel.recv_with_status<std::vector<int>>(thinmpi::any_source, 11);
    const int from = st.source();
    const auto expected_size = seen[static_cast<std::size_t>(from)] == 1
                                   ? static_cast<std::size_t>(from)
                                   : 3 * frame_ints + static_cast<std::size_t>(from);
    EXPECT_EQ(in, iota_from(from * 1000, expected_size)) << "from rank " << from;
    ++seen[static_cast<std::size_t>(from)];
  }
}

TEST(Framed, NonblockingReceivesOfEverySize) {
  auto world = thinmpi::world();
  const ring r(world);
  const thinmpi::framed_channel channel(world);
  std::vector<thinmpi::framed_request<std::vector<int>>> pending;
  for (std::size_t i = 0; i < sizes_around_the_frame.size(); ++i)
    pending.push_back(channel.irecv<std::vector<int>>(r.prev(), 20 + static_cast<int>(i)));
  std::vector<std::vector<int>> outs;
  for (const std::size_t n : sizes_around_the_frame)
    outs.push_back(iota_from(r.rank, n));
  std::vector<thinmpi::framed_send_request> sends;
  for (std::size_t i = 0; i < outs.size(); ++i)
    sends.push_back(channel.isend(outs[i], r.next(), 20 + static_cast<int>(i)));
  for (std::size_t done = 0; done < pending.size(); ++done) {
    const auto which = thinmpi::wait_any(pending);
    ASSERT_TRUE(which.has_value());
    EXPECT_EQ(pending[*which].last_status().count(), sizes_around_the_frame[*which]);
    EXPECT_EQ(pending[*which].wait(), iota_from(r.prev(), sizes_around_the_frame[*which]));
  }
  thinmpi::wait_all(sends);
  // test() until done, on a large payload.
  auto polled = channel.irecv<std::string>(r.prev(), 40);
  EXPECT_FALSE(polled.test().has_value());
  world.barrier();  // no rank sends before every rank has tested once
  const std::string text = letters_from(r.rank, 10'000);
  auto sent = channel.isend(text, r.next(), 40);
  std::optional<std::string> got;
  while (!(got = polled.test()))
    ;
  EXPECT_EQ(*got, letters_from(r.prev(), 10'000));
  EXPECT_FALSE(polled.active());
  sent.wait();
}

TEST(Framed, EachContinuationReachesItsOwnFrameWhicheverCompletesFirst) {
  // Two receives of the same source and tag take two frames in order; the second is completed
  // first and posts its continuation first: it must get its own, not the first frame's.
  auto world = thinmpi::world();
  const ring r(world);
  const thinmpi::framed_channel channel(world);
  auto first = channel.irecv<std::vector<int>>(r.prev(), 60);
  auto second = channel.irecv<std::vector<int>>(r.prev(), 60);
  const auto a = iota_from(r.rank, 3 * frame_ints);
  const auto b = iota_from(r.rank + 100, 2 * frame_ints + 7);
  auto sent_a = channel.isend(a, r.next(), 60);
  auto sent_b = channel.isend(b, r.next(), 60);
  EXPECT_EQ(second.wait(), iota_from(r.prev() + 100, 2 * frame_ints + 7));
  EXPECT_EQ(first.wait(), iota_from(r.prev(), 3 * frame_ints));
  thinmpi::wait_all(sent_a, sent_b);
}

TEST(Framed, AnAbandonedReceiveLeavesTheMessageForTheNext) {
  auto world = thinmpi::world();
  const ring r(world);
  const thinmpi::framed_channel channel(world);
  {
    auto never = channel.irecv<std::vector<int>>(r.prev(), 50);
    EXPECT_TRUE(never.active());
  }                 // cancelled: nothing was sent yet
  world.barrier();  // no rank sends before every rank has dropped its receive
  const auto out = iota_from(r.rank, 3);
  auto sent = channel.isend(out, r.next(), 50);
  EXPECT_EQ(channel.recv<std::vector<int>>(r.prev(), 50), iota_from(r.prev(), 3));
  sent.wait();
}

TEST(Framed, OtherFrameSizes) {
  auto world = thinmpi::world();
  const ring r(world);
  const thinmpi::framed_channel small(world, 64);       // 8 doubles; 6 carried by a frame
  const thinmpi::framed_channel big(world, 64 * 1024);  // frames on the heap
  for (const std::size_t n : {std::size_t{0}, std::size_t{5}, std::size_t{7}, std::size_t{8},
                              std::size_t{9}, std::size_t{10'000}, std::size_t{20'000}}) {
    const std::vector<double> out(n, 0.5 + r.rank);
    auto a = small.isend(out, r.next(), 1);
    auto b = big.isend(out, r.next(), 1);
    EXPECT_EQ(small.recv<std::vector<double>>(r.prev(), 1), std::vector<double>(n, 0.5 + r.prev()));
    EXPECT_EQ(big.recv<std::vector<double>>(r.prev(), 1), std::vector<double>(n, 0.5 + r.prev()));
    // A frame larger than the stack's scratch goes into a vector that is not zeroed first.
    using uninit = std::vector<double, thinmpi::default_init_allocator<double>>;
    auto c = big.isend(out, r.next(), 2);
    const auto in = big.recv<uninit>(r.prev(), 2);
    EXPECT_EQ(std::vector<double>(in.begin(), in.end()), std::vector<double>(n, 0.5 + r.prev()));
    thinmpi::wait_all(a, b, c);
  }
}

TEST(Framed, BadFrameSizesAndPaddedElementsAreErrors) {
  auto world = thinmpi::world();
  const auto tiny = error_from([&] { thinmpi::framed_channel channel(world, 16); });
  EXPECT_EQ(tiny.error_class(), MPI_ERR_ARG);
  EXPECT_TRUE(contains(tiny.what(), "at least 64 bytes")) << tiny.what();
  if (world.size() > 1) {
    const std::size_t mine = world.rank() == 0 ? 128 : 4096;
    const auto differ = error_from([&] { thinmpi::framed_channel channel(world, mine); });
    EXPECT_TRUE(contains(differ.what(), "ranks gave 128 to 4096 bytes")) << differ.what();
  }
  struct padded {
    double x;
    int id;
  };
  const thinmpi::framed_channel channel(world);
  const auto e = error_from(
      [&] { static_cast<void>(channel.recv<std::vector<padded>>(thinmpi::proc_null, 0)); });
  EXPECT_EQ(e.error_class(), MPI_ERR_TYPE);
  EXPECT_TRUE(contains(e.what(), "padding")) << e.what();
}

TEST(Framed, AChannelSaysItsCommunicatorAndFrameAndMovesWithThem) {
  auto world = thinmpi::world();
  const ring r(world);
  thinmpi::framed_channel first(world, 512);
  EXPECT_EQ(first.comm(), world);
  EXPECT_EQ(first.frame_size(), 512u);
  EXPECT_NE(first.continuation_comm().native(), world.native());  // its own duplicate
  const MPI_Comm continuation = first.continuation_comm().native();
  thinmpi::framed_channel moved(std::move(first));
  EXPECT_EQ(moved.comm(), world);
  EXPECT_EQ(moved.frame_size(), 512u);
  EXPECT_EQ(moved.continuation_comm().native(), continuation);
  thinmpi::framed_channel assigned(world);
  EXPECT_EQ(assigned.frame_size(), thinmpi::framed_channel::default_frame_size);
  assigned = std::move(moved);
  EXPECT_EQ(assigned.frame_size(), 512u);
  EXPECT_EQ(assigned.continuation_comm().native(), continuation);
  // The moved-to channel carries a payload of several 512-byte frames.
  const std::vector<int> out = iota_from(r.rank, 1000);
  auto sent = assigned.isend(out, r.next(), 3);
  EXPECT_EQ(assigned.recv<std::vector<int>>(r.prev(), 3), iota_from(r.prev(), 1000));
  sent.wait();
}

TEST(Framed, ASendRequestIsActiveUntilTestSaysItCompleted) {
  auto world = thinmpi::world();
  const ring r(world);
  const thinmpi::framed_channel channel(world);
  for (const std::size_t n : {std::size_t{3}, 3 * frame_ints}) {  // one message, then two
    const std::vector<int> out = iota_from(r.rank, n);
    auto sent = channel.isend(out, r.next(), 4);
    EXPECT_TRUE(sent.active());
    EXPECT_EQ(channel.recv<std::vector<int>>(r.prev(), 4), iota_from(r.prev(), n));
    while (!sent.test()) {
    }
    EXPECT_FALSE(sent.active());
  }
  const thinmpi::framed_send_request none;
  EXPECT_FALSE(none.active());
}

// isend of a temporary (or of a payload moved in) compiles and owns it, as world.isend does:
// the payload goes out whole after the caller's object is gone, below and above the frame.
TEST(Framed, ASendRequestOwnsATemporaryPayload) {
  auto world = thinmpi::world();
  const ring r(world);
  const thinmpi::framed_channel channel(world);
  for (const std::size_t n : {std::size_t{1000}, 5 * thinmpi::framed_channel::default_frame_size}) {
    auto sent_text = channel.isend(std::string(n, 'q'), r.next(), 70);
    std::vector<int> ints = iota_from(r.rank, n);
    auto sent_ints = channel.isend(std::move(ints), r.next(), 71);
    ints.assign(n, -1);  // the caller's object is reused at once
    EXPECT_EQ(channel.recv<std::string>(r.prev(), 70), std::string(n, 'q'));
    EXPECT_EQ(channel.recv<std::vector<int>>(r.prev(), 71), iota_from(r.prev(), n));
    sent_text.wait();
    sent_ints.wait();
  }
}

TEST(Framed, ProcNullSendsAndReceivesNothing) {
  const thinmpi::framed_channel channel(thinmpi::world());
  channel.send(iota_from(0, 5000), thinmpi::proc_null, 0);
  EXPECT_TRUE(channel.recv<std::vector<int>>(thinmpi::proc_null, 0).empty());
}

// Serialized values on a framed channel.

using names = std::vector<std::string>;
using table = std::map<int, std::string>;
constexpr std::size_t frame_bytes = thinmpi::framed_channel::default_frame_size;

/// One string whose encoding as a names (8-byte count, 8-byte length, characters) is
/// `encoded` bytes, or no string for the 8 bytes of an empty names.
names names_of_encoded_size(int seed, std::size_t encoded) {
  if (encoded == 8) return {};
  return {letters_from(seed, encoded - 16)};
}

/// Names whose encodings are 8 bytes (no elements), one frame less one, one frame, one frame
/// and one, and several frames.
std::vector<names> names_around_the_frame(int seed) {
  std::vector<names> values;
  for (const std::size_t encoded : {std::size_t{8}, frame_bytes - 1, frame_bytes, frame_bytes + 1})
    values.push_back(names_of_encoded_size(seed, encoded));
  names many;
  for (int i = 0; i < 4000; ++i)
    many.push_back(letters_from(seed + i, static_cast<std::size_t>(i % 50)));
  values.push_back(std::move(many));
  return values;
}

table table_of(int seed, std::size_t entries) {
  table values;
  for (std::size_t i = 0; i < entries; ++i)
    values[static_cast<int>(i) - seed] = letters_from(seed, i % 100);
  return values;
}

TEST(FramedSerialized, EncodingsAroundTheFrameArriveWhole) {
  auto world = thinmpi::world();
  const ring r(world);
  const thinmpi::framed_channel channel(world);
  const auto mine = names_around_the_frame(r.rank);
  const auto theirs = names_around_the_frame(r.prev());
  ASSERT_EQ(thinmpi::serialized_size(mine[1]), frame_bytes - 1);
  ASSERT_EQ(thinmpi::serialized_size(mine[2]), frame_bytes);
  ASSERT_EQ(thinmpi::serialized_size(mine[3]), frame_bytes + 1);
  ASSERT_GT(thinmpi::serialized_size(mine[4]), 10 * frame_bytes);
  for (std::size_t i = 0; i < mine.size(); ++i) {
    auto sent = channel.isend(thinmpi::serialized(mine[i]), r.next(), 3);
    const auto [in, st] = channel.recv_with_status<thinmpi::serialized<names>>(r.prev(), 3);
    EXPECT_EQ(in, theirs[i]) << "value " << i;
    EXPECT_EQ(st.source(), r.prev());
    EXPECT_EQ(st.tag(), 3);
    EXPECT_EQ(st.count(), thinmpi::serialized_size(theirs[i])) << "bytes of value " << i;
    sent.wait();
  }
}

TEST(FramedSerialized, MapsAndStructsWithStrings) {
  auto world = thinmpi::world();
  const ring r(world);
  const thinmpi::framed_channel channel(world);
  for (const std::size_t entries : {std::size_t{0}, std::size_t{3}, std::size_t{5000}}) {
    auto sent = channel.isend(thinmpi::serialized(table_of(r.rank, entries)), r.next(), 4);
    EXPECT_EQ(channel.recv<thinmpi::serialized<table>>(r.prev(), 4), table_of(r.prev(), entries))
        << entries << " entries";
    sent.wait();
  }
  thinmpi_test::record large = thinmpi_test::sample_record(r.rank);
  large.name = letters_from(r.rank, 3 * frame_bytes);
  auto sent_small =
      channel.isend(thinmpi::serialized(thinmpi_test::sample_record(r.rank)), r.next(), 5);
  auto sent_large = channel.isend(thinmpi::serialized(large), r.next(), 5);
  EXPECT_EQ(channel.recv<thinmpi::serialized<thinmpi_test::record>>(r.prev(), 5),
            thinmpi_test::sample_record(r.prev()));
  auto expected = thinmpi_test::sample_record(r.prev());
  expected.name = letters_from(r.prev(), 3 * frame_bytes);
  EXPECT_EQ(channel.recv<thinmpi::serialized<thinmpi_test::record>>(r.prev(), 5), expected);
  thinmpi::wait_all(sent_small, sent_large);
}

TEST(FramedSerialized, ASmallEncodingIsThePlainSerializedMessage) {
  // Below the frame size the framed send is world.send(serialized(x)): either receive takes
  // what either sends.
  auto world = thinmpi::world();
  const ring r(world);
  const thinmpi::framed_channel channel(world);
  const auto mine = thinmpi_test::sample_strings(r.rank);
  auto plain = world.isend(thinmpi::serialized(mine), r.next(), 6);
  EXPECT_EQ(channel.recv<thinmpi::serialized<names>>(r.prev(), 6),
            thinmpi_test::sample_strings(r.prev()));
  static_cast<void>(plain.wait());
  auto framed = channel.isend(thinmpi::serialized(mine), r.next(), 7);
  EXPECT_EQ(world.recv<thinmpi::serialized<names>>(r.prev(), 7),
            thinmpi_test::sample_strings(r.prev()));
  framed.wait();
}

TEST(FramedSerialized, AnySourceFromSeveralSenders) {
  auto world = thinmpi::world();
  const ring r(world);
  if (r.size < 2) GTEST_SKIP() << "needs several senders";
  const thinmpi::framed_channel channel(world);
  const auto large = [](int rank) { return table_of(rank, 2000 + thinmpi_test::uz(rank)); };
  if (r.rank != 0) {
    channel.send(thinmpi::serialized(large(r.rank)), 0, 12);
    channel.send(thinmpi::serialized(table_of(r.rank, 2)), 0, 12);
    channel.send(thinmpi::serialized(large(r.rank)), 0, 12);
    return;
  }
  std::vector<int> seen(thinmpi_test::uz(r.size), 0);
  for (int i = 0; i < 3 * (r.size - 1); ++i) {
    const auto [in, st] =
        channel.recv_with_status<thinmpi::serialized<table>>(thinmpi::any_source, 12);
    const int from = st.source();
    auto& count = seen[thinmpi_test::uz(from)];
    EXPECT_EQ(in, count == 1 ? table_of(from, 2) : large(from)) << "from rank " << from;
    ++count;
  }
}

TEST(FramedSerialized, NonblockingReceivesAndSendsThatOwnTheirBytes) {
  auto world = thinmpi::world();
  const ring r(world);
  const thinmpi::framed_channel channel(world);
  const auto theirs = names_around_the_frame(r.prev());
  std::vector<thinmpi::framed_serialized_request<thinmpi::serialized<names>>> pending;
  for (std::size_t i = 0; i < theirs.size(); ++i)
    pending.push_back(
        channel.irecv<thinmpi::serialized<names>>(r.prev(), 30 + static_cast<int>(i)));
  std::vector<thinmpi::framed_send_request> sends;
  for (std::size_t i = 0; i < theirs.size(); ++i) {
    // A temporary: the request owns the encoded bytes, and moving it keeps them in place.
    sends.push_back(channel.isend(thinmpi::serialized(names_around_the_frame(r.rank)[i]), r.next(),
                                  30 + static_cast<int>(i)));
  }
  for (std::size_t done = 0; done < pending.size(); ++done) {
    const auto which = thinmpi::wait_any(pending);
    ASSERT_TRUE(which.has_value());
    EXPECT_EQ(pending[*which].last_status().count(), thinmpi::serialized_size(theirs[*which]));
    EXPECT_EQ(pending[*which].last_status().tag(), 30 + static_cast<int>(*which));
    EXPECT_EQ(pending[*which].wait(), theirs[*which]) << "value " << *which;
  }
  thinmpi::wait_all(sends);
  // wait_all over receives, and test() until done.
  auto small = channel.irecv<thinmpi::serialized<table>>(r.prev(), 41);
  auto large = channel.irecv<thinmpi::serialized<table>>(r.prev(), 42);
  EXPECT_FALSE(large.test().has_value());
  world.barrier();  // no rank sends before every rank has tested once
  auto sent_small = channel.isend(thinmpi::serialized(table_of(r.rank, 4)), r.next(), 41);
  auto sent_large = channel.isend(thinmpi::serialized(table_of(r.rank, 3000)), r.next(), 42);
  std::optional<table> got;
  while (!(got = large.test()))
    ;
  EXPECT_EQ(*got, table_of(r.prev(), 3000));
  thinmpi::wait_all(small);
  EXPECT_EQ(small.wait(), table_of(r.prev(), 4));
  thinmpi::wait_all(sent_small, sent_large);
}

TEST(FramedSerialized, AMalformedEncodingIsASerializationErrorNamingItsSource) {
  auto world = thinmpi::world();
  const ring r(world);
  const thinmpi::framed_channel channel(world);
  // A string's length of 2^64 - 1 followed by one byte; and a large message of 0xff bytes.
  std::vector<std::byte> small(9, std::byte{0xff});
  std::vector<std::byte> large(3 * frame_bytes, std::byte{0xff});
  for (const auto* bytes : {&small, &large}) {
    auto sent = channel.isend(*bytes, r.next(), 13);
    try {
      static_cast<void>(channel.recv<thinmpi::serialized<std::string>>(r.prev(), 13));
      ADD_FAILURE() << "no thinmpi::serialization_error was thrown";
    } catch (const thinmpi::serialization_error& e) {
      EXPECT_EQ(e.error_class(), MPI_ERR_OTHER);
      EXPECT_TRUE(contains(e.type_name(), "string")) << e.what();  // spelled as the compiler does
      EXPECT_EQ(e.offset(), 0u) << e.what();
      EXPECT_EQ(e.message_bytes(), bytes->size()) << e.what();
      EXPECT_TRUE(contains(e.what(), "source " + std::to_string(r.prev()) + ", tag 13"))
          << e.what();
    }
    sent.wait();
  }
  // Nonblocking: the error comes from wait().
  auto pending = channel.irecv<thinmpi::serialized<names>>(r.prev(), 14);
  auto sent = channel.isend(large, r.next(), 14);
  EXPECT_THROW(static_cast<void>(pending.wait()), thinmpi::serialization_error);
  sent.wait();
  // Nothing is left behind: the channel and the communicator still carry values.
  auto after = channel.isend(thinmpi::serialized(table_of(r.rank, 1000)), r.next(), 15);
  EXPECT_EQ(channel.recv<thinmpi::serialized<table>>(r.prev(), 15), table_of(r.prev(), 1000));
  after.wait();
  world.barrier();
}

TEST(FramedSerialized, ProcNullSendsNothing) {
  auto world = thinmpi::world();
  const thinmpi::framed_channel channel(world);
  // Encodings of one frame and of several (a frame and a continuation) to proc_null...
  channel.send(thinmpi::serialized(names_around_the_frame(0).back()), thinmpi::proc_null, 0);
  auto sent = channel.isend(thinmpi::serialized(table_of(0, 10)), thinmpi::proc_null, 0);
  sent.wait();
  EXPECT_FALSE(sent.active());
  // ... reach no rank: once every rank has sent (the barrier), nothing waits on either of the
  // channel's communicators (earlier tests left nothing: the main's barrier follows each test).
  world.barrier();
  EXPECT_FALSE(channel.comm().iprobe(thinmpi::any_source, thinmpi::any_tag).has_value());
  EXPECT_FALSE(
      channel.continuation_comm().iprobe(thinmpi::any_source, thinmpi::any_tag).has_value());
  world.barrier();
}

}  // namespace
