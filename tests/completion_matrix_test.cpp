// Every kind of request x every way to complete it: the owner's completion step must run
// whichever door the request leaves by (detail/request_access.hpp). Each kind below posts one
// request (and the other half of its exchange), says what its completion must have done (a
// bounded vector shrunk, a buffer handed back, a partial element reported, ...), and the typed
// tests complete it through wait(), a test() loop, last_status(), wait_all, wait_any, test_all,
// test_any and destruction while active.
//
// To add a request kind (a new collective, ...): write a struct like the ones below and add
// it to `kinds`. It needs:
//   static bool applicable(const ring&)   whether it can run on this many ranks
//   static constexpr int expected_error   MPI_SUCCESS, or the error class completion raises
//   req                                   the request under test, posted by the constructor
//   other                                 the other half of the exchange, any request kind
//   check(result) or check()              after completion: what wait() handed back is right
//   check_failed()                        after an expected error: the message was consumed
//   prepare_drop() / check_dropped()      before / after req is destroyed while active

#include <gtest/gtest.h>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "support/ring.hpp"
#include "thinmpi/thinmpi.hpp"

namespace {

using thinmpi_test::iota_from;
using thinmpi_test::ring;

constexpr int tag = 41;
constexpr std::size_t sent_count = 3;
constexpr std::size_t room = 100;

/// Whether no message with `t` from `source` is waiting (it was received, not left behind).
void expect_no_message_left(thinmpi::comm_view comm, int source, int t) {
  EXPECT_FALSE(comm.iprobe(source, t).has_value()) << "a message was left unreceived";
}

/// Every rank is one step past the point where each receive it posted has matched: the peer's
/// synchronous send (issend) completed, so MPI_Cancel can no longer take the receive back and
/// destruction must complete it through its owner.
template <class Sent>
void wait_until_matched(Sent& ssend) {
  ssend.wait();
  thinmpi::world().barrier();
}

// --- request kinds -------------------------------------------------------------------------

/// request, borrowed receive into a named bounded vector: completion shrinks it.
struct borrowed_recv {
  static constexpr const char* name = "RequestRecv";
  static bool applicable(const ring&) { return true; }
  static constexpr int expected_error = MPI_SUCCESS;
  thinmpi::comm_view world = thinmpi::world();
  ring r{world};
  std::vector<int> inbox = std::vector<int>(room, -1);
  thinmpi::request req = world.irecv(inbox, r.prev(), tag);
  thinmpi::owning_request<std::vector<int>> other =
      world.issend(iota_from(r.rank, sent_count), r.next(), tag);

  void check(const thinmpi::status& st) {
    EXPECT_EQ(st.count(), sent_count);
    EXPECT_EQ(inbox, iota_from(r.prev(), sent_count));  // shrunk from 100 to 3
    static_cast<void>(other.wait());
  }
  void check_failed() {}
  void prepare_drop() { wait_until_matched(other); }
  void check_dropped() { EXPECT_EQ(inbox, iota_from(r.prev(), sent_count)); }
};

/// request, borrowed send of a named vector.
struct borrowed_send {
  static constexpr const char* name = "RequestSend";
  static bool applicable(const ring&) { return true; }
  static constexpr int expected_error = MPI_SUCCESS;
  thinmpi::comm_view world = thinmpi::world();
  ring r{world};
  thinmpi::owning_request<std::vector<int>> other =
      world.irecv(std::vector<int>(room), r.prev(), tag);
  std::vector<int> outbox = iota_from(r.rank, sent_count);
  thinmpi::request req = world.isend(outbox, r.next(), tag);

