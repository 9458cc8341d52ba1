#pragma once
// The other collectives called on every rank with an argument only one rank has wrong: its
// receive buffer, its own counts, displacements or send buffer (detail/root_checks.hpp). The
// rank with the bad argument is `root`, the last rank (the root where the call has one).
// Included by root_only_cases.hpp, whose cases() lists these after the rooted ones.

#include <mpi.h>

#include <functional>
#include <vector>

#include "thinmpi/thinmpi.hpp"

namespace root_only {

/// `n` elements on every rank, `n - 1` on `bad`: a receive buffer one element short there.
inline std::vector<int> short_on(thinmpi::comm_view w, int bad, std::size_t n) {
  return std::vector<int>(w.rank() == bad ? n - 1 : n, -1);
}
/// 1, 2, ... size() ints: counts that differ per rank, packed displacements for them.
inline std::vector<int> ones(thinmpi::comm_view w, int value = 1) {
  return std::vector<int>(uz(w.size()), value);
}
inline std::vector<int> packed(thinmpi::comm_view w, int block) {
  std::vector<int> displs;
  for (int r = 0; r < w.size(); ++r)
    displs.push_back(block * r);
  return displs;
}

inline const std::vector<bad_call>& local_cases() {
  using thinmpi::comm_view;
  constexpr int count = MPI_ERR_COUNT;
  constexpr int arg = MPI_ERR_ARG;
  const char* small = "is too small for";
  static const std::vector<bad_call> all{
      // A receive buffer too small: the rank takes part into scratch, then throws.
      {"allreduce_recv_too_small", true, count, small,
       [](comm_view w, int bad) {
         std::vector<int> into = short_on(w, bad, 3);
         w.allreduce(std::vector<int>(3, w.rank()), into, std::plus<>{});
       }},
      {"scan_recv_too_small", true, count, small,
       [](comm_view w, int bad) {
         std::vector<int> into = short_on(w, bad, 3);
         w.scan(std::vector<int>(3, 1), into, std::plus<>{});
       }},
      {"exscan_recv_too_small", true, count, small,
       [](comm_view w, int bad) {
         std::vector<int> into = short_on(w, bad, 3);
         w.exscan(std::vector<int>(3, 1), into, std::plus<>{});
       }},
      {"reduce_root_recv_too_small", true, count, small,
       [](comm_view w, int bad) {
         std::vector<int> into = short_on(w, bad, 3);
         w.reduce(std::vector<int>(3, 1), into, std::plus<>{}, bad);
       }},
      {"iallreduce_recv_too_small", true, count, small,
       [](comm_view w, int bad) {
         std::vector<int> into = short_on(w, bad, 3);
         w.iallreduce(std::vector<int>(3, 1), into, std::plus<>{}).wait();
       }},
      {"ireduce_root_recv_too_small", true, count, small,
       [](comm_view w, int bad) {
         std::vector<int> into = short_on(w, bad, 3);
         w.ireduce(std::vector<int>(3, 1), into, std::plus<>{}, bad).wait();
       }},
      {"reduce_scatter_block_recv_too_small", true, count, small,
       [](comm_view w, int bad) {
         std::vector<int> into = short_on(w, bad, 2);
         w.reduce_scatter_block(std::vector<int>(2 * uz(w.size()), 1), into, std::plus<>{});
       }},
      {"reduce_scatter_recv_too_small", true, count, small,
       [](comm_view w, int bad) {
         std::vector<int> into = short_on(w, bad, 2);
         w.reduce_scatter(std::vector<int>(2 * uz(w.size()), 1), into, ones(w, 2), std::plus<>{});
       }},
      {"allgather_into_too_small", true, count, small,
       [](comm_view w, int bad) {
         std::vector<int> into = short_on(w, bad, 2 * uz(w.size()));
         w.allgather(std::vector<int>(2, w.rank()), into);
       }},
      {"allgatherv_into_too_small", true, count, small,
       [](comm_view w, int bad) {
         std::vector<int> into = short_on(w, bad, 2 * uz(w.size()));
         w.allgatherv(std::vector<int>(2, w.rank()), into, ones(w, 2), packed(w, 2));
       }},
      {"allgatherv_packed_into_too_small", true, count, small,
       [](comm_view w, int bad) {
         std::vector<int> into = short_on(w, bad, 2 * uz(w.size()));
         w.allgatherv(std::vector<int>(2, w.rank()), into, ones(w, 2));
       }},
      {"alltoall_into_too_small", true, count, small,
       [](comm_view w, int bad) {
         std::vector<int> into = short_on(w, bad, 2 * uz(w.size()));
         w.alltoall(std::vector<int>(2 * uz(w.size()), w.rank()), into);
       }},
      {"alltoallv_into_too_small", true, count, small,
       [](comm_view w, int bad) {
         std::vector<int> into = short_on(w, bad, 2 * uz(w.size()));
         w.alltoallv(std::vector<int>(2 * uz(w.size()), w.rank()), ones(w, 2), packed(w, 2), into,
                     ones(w, 2), packed(w, 2));
       }},
      {"alltoallv_packed_into_too_small", true, count, small,
       [](comm_view w, int bad) {
         std::vector<int> into = short_on(w, bad, 2 * uz(w.size()));
         w.alltoallv(std::vector<int>(2 * uz(w.size()), w.rank()), ones(w, 2), into, ones(w, 2));
       }},
      // This rank's own counts, displacements or send buffer, or a nonblocking or persistent
      // call's buffer: the job ends (checked: every rank throws).
      {"allgatherv_own_count_wrong", false, count, "but this rank sends",
       [](comm_view w, int bad) {
         std::vector<int> into(3 * uz(w.size()));
         const std::vector<int> mine(w.rank() == bad ? 3 : 2, w.rank());
         w.allgatherv(mine, into, ones(w, 2));
       }},
      {"allgatherv_displs_too_short", false, arg, "displs has",
       [](comm_view w, int bad) {
         std::vector<int> into(2 * uz(w.size()));
         std::vector<int> displs = packed(w, 2);
         if (w.rank() == bad) displs.pop_back();
         w.allgatherv(std::vector<int>(2, w.rank()), into, ones(w, 2), displs);
       }},
      {"alltoallv_sendcounts_too_long", false, arg, "sendcounts has",
       [](comm_view w, int bad) {
         std::vector<int> counts = ones(w);
         if (w.rank() == bad) counts.push_back(1);
         std::vector<int> into(uz(w.size()));
         w.alltoallv(std::vector<int>(uz(w.size()) + 1, 7), counts, into, ones(w));
       }},
      {"alltoallv_recvcounts_too_short", false, arg, "recvcounts has",
       [](comm_view w, int bad) {
         std::vector<int> counts = ones(w);
         if (w.rank() == bad) counts.pop_back();
         std::vector<int> into(uz(w.size()));
         w.alltoallv(std::vector<int>(uz(w.size()), 7), ones(w), into, counts);
       }},
      {"alltoallv_negative_rdispls", false, arg, "rdispls[0] is -1",
       [](comm_view w, int bad) {
         std::vector<int> rdispls = packed(w, 1);
         if (w.rank() == bad) rdispls.front() = -1;
         std::vector<int> into(uz(w.size()));
         w.alltoallv(std::vector<int>(uz(w.size()), 7), ones(w), packed(w, 1), into, ones(w),
                     rdispls);
       }},
      {"alltoallv_send_too_small", false, count, small,
       [](comm_view w, int bad) {
         std::vector<int> into(uz(w.size()));
         w.alltoallv(short_on(w, bad, uz(w.size())), ones(w), into, ones(w));
       }},
      {"alltoallv_exchanged_negative_count", false, arg, "must not be negative",
       [](comm_view w, int bad) {
         std::vector<int> counts = ones(w);
         if (w.rank() == bad) counts.front() = -1;
         static_cast<void>(
             w.alltoallv(std::vector<int>(uz(w.size()), 7), counts, thinmpi::exchange_counts));
       }},
      {"alltoallv_exchanged_counts_too_short", false, arg, "sendcounts has",
       [](comm_view w, int bad) {
         std::vector<int> counts = ones(w);
         if (w.rank() == bad) counts.pop_back();
         static_cast<void>(
             w.alltoallv(std::vector<int>(uz(w.size()), 7), counts, thinmpi::exchange_counts));
       }},
      {"iallgather_into_too_small", false, count, small,
       [](comm_view w, int bad) {
         std::vector<int> into = short_on(w, bad, 2 * uz(w.size()));
         w.iallgather(std::vector<int>(2, w.rank()), into).wait();
       }},
      {"ialltoallv_into_too_small", false, count, small,
       [](comm_view w, int bad) {
         std::vector<int> into = short_on(w, bad, uz(w.size()));
         w.ialltoallv(std::vector<int>(uz(w.size()), 7), ones(w), into, ones(w)).wait();
       }},
      {"allreduce_init_recv_too_small", false, count, small,
       [](comm_view w, int bad) {
         const std::vector<int> mine(3, 1);
         std::vector<int> into = short_on(w, bad, 3);
         auto sum = w.allreduce_init(mine, into, std::plus<>{});
         sum.start();
         sum.wait();
       }},
      {"scan_init_recv_too_small", false, count, small,
       [](comm_view w, int bad) {
         const std::vector<int> mine(3, 1);
         std::vector<int> into = short_on(w, bad, 3);
         auto prefix = w.scan_init(mine, into, std::plus<>{});
         prefix.start();
         prefix.wait();
       }},
      {"reduce_scatter_block_init_recv_too_small", false, count, small,
       [](comm_view w, int bad) {
         const std::vector<int> mine(2 * uz(w.size()), 1);
         std::vector<int> into = short_on(w, bad, 2);
         auto blocks = w.reduce_scatter_block_init(mine, into, std::plus<>{});
         blocks.start();
         blocks.wait();
       }},
  };
  return all;
}

}  // namespace root_only
