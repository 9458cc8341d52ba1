// boost/vector: communicator::send(dest, tag, std::vector<int>) / recv(src, tag,
// std::vector<int>&).
#include <vector>

#include "boost_kernel.hpp"
#include "boost_variants.hpp"

namespace {
struct vector_policy {
  using payload = std::vector<int>;
  static constexpr std::size_t element_bytes = sizeof(int);
  static payload make(std::size_t count) { return wb_boost::int_vector(count); }
  static void send(const boost::mpi::communicator& c, int peer, const payload& values) {
    c.send(peer, wb_boost::tag, values);
  }
  static void recv(const boost::mpi::communicator& c, int peer, payload& values) {
    c.recv(peer, wb_boost::tag, values);
  }
};
}  // namespace

const wb_variant wb_boost_vector =
    wb_boost::make_variant<vector_policy>("vector", "c/int_buffer", 0);
