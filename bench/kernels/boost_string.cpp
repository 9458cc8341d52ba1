// boost/string: communicator::send(dest, tag, std::string) / recv(src, tag, std::string&).
#include <boost/serialization/string.hpp>
#include <string>

#include "boost_kernel.hpp"
#include "boost_variants.hpp"

namespace {
struct string_policy {
  using payload = std::string;
  static constexpr std::size_t element_bytes = 1;
  static payload make(std::size_t count) {
    payload text(count, ' ');
    for (std::size_t i = 0; i < count; ++i)
      text[i] = static_cast<char>('a' + i % 26);
    return text;
  }
  static void send(const boost::mpi::communicator& c, int peer, const payload& text) {
    c.send(peer, wb_boost::tag, text);
  }
  static void recv(const boost::mpi::communicator& c, int peer, payload& text) {
    c.recv(peer, wb_boost::tag, text);
  }
};
}  // namespace

const wb_variant wb_boost_string =
    wb_boost::make_variant<string_policy>("string", "c/char_buffer", 0);
