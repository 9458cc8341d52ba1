// boost/vector: communicator::send(dest, tag, std::vector<int>) / recv(src, tag,
// std::vector<int>&).
#include <vector>

#include "boost_kernel.hpp"
#include "boost_variants.hpp"

const wb_variant wb_boost_vector = wb_boost::make_variant<
    wb_boost::object_policy<std::vector<int>, wb_boost::int_vector, sizeof(int)>>(
    "vector", "c/int_buffer", 0);
