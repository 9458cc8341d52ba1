// boost/int: communicator::send(dest, tag, int) / recv(src, tag, int&), one int.
#include "boost_adapter.hpp"
#include "boost_variants.hpp"

namespace {
int first_int(std::size_t) {
  return wb_cxx::int_at(0);
}
}  // namespace

const wb_variant wb_boost_int =
    wb_boost::make_variant<wb_boost::object_policy<int, first_int, sizeof(int)>>("int",
                                                                                 "c/int_buffer", 1);
