#ifndef WB_CXX_VARIANT_HPP
#define WB_CXX_VARIANT_HPP
// What a C++ wrapper's ping-pong variant (variant.h's wb_variant) has in common whatever the
// wrapper: the check of the last payload received, the teardown and the table entry. Each
// wrapper's kernel header (boost_kernel.hpp, kamping_kernel.hpp, mpl_kernel.hpp) brings its own
// state (with members `sent` and `received`), setup and round trips.

#include <cstddef>

#include "variant.h"

namespace wb_cxx {

/// variant.h's verify: 0 when the last payload received is the pattern.
template <class State>
int verify(void* opaque) noexcept {
  const auto& s = *static_cast<const State*>(opaque);
  return s.received == s.sent ? 0 : 1;
}

/// variant.h's teardown.
template <class State>
void teardown(void* opaque) noexcept {
  delete static_cast<State*>(opaque);
}

/// The table entry of a variant of `api` whose state is State.
template <class State>
wb_variant make_variant(const char* api, const char* payload, const char* baseline,
                        std::size_t element_bytes, std::size_t max_count,
                        void* (*setup)(MPI_Comm, std::size_t), void (*round_trips)(void*, long)) {
  return wb_variant{api,   payload,     baseline,      element_bytes,  max_count,
                    setup, round_trips, verify<State>, teardown<State>};
}

}  // namespace wb_cxx

#endif  // WB_CXX_VARIANT_HPP
