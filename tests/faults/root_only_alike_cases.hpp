#pragma once
// Arguments MPI requires to be the same on every rank (allgatherv's recvcounts, alltoall's
// block, reduce_scatter's counts, a root), the sparse exchange's destinations and tag, and the
// communicator constructors' arguments, wrong on one rank only: the rank that finds the error
// cannot know what the others passed, and they are in the collective (or the exchange, or
// MPI_Comm_split) already, so the job ends; checked, every rank throws
// (include/thinmpi/collectives/detail/root_checks.hpp). The rank with the bad argument is
// `bad`, the last rank. Included by root_only_cases.hpp, whose cases() lists these last; the
// cases marked on_every_rank have every rank pass the bad argument (each rank throws its own
// error in the checked build).

#include <mpi.h>

#include <climits>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "thinmpi/thinmpi.hpp"

namespace root_only {

/// `good` on every rank, `wrong` on `bad`.
inline int on(thinmpi::comm_view w, int bad, int good, int wrong) {
  return w.rank() == bad ? wrong : good;
}

/// One (destination, payload) per other rank and one to itself: the exchange every rank runs.
inline std::vector<std::pair<int, std::vector<int>>> ring_messages(thinmpi::comm_view w) {
  return {{(w.rank() + 1) % w.size(), {w.rank()}}, {w.rank(), {w.rank(), 7}}};
}

inline const std::vector<bad_call>& alike_cases() {
  using thinmpi::comm_view;
  constexpr int count = MPI_ERR_COUNT;
  constexpr int arg = MPI_ERR_ARG;
  const char* uneven = "equal blocks, one per rank";
  static const std::vector<bad_call> all {
    // Arguments every rank must pass alike, wrong on one rank (alike_checks).
    {"allgatherv_recvcounts_short_on_one", false, arg, "recvcounts has",
     [](comm_view w, int bad) {
       std::vector<int> counts(uz(w.size()), 2);
       if (w.rank() == bad) counts.pop_back();
       std::vector<int> into(2 * uz(w.size()));
       w.allgatherv(std::vector<int>(2, w.rank()), into, counts);
     }},
        {"allgatherv_displs_form_recvcounts_long_on_one", false, arg, "recvcounts has",
         [](comm_view w, int bad) {
           std::vector<int> counts(uz(w.size()), 2);
           if (w.rank() == bad) counts.push_back(2);
           std::vector<int> displs;
           for (int r = 0; r < w.size(); ++r)
             displs.push_back(2 * r);
           std::vector<int> into(2 * uz(w.size()));
           w.allgatherv(std::vector<int>(2, w.rank()), into, counts, displs);
         }},
        {"allgatherv_layout_blocks_on_one", false, arg, "the block_layout (recvcounts) has",
         [](comm_view w, int bad) {
           const thinmpi::block_layout blocks(
               std::vector<int>(uz(w.size()) + (w.rank() == bad ? 1 : 0), 2));
           std::vector<int> into(2 * uz(w.size()) + 2);
           w.allgatherv(std::vector<int>(2, w.rank()), into, blocks);
         }},
        {"allgather_in_place_uneven_on_one", false, count, uneven,
         [](comm_view w, int bad) {
           std::vector<int> buffer(2 * uz(w.size()) + (w.rank() == bad ? 1 : 0), w.rank());
           w.allgather_in_place(buffer);
         }},
        {"alltoall_uneven_on_one", false, count, uneven,
         [](comm_view w, int bad) {
           const std::vector<int> send(2 * uz(w.size()) + (w.rank() == bad ? 1 : 0), w.rank());
           std::vector<int> into(send.size());
           w.alltoall(send, into);
         }},
        {"alltoall_in_place_uneven_on_one", false, count, uneven,
         [](comm_view w, int bad) {
           std::vector<int> buffer(2 * uz(w.size()) + (w.rank() == bad ? 1 : 0), w.rank());
           w.alltoall_in_place(buffer);
         }},
        {"ialltoall_uneven_on_one", false, count, uneven,
         [](comm_view w, int bad) {
           const std::vector<int> send(2 * uz(w.size()) + (w.rank() == bad ? 1 : 0), w.rank());
           static_cast<void>(w.ialltoall(send, std::vector<int>(send.size())).wait());
         }},
        {"reduce_scatter_block_uneven_on_one", false, count, uneven,
         [](comm_view w, int bad) {
           std::vector<int> into(2);
           w.reduce_scatter_block(std::vector<int>(2 * uz(w.size()) + (w.rank() == bad ? 1 : 0), 1),
                                  into, std::plus<>{});
         }},
        {"reduce_scatter_block_in_place_uneven_on_one", false, count, uneven,
         [](comm_view w, int bad) {
           std::vector<int> buffer(2 * uz(w.size()) + (w.rank() == bad ? 1 : 0), 1);
           w.reduce_scatter_block_in_place(buffer, std::plus<>{});
         }},
        {"reduce_scatter_counts_long_on_one", false, arg, "recvcounts has",
         [](comm_view w, int bad) {
           std::vector<int> counts(uz(w.size()), 2);
           if (w.rank() == bad) counts.push_back(0);
           std::vector<int> into(2);
           w.reduce_scatter(std::vector<int>(2 * uz(w.size()), 1), into, counts, std::plus<>{});
         }},
        {"reduce_scatter_counts_sum_on_one", false, count, "the counts add up to",
         [](comm_view w, int bad) {
           std::vector<int> counts(uz(w.size()), 2);
           if (w.rank() == bad) counts.front() = 3;
           std::vector<int> into(3);
           w.reduce_scatter(std::vector<int>(2 * uz(w.size()), 1), into, counts, std::plus<>{});
         }},
        {"ireduce_scatter_counts_long_on_one", false, arg, "recvcounts has",
         [](comm_view w, int bad) {
           std::vector<int> counts(uz(w.size()), 2);
           if (w.rank() == bad) counts.push_back(0);
           static_cast<void>(w.ireduce_scatter(std::vector<int>(2 * uz(w.size()), 1),
                                               std::vector<int>(2), counts, std::plus<>{})
                                 .wait());
         }},
        // A root outside the communicator on one rank: MPI checks it there only (unchecked, that
        // rank ends the job with MPI's MPI_ERR_ROOT; checked, thinmpi checks it first).
        {"bcast_root_outside_on_one", false, MPI_ERR_ROOT, "is not a rank of this communicator",
         [](comm_view w, int bad) {
           int value = w.rank();
           w.bcast(value, on(w, bad, 0, w.size()));
         }},
        {"bcast_exchanging_counts_root_outside_on_one", false, MPI_ERR_ROOT,
         "is not a rank of this communicator",
         [](comm_view w, int bad) {
           std::vector<int> values(3, w.rank());
           w.bcast(values, on(w, bad, 0, w.size()), thinmpi::exchange_counts);
         }},
        {"ibcast_root_outside_on_one", false, MPI_ERR_ROOT, "is not a rank of this communicator",
         [](comm_view w, int bad) {
           static_cast<void>(w.ibcast(std::vector<int>(2), on(w, bad, 0, -1)).wait());
         }},
        {"gather_root_outside_on_one", false, MPI_ERR_ROOT, "is not a rank of this communicator",
         [](comm_view w, int bad) {
           std::vector<int> into(2 * uz(w.size()));
           w.gather(std::vector<int>(2, w.rank()), into, on(w, bad, 0, w.size() + 5));
         }},
        {"gatherv_exchanged_root_outside_on_one", false, MPI_ERR_ROOT,
         "is not a rank of this communicator",
         [](comm_view w, int bad) {
           static_cast<void>(w.gatherv(std::vector<int>(2, w.rank()), on(w, bad, 0, w.size()),
                                       thinmpi::exchange_counts));
         }},
        {"reduce_root_outside_on_one", false, MPI_ERR_ROOT, "is not a rank of this communicator",
         [](comm_view w, int bad) {
           static_cast<void>(w.reduce(w.rank(), std::plus<>{}, on(w, bad, 0, -7)));
         }},
        {"iscatter_root_outside_on_one", false, MPI_ERR_ROOT, "is not a rank of this communicator",
         [](comm_view w, int bad) {
           const std::vector<int> send(2 * uz(w.size()), 1);
           static_cast<void>(w.iscatter(send, std::vector<int>(2), on(w, bad, 0, w.size())).wait());
         }},
        // The sparse exchange: its destinations are this rank's own, its tag must be alike.
        {"sparse_exchange_dest_outside_on_one", false, MPI_ERR_RANK, "is for rank",
         [](comm_view w, int bad) {
           auto out = ring_messages(w);
           if (w.rank() == bad) out.emplace_back(w.size(), std::vector<int>{1});
           static_cast<void>(w.sparse_exchange(out, 31));
         }},
        {"sparse_exchange_negative_tag_on_one", false, MPI_ERR_TAG, "is negative",
         [](comm_view w, int bad) {
           static_cast<void>(w.sparse_exchange(ring_messages(w), on(w, bad, 32, -3)));
         }},
#if defined(MPICH_VERSION)
        // MPICH's MPI_TAG_UB is 2^28 - 1 (Open MPI's is INT_MAX: no tag is above it).
        {"sparse_exchange_tag_above_ub_on_one", false, MPI_ERR_TAG, "is above MPI_TAG_UB",
         [](comm_view w, int bad) {
           const int above = w.tag_ub() < INT_MAX ? w.tag_ub() + 1 : -1;
           static_cast<void>(w.sparse_exchange(ring_messages(w), on(w, bad, 36, above)));
         }},
#endif
        {"sparse_exchange_callback_dest_outside_on_one", false, MPI_ERR_RANK, "is for rank",
         [](comm_view w, int bad) {
           auto out = ring_messages(w);
           if (w.rank() == bad) out.front().first = -5;  // not MPI_PROC_NULL (-2 on Open MPI)
           w.sparse_exchange(out, 33, [](int, std::span<const int>) {});
         }},
        {"sparse_exchange_into_dest_outside_on_one", false, MPI_ERR_RANK, "is for rank",
         [](comm_view w, int bad) {
           auto out = ring_messages(w);
           if (w.rank() == bad) out.back().first = w.size() + 1;
           std::vector<int> inbox;
           w.sparse_exchange_into(out, 34, [&](int, std::size_t n) {
             inbox.resize(inbox.size() + n);
             return std::span<int>(inbox).last(n);
           });
         }},
        {"sparse_exchange_serialized_dest_outside_on_one", false, MPI_ERR_RANK, "is for rank",
         [](comm_view w, int bad) {
           std::vector<std::pair<int, std::string>> out{{(w.rank() + 1) % w.size(), "ring"}};
           if (w.rank() == bad) out.emplace_back(w.size(), "nowhere");
           static_cast<void>(w.sparse_exchange(thinmpi::serialized(out), 35));
         }},
        // The communicator constructors.
        {"split_negative_color_on_one", false, arg, "color -5 is negative",
         [](comm_view w, int bad) { static_cast<void>(w.split(on(w, bad, 0, -5))); }},
        {"subset_rank_outside_on_one", false, MPI_ERR_RANK, "is outside this communicator of",
         [](comm_view w, int bad) {
           const std::vector<int> ranks{0, on(w, bad, w.size() - 1, w.size() + 3)};
           static_cast<void>(w.subset(ranks));
         }},
        // Every rank passes the same bad argument: each ends the job (it cannot know the others
        // did); checked, each throws its own error.
        {"alltoall_uneven_on_every_rank",
         false,
         count,
         uneven,
         [](comm_view w, int) {
           const std::vector<int> send(2 * uz(w.size()) + 1, w.rank());
           std::vector<int> into(send.size());
           w.alltoall(send, into);
         },
         true},
        {"gather_root_outside_on_every_rank",
         false,
         MPI_ERR_ROOT,
         "is not a rank of this communicator",
         [](comm_view w, int) {
           std::vector<int> into(2 * uz(w.size()));
           w.gather(std::vector<int>(2, w.rank()), into, w.size());
         },
         true},
  };
  return all;
}

}  // namespace root_only
