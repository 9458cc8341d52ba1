#ifndef WB_CXX_COLL_VARIANT_HPP
#define WB_CXX_COLL_VARIANT_HPP
// What a C++ wrapper's collective variant (coll_variant.h's wb_coll_variant) has in common
// whatever the wrapper, written once: the buffers every variant fills the same way, setup, the
// check, the teardown, the guard that ends the job on an exception, and the table entry. The
// wrapper's adapter (see cxx_variant.hpp) adds what its collectives keep between calls:
//
//   struct adapter {
//     ... (cxx_variant.hpp's api, communicator, attach)
//     struct coll_kept {...};                                     // may be empty
//     static coll_kept make_coll_kept(std::size_t count, int size);
//   };
//
// A variant is one function `void call(wb_cxx::coll_state<adapter>&)`, named in the table by
// wb_cxx::coll_variants<adapter>::of<kind, call>(op, form, baseline).

#include <cstddef>
#include <exception>
#include <vector>

#include "coll_variant.h"
#include "cxx_variant.hpp"

namespace wb_cxx {

/// One collective variant's state on one rank.
template <class Adapter>
struct coll_state {
  typename Adapter::communicator comm;
  wb_coll_kind kind;
  int rank;
  int size;
  std::size_t count;
  std::vector<int> send;
  std::vector<int> recv;
  typename Adapter::coll_kept kept;
};

/// coll_variant.h's setup: this rank's values to send, a zeroed receive buffer (rank 0's bcast
/// buffer holds what it sends).
template <class Adapter, wb_coll_kind Kind>
void* coll_setup(MPI_Comm comm, std::size_t count) noexcept {
  return in_setup([&]() -> void* {
    auto* s = new coll_state<Adapter>{Adapter::attach(comm), Kind, 0, 0, count, {}, {}, {}};
    s->rank = rank_of(s->comm);
    s->size = size_of(s->comm);
    s->send.resize(wb_coll_sent(Kind, s->size, count));
    for (std::size_t i = 0; i < s->send.size(); ++i)
      s->send[i] = wb_coll_value(s->rank, i);
    s->recv.assign(wb_coll_received(Kind, s->size, count), 0);
    if (Kind == WB_COLL_BCAST && s->rank == 0) s->recv.assign(s->send.begin(), s->send.end());
    s->kept = Adapter::make_coll_kept(count, s->size);
    return s;
  });
}

template <class Adapter>
coll_state<Adapter>& coll_of(void* opaque) {
  return *static_cast<coll_state<Adapter>*>(opaque);
}

/// One call (an exception cannot cross the C harness: see guarded()).
template <class Adapter, void (*Call)(coll_state<Adapter>&)>
void coll_guarded(void* opaque) noexcept {
  guarded<Adapter>([opaque] { Call(coll_of<Adapter>(opaque)); });
}

/// coll_variant.h's verify: the size of what the last call left, then its values.
template <class Adapter>
int coll_verify(void* opaque) {
  const auto& s = coll_of<Adapter>(opaque);
  if (s.recv.size() != wb_coll_received(s.kind, s.size, s.count)) return 1;
  return wb_coll_check(s.kind, s.rank, s.size, s.count, s.recv.data());
}

/// The table entries of the adapter's wrapper: of<kind, call>(op, form, baseline), checked by
/// coll_verify unless a Verify of the wrapper's own is given (one that reads the result where
/// its variants leave it).
template <class Adapter>
struct coll_variants {
  template <wb_coll_kind Kind, void (*Call)(coll_state<Adapter>&),
            int (*Verify)(void*) = coll_verify<Adapter>>
  static constexpr wb_coll_variant of(const char* op, const char* form, const char* baseline) {
    return wb_coll_variant{Adapter::api,
                           op,
                           form,
                           baseline,
                           Kind,
                           coll_setup<Adapter, Kind>,
                           coll_guarded<Adapter, Call>,
                           Verify,
                           teardown<coll_state<Adapter>>};
  }
};

/// The table of a wrapper measured in the five calls of the suite that KaMPIng and MPL both have,
/// each against its C baseline: bcast (vs c/bcast/builtin), allreduce with plus (c/allreduce/sum)
/// and with a lambda (c/allreduce/user_fn where the wrapper declares it commutative, else
/// user_fn_noncommute), allgatherv and alltoallv with the counts exchanged
/// (c/allgatherv/counts_exchanged, c/alltoallv/counts_exchanged). Calls holds the wrapper's calls
/// and what differs between the wrappers:
///
///   struct calls {
///     static constexpr const char* bcast_form = "vector";  // the variant's name: bcast/vector
///     static constexpr bool commutative_lambda = true;
///     static void bcast(coll_state<adapter>&);  // and allreduce_plus, allreduce_lambda,
///   };                                          // allgatherv, alltoallv
template <class Adapter, class Calls>
std::size_t publish_peer_calls(const wb_coll_variant** table) {
  using entry = coll_variants<Adapter>;
  static const wb_coll_variant variants[] = {
      entry::template of<WB_COLL_BCAST, Calls::bcast>("bcast", Calls::bcast_form,
                                                      "c/bcast/builtin"),
      entry::template of<WB_COLL_ALLREDUCE, Calls::allreduce_plus>("allreduce", "plus",
                                                                   "c/allreduce/sum"),
      entry::template of<WB_COLL_ALLREDUCE, Calls::allreduce_lambda>(
          "allreduce", "lambda",
          Calls::commutative_lambda ? "c/allreduce/user_fn" : "c/allreduce/user_fn_noncommute"),
      entry::template of<WB_COLL_ALLGATHER, Calls::allgatherv>("allgatherv", "counts_exchanged",
                                                               "c/allgatherv/counts_exchanged"),
      entry::template of<WB_COLL_ALLTOALL, Calls::alltoallv>("alltoallv", "counts_exchanged",
                                                             "c/alltoallv/counts_exchanged"),
  };
  return publish(table, variants);
}

}  // namespace wb_cxx

#endif  // WB_CXX_COLL_VARIANT_HPP
