#pragma once
/// \file
/// The State block of a v-collective that exchanges its counts first, in two nonblocking
/// stages (collective_request's next_stage): one call exchanges the counts (an int per rank,
/// or per neighbor), then, once they arrived, the v-call moves the data into a
/// thinmpi::varying sized for them. The state knows the two calls, not the family, so
/// iallgatherv, ialltoallv and the neighborhood forms share it:
///
///     using state = count_exchange_state<Send, Data, &iallgather_counts, &iallgatherv_blocks>;

#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/displacements.hpp"
#include "thinmpi/collectives/detail/root_checks.hpp"
#include "thinmpi/collectives/detail/routed_exchange.hpp"
#include "thinmpi/collectives/detail/v_calls.hpp"
#include "thinmpi/collectives/detail/v_state.hpp"
#include "thinmpi/collectives/exchange_counts.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/held.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/requests/collective_request.hpp"

namespace thinmpi::detail {

/// The first stage: posts the exchange of this rank's `sent` counts (one, or one per
/// destination) into `received` (one per source).
using exchange_counts_function = int(const int* sent, int* received, MPI_Comm comm,
                                     MPI_Request* request);
/// The second stage: posts the v-call moving `out` into `into` by `arrays` (the send counts and
/// displacements this rank set, the received counts and their packed displacements).
using move_blocks_function = int(const const_buffer& out, const v_spans& arrays, void* into,
                                 MPI_Comm comm, MPI_Request* request);

/// What a count-exchanging v-collective owns until completion: the send payload, its counts
/// and displacements (set by the family before the first stage), and the result the two
/// stages fill.
template <class Send, class Data, exchange_counts_function* ExchangeCounts,
          move_blocks_function* MoveBlocks>
struct count_exchange_state {
  /// `call` names the count exchange; `data_operation` the v-call, for a later error report.
  /// `sources`: how many counts arrive (the ranks, or the topology's in-neighbors).
  count_exchange_state(Send&& send_payload, collective_call call_context,
                       const char* data_operation_name, int sources)
      : send(std::forward<Send>(send_payload)),
        call(call_context),
        data_operation(data_operation_name) {
    result.counts.resize(static_cast<std::size_t>(sources));
  }

  held<Send> send;
  collective_call call;
  const char* data_operation;
  std::vector<int> send_counts{};
  std::vector<int> send_displs{};
  bool data_posted = false;
  /// Every rank receives the same counts (iallgatherv), so every rank sees an error in them
  /// alike and throws; else (ialltoallv, the neighborhood forms) an error is this rank's alone
  /// and ends the job: the others are in the data stage already, and a wait cannot agree.
  bool counts_alike = false;
  varying_for<Data, Send> result{};
  /// A neighborhood topology that routes its alltoalls itself (a neighbor repeats:
  /// topology/detail/neighbor_routes.hpp) sets these: the count stage's exchange, and the
  /// pairing the data stage's exchange is built on once the counts arrived. Else null: MPI's
  /// calls.
  std::unique_ptr<routed_exchange> counts_routed{};
  std::unique_ptr<neighbor_pairing> data_pairing{};
  std::unique_ptr<routed_exchange> data_routed{};

  [[nodiscard]] const_buffer out() { return send_buffer(send.get()); }
  /// The first stage, once send_counts is set.
  int exchange_counts(MPI_Request* handle) {
    if (counts_routed) [[unlikely]] {
      return counts_routed->post(result.counts.data(), handle);
    }
    return ExchangeCounts(send_counts.data(), result.counts.data(), call.comm, handle);
  }
  /// After the counts arrived: sizes the result and posts the v-call.
  void next_stage(MPI_Request& handle) {
    if (data_posted) return;
    data_posted = true;
    call.operation = data_operation;
    const int sources = static_cast<int>(result.counts.size());
    const v_layout layout =
        packed_displacements(call, result.counts, sources, "recvcounts", result.displs);
    const const_buffer sent = out();
    if (!layout.fits_int) [[unlikely]] {
      counts_fail(layout, sent.type);
    }
    result.data.resize(layout.extent);
    const v_spans arrays{send_counts, send_displs, result.counts, result.displs};
    int rc = MPI_SUCCESS;
    if (data_pairing) [[unlikely]] {
      data_routed = std::make_unique<routed_exchange>(
          call.comm, *data_pairing, sent.data, varying_blocks(send_counts, send_displs, sent.type),
          varying_blocks(result.counts, result.displs, sent.type));
      rc = data_routed->post(result.data.data(), &handle);
    } else {
      rc = MoveBlocks(sent, arrays, result.data.data(), call.comm, &handle);
    }
    if (rc != MPI_SUCCESS) [[unlikely]] {
      raise(rc);
    }
  }
  /// Exchanged counts past INT_MAX (see counts_alike).
  [[noreturn, gnu::cold, gnu::noinline]] void counts_fail(const v_layout& layout,
                                                          MPI_Datatype type) const {
    if (counts_alike) raise_varying_past_int(layout, call, type);
    try {
      raise_varying_past_int(layout, call, type);
    } catch (const mpi_error& error) {
      end_job(call, error, {}, false);  // found in a wait: no agreement is possible
    }
  }
  [[noreturn]] void raise(int rc) const {
    raise_collective(rc, call, std::nullopt, datatype_of<element_t<Send>>());
  }
  varying_for<Data, Send> take() { return std::move(result); }
};

/// Posts the first stage of a state whose send counts are set; the request posts the second.
template <class State>
[[nodiscard]] collective_request<State> post_count_exchange(std::unique_ptr<State> state) {
  return post_state<collective_request>(
      std::move(state), [](State& s, MPI_Request* handle) { return s.exchange_counts(handle); });
}

}  // namespace thinmpi::detail
