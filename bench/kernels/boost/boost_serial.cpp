// The Boost.MPI variants of the serialization suite: the natural communicator::send(dest, tag,
// value) / recv(src, tag, value) of the same objects (a packed archive per message). Boost's
// recv decodes into the caller's object (a vector's strings keep their storage), so its floor
// is the C that unpacks into its kept payload.
//
//   boost/ser_vecstr, boost/ser_map, boost/ser_record
//                       vs c/ser_vecstr_kept, c/ser_map_kept, c/ser_record_kept

#include <boost/serialization/map.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "boost_adapter.hpp"
#include "serial_payloads.hpp"

namespace boost::serialization {
/// Boost needs user code for a struct: its fields, in order.
template <class Archive>
void serialize(Archive& archive, wb_serial::record& r, unsigned int /*version*/) {
  archive& r.name;
  archive& r.values;
}
}  // namespace boost::serialization

namespace {

using vecstr = std::vector<std::string>;
using map = std::map<int, std::string>;
using record = wb_serial::record;

const wb_variant variants[] = {
    wb_boost::make_variant<wb_boost::object_policy<vecstr, wb_serial::make_vecstr, 1>>(
        "ser_vecstr", "c/ser_vecstr_kept", 0),
    wb_boost::make_variant<wb_boost::object_policy<map, wb_serial::make_map, 1>>(
        "ser_map", "c/ser_map_kept", 0),
    wb_boost::make_variant<wb_boost::object_policy<record, wb_serial::make_record, 1>>(
        "ser_record", "c/ser_record_kept", 0),
};

}  // namespace

extern "C" std::size_t wb_boost_serial_variants(const wb_variant** table) {
  return wb_cxx::publish(table, variants);
}
