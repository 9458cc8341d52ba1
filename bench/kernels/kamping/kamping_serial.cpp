// The KaMPIng variants of the serialization suite, with cereal (KaMPIng's serialization), as
// KaMPIng's serialization_example.cpp writes them:
//   send(send_buf(as_serialized(x)), destination, tag)
//   x = recv(recv_buf(as_deserializable<T>()), source, tag)
// cereal's binary archive per message; the receive probes for the archive's size (MPI_Probe +
// MPI_Get_count + MPI_Recv of bytes).
//
//   kamping/ser_vecstr, kamping/ser_map, kamping/ser_record  vs c/ser_vecstr, c/ser_map,
//   c/ser_record
//
// Compiled only where cereal's headers are found (bench/cmake/WbPeers.cmake, WB_KAMPING_SERIAL).
#include <cereal/types/map.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>
#include <kamping/p2p/recv.hpp>
#include <kamping/p2p/send.hpp>
#include <kamping/serialization.hpp>
#include <map>
#include <string>
#include <vector>

#include "kamping_adapter.hpp"
#include "kamping_variants.hpp"
#include "serial_payloads.hpp"

namespace wb_serial {
/// cereal needs user code for a struct: its fields, in order (found by argument-dependent lookup).
template <class Archive>
void serialize(Archive& archive, record& r) {
  archive(r.name, r.values);
}
}  // namespace wb_serial

namespace {

/// One serialized object per message; `Make` builds the payload of a count.
template <class Object, Object (*Make)(std::size_t)>
struct object_policy {
  using payload = Object;
  static constexpr std::size_t element_bytes = 1;
  static payload make(std::size_t count) { return Make(count); }
  // A non-const lvalue, as KaMPIng's example passes it: for a const one clang 14 finds its two
  // as_serialized overloads (T const& and T&&) ambiguous.
  static void send(const kamping::Communicator<>& comm, int peer, payload& object) {
    comm.send(kamping::send_buf(kamping::as_serialized(object)), kamping::destination(peer),
              kamping::tag(wb_kamping::message_tag));
  }
  static void recv(const kamping::Communicator<>& comm, int peer, payload& object) {
    object = comm.recv(kamping::recv_buf(kamping::as_deserializable<payload>()),
                       kamping::source(peer), kamping::tag(wb_kamping::message_tag));
  }
};

using vecstr = std::vector<std::string>;
using map = std::map<int, std::string>;
using record = wb_serial::record;

}  // namespace

const wb_variant wb_kamping_ser_vecstr =
    wb_kamping::make_variant<object_policy<vecstr, wb_serial::make_vecstr>>("ser_vecstr",
                                                                            "c/ser_vecstr", 0);
const wb_variant wb_kamping_ser_map =
    wb_kamping::make_variant<object_policy<map, wb_serial::make_map>>("ser_map", "c/ser_map", 0);
const wb_variant wb_kamping_ser_record =
    wb_kamping::make_variant<object_policy<record, wb_serial::make_record>>("ser_record",
                                                                            "c/ser_record", 0);
