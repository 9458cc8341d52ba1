#pragma once
/// \file
/// The point-to-point MPI calls thinmpi makes, taking std::size_t counts (large_count.hpp says
/// what happens past INT_MAX). Each is the classic call after one comparison.

#include <cstddef>

#include "thinmpi/core/detail/large_count.hpp"
#include "thinmpi/core/detail/mpi.hpp"

namespace thinmpi::detail {

inline int send(const void* buf, std::size_t n, MPI_Datatype t, int dest, int tag, MPI_Comm comm) {
  return counted_call<&MPI_Send, THINMPI_LARGE_COUNT_CALL(MPI_Send)>(counts_at<1>{}, buf, n, t,
                                                                     dest, tag, comm);
}

inline int ssend(const void* buf, std::size_t n, MPI_Datatype t, int dest, int tag, MPI_Comm comm) {
  return counted_call<&MPI_Ssend, THINMPI_LARGE_COUNT_CALL(MPI_Ssend)>(counts_at<1>{}, buf, n, t,
                                                                       dest, tag, comm);
}

inline int recv(void* buf, std::size_t n, MPI_Datatype t, int source, int tag, MPI_Comm comm,
                MPI_Status* status) {
  return counted_call<&MPI_Recv, THINMPI_LARGE_COUNT_CALL(MPI_Recv)>(counts_at<1>{}, buf, n, t,
                                                                     source, tag, comm, status);
}

inline int mrecv(void* buf, std::size_t n, MPI_Datatype t, MPI_Message* message,
                 MPI_Status* status) {
  return counted_call<&MPI_Mrecv, THINMPI_LARGE_COUNT_CALL(MPI_Mrecv)>(counts_at<1>{}, buf, n, t,
                                                                       message, status);
}

inline int isend(const void* buf, std::size_t n, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
                 MPI_Request* request) {
  return counted_call<&MPI_Isend, THINMPI_LARGE_COUNT_CALL(MPI_Isend)>(counts_at<1>{}, buf, n, t,
                                                                       dest, tag, comm, request);
}

inline int issend(const void* buf, std::size_t n, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
                  MPI_Request* request) {
  return counted_call<&MPI_Issend, THINMPI_LARGE_COUNT_CALL(MPI_Issend)>(counts_at<1>{}, buf, n, t,
                                                                         dest, tag, comm, request);
}

inline int irecv(void* buf, std::size_t n, MPI_Datatype t, int source, int tag, MPI_Comm comm,
                 MPI_Request* request) {
  return counted_call<&MPI_Irecv, THINMPI_LARGE_COUNT_CALL(MPI_Irecv)>(counts_at<1>{}, buf, n, t,
                                                                       source, tag, comm, request);
}

inline int imrecv(void* buf, std::size_t n, MPI_Datatype t, MPI_Message* message,
                  MPI_Request* request) {
  return counted_call<&MPI_Imrecv, THINMPI_LARGE_COUNT_CALL(MPI_Imrecv)>(counts_at<1>{}, buf, n, t,
                                                                         message, request);
}

inline int sendrecv_replace(void* buf, std::size_t n, MPI_Datatype t, int dest, int send_tag,
                            int source, int recv_tag, MPI_Comm comm, MPI_Status* status) {
  return counted_call<&MPI_Sendrecv_replace, THINMPI_LARGE_COUNT_CALL(MPI_Sendrecv_replace)>(
      counts_at<1>{}, buf, n, t, dest, send_tag, source, recv_tag, comm, status);
}

inline int sendrecv(const void* send_buf, std::size_t send_n, MPI_Datatype send_t, int dest,
                    int send_tag, void* recv_buf, std::size_t recv_n, MPI_Datatype recv_t,
                    int source, int recv_tag, MPI_Comm comm, MPI_Status* status) {
  return counted_call<&MPI_Sendrecv, THINMPI_LARGE_COUNT_CALL(MPI_Sendrecv)>(
      counts_at<1, 6>{}, send_buf, send_n, send_t, dest, send_tag, recv_buf, recv_n, recv_t, source,
      recv_tag, comm, status);
}

/// Open MPI 4.1.4 reports a probe (MPI_Probe, MPI_Iprobe, MPI_Mprobe, MPI_Improbe) on
/// MPI_COMM_NULL through the null communicator's own error handler, MPI_ERRORS_ARE_FATAL, so it
/// ends the job where its other calls (and MPICH) return MPI_ERR_COMM; thinmpi returns it
/// itself there. One comparison, on Open MPI only.
inline int probe_on_null(MPI_Comm comm) noexcept {
#if defined(OPEN_MPI)
  if (comm == MPI_COMM_NULL) [[unlikely]] {
    return MPI_ERR_COMM;
  }
#else
  static_cast<void>(comm);
#endif
  return MPI_SUCCESS;
}

inline int probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  if (const int rc = probe_on_null(comm); rc != MPI_SUCCESS) [[unlikely]] {
    return rc;
  }
  return MPI_Probe(source, tag, comm, status);
}

inline int iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  if (const int rc = probe_on_null(comm); rc != MPI_SUCCESS) [[unlikely]] {
    return rc;
  }
  return MPI_Iprobe(source, tag, comm, flag, status);
}

inline int mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status) {
  if (const int rc = probe_on_null(comm); rc != MPI_SUCCESS) [[unlikely]] {
    return rc;
  }
  return MPI_Mprobe(source, tag, comm, message, status);
}

inline int improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message,
                   MPI_Status* status) {
  if (const int rc = probe_on_null(comm); rc != MPI_SUCCESS) [[unlikely]] {
    return rc;
  }
  return MPI_Improbe(source, tag, comm, flag, message, status);
}

}  // namespace thinmpi::detail
