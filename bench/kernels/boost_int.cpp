// boost/int: communicator::send(dest, tag, int) / recv(src, tag, int&), one int.
#include "boost_kernel.hpp"
#include "boost_variants.hpp"

namespace {
struct int_policy {
  using payload = int;
  static constexpr std::size_t element_bytes = sizeof(int);
  static payload make(std::size_t) { return wb_boost::int_at(0); }
  static void send(const boost::mpi::communicator& c, int peer, const payload& value) {
    c.send(peer, wb_boost::tag, value);
  }
  static void recv(const boost::mpi::communicator& c, int peer, payload& value) {
    c.recv(peer, wb_boost::tag, value);
  }
};
}  // namespace

const wb_variant wb_boost_int = wb_boost::make_variant<int_policy>("int", "c/int_buffer", 1);
