// Point-to-point: every payload kind travels as one message and arrives intact, through every
// kind of receive. Ranks exchange with their ring neighbours, so the tests run on 1, 2 and 4.

#include <gtest/gtest.h>

#include <array>
#include <complex>
#include <cstddef>
#include <numeric>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "support/ring.hpp"
#include "thinmpi/thinmpi.hpp"

namespace {

using thinmpi_test::iota_from;
using thinmpi_test::ring;

struct particle {
  double x, y, z;
  int id;
  float mass;
};

TEST(P2p, ScalarsOfEveryKindArrive) {
  auto world = thinmpi::world();
  const ring r(world);
  auto send_int = world.isend(r.rank * 10, r.next(), 1);
  auto send_double = world.isend(r.rank + 0.5, r.next(), 2);
  auto send_complex = world.isend(std::complex<double>(r.rank, -1.0), r.next(), 3);
  auto send_bool = world.isend(r.rank % 2 == 0, r.next(), 4);
  auto send_byte = world.isend(std::byte{0x5a}, r.next(), 5);
  EXPECT_EQ(world.recv<int>(r.prev(), 1), r.prev() * 10);
  EXPECT_EQ(world.recv<double>(r.prev(), 2), r.prev() + 0.5);
  EXPECT_EQ((world.recv<std::complex<double>>(r.prev(), 3)), std::complex<double>(r.prev(), -1));
  EXPECT_EQ(world.recv<bool>(r.prev(), 4), r.prev() % 2 == 0);
  EXPECT_EQ(world.recv<std::byte>(r.prev(), 5), std::byte{0x5a});
  thinmpi::wait_all(send_int, send_double, send_complex, send_bool, send_byte);
}

TEST(P2p, ScalarReceivedIntoNamedVariable) {
  auto world = thinmpi::world();
  const ring r(world);
  auto sent = world.isend(static_cast<long long>(r.rank) << 40, r.next(), 0);
  long long value = 0;
  const thinmpi::status st = world.recv(value, r.prev(), 0);
  EXPECT_EQ(value, static_cast<long long>(r.prev()) << 40);
  EXPECT_EQ(st.source(), r.prev());
  EXPECT_EQ(st.tag(), 0);
  EXPECT_EQ(st.count(), 1u);
  sent.wait();
}

TEST(P2p, VectorAllocatingReceiveHasTheSentSize) {
  auto world = thinmpi::world();
  const ring r(world);
  const std::vector<double> out(static_cast<std::size_t>(r.rank) + 3, 1.5 * r.rank);
  auto sent = world.isend(out, r.next(), 7);
  const auto in = world.recv<std::vector<double>>(r.prev(), 7);
  EXPECT_EQ(in, std::vector<double>(static_cast<std::size_t>(r.prev()) + 3, 1.5 * r.prev()));
  sent.wait();
}

TEST(P2p, AllocatingReceiveIntoAVectorThatIsNotZeroedFirst) {
  auto world = thinmpi::world();
  const ring r(world);
  using buffer = std::vector<int, thinmpi::default_init_allocator<int>>;
  auto sent = world.isend(iota_from(r.rank, 1000), r.next(), 3);
  const auto in = world.recv<buffer>(r.prev(), 3);
  EXPECT_EQ(std::vector<int>(in.begin(), in.end()), iota_from(r.prev(), 1000));
  buffer explicit_values(3, 7);  // construction with a value still writes it
  EXPECT_EQ(explicit_values[2], 7);
  sent.wait();
}

TEST(P2p, BoundedReceiveShrinksToWhatArrived) {
  auto world = thinmpi::world();
  const ring r(world);
  auto sent = world.isend(iota_from(r.rank, 5), r.next(), 0);
  std::vector<int> in(100, -1);
  const thinmpi::status st = world.recv(in, r.prev(), 0);
  EXPECT_EQ(in, iota_from(r.prev(), 5));
  EXPECT_EQ(st.count(), 5u);
  EXPECT_EQ(st.bytes(), 5 * sizeof(int));
  sent.wait();
}

TEST(P2p, FixedBufferTakesFewerElementsAndSaysHowMany) {
  auto world = thinmpi::world();
  const ring r(world);
  auto sent = world.isend(iota_from(100, 3), r.next(), 0);
  std::array<int, 8> in{};
  in.fill(-1);
  const thinmpi::status st = world.recv(in, r.prev(), 0);
  EXPECT_EQ(st.count(), 3u);
  EXPECT_EQ(in[0], 100);
  EXPECT_EQ(in[2], 102);
  EXPECT_EQ(in[3], -1);
  sent.wait();
}

TEST(P2p, SpanAndCArrayPayloads) {
  auto world = thinmpi::world();
  const ring r(world);
  int out[4] = {r.rank, r.rank + 1, r.rank + 2, r.rank + 3};
  auto sent = world.isend(out, r.next(), 0);
  std::vector<int> storage(4);
  world.recv(std::span(storage), r.prev(), 0);
  EXPECT_EQ(storage, iota_from(r.prev(), 4));
  sent.wait();

  const std::vector<int> whole = iota_from(0, 10);
  auto sent_part = world.isend(std::span(whole).subspan(2, 3), r.next(), 1);
  int in[3] = {};
  world.recv(in, r.prev(), 1);
  EXPECT_EQ(in[0], 2);
  EXPECT_EQ(in[2], 4);
  sent_part.wait();
}

TEST(P2p, StringsTravelAsCharacters) {
  auto world = thinmpi::world();
  const ring r(world);
  const std::string out = "rank " + std::to_string(r.rank) + std::string(40, '!');
  auto sent = world.isend(out, r.next(), 0);
  const auto in = world.recv<std::string>(r.prev(), 0);
  EXPECT_EQ(in, "rank " + std::to_string(r.prev()) + std::string(40, '!'));
  sent.wait();

  auto sent_view = world.isend(std::string_view("view"), r.next(), 1);
  std::string bounded(64, '\0');
  world.recv(bounded, r.prev(), 1);
  EXPECT_EQ(bounded, "view");
  sent_view.wait();
}

TEST(P2p, StructsAndVectorsOfStructs) {
  auto world = thinmpi::world();
  const ring r(world);
  const particle one{1.0 * r.rank, 2.0, 3.0, r.rank, 0.25f};
  std::vector<particle> many(7, one);
  many.back().id = 99;
  auto sent_one = world.isend(one, r.next(), 0);
  auto sent_many = world.isend(many, r.next(), 1);
  const auto got = world.recv<particle>(r.prev(), 0);
  EXPECT_EQ(got.x, 1.0 * r.prev());
  EXPECT_EQ(got.id, r.prev());
  EXPECT_EQ(got.mass, 0.25f);
  const auto got_many = world.recv<std::vector<particle>>(r.prev(), 1);
  ASSERT_EQ(got_many.size(), 7u);
  EXPECT_EQ(got_many.back().id, 99);
  EXPECT_EQ(got_many.front().id, r.prev());
  thinmpi::wait_all(sent_one, sent_many);
}

TEST(P2p, ZeroLengthMessagesOnEveryPath) {
  auto world = thinmpi::world();
  const ring r(world);
  const std::vector<int> empty;
  auto a = world.isend(empty, r.next(), 0);
  auto b = world.isend(std::string(), r.next(), 1);
  auto c = world.isend(empty, r.next(), 2);
  auto d = world.isend(empty, r.next(), 3);
  EXPECT_TRUE(world.recv<std::vector<int>>(r.prev(), 0).empty());
  EXPECT_TRUE(world.recv<std::string>(r.prev(), 1).empty());
  std::vector<int> bounded(4, 1);
  EXPECT_EQ(world.recv(bounded, r.prev(), 2).count(), 0u);
  EXPECT_TRUE(bounded.empty());
  std::array<int, 2> fixed{};
  EXPECT_EQ(world.recv(fixed, r.prev(), 3).count(), 0u);
  thinmpi::wait_all(a, b, c, d);
}

TEST(P2p, AnySourceAnyTagReportWhoSent) {
  auto world = thinmpi::world();
  const ring r(world);
  auto sent =
      world.isend(iota_from(0, static_cast<std::size_t>(r.rank) + 1), r.next(), 100 + r.rank);
  auto [values, st] =
      world.recv_with_status<std::vector<int>>(thinmpi::any_source, thinmpi::any_tag);
  EXPECT_EQ(st.source(), r.prev());
  EXPECT_EQ(st.tag(), 100 + r.prev());
  EXPECT_EQ(values, iota_from(0, static_cast<std::size_t>(r.prev()) + 1));
  EXPECT_EQ(st.count(), values.size());
  sent.wait();
}

TEST(P2p, StatusGivesItsDatatypeTheMpiStatusAndWhetherCancelled) {
  auto world = thinmpi::world();
  const ring r(world);
  auto sent = world.isend(std::vector<double>{1.5, 2.5}, r.next(), 101);
  auto [values, st] = world.recv_with_status<std::vector<double>>(r.prev(), 101);
  EXPECT_EQ(values, (std::vector<double>{1.5, 2.5}));
  EXPECT_EQ(st.datatype(), MPI_DOUBLE);
  EXPECT_EQ(st.native().MPI_SOURCE, r.prev());
  EXPECT_EQ(st.native().MPI_TAG, 101);
  int count = -1;
  MPI_Get_count(&st.native(), MPI_DOUBLE, &count);
  EXPECT_EQ(count, 2);
  EXPECT_FALSE(st.cancelled());
  static_cast<void>(sent.wait());
  // A receive that no message matches, cancelled in C: the status says so.
  int never = 0;
  MPI_Request pending = MPI_REQUEST_NULL;
  MPI_Irecv(&never, 1, MPI_INT, r.prev(), 102, MPI_COMM_WORLD, &pending);
  MPI_Cancel(&pending);
  MPI_Status raw;
  MPI_Wait(&pending, &raw);
  const thinmpi::status cancelled(raw, MPI_INT);
  EXPECT_TRUE(cancelled.cancelled());
  EXPECT_EQ(cancelled.datatype(), MPI_INT);
}

TEST(P2p, MessagesAreByteIdenticalToTheCCalls) {
  auto world = thinmpi::world();
  const ring r(world);
  // thinmpi sends, C receives.
  auto sent = world.isend(iota_from(r.rank, 6), r.next(), 0);
  int raw[6] = {};
  MPI_Status st;
  ASSERT_EQ(MPI_Recv(raw, 6, MPI_INT, r.prev(), 0, MPI_COMM_WORLD, &st), MPI_SUCCESS);
  int count = 0;
  MPI_Get_count(&st, MPI_INT, &count);
  EXPECT_EQ(count, 6);
  EXPECT_EQ(raw[5], r.prev() + 5);
  sent.wait();
  // C sends, thinmpi receives.
  const double c_out[2] = {0.5, 1.0 * r.rank};
  MPI_Request c_request;
  ASSERT_EQ(MPI_Isend(c_out, 2, MPI_DOUBLE, r.next(), 1, MPI_COMM_WORLD, &c_request), MPI_SUCCESS);
  const auto in = world.recv<std::vector<double>>(r.prev(), 1);
  EXPECT_EQ(in, (std::vector<double>{0.5, 1.0 * r.prev()}));
  MPI_Wait(&c_request, MPI_STATUS_IGNORE);
}

TEST(P2p, StatusCountsInAnyType) {
  auto world = thinmpi::world();
  const ring r(world);
  auto sent = world.isend(std::vector<double>(6, 1.0), r.next(), 0);
  const thinmpi::status probed = world.probe(r.prev(), 0);
  EXPECT_EQ(probed.bytes(), 6 * sizeof(double));
  EXPECT_EQ(probed.count(), 6 * sizeof(double));  // a probe counts bytes
  EXPECT_EQ(probed.count<double>(), 6u);
  EXPECT_EQ(probed.count<float>(), 12u);
  EXPECT_THROW(static_cast<void>(probed.count<particle>()), thinmpi::mpi_error);
  EXPECT_EQ(world.recv<std::vector<double>>(r.prev(), 0).size(), 6u);
  sent.wait();
}

TEST(P2p, IprobeSeesOnlyWhatHasArrived) {
  auto world = thinmpi::world();
  const ring r(world);
  EXPECT_FALSE(world.iprobe(r.prev(), 555).has_value());
  world.barrier();  // nobody sends before everyone has looked
  auto sent = world.isend(7, r.next(), 555);
  std::optional<thinmpi::status> seen;
  while (!(seen = world.iprobe(r.prev(), 555))) {
  }
  EXPECT_EQ(seen->source(), r.prev());
  EXPECT_EQ(seen->count<int>(), 1u);
  EXPECT_EQ(world.recv<int>(r.prev(), 555), 7);
  sent.wait();
}

TEST(P2p, SendrecvShiftsAroundTheRing) {
  auto world = thinmpi::world();
  const ring r(world);
  std::vector<int> in(10);
  const thinmpi::status st = world.sendrecv(iota_from(r.rank, 4), r.next(), 3, in, r.prev(), 3);
  EXPECT_EQ(in, iota_from(r.prev(), 4));
  EXPECT_EQ(st.source(), r.prev());

  std::string text = "from " + std::to_string(r.rank);
  world.sendrecv_replace(text, r.next(), 4, r.prev(), 4);
  EXPECT_EQ(text, "from " + std::to_string(r.prev()));
}

TEST(P2p, SsendAndBlockingSendBetweenPairs) {
  auto world = thinmpi::world();
  const ring r(world);
  if (r.size < 2) GTEST_SKIP() << "a blocking send to itself would deadlock";
  const int partner = r.rank ^ 1;
  if (partner >= r.size) return;
  if (r.rank % 2 == 0) {
    world.ssend(std::vector<int>{1, 2, 3}, partner, 0);
    world.send(std::array<float, 2>{1.5f, 2.5f}, partner, 1);
  } else {
    EXPECT_EQ(world.recv<std::vector<int>>(partner, 0), (std::vector<int>{1, 2, 3}));
    EXPECT_EQ((world.recv<std::array<float, 2>>(partner, 1)), (std::array<float, 2>{1.5f, 2.5f}));
  }
}

TEST(P2p, ProcNullSendsAndReceivesNothing) {
  auto world = thinmpi::world();
  world.send(42, thinmpi::proc_null, 0);
  std::vector<int> in(3, 1);
  const thinmpi::status st = world.recv(in, thinmpi::proc_null, 0);
  EXPECT_EQ(st.source(), thinmpi::proc_null);
  EXPECT_TRUE(in.empty());
}

}  // namespace
