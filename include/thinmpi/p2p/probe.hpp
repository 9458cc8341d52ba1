#pragma once
/// \file
/// comm_view::probe and comm_view::iprobe: look at a message without receiving it.

#include <optional>

#include "thinmpi/communicator.hpp"
#include "thinmpi/detail/p2p_errors.hpp"

namespace thinmpi {

inline status comm_view::probe(int source, int tag) const {
  MPI_Status raw{};
  if (const int rc = MPI_Probe(source, tag, comm_, &raw); rc != MPI_SUCCESS) [[unlikely]] {
    detail::raise_receive(rc, {"MPI_Probe", comm_, source, tag}, detail::no_buffer(MPI_BYTE), raw);
  }
  return status(raw, MPI_BYTE);
}

inline std::optional<status> comm_view::iprobe(int source, int tag) const {
  MPI_Status raw{};
  int flag = 0;
  if (const int rc = MPI_Iprobe(source, tag, comm_, &flag, &raw); rc != MPI_SUCCESS) [[unlikely]] {
    detail::raise_receive(rc, {"MPI_Iprobe", comm_, source, tag}, detail::no_buffer(MPI_BYTE), raw);
  }
  if (flag == 0) return std::nullopt;
  return status(raw, MPI_BYTE);
}

}  // namespace thinmpi
