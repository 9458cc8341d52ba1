// boost/string: communicator::send(dest, tag, std::string) / recv(src, tag, std::string&).
#include <boost/serialization/string.hpp>
#include <string>

#include "boost_adapter.hpp"
#include "boost_variants.hpp"

const wb_variant wb_boost_string =
    wb_boost::make_variant<wb_boost::object_policy<std::string, wb_cxx::letters, 1>>(
        "string", "c/char_buffer", 0);
