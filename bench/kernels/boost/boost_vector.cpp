// boost/vector: communicator::send(dest, tag, std::vector<int>) / recv(src, tag,
// std::vector<int>&).
#include <vector>

#include "boost_adapter.hpp"
#include "boost_variants.hpp"

const wb_variant wb_boost_vector = wb_boost::make_variant<
    wb_boost::object_policy<std::vector<int>, wb_cxx::int_vector, sizeof(int)>>("vector",
                                                                                "c/int_buffer", 0);
