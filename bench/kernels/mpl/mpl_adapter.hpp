// MPL's adapter to the harnesses (cxx_variant.hpp, cxx_coll_variant.hpp): how an MPL variant
// attaches to the harness's MPI_Comm, and the payload policies its ping-pong variants share,
// written the way MPL's examples write them (blocking.cc, blocking_vector.cc, probe.cc,
// stl_container.cc).
#ifndef WB_MPL_ADAPTER_HPP
#define WB_MPL_ADAPTER_HPP

#include <cstddef>
#include <mpl/mpl.hpp>
#include <vector>

#include "cxx_coll_variant.hpp"
#include "cxx_variant.hpp"

namespace wb_mpl {

inline const mpl::tag_t message_tag{7};

/// MPL's communicator over the harness's MPI_Comm. An MPL program uses
/// mpl::environment::comm_world(), whose static object outlives the harness's MPI_Finalize;
/// MPL's constructor from an MPI_Comm is protected, so the kernels derive to reach it (MPL neither
/// dups nor frees MPI_COMM_WORLD).
struct attached_communicator : mpl::communicator {
  explicit attached_communicator(MPI_Comm comm) : mpl::communicator(comm) {}
};

struct adapter {
  static constexpr const char* api = "mpl";
  static constexpr bool reports_by_exception = false;
  using communicator = attached_communicator;
  static communicator attach(MPI_Comm comm) { return communicator(comm); }
  /// count ints: the bcast's and the allreduce's layout.
  struct coll_kept {
    mpl::contiguous_layout<int> layout{0};
  };
  static coll_kept make_coll_kept(std::size_t count, int) {
    return {mpl::contiguous_layout<int>(count)};
  }
};

using coll_state = wb_cxx::coll_state<adapter>;

/// send(value, dest, tag) / recv(value, source, tag) on the payload itself: one int (MPL's
/// blocking.cc) or an STL container (stl_container.cc: MPI_Mprobe + MPI_Get_count + resize +
/// MPI_Mrecv on the receiving side).
template <class Payload, Payload (*Make)(std::size_t), std::size_t ElementBytes>
struct whole : wb_cxx::payload_of<Payload, Make, ElementBytes> {
  static void send(const mpl::communicator& comm, int peer, const Payload& value) {
    comm.send(value, peer, message_tag);
  }
  static void recv(const mpl::communicator& comm, int peer, Payload& value) {
    comm.recv(value, peer, message_tag);
  }
};

/// send(v.data(), layout, dest, tag) / recv(v.data(), layout, source, tag) with an
/// mpl::contiguous_layout of the known size built once (MPL's blocking_vector.cc).
template <class T, std::vector<T> (*Make)(std::size_t)>
struct known_layout : wb_cxx::payload_of<std::vector<T>, Make, sizeof(T)> {
  using kept = mpl::contiguous_layout<T>;
  static kept make_kept(std::size_t count) { return kept(count); }
  static void send(const mpl::communicator& comm, int peer, const std::vector<T>& values, kept& l) {
    comm.send(values.data(), l, peer, message_tag);
  }
  static void recv(const mpl::communicator& comm, int peer, std::vector<T>& values, kept& l) {
    comm.recv(values.data(), l, peer, message_tag);
  }
};

/// The table entry of an MPL ping-pong variant.
template <class Policy>
wb_variant make_variant(const char* payload, const char* baseline, std::size_t max_count) {
  return wb_cxx::pingpong_variant<adapter, Policy>(payload, baseline, max_count);
}

}  // namespace wb_mpl

#endif  // WB_MPL_ADAPTER_HPP
