// mpl/int: communicator::send(value, dest, tag) / recv(value, source, tag), one int
// (MPL's blocking.cc).
#include "mpl_adapter.hpp"
#include "mpl_variants.hpp"

namespace {
int first_int(std::size_t) {
  return wb_cxx::int_at(0);
}
}  // namespace

const wb_variant wb_mpl_int =
    wb_mpl::make_variant<wb_mpl::whole<int, first_int, sizeof(int)>>("int", "c/int_buffer", 1);
