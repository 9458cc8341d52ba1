// The thinmpi variants of the serialization suite: the explicit serialized form, measured
// against the hand-packed C of c_serial.c (same wire format).
//
//   thinmpi/ser_vecstr    send(serialized(vector<string>)) / recv<serialized<vector<string>>>()
//   thinmpi/ser_map       the same with std::map<int, std::string>
//   thinmpi/ser_map_flat  the same entries as std::vector<std::pair<int, std::string>>: the map's
//                         wire format (so c/ser_map's floor) without std::map's node per entry
//   thinmpi/ser_record    the same with an aggregate struct {std::string; std::vector<double>;}
//   thinmpi/ser_vecstr_reuse, ser_map_reuse, ser_map_flat_reuse, ser_record_reuse
//                         recv_reuse(serialized(received)): decoded into the value received last
//                         time (its strings' buffers, its map's nodes kept), against the C
//                         floor that unpacks into its kept payload (c/ser_*_kept)
//
// Rank 0 sends first; rank 1 sends back what it received.

#include <cstddef>
#include <cstdio>
#include <exception>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cxx_variant.hpp"
#include "serial_payloads.hpp"
#include "thinmpi/thinmpi.hpp"
#include "variant.h"

namespace {

constexpr int tag = 7;

template <class T>
struct state {
  thinmpi::comm_view comm;
  int rank;
  int peer;
  T sent;
  T received;
};

template <class T, T (*Make)(std::size_t)>
void* setup(MPI_Comm comm, std::size_t count) noexcept {
  try {
    auto* s = new state<T>{thinmpi::comm_view(comm), 0, 0, Make(count), {}};
    s->rank = s->comm.rank();
    s->peer = 1 - s->rank;
    return s;
  } catch (const std::exception&) {
    return nullptr;
  }
}

/// Reuse: recv_reuse(serialized(received)) decodes into the value received last time; else
/// recv<serialized<T>>() returns a new one, assigned over it.
template <class T, bool Reuse = false>
void round_trips(void* raw, long iterations) noexcept {
  auto& s = *static_cast<state<T>*>(raw);
  try {
    for (long i = 0; i < iterations; ++i) {
      if (s.rank == 0) s.comm.send(thinmpi::serialized(s.sent), s.peer, tag);
      if constexpr (Reuse) {
        static_cast<void>(s.comm.recv_reuse(thinmpi::serialized(s.received), s.peer, tag));
      } else {
        s.received = s.comm.template recv<thinmpi::serialized<T>>(s.peer, tag);
      }
      if (s.rank == 1) s.comm.send(thinmpi::serialized(s.received), s.peer, tag);
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "thinmpi serial kernel failed: %s\n", error.what());
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
}

using vecstr = std::vector<std::string>;
using map = std::map<int, std::string>;
using map_flat = std::vector<std::pair<int, std::string>>;
using record = wb_serial::record;

const wb_variant variants[] = {
    {"thinmpi", "ser_vecstr", "c/ser_vecstr", 1, 0, setup<vecstr, wb_serial::make_vecstr>,
     round_trips<vecstr>, wb_cxx::verify<state<vecstr>>, wb_cxx::teardown<state<vecstr>>},
    {"thinmpi", "ser_map", "c/ser_map", 1, 0, setup<map, wb_serial::make_map>, round_trips<map>,
     wb_cxx::verify<state<map>>, wb_cxx::teardown<state<map>>},
    {"thinmpi", "ser_map_flat", "c/ser_map", 1, 0, setup<map_flat, wb_serial::make_map_flat>,
     round_trips<map_flat>, wb_cxx::verify<state<map_flat>>, wb_cxx::teardown<state<map_flat>>},
    {"thinmpi", "ser_record", "c/ser_record", 1, 0, setup<record, wb_serial::make_record>,
     round_trips<record>, wb_cxx::verify<state<record>>, wb_cxx::teardown<state<record>>},
    {"thinmpi", "ser_vecstr_reuse", "c/ser_vecstr_kept", 1, 0,
     setup<vecstr, wb_serial::make_vecstr>, round_trips<vecstr, true>,
     wb_cxx::verify<state<vecstr>>, wb_cxx::teardown<state<vecstr>>},
    {"thinmpi", "ser_map_reuse", "c/ser_map_kept", 1, 0, setup<map, wb_serial::make_map>,
     round_trips<map, true>, wb_cxx::verify<state<map>>, wb_cxx::teardown<state<map>>},
    {"thinmpi", "ser_map_flat_reuse", "c/ser_map_kept", 1, 0,
     setup<map_flat, wb_serial::make_map_flat>, round_trips<map_flat, true>,
     wb_cxx::verify<state<map_flat>>, wb_cxx::teardown<state<map_flat>>},
    {"thinmpi", "ser_record_reuse", "c/ser_record_kept", 1, 0,
     setup<record, wb_serial::make_record>, round_trips<record, true>,
     wb_cxx::verify<state<record>>, wb_cxx::teardown<state<record>>},
};

}  // namespace

extern "C" std::size_t wb_thinmpi_serial_variants(const wb_variant** table) {
  *table = variants;
  return sizeof variants / sizeof variants[0];
}
