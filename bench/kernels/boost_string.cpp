// boost/string: communicator::send(dest, tag, std::string) / recv(src, tag, std::string&).
#include <boost/serialization/string.hpp>
#include <string>

#include "boost_kernel.hpp"
#include "boost_variants.hpp"

namespace {
std::string letters(std::size_t count) {
  std::string text(count, ' ');
  for (std::size_t i = 0; i < count; ++i)
    text[i] = static_cast<char>('a' + i % 26);
  return text;
}
}  // namespace

const wb_variant wb_boost_string =
    wb_boost::make_variant<wb_boost::object_policy<std::string, letters, 1>>("string",
                                                                             "c/char_buffer", 0);