  void check(const thinmpi::status&) {
    EXPECT_EQ(other.wait(), iota_from(r.prev(), sent_count));
    EXPECT_EQ(outbox, iota_from(r.rank, sent_count));
  }
  void check_failed() {}
  void prepare_drop() {}
  void check_dropped() { EXPECT_EQ(other.wait(), iota_from(r.prev(), sent_count)); }
};

/// owning_request receive into a moved-in bounded vector: handed back shrunk.
struct owning_recv {
  static constexpr const char* name = "OwningRecv";
  static bool applicable(const ring&) { return true; }
  static constexpr int expected_error = MPI_SUCCESS;
  thinmpi::comm_view world = thinmpi::world();
  ring r{world};
  thinmpi::owning_request<std::vector<int>> req =
      world.irecv(std::vector<int>(room, -1), r.prev(), tag);
  thinmpi::owning_request<std::vector<int>> other =
      world.issend(iota_from(r.rank, sent_count), r.next(), tag);

  void check(const std::vector<int>& got) {
    EXPECT_EQ(got, iota_from(r.prev(), sent_count));  // 3 elements, not 100
    static_cast<void>(other.wait());
  }
  void check_failed() {}
  void prepare_drop() { wait_until_matched(other); }
  void check_dropped() { expect_no_message_left(world, r.prev(), tag); }
};

/// owning_request send of a moved-in vector: the same storage is handed back.
struct owning_send {
  static constexpr const char* name = "OwningSend";
  static bool applicable(const ring&) { return true; }
  static constexpr int expected_error = MPI_SUCCESS;
  thinmpi::comm_view world = thinmpi::world();
  ring r{world};
  thinmpi::owning_request<std::vector<int>> other =
      world.irecv(std::vector<int>(room), r.prev(), tag);
  std::vector<int> outbox = iota_from(r.rank, sent_count);
  const int* storage = outbox.data();
  thinmpi::owning_request<std::vector<int>> req = world.isend(std::move(outbox), r.next(), tag);

  void check(const std::vector<int>& back) {
    EXPECT_EQ(back.data(), storage);
    EXPECT_EQ(back, iota_from(r.rank, sent_count));
    EXPECT_EQ(other.wait(), iota_from(r.prev(), sent_count));
  }
  void check_failed() {}
  void prepare_drop() {}
  void check_dropped() { EXPECT_EQ(other.wait(), iota_from(r.prev(), sent_count)); }
};

/// owning_request of a new scalar (irecv<int>) that gets an empty message: the completion step
/// finds too few elements (MPI_ERR_COUNT). Runs on one rank too.
struct owning_scalar_short {
  static constexpr const char* name = "OwningScalarTooShort";
  static bool applicable(const ring&) { return true; }
  static constexpr int expected_error = MPI_ERR_COUNT;
  thinmpi::comm_view world = thinmpi::world();
  ring r{world};
  thinmpi::owning_request<int> req = world.irecv<int>(r.prev(), tag);
  thinmpi::owning_request<std::vector<int>> other = world.issend(std::vector<int>(), r.next(), tag);

  void check_failed() {
    static_cast<void>(other.wait());
    expect_no_message_left(world, r.prev(), tag);
  }
  void prepare_drop() { wait_until_matched(other); }
  void check_dropped() { expect_no_message_left(world, r.prev(), tag); }
};

/// Five chars received as ints: not a whole number of elements (MPI_ERR_TYPE). Needs two
/// processes: MPICH 4.0 asserts on such a message to itself (docs/library.md).
template <bool Owning>
struct partial_element_recv {
  static constexpr const char* name = Owning ? "OwningPartialElement" : "RequestPartialElement";
  static bool applicable(const ring& r) { return r.size >= 2; }
  static constexpr int expected_error = MPI_ERR_TYPE;
  thinmpi::comm_view world = thinmpi::world();
  ring r{world};
  std::vector<int> inbox = std::vector<int>(8, -1);
  std::conditional_t<Owning, thinmpi::owning_request<std::vector<int>>, thinmpi::request> req =
      post();
  thinmpi::owning_request<std::string> other = world.issend(std::string("abcde"), r.next(), tag);

