#pragma once
/// \file
/// Why a neighborhood collective does not compile on a plain communicator: comm_view derives
/// from detail::no_neighborhood, whose members of those names stop the build with one sentence
/// naming the fix. The topology communicators (topology/) bring the real members, which hide
/// these (neighborhood_view lists them with using-declarations).

namespace thinmpi::detail {

template <class...>
inline constexpr bool needs_topology = false;

/// Fails to compile, with one sentence naming the fix.
template <class... Args>
consteval void require_topology() {
  static_assert(needs_topology<Args...>,
                "thinmpi: neighborhood collectives exist on communicators with a process "
                "topology only: build a thinmpi::cartesian_communicator or a "
                "thinmpi::graph_communicator from this communicator (thinmpi/topology/) and call "
                "it there");
}

/// The neighborhood collectives' names on a communicator without a topology.
class no_neighborhood {
 public:
  template <class... Args>
  void neighbor_allgather(Args&&...) const {
    require_topology<Args...>();
  }
  template <class... Args>
  void neighbor_allgatherv(Args&&...) const {
    require_topology<Args...>();
  }
  template <class... Args>
  void neighbor_alltoall(Args&&...) const {
    require_topology<Args...>();
  }
  template <class... Args>
  void neighbor_alltoallv(Args&&...) const {
    require_topology<Args...>();
  }
  template <class... Args>
  void neighbor_alltoallw(Args&&...) const {
    require_topology<Args...>();
  }
  template <class... Args>
  void ineighbor_allgather(Args&&...) const {
    require_topology<Args...>();
  }
  template <class... Args>
  void ineighbor_allgatherv(Args&&...) const {
    require_topology<Args...>();
  }
  template <class... Args>
  void ineighbor_alltoall(Args&&...) const {
    require_topology<Args...>();
  }
  template <class... Args>
  void ineighbor_alltoallv(Args&&...) const {
    require_topology<Args...>();
  }
  template <class... Args>
  void ineighbor_alltoallw(Args&&...) const {
    require_topology<Args...>();
  }
  template <class... Args>
  void neighbor_allgather_init(Args&&...) const {
    require_topology<Args...>();
  }
  template <class... Args>
  void neighbor_allgatherv_init(Args&&...) const {
    require_topology<Args...>();
  }
  template <class... Args>
  void neighbor_alltoall_init(Args&&...) const {
    require_topology<Args...>();
  }
  template <class... Args>
  void neighbor_alltoallv_init(Args&&...) const {
    require_topology<Args...>();
  }
  template <class... Args>
  void neighbor_alltoallw_init(Args&&...) const {
    require_topology<Args...>();
  }
};

}  // namespace thinmpi::detail
