// boost/raw: communicator::send(dest, tag, values.data(), n) into a buffer of known size.
#include <vector>

#include "boost_adapter.hpp"
#include "boost_variants.hpp"

namespace {
struct raw_policy {
  using payload = std::vector<int>;
  static constexpr std::size_t element_bytes = sizeof(int);
  static payload make(std::size_t count) { return wb_cxx::int_vector(count); }
  static void send(const boost::mpi::communicator& c, int peer, const payload& values) {
    c.send(peer, wb_boost::tag, values.data(), static_cast<int>(values.size()));
  }
  static void recv(const boost::mpi::communicator& c, int peer, payload& values) {
    c.recv(peer, wb_boost::tag, values.data(), static_cast<int>(values.size()));
  }
};
}  // namespace

const wb_variant wb_boost_raw = wb_boost::make_variant<raw_policy>("raw", "c/int_buffer", 0);
