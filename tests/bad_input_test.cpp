// A sweep of every public operation with bad input: ranks outside the communicator, tags MPI
// rejects, the null communicator, and receive buffers too small for the message. Each must be
// a thinmpi::mpi_error of the right class (never an abort, a hang or a silent truncation), and
// the communicator must still carry messages afterwards. (Payload types that cannot be sent
// are compile errors: tests/compile_fail.)
//
// To add an operation, add a row to the table of its kind below: p2p_operations() for calls
// with a peer and a tag, receives_into_four_ints() for receives that can truncate,
// collective_operations() for calls over the whole communicator (every form: blocking,
// nonblocking, in place, exchanging counts, persistent `_init`; the rooted ones are in
// support/rooted_operations.hpp, which collectives_consistency_checked_test sweeps with roots
// outside the communicator), framed_operations() for the framed channel's calls.

#include <gtest/gtest.h>

#include <array>
#include <climits>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "support/ring.hpp"
#include "support/rooted_operations.hpp"
#include "thinmpi/thinmpi.hpp"

namespace {

using thinmpi_test::collective_operation;
using thinmpi_test::each_at_its_rank;
using thinmpi_test::exchanging;
using thinmpi_test::ones;
using thinmpi_test::plus;
using thinmpi_test::ring;
using thinmpi_test::rooted_operations;
using thinmpi_test::run_round;
using thinmpi_test::uz;

/// Which ends a call has: what counts as a bad peer or tag depends on it (a send may not use
/// any_source or any_tag; a receive may).
enum class ends { send, receive, both };

/// One public operation, called with a peer and a tag. A nonblocking one is waited for, so
/// that an error reported at completion counts too.
struct p2p_operation {
  const char* name;
  ends kind;
  std::function<void(thinmpi::comm_view, int peer, int tag)> call;
};

std::vector<p2p_operation> p2p_operations() {
  using thinmpi::comm_view;
  return {
      {"send scalar", ends::send, [](comm_view c, int p, int t) { c.send(1, p, t); }},
      {"send vector", ends::send,
       [](comm_view c, int p, int t) { c.send(std::vector<int>(3, 1), p, t); }},
      {"ssend string", ends::send,
       [](comm_view c, int p, int t) { c.ssend(std::string("x"), p, t); }},
      {"isend borrowed", ends::send,
       [](comm_view c, int p, int t) {
         const std::vector<int> v(2, 1);
         c.isend(v, p, t).wait();
       }},
      {"isend owned", ends::send,
       [](comm_view c, int p, int t) {
         static_cast<void>(c.isend(std::vector<int>(2), p, t).wait());
       }},
      {"issend", ends::send,
       [](comm_view c, int p, int t) { static_cast<void>(c.issend(5, p, t).wait()); }},
      {"recv span", ends::receive,
       [](comm_view c, int p, int t) {
         std::array<int, 2> a{};
         c.recv(std::span(a), p, t);
       }},
      {"recv bounded vector", ends::receive,
       [](comm_view c, int p, int t) {
         std::vector<int> v(4);
         c.recv(v, p, t);
       }},
      {"recv<int>", ends::receive,
       [](comm_view c, int p, int t) { static_cast<void>(c.recv<int>(p, t)); }},
      {"recv<vector>", ends::receive,
       [](comm_view c, int p, int t) { static_cast<void>(c.recv<std::vector<int>>(p, t)); }},
      {"recv_with_status<string>", ends::receive,
       [](comm_view c, int p, int t) { static_cast<void>(c.recv_with_status<std::string>(p, t)); }},
      {"irecv borrowed", ends::receive,
       [](comm_view c, int p, int t) {
         std::vector<int> v(4);
         c.irecv(v, p, t).wait();
       }},
      {"irecv owned", ends::receive,
       [](comm_view c, int p, int t) {
         static_cast<void>(c.irecv(std::vector<int>(4), p, t).wait());
       }},
      {"irecv<int>", ends::receive,
       [](comm_view c, int p, int t) { static_cast<void>(c.irecv<int>(p, t).wait()); }},
      {"irecv<vector>", ends::receive,
       [](comm_view c, int p, int t) {
         static_cast<void>(c.irecv<std::vector<int>>(p, t).wait());
       }},
      {"recv_reuse", ends::receive,
       [](comm_view c, int p, int t) {
         std::vector<int> v;
         c.recv_reuse(v, p, t);
       }},
      {"recv_at_most", ends::receive,
       [](comm_view c, int p, int t) {
         static_cast<void>(c.recv_at_most<std::vector<int>>(p, t, 4));
       }},
      {"send serialized", ends::send,
       [](comm_view c, int p, int t) {
         c.send(thinmpi::serialized(std::vector<std::string>{"a", "b"}), p, t);
       }},
      {"recv<serialized>", ends::receive,
       [](comm_view c, int p, int t) {
         static_cast<void>(c.recv<thinmpi::serialized<std::vector<std::string>>>(p, t));
       }},
      {"recv_reuse serialized", ends::receive,
       [](comm_view c, int p, int t) {
         std::vector<std::string> kept{"kept"};
         static_cast<void>(c.recv_reuse(thinmpi::serialized(kept), p, t));
       }},
      {"probe", ends::receive, [](comm_view c, int p, int t) { static_cast<void>(c.probe(p, t)); }},
      {"iprobe", ends::receive,
       [](comm_view c, int p, int t) { static_cast<void>(c.iprobe(p, t)); }},
      {"sendrecv", ends::both,
       [](comm_view c, int p, int t) {
         int in = 0;
         c.sendrecv(1, p, t, in, p, t);
       }},
      {"sendrecv_replace", ends::both,
       [](comm_view c, int p, int t) {
         std::vector<int> v(2);
         c.sendrecv_replace(v, p, t, p, t);
       }},
  };
}

std::vector<collective_operation> unrooted_operations() {
  using thinmpi::comm_view;
  using ints = std::vector<int>;
  return {
    {"barrier", false, [](comm_view c, int, int) { c.barrier(); }},
        {"ibarrier", false, [](comm_view c, int, int) { c.ibarrier().wait(); }},
        {"rank", false, [](comm_view c, int, int) { static_cast<void>(c.rank()); }},
        {"size", false, [](comm_view c, int, int) { static_cast<void>(c.size()); }},
        {"dup", false, [](comm_view c, int, int) { static_cast<void>(c.dup()); }},
        {"split", false, [](comm_view c, int, int) { static_cast<void>(c.split(0)); }},
        {"allgather", false, [](comm_view c, int, int) { static_cast<void>(c.allgather(1)); }},
        {"allgather into", false,
         [](comm_view c, int, int n) {
           ints into(uz(n));
           c.allgather(1, into);
         }},
        {"allgather_in_place", false,
         [](comm_view c, int, int n) {
           ints buffer(uz(n));
           c.allgather_in_place(buffer);
         }},
        {"allgatherv", false,
         [](comm_view c, int, int n) {
           ints into(uz(n));
           c.allgatherv(ints(1), into, ones(n));
         }},
        {"allgatherv with displacements", false,
         [](comm_view c, int, int n) {
           ints into(uz(n));
           c.allgatherv(ints(1), into, ones(n), each_at_its_rank(n));
         }},
        {"allgatherv exchanging counts", false,
         [](comm_view c, int, int) {
           static_cast<void>(c.allgatherv(std::vector<int>(2), exchanging));
         }},
        {"iallgather", false,
         [](comm_view c, int, int) { static_cast<void>(c.iallgather(1).wait()); }},
        {"iallgather into", false,
         [](comm_view c, int, int n) { static_cast<void>(c.iallgather(1, ints(uz(n))).wait()); }},
        {"iallgatherv", false,
         [](comm_view c, int, int n) {
           static_cast<void>(c.iallgatherv(ints(1), ints(uz(n)), ones(n)).wait());
         }},
        {"iallgatherv exchanging counts", false,
         [](comm_view c, int, int) {
           static_cast<void>(c.iallgatherv(ints(2), exchanging).wait());
         }},
        {"alltoall", false,
         [](comm_view c, int, int n) { static_cast<void>(c.alltoall(ints(uz(n)))); }},
        {"alltoall into", false,
         [](comm_view c, int, int n) {
           ints into(uz(n));
           c.alltoall(ints(uz(n)), into);
         }},
        {"alltoall_in_place", false,
         [](comm_view c, int, int n) {
           ints buffer(uz(n));
           c.alltoall_in_place(buffer);
         }},
        {"alltoallv", false,
         [](comm_view c, int, int n) {
           ints into(uz(n));
           c.alltoallv(ints(uz(n)), ones(n), into, ones(n));
         }},
        {"alltoallv with displacements", false,
         [](comm_view c, int, int n) {
           ints into(uz(n));
           c.alltoallv(ints(uz(n)), ones(n), each_at_its_rank(n), into, ones(n),
                       each_at_its_rank(n));
         }},
        {"alltoallv exchanging counts", false,
         [](comm_view c, int, int n) {
           static_cast<void>(c.alltoallv(ints(uz(n)), ones(n), exchanging));
         }},
        {"ialltoall", false,
         [](comm_view c, int, int n) { static_cast<void>(c.ialltoall(ints(uz(n))).wait()); }},
        {"ialltoall into", false,
         [](comm_view c, int, int n) {
           static_cast<void>(c.ialltoall(ints(uz(n)), ints(uz(n))).wait());
         }},
        {"ialltoallv", false,
         [](comm_view c, int, int n) {
           static_cast<void>(c.ialltoallv(ints(uz(n)), ones(n), ints(uz(n)), ones(n)).wait());
         }},
        {"ialltoallv with displacements", false,
         [](comm_view c, int, int n) {
           static_cast<void>(c.ialltoallv(ints(uz(n)), ones(n), each_at_its_rank(n), ints(uz(n)),
                                          ones(n), each_at_its_rank(n))
                                 .wait());
         }},
        {"ialltoallv exchanging counts", false,
         [](comm_view c, int, int n) {
           static_cast<void>(c.ialltoallv(ints(uz(n)), ones(n), exchanging).wait());
         }},
        {"allreduce", false,
         [](comm_view c, int, int) { static_cast<void>(c.allreduce(1, plus)); }},
        {"allreduce with a lambda", false,
         [](comm_view c, int, int) {
           static_cast<void>(c.allreduce(1, [](int a, int b) { return a + b; }));
         }},
        {"allreduce into", false,
         [](comm_view c, int, int) {
           ints into(2);
           c.allreduce(ints(2), into, plus);
         }},
        {"allreduce_in_place", false,
         [](comm_view c, int, int) {
           ints buffer(2);
           c.allreduce_in_place(buffer, plus);
         }},
        {"iallreduce", false,
         [](comm_view c, int, int) { static_cast<void>(c.iallreduce(1, plus).wait()); }},
        {"iallreduce into", false,
         [](comm_view c, int, int) {
           static_cast<void>(c.iallreduce(ints(2), ints(2), plus).wait());
         }},
        {"iallreduce_in_place", false,
         [](comm_view c, int, int) {
           static_cast<void>(c.iallreduce_in_place(ints(2), plus).wait());
         }},
        {"reduce_scatter", false,
         [](comm_view c, int, int n) {
           ints mine(1);
           c.reduce_scatter(ints(uz(n)), mine, ones(n), plus);
         }},
        {"reduce_scatter_block", false,
         [](comm_view c, int, int n) {
           ints mine(1);
           c.reduce_scatter_block(ints(uz(n)), mine, plus);
         }},
        {"reduce_scatter_block_in_place", false,
         [](comm_view c, int, int n) {
           ints buffer(uz(n));
           c.reduce_scatter_block_in_place(buffer, plus);
         }},
        {"ireduce_scatter", false,
         [](comm_view c, int, int n) {
           static_cast<void>(c.ireduce_scatter(ints(uz(n)), ones(n), plus).wait());
         }},
        {"ireduce_scatter into", false,
         [](comm_view c, int, int n) {
           static_cast<void>(c.ireduce_scatter(ints(uz(n)), ints(1), ones(n), plus).wait());
         }},
        {"ireduce_scatter_block", false,
         [](comm_view c, int, int n) {
           static_cast<void>(c.ireduce_scatter_block(ints(uz(n)), plus).wait());
         }},
        {"ireduce_scatter_block into", false,
         [](comm_view c, int, int n) {
           static_cast<void>(c.ireduce_scatter_block(ints(uz(n)), ints(1), plus).wait());
         }},
        {"scan", false,
         [](comm_view c, int, int) {
           ints into(2);
           c.scan(ints(2), into, plus);
         }},
        {"scan_in_place", false,
         [](comm_view c, int, int) {
           ints buffer(2);
           c.scan_in_place(buffer, plus);
         }},
        {"exscan", false,
         [](comm_view c, int, int) {
           ints into(2);
           c.exscan(ints(2), into, plus);
         }},
        {"exscan_in_place", false,
         [](comm_view c, int, int) {
           ints buffer(2);
           c.exscan_in_place(buffer, plus);
         }},
        {"iscan", false, [](comm_view c, int, int) { static_cast<void>(c.iscan(1, plus).wait()); }},
        {"iscan into", false,
         [](comm_view c, int, int) { static_cast<void>(c.iscan(ints(2), ints(2), plus).wait()); }},
        {"iscan_in_place", false,
         [](comm_view c, int, int) { static_cast<void>(c.iscan_in_place(ints(2), plus).wait()); }},
        {"iexscan", false,
         [](comm_view c, int, int) { static_cast<void>(c.iexscan(1, plus).wait()); }},
        {"iexscan into", false,
         [](comm_view c, int, int) {
           static_cast<void>(c.iexscan(ints(2), ints(2), plus).wait());
         }},
        {"iexscan_in_place", false,
         [](comm_view c, int, int) {
           static_cast<void>(c.iexscan_in_place(ints(2), plus).wait());
         }},
#if THINMPI_HAS_PERSISTENT_COLLECTIVES
        {"barrier_init", false,
         [](comm_view c, int, int) {
           auto round = c.barrier_init();
           round.start();
           round.wait();
         }},
        {"allgather_init", false,
         [](comm_view c, int, int n) {
           int mine = 1;
           ints into(uz(n));
           run_round(c.allgather_init(mine, into));
         }},
        {"allgatherv_init", false,
         [](comm_view c, int, int n) {
           ints mine(1);
           ints into(uz(n));
           const ints counts = ones(n);
           const ints displs = each_at_its_rank(n);
           run_round(c.allgatherv_init(mine, into, counts, displs));
         }},
        {"alltoall_init", false,
         [](comm_view c, int, int n) {
           ints out(uz(n));
           ints into(uz(n));
           run_round(c.alltoall_init(out, into));
         }},
        {"alltoallv_init", false,
         [](comm_view c, int, int n) {
           ints out(uz(n));
           ints into(uz(n));
           const ints counts = ones(n);
           const ints displs = each_at_its_rank(n);
           run_round(c.alltoallv_init(out, counts, displs, into, counts, displs));
         }},
        {"allreduce_init", false,
         [](comm_view c, int, int) {
           ints mine(2);
           ints into(2);
           run_round(c.allreduce_init(mine, into, plus));
         }},
        {"allreduce_in_place_init", false,
         [](comm_view c, int, int) {
           ints buffer(2);
           run_round(c.allreduce_in_place_init(buffer, plus));
         }},
        {"reduce_scatter_init", false,
         [](comm_view c, int, int n) {
           ints mine(uz(n));
           ints into(1);
           const ints counts = ones(n);
           run_round(c.reduce_scatter_init(mine, into, counts, plus));
         }},
        {"reduce_scatter_block_init", false,
         [](comm_view c, int, int n) {
           ints mine(uz(n));
           ints into(1);
           run_round(c.reduce_scatter_block_init(mine, into, plus));
         }},
        {"scan_init", false,
         [](comm_view c, int, int) {
           ints mine(2);
           ints into(2);
           run_round(c.scan_init(mine, into, plus));
         }},
        {"scan_in_place_init", false,
         [](comm_view c, int, int) {
           ints buffer(2);
           run_round(c.scan_in_place_init(buffer, plus));
         }},
        {"exscan_init", false,
         [](comm_view c, int, int) {
           ints mine(2);
           ints into(2);
           run_round(c.exscan_init(mine, into, plus));
         }},
        {"exscan_in_place_init", false, [](comm_view c, int, int) {
           ints buffer(2);
           run_round(c.exscan_in_place_init(buffer, plus));
         }},
#endif
  };
}

/// Every collective operation: the rooted ones, then the others.
std::vector<collective_operation> collective_operations() {
  std::vector<collective_operation> all = rooted_operations();
  for (auto& op : unrooted_operations())
    all.push_back(std::move(op));
  return all;
}

/// Receives of up to four ints from `source`; each gets a message of sixteen.
std::vector<p2p_operation> receives_into_four_ints() {
  using thinmpi::comm_view;
  return {
      {"recv array", ends::receive,
       [](comm_view c, int p, int t) {
         std::array<int, 4> a{};
         c.recv(a, p, t);
       }},
      {"recv span", ends::receive,
       [](comm_view c, int p, int t) {
         int raw[4] = {};
         c.recv(std::span(raw), p, t);
       }},
      {"recv bounded vector", ends::receive,
       [](comm_view c, int p, int t) {
         std::vector<int> v(4);
         c.recv(v, p, t);
       }},
      {"recv<int>", ends::receive,
       [](comm_view c, int p, int t) { static_cast<void>(c.recv<int>(p, t)); }},
      {"recv<array<int, 4>>", ends::receive,
       [](comm_view c, int p, int t) { static_cast<void>(c.recv<std::array<int, 4>>(p, t)); }},
      {"sendrecv", ends::receive,
       [](comm_view c, int p, int t) {
         std::vector<int> v(4);
         c.sendrecv(1, thinmpi::proc_null, 0, v, p, t);
       }},
      {"sendrecv_replace", ends::receive,
       [](comm_view c, int p, int t) {
         std::vector<int> v(4);
         c.sendrecv_replace(v, thinmpi::proc_null, 0, p, t);
       }},
      {"irecv borrowed", ends::receive,
       [](comm_view c, int p, int t) {
         std::array<int, 4> a{};
         c.irecv(a, p, t).wait();
       }},
      {"irecv owned vector", ends::receive,
       [](comm_view c, int p, int t) {
         static_cast<void>(c.irecv(std::vector<int>(4), p, t).wait());
       }},
      {"irecv<int>", ends::receive,
       [](comm_view c, int p, int t) { static_cast<void>(c.irecv<int>(p, t).wait()); }},
      {"recv_at_most 4", ends::receive,
       [](comm_view c, int p, int t) {
         static_cast<void>(c.recv_at_most<std::vector<int>>(p, t, 4));
       }},
  };
}

/// The framed channel's calls, with a peer and a tag.
struct framed_operation {
  const char* name;
  ends kind;
  std::function<void(const thinmpi::framed_channel&, int peer, int tag)> call;
};

std::vector<framed_operation> framed_operations() {
  using channel = thinmpi::framed_channel;
  return {
      {"framed send", ends::send,
       [](const channel& f, int p, int t) { f.send(std::vector<int>(3, 1), p, t); }},
      {"framed send of several frames", ends::send,
       [](const channel& f, int p, int t) { f.send(std::vector<int>(5000, 1), p, t); }},
      {"framed send serialized", ends::send,
       [](const channel& f, int p, int t) {
         f.send(thinmpi::serialized(std::vector<std::string>{"a", "b"}), p, t);
       }},
      {"framed isend", ends::send,
       [](const channel& f, int p, int t) {
         const std::vector<int> v(3, 1);
         f.isend(v, p, t).wait();
       }},
      {"framed recv", ends::receive,
       [](const channel& f, int p, int t) { static_cast<void>(f.recv<std::vector<int>>(p, t)); }},
      {"framed recv_with_status", ends::receive,
       [](const channel& f, int p, int t) {
         static_cast<void>(f.recv_with_status<std::string>(p, t));
       }},
      {"framed irecv", ends::receive,
       [](const channel& f, int p, int t) {
         static_cast<void>(f.irecv<std::vector<int>>(p, t).wait());
       }},
  };
}

/// The class of the thinmpi::mpi_error that f throws; 0 (with a failure) if it throws none.
template <class F>
int error_class_of(F&& f, const std::string& what) {
  try {
    f();
  } catch (const thinmpi::mpi_error& e) {
    return e.error_class();
  }
  ADD_FAILURE() << what << ": no thinmpi::mpi_error";
  return 0;
}

/// After the errors, the communicator still carries messages.
void expect_still_usable(thinmpi::comm_view comm) {
  const ring r(comm);
  auto sent = comm.isend(r.rank + 7, r.next(), 98);
  EXPECT_EQ(comm.recv<int>(r.prev(), 98), r.prev() + 7);
  static_cast<void>(sent.wait());
  comm.barrier();
}

std::vector<int> bad_ranks(const thinmpi::comm_view& comm, ends kind) {
  std::vector<int> ranks{comm.size(), comm.size() + 3, -7, INT_MAX};
  if (kind == ends::send) ranks.push_back(thinmpi::any_source);
  return ranks;
}

std::vector<int> bad_tags(const thinmpi::comm_view& comm, ends kind) {
  std::vector<int> tags{-5, INT_MIN};
  if (comm.tag_ub() < INT_MAX) tags.push_back(comm.tag_ub() + 1);  // MPICH: 2^28 - 1
  if (kind == ends::send) tags.push_back(thinmpi::any_tag);
  return tags;
}

TEST(BadInput, RanksOutsideTheCommunicator) {
  auto world = thinmpi::world();
  for (const auto& op : p2p_operations()) {
    for (const int peer : bad_ranks(world, op.kind)) {
      EXPECT_EQ(error_class_of([&] { op.call(world, peer, 0); },
                               std::string(op.name) + " to rank " + std::to_string(peer)),
                MPI_ERR_RANK)
          << op.name << ", peer " << peer;
    }
  }
  expect_still_usable(world);
}

TEST(BadInput, TagsMpiRejects) {
  auto world = thinmpi::world();
  const ring r(world);
  for (const auto& op : p2p_operations()) {
    const int peer = op.kind == ends::receive ? r.prev() : r.next();
    for (const int t : bad_tags(world, op.kind)) {
      EXPECT_EQ(error_class_of([&] { op.call(world, peer, t); },
                               std::string(op.name) + " with tag " + std::to_string(t)),
                MPI_ERR_TAG)
          << op.name << ", tag " << t;
    }
  }
  expect_still_usable(world);
}

TEST(BadInput, TheNullCommunicator) {
  const thinmpi::comm_view null;
  for (const auto& op : p2p_operations()) {
    EXPECT_EQ(error_class_of([&] { op.call(null, 0, 0); }, std::string(op.name) + " on null"),
              MPI_ERR_COMM)
        << op.name;
  }
  const int n = thinmpi::world().size();
  for (const auto& op : collective_operations()) {
    EXPECT_EQ(error_class_of([&] { op.call(null, 0, n); }, std::string(op.name) + " on null"),
              MPI_ERR_COMM)
        << op.name;
  }
  EXPECT_EQ(error_class_of([&] { const thinmpi::framed_channel on_null(null); },
                           "framed_channel on null"),
            MPI_ERR_COMM);
  expect_still_usable(thinmpi::world());
}

// Roots outside the communicator end the job unchecked (a rank cannot know that the others
// passed the same root): rooted_operations() is swept with them, on every rank and on one rank,
// in collectives_consistency_checked_test, where every rank throws MPI_ERR_ROOT. Here: every
// rooted form is in that table.
TEST(BadInput, RootedOperationsAreListedAsRooted) {
  for (const auto& op : rooted_operations())
    ASSERT_TRUE(op.rooted) << op.name;
  for (const auto& op : unrooted_operations())
    ASSERT_FALSE(op.rooted) << op.name << " takes a root: it belongs in rooted_operations()";
}

TEST(BadInput, FramedChannelRanksAndTags) {
  auto world = thinmpi::world();
  const ring r(world);
  const thinmpi::framed_channel channel(world);
  for (const auto& op : framed_operations()) {
    for (const int peer : bad_ranks(world, op.kind)) {
      EXPECT_EQ(error_class_of([&] { op.call(channel, peer, 0); },
                               std::string(op.name) + " to rank " + std::to_string(peer)),
                MPI_ERR_RANK)
          << op.name << ", peer " << peer;
    }
    const int peer = op.kind == ends::receive ? r.prev() : r.next();
    for (const int t : bad_tags(world, op.kind)) {
      EXPECT_EQ(error_class_of([&] { op.call(channel, peer, t); },
                               std::string(op.name) + " with tag " + std::to_string(t)),
                MPI_ERR_TAG)
          << op.name << ", tag " << t;
    }
  }
  // The channel still carries a payload of several frames.
  const std::vector<int> several_frames(5000, r.rank);
  auto sent = channel.isend(several_frames, r.next(), 1);
  EXPECT_EQ(channel.recv<std::vector<int>>(r.prev(), 1), std::vector<int>(5000, r.prev()));
  sent.wait();
  expect_still_usable(world);
}

TEST(BadInput, ReceiveBuffersTooSmall) {
  auto world = thinmpi::world();
  const ring r(world);
  const auto receives = receives_into_four_ints();
  // Every message is sent before any receive is posted: Open MPI 4.1.4 truncates a message a
  // process sends to itself into an earlier posted receive without reporting it (docs/library.md).
  std::vector<thinmpi::owning_request<std::vector<int>>> sent;
  for (std::size_t i = 0; i < receives.size(); ++i) {
    sent.push_back(world.isend(std::vector<int>(16, 1), r.next(), static_cast<int>(i)));
  }
  world.barrier();
  for (std::size_t i = 0; i < receives.size(); ++i) {
    const auto& op = receives[i];
    EXPECT_EQ(error_class_of([&] { op.call(world, r.prev(), static_cast<int>(i)); }, op.name),
              MPI_ERR_TRUNCATE)
        << op.name;
    EXPECT_FALSE(world.iprobe(r.prev(), static_cast<int>(i)).has_value())
        << op.name << ": the truncated message was left behind";
  }
  thinmpi::wait_all(sent);
  expect_still_usable(world);
}

}  // namespace