  auto post() {
    if constexpr (Owning) {
      return world.irecv(std::vector<int>(8, -1), r.prev(), tag);
    } else {
      return world.irecv(inbox, r.prev(), tag);
    }
  }
  void check_failed() {
    static_cast<void>(other.wait());
    expect_no_message_left(world, r.prev(), tag);
  }
  void prepare_drop() { wait_until_matched(other); }
  void check_dropped() { expect_no_message_left(world, r.prev(), tag); }
};

/// probing_request whose message comes after it was posted: matched while completing.
/// Destroyed before that, it had posted nothing, so the message stays for the next receive.
struct probing_recv {
  static constexpr const char* name = "ProbingRecv";
  static bool applicable(const ring&) { return true; }
  static constexpr int expected_error = MPI_SUCCESS;
  thinmpi::comm_view world = thinmpi::world();
  ring r{world};
  thinmpi::probing_request<std::vector<int>> req = world.irecv<std::vector<int>>(r.prev(), tag);
  bool posted_first = (world.barrier(), true);  // no message is there when req is posted
  thinmpi::owning_request<std::vector<int>> other =
      world.isend(iota_from(r.rank, sent_count), r.next(), tag);

  void check(const std::vector<int>& got) {
    EXPECT_EQ(got, iota_from(r.prev(), sent_count));
    static_cast<void>(other.wait());
  }
  void check_failed() {}
  void prepare_drop() {}
  void check_dropped() {
    EXPECT_EQ(world.recv<std::vector<int>>(r.prev(), tag), iota_from(r.prev(), sent_count));
    static_cast<void>(other.wait());
  }
};

/// probing_request whose message was already there: matched and receiving when posted, so
/// destruction completes the receive (the matched message is never left half-received).
struct probing_recv_matched {
  static constexpr const char* name = "ProbingRecvMatchedAtPost";
  static bool applicable(const ring&) { return true; }
  static constexpr int expected_error = MPI_SUCCESS;
  thinmpi::comm_view world = thinmpi::world();
  ring r{world};
  thinmpi::owning_request<std::vector<int>> other =
      world.isend(iota_from(r.rank, sent_count), r.next(), tag);
  thinmpi::status arrived = world.probe(r.prev(), tag);
  thinmpi::probing_request<std::vector<int>> req = world.irecv<std::vector<int>>(r.prev(), tag);

  void check(const std::vector<int>& got) {
    EXPECT_EQ(got, iota_from(r.prev(), sent_count));
    static_cast<void>(other.wait());
  }
  void check_failed() {}
  void prepare_drop() {}
  void check_dropped() {
    static_cast<void>(other.wait());
    expect_no_message_left(world, r.prev(), tag);
  }
};

/// probing_request matched while completing on a message that is not whole ints.
struct probing_partial_element {
  static constexpr const char* name = "ProbingPartialElement";
  static bool applicable(const ring& r) { return r.size >= 2; }
  static constexpr int expected_error = MPI_ERR_TYPE;
  thinmpi::comm_view world = thinmpi::world();
  ring r{world};
  thinmpi::probing_request<std::vector<int>> req = world.irecv<std::vector<int>>(r.prev(), tag);
  bool posted_first = (world.barrier(), true);
  thinmpi::owning_request<std::string> other = world.isend(std::string("abcde"), r.next(), tag);

  void check_failed() {
    static_cast<void>(other.wait());
    expect_no_message_left(world, r.prev(), tag);
  }
  void prepare_drop() {}
  void check_dropped() {  // never matched: the message is left, and still says what it is
    EXPECT_EQ(world.recv<std::string>(r.prev(), tag), "abcde");
    static_cast<void>(other.wait());
  }
};

/// collective_request of an ibarrier (the other half is a second ibarrier).
struct ibarrier {
  static constexpr const char* name = "Ibarrier";
  static bool applicable(const ring&) { return true; }
  static constexpr int expected_error = MPI_SUCCESS;
  thinmpi::comm_view world = thinmpi::world();
  decltype(world.ibarrier()) req = world.ibarrier();
  decltype(world.ibarrier()) other = world.ibarrier();

  void check() {
    other.wait();
    EXPECT_FALSE(other.active());
  }
  void check_failed() {}
  void prepare_drop() {}
  void check_dropped() { check(); }
};

/// collective_request of an allocating iallgather: completion hands back every rank's value.
struct iallgather {
  static constexpr const char* name = "Iallgather";
  static bool applicable(const ring&) { return true; }
  static constexpr int expected_error = MPI_SUCCESS;
  thinmpi::comm_view world = thinmpi::world();
  ring r{world};
  decltype(world.iallgather(0)) req = world.iallgather(r.rank * 10);
  decltype(world.ibarrier()) other = world.ibarrier();

