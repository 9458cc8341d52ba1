#pragma once
/// \file
/// The State block of a nonblocking or persistent collective on one payload (ibcast, iscatter,
/// bcast_init): the payload held (borrowed or owned, detail/collective_buffers.hpp), its count
/// and datatype for the error report; wait() hands an owned payload back.

#include <cstddef>
#include <utility>

#include "thinmpi/collectives/detail/collective_buffers.hpp"
#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/core/detail/mpi.hpp"

namespace thinmpi::detail {

template <class P>
struct payload_state {
  payload_state(P&& given, collective_call context)
      : payload(std::forward<P>(given)), call(context) {}

  held<P> payload;
  collective_call call;
  std::size_t count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;

  [[noreturn]] void raise(int rc) const { raise_collective(rc, call, count, type); }
  /// The owned payload; nothing for a borrowed one (the caller has it).
  auto take() {
    if constexpr (held<P>::owned) return payload.take();
  }
};

}  // namespace thinmpi::detail
