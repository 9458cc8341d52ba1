#pragma once
/// \file
/// probe and iprobe: look at a message without receiving it.

#include <optional>

#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/status.hpp"
#include "thinmpi/p2p/detail/calls.hpp"
#include "thinmpi/p2p/detail/errors.hpp"

namespace thinmpi {

/// The probes of a communicator (comm_view derives from this family).
template <class Comm>
class p2p_probe {
 public:
  /// Waits for a matching message without receiving it; counts are in bytes, or count<T>().
  [[nodiscard]] status probe(int source, int tag) const {
    MPI_Status raw{};
    if (const int rc = detail::probe(source, tag, comm(), &raw); rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_receive(rc, {"MPI_Probe", comm(), source, tag}, detail::no_buffer(MPI_BYTE),
                            raw);
    }
    return status(raw, MPI_BYTE);
  }
  /// The status of a matching message if one is there now.
  [[nodiscard]] std::optional<status> iprobe(int source, int tag) const {
    MPI_Status raw{};
    int flag = 0;
    if (const int rc = detail::iprobe(source, tag, comm(), &flag, &raw); rc != MPI_SUCCESS)
        [[unlikely]] {
      detail::raise_receive(rc, {"MPI_Iprobe", comm(), source, tag}, detail::no_buffer(MPI_BYTE),
                            raw);
    }
    if (flag == 0) return std::nullopt;
    return status(raw, MPI_BYTE);
  }

 private:
  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }
};

}  // namespace thinmpi