  void check(const std::vector<int>& got) {
    std::vector<int> expected;
    for (int rank = 0; rank < r.size; ++rank)
      expected.push_back(rank * 10);
    EXPECT_EQ(got, expected);
    other.wait();
  }
  void check_failed() {}
  void prepare_drop() {}
  void check_dropped() { other.wait(); }
};

/// The sum of (rank + i) over the ranks, for i = 0, 1, 2: what the persistent allreduce gives.
std::vector<int> sums_of_rank_plus_index(int ranks) {
  std::vector<int> sums;
  for (int i = 0; i < 3; ++i)
    sums.push_back(ranks * i + ranks * (ranks - 1) / 2);
  return sums;
}

/// persistent_request of barrier_init, its round started: completes as a barrier.
struct persistent_barrier {
  static constexpr const char* name = "PersistentBarrier";
  static bool applicable(const ring&) { return true; }
  static constexpr int expected_error = MPI_SUCCESS;
  thinmpi::comm_view world = thinmpi::world();
  decltype(world.barrier_init()) req = world.barrier_init();
  bool started = (req.start(), true);
  decltype(world.ibarrier()) other = world.ibarrier();

  void check() { other.wait(); }
  void check_failed() {}
  void prepare_drop() {}
  void check_dropped() { other.wait(); }
};

#if THINMPI_HAS_PERSISTENT_COLLECTIVES
/// persistent_request of allreduce_init, its round started: completion writes the sums into
/// the named buffer.
struct persistent_allreduce {
  static constexpr const char* name = "PersistentAllreduce";
  static bool applicable(const ring&) { return true; }
  static constexpr int expected_error = MPI_SUCCESS;
  thinmpi::comm_view world = thinmpi::world();
  ring r{world};
  std::vector<int> mine = iota_from(r.rank, 3);
  std::vector<int> sums = std::vector<int>(3, -1);
  decltype(world.allreduce_init(mine, sums, std::plus<>{})) req =
      world.allreduce_init(mine, sums, std::plus<>{});
  bool started = (req.start(), true);
  decltype(world.ibarrier()) other = world.ibarrier();

