#pragma once
/// \file
/// The MPI calls of the one-sided operations with std::size_t counts: the classic call when
/// the counts fit an int, the MPI-4 `_c` call (MPICH 4.0) or derived datatypes (Open MPI 4.1)
/// beyond, as every other family's calls (core/detail/large_count.hpp).

#include <cstddef>

#include "thinmpi/core/detail/large_count.hpp"
#include "thinmpi/core/detail/mpi.hpp"

namespace thinmpi::detail {

[[gnu::always_inline]] inline int rma_put(const void* origin, std::size_t n, MPI_Datatype ot,
                                          int target, MPI_Aint disp, std::size_t tn,
                                          MPI_Datatype tt, MPI_Win win) {
  return counted_call<&MPI_Put, THINMPI_LARGE_COUNT_CALL(MPI_Put)>(counts_at<1, 5>{}, origin, n, ot,
                                                                   target, disp, tn, tt, win);
}

[[gnu::always_inline]] inline int rma_get(void* origin, std::size_t n, MPI_Datatype ot, int target,
                                          MPI_Aint disp, std::size_t tn, MPI_Datatype tt,
                                          MPI_Win win) {
  return counted_call<&MPI_Get, THINMPI_LARGE_COUNT_CALL(MPI_Get)>(counts_at<1, 5>{}, origin, n, ot,
                                                                   target, disp, tn, tt, win);
}

[[gnu::always_inline]] inline int rma_accumulate(const void* origin, std::size_t n, MPI_Datatype ot,
                                                 int target, MPI_Aint disp, std::size_t tn,
                                                 MPI_Datatype tt, MPI_Op op, MPI_Win win) {
  return counted_call<&MPI_Accumulate, THINMPI_LARGE_COUNT_CALL(MPI_Accumulate)>(
      counts_at<1, 5>{}, origin, n, ot, target, disp, tn, tt, op, win);
}

[[gnu::always_inline]] inline int rma_get_accumulate(const void* origin, std::size_t n,
                                                     MPI_Datatype ot, void* result, std::size_t rn,
                                                     MPI_Datatype rt, int target, MPI_Aint disp,
                                                     std::size_t tn, MPI_Datatype tt, MPI_Op op,
                                                     MPI_Win win) {
  return counted_call<&MPI_Get_accumulate, THINMPI_LARGE_COUNT_CALL(MPI_Get_accumulate)>(
      counts_at<1, 4, 8>{}, origin, n, ot, result, rn, rt, target, disp, tn, tt, op, win);
}

[[gnu::always_inline]] inline int rma_rput(const void* origin, std::size_t n, MPI_Datatype ot,
                                           int target, MPI_Aint disp, std::size_t tn,
                                           MPI_Datatype tt, MPI_Win win, MPI_Request* request) {
  return counted_call<&MPI_Rput, THINMPI_LARGE_COUNT_CALL(MPI_Rput)>(
      counts_at<1, 5>{}, origin, n, ot, target, disp, tn, tt, win, request);
}

[[gnu::always_inline]] inline int rma_rget(void* origin, std::size_t n, MPI_Datatype ot, int target,
                                           MPI_Aint disp, std::size_t tn, MPI_Datatype tt,
                                           MPI_Win win, MPI_Request* request) {
  return counted_call<&MPI_Rget, THINMPI_LARGE_COUNT_CALL(MPI_Rget)>(
      counts_at<1, 5>{}, origin, n, ot, target, disp, tn, tt, win, request);
}

[[gnu::always_inline]] inline int rma_raccumulate(const void* origin, std::size_t n,
                                                  MPI_Datatype ot, int target, MPI_Aint disp,
                                                  std::size_t tn, MPI_Datatype tt, MPI_Op op,
                                                  MPI_Win win, MPI_Request* request) {
  return counted_call<&MPI_Raccumulate, THINMPI_LARGE_COUNT_CALL(MPI_Raccumulate)>(
      counts_at<1, 5>{}, origin, n, ot, target, disp, tn, tt, op, win, request);
}

[[gnu::always_inline]] inline int rma_rget_accumulate(const void* origin, std::size_t n,
                                                      MPI_Datatype ot, void* result, std::size_t rn,
                                                      MPI_Datatype rt, int target, MPI_Aint disp,
                                                      std::size_t tn, MPI_Datatype tt, MPI_Op op,
                                                      MPI_Win win, MPI_Request* request) {
  return counted_call<&MPI_Rget_accumulate, THINMPI_LARGE_COUNT_CALL(MPI_Rget_accumulate)>(
      counts_at<1, 4, 8>{}, origin, n, ot, result, rn, rt, target, disp, tn, tt, op, win, request);
}

}  // namespace thinmpi::detail