  void check() {
    EXPECT_EQ(sums, sums_of_rank_plus_index(r.size));
    other.wait();
  }
  void check_failed() {}
  void prepare_drop() {}
  void check_dropped() { check(); }  // destruction waited for the round
};
#endif

using kinds = testing::Types<borrowed_recv, borrowed_send, owning_recv, owning_send,
                             owning_scalar_short, partial_element_recv<true>,
                             partial_element_recv<false>, probing_recv, probing_recv_matched,
                             probing_partial_element, ibarrier, iallgather, persistent_barrier
#if THINMPI_HAS_PERSISTENT_COLLECTIVES
                             ,
                             persistent_allreduce
#endif
                             >;

class kind_names {
 public:
  template <class K>
  static std::string GetName(int) {
    return K::name;
  }
};

// --- completion entries --------------------------------------------------------------------

template <class K>
class Completion : public testing::Test {
 protected:
  void SetUp() override {
    if (!K::applicable(ring(thinmpi::world()))) GTEST_SKIP() << "needs more ranks";
  }
};
TYPED_TEST_SUITE(Completion, kinds, kind_names);

/// Runs `complete` (which completes `req` and returns what it hands back, or nothing), then
/// checks the request is done and its owner's completion step ran, or raised what K expects.
template <class K, class Req, class Complete>
void complete_and_check(K& k, const Req& req, Complete complete) {
  if constexpr (K::expected_error != MPI_SUCCESS) {
    try {
      static_cast<void>(complete());
      ADD_FAILURE() << "completion raised nothing";
    } catch (const thinmpi::mpi_error& e) {
      EXPECT_EQ(e.error_class(), K::expected_error) << e.what();
    }
    EXPECT_FALSE(req.active());
    k.check_failed();
  } else if constexpr (std::is_void_v<decltype(complete())>) {
    complete();
    EXPECT_FALSE(req.active());
    k.check();
  } else {
    auto result = complete();
    EXPECT_FALSE(req.active());
    k.check(result);
  }
}

/// test() until it reports completion; what it handed back.
template <class Req>
auto test_until_done(Req& req) {
  while (true) {
    auto done = req.test();
    if constexpr (std::is_same_v<decltype(done), bool>) {
      if (done) return;
    } else if (done) {
      return std::move(*done);
    }
  }
}

TYPED_TEST(Completion, Wait) {
  TypeParam k;
  complete_and_check(k, k.req, [&] { return k.req.wait(); });
}

TYPED_TEST(Completion, TestLoop) {
  TypeParam k;
  complete_and_check(k, k.req, [&] { return test_until_done(k.req); });
}

TYPED_TEST(Completion, LastStatus) {
  TypeParam k;
  if constexpr (requires { k.req.last_status(); }) {
    complete_and_check(k, k.req, [&] {
      static_cast<void>(k.req.last_status());
      EXPECT_FALSE(k.req.active());
      return k.req.wait();  // the buffer was finished by last_status(), and stayed in req
    });
  } else {
    complete_and_check(k, k.req, [&] { return k.req.wait(); });
    GTEST_SKIP() << "this kind has no last_status(): it keeps no buffer";
  }
}

TYPED_TEST(Completion, WaitAllOverARange) {
  TypeParam k;
  std::vector<decltype(k.req)> all;
  all.push_back(std::move(k.req));
  complete_and_check(k, all[0], [&] {
    thinmpi::wait_all(all);
    return all[0].wait();
  });
}

TYPED_TEST(Completion, WaitAllOverNamedRequestsOfTwoKinds) {
  TypeParam k;
  complete_and_check(k, k.req, [&] {
    thinmpi::wait_all(k.req, k.other);
    return k.req.wait();
  });
}

TYPED_TEST(Completion, WaitAny) {
  TypeParam k;
  complete_and_check(k, k.req, [&] {
    while (k.req.active()) {
      const auto index = thinmpi::wait_any(k.req, k.other);
      EXPECT_TRUE(index.has_value());
    }
    return k.req.wait();
  });
}

TYPED_TEST(Completion, TestAllLoop) {
  TypeParam k;
  std::vector<decltype(k.req)> all;
  all.push_back(std::move(k.req));
  complete_and_check(k, all[0], [&] {
    while (!thinmpi::test_all(all)) {
    }
    return all[0].wait();
  });
}

TYPED_TEST(Completion, TestAnyLoop) {
  TypeParam k;
  std::vector<decltype(k.req)> all;
  all.push_back(std::move(k.req));
  complete_and_check(k, all[0], [&] {
    while (!thinmpi::test_any(all).has_value()) {
    }
    return all[0].wait();
  });
}

TYPED_TEST(Completion, NativeHandle) {
  TypeParam k;
  if constexpr (requires { k.req.native(); }) {
    const MPI_Request handle = k.req.native();
    ASSERT_NE(handle, MPI_REQUEST_NULL);  // a posted operation has a real MPI request
    int flag = 0;
    MPI_Status raw;
    EXPECT_EQ(MPI_Request_get_status(handle, &flag, &raw), MPI_SUCCESS);
    complete_and_check(k, k.req, [&] { return k.req.wait(); });
  } else {
    complete_and_check(k, k.req, [&] { return k.req.wait(); });
    GTEST_SKIP() << "this kind has no native(): it may have no MPI request yet";
  }
}

TYPED_TEST(Completion, DestructionWhileActive) {
  TypeParam k;
  EXPECT_TRUE(k.req.active());
  k.prepare_drop();
  { const auto dropped = std::move(k.req); }  // must not throw, hang, or leave MPI writing
  EXPECT_FALSE(k.req.active());
  k.check_dropped();
}

}  // namespace
