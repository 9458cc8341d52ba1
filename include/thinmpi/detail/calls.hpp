#pragma once
/// \file
/// The MPI calls thinmpi makes, taking std::size_t counts. Counts up to INT_MAX go straight to
/// the classic call; larger ones use the MPI-4 `_c` call where the library has it (MPICH 4.0),
/// otherwise one element of a contiguous datatype that spans them all (OpenMPI 4.1).

#include <cstddef>

#include "thinmpi/detail/mpi.hpp"
#include "thinmpi/detail/narrow.hpp"
#include "thinmpi/error.hpp"

namespace thinmpi::detail {

/// `count` elements of `type` as a single element of a derived datatype, for MPI-3 calls.
class large_count_type {
 public:
  large_count_type(std::size_t count, MPI_Datatype type) {
    constexpr std::size_t chunk = std::size_t{1} << 30;
    MPI_Datatype chunk_type = MPI_DATATYPE_NULL;
    MPI_Datatype chunks = MPI_DATATYPE_NULL;
    check(MPI_Type_contiguous(to_int(chunk), type, &chunk_type), "MPI_Type_contiguous");
    const int rc = MPI_Type_contiguous(to_int(count / chunk), chunk_type, &chunks);
    MPI_Type_free(&chunk_type);
    check(rc, "MPI_Type_contiguous");
    const std::size_t rest = count % chunk;
    if (rest == 0) {
      type_ = chunks;
    } else {
      type_ = append_rest(chunks, rest, type, count - rest);
    }
    check(MPI_Type_commit(&type_), "MPI_Type_commit");
  }
  large_count_type(const large_count_type&) = delete;
  large_count_type& operator=(const large_count_type&) = delete;
  ~large_count_type() { MPI_Type_free(&type_); }

  [[nodiscard]] MPI_Datatype get() const noexcept { return type_; }

 private:
  static MPI_Datatype append_rest(MPI_Datatype chunks, std::size_t rest, MPI_Datatype type,
                                  std::size_t rest_offset) {
    MPI_Aint lower_bound = 0;
    MPI_Aint extent = 0;
    MPI_Datatype tail = MPI_DATATYPE_NULL;
    MPI_Datatype whole = MPI_DATATYPE_NULL;
    int rc = MPI_Type_get_extent(type, &lower_bound, &extent);
    if (rc == MPI_SUCCESS) rc = MPI_Type_contiguous(to_int(rest), type, &tail);
    if (rc == MPI_SUCCESS) {
      const int lengths[2] = {1, 1};
      const MPI_Aint offsets[2] = {0, static_cast<MPI_Aint>(rest_offset) * extent};
      const MPI_Datatype types[2] = {chunks, tail};
      rc = MPI_Type_create_struct(2, lengths, offsets, types, &whole);
      MPI_Type_free(&tail);
    }
    MPI_Type_free(&chunks);
    check(rc, "MPI_Type_create_struct");
    return whole;
  }

  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

/// The large-count side of each call below: the MPI-4 `_c` call, or one element of a
/// large_count_type. Out of line and cold: only messages past INT_MAX elements come here.
namespace large {

[[gnu::noinline, gnu::cold]] inline int send(const void* buf, std::size_t n, MPI_Datatype t,
                                             int dest, int tag, MPI_Comm comm) {
#if THINMPI_HAS_LARGE_COUNT_CALLS
  return MPI_Send_c(buf, static_cast<MPI_Count>(n), t, dest, tag, comm);
#else
  const large_count_type whole(n, t);
  return MPI_Send(buf, 1, whole.get(), dest, tag, comm);
#endif
}

[[gnu::noinline, gnu::cold]] inline int ssend(const void* buf, std::size_t n, MPI_Datatype t,
                                              int dest, int tag, MPI_Comm comm) {
#if THINMPI_HAS_LARGE_COUNT_CALLS
  return MPI_Ssend_c(buf, static_cast<MPI_Count>(n), t, dest, tag, comm);
#else
  const large_count_type whole(n, t);
  return MPI_Ssend(buf, 1, whole.get(), dest, tag, comm);
#endif
}

[[gnu::noinline, gnu::cold]] inline int recv(void* buf, std::size_t n, MPI_Datatype t, int source,
                                             int tag, MPI_Comm comm, MPI_Status* status) {
#if THINMPI_HAS_LARGE_COUNT_CALLS
  return MPI_Recv_c(buf, static_cast<MPI_Count>(n), t, source, tag, comm, status);
#else
  const large_count_type whole(n, t);
  return MPI_Recv(buf, 1, whole.get(), source, tag, comm, status);
#endif
}

[[gnu::noinline, gnu::cold]] inline int mrecv(void* buf, std::size_t n, MPI_Datatype t,
                                              MPI_Message* message, MPI_Status* status) {
#if THINMPI_HAS_LARGE_COUNT_CALLS
  return MPI_Mrecv_c(buf, static_cast<MPI_Count>(n), t, message, status);
#else
  const large_count_type whole(n, t);
  return MPI_Mrecv(buf, 1, whole.get(), message, status);
#endif
}

[[gnu::noinline, gnu::cold]] inline int isend(const void* buf, std::size_t n, MPI_Datatype t,
                                              int dest, int tag, MPI_Comm comm,
                                              MPI_Request* request) {
#if THINMPI_HAS_LARGE_COUNT_CALLS
  return MPI_Isend_c(buf, static_cast<MPI_Count>(n), t, dest, tag, comm, request);
#else
  const large_count_type whole(n, t);
  return MPI_Isend(buf, 1, whole.get(), dest, tag, comm, request);
#endif
}

[[gnu::noinline, gnu::cold]] inline int issend(const void* buf, std::size_t n, MPI_Datatype t,
                                               int dest, int tag, MPI_Comm comm,
                                               MPI_Request* request) {
#if THINMPI_HAS_LARGE_COUNT_CALLS
  return MPI_Issend_c(buf, static_cast<MPI_Count>(n), t, dest, tag, comm, request);
#else
  const large_count_type whole(n, t);
  return MPI_Issend(buf, 1, whole.get(), dest, tag, comm, request);
#endif
}

[[gnu::noinline, gnu::cold]] inline int irecv(void* buf, std::size_t n, MPI_Datatype t, int source,
                                              int tag, MPI_Comm comm, MPI_Request* request) {
#if THINMPI_HAS_LARGE_COUNT_CALLS
  return MPI_Irecv_c(buf, static_cast<MPI_Count>(n), t, source, tag, comm, request);
#else
  const large_count_type whole(n, t);
  return MPI_Irecv(buf, 1, whole.get(), source, tag, comm, request);
#endif
}

[[gnu::noinline, gnu::cold]] inline int imrecv(void* buf, std::size_t n, MPI_Datatype t,
                                               MPI_Message* message, MPI_Request* request) {
#if THINMPI_HAS_LARGE_COUNT_CALLS
  return MPI_Imrecv_c(buf, static_cast<MPI_Count>(n), t, message, request);
#else
  const large_count_type whole(n, t);
  return MPI_Imrecv(buf, 1, whole.get(), message, request);
#endif
}

[[gnu::noinline, gnu::cold]] inline int sendrecv_replace(void* buf, std::size_t n, MPI_Datatype t,
                                                         int dest, int send_tag, int source,
                                                         int recv_tag, MPI_Comm comm,
                                                         MPI_Status* status) {
#if THINMPI_HAS_LARGE_COUNT_CALLS
  return MPI_Sendrecv_replace_c(buf, static_cast<MPI_Count>(n), t, dest, send_tag, source, recv_tag,
                                comm, status);
#else
  const large_count_type whole(n, t);
  return MPI_Sendrecv_replace(buf, 1, whole.get(), dest, send_tag, source, recv_tag, comm, status);
#endif
}

[[gnu::noinline, gnu::cold]] inline int sendrecv(const void* send_buf, std::size_t send_n,
                                                 MPI_Datatype send_t, int dest, int send_tag,
                                                 void* recv_buf, std::size_t recv_n,
                                                 MPI_Datatype recv_t, int source, int recv_tag,
                                                 MPI_Comm comm, MPI_Status* status) {
#if THINMPI_HAS_LARGE_COUNT_CALLS
  return MPI_Sendrecv_c(send_buf, static_cast<MPI_Count>(send_n), send_t, dest, send_tag, recv_buf,
                        static_cast<MPI_Count>(recv_n), recv_t, source, recv_tag, comm, status);
#else
  const large_count_type sent(send_n, send_t);
  const large_count_type received(recv_n, recv_t);
  return MPI_Sendrecv(send_buf, 1, sent.get(), dest, send_tag, recv_buf, 1, received.get(), source,
                      recv_tag, comm, status);
#endif
}

}  // namespace large

// Each call is the classic MPI call when the count fits an int: one comparison, then the call.

inline int send(const void* buf, std::size_t n, MPI_Datatype t, int dest, int tag, MPI_Comm comm) {
  if (fits_int(n)) [[likely]]
    return MPI_Send(buf, to_int(n), t, dest, tag, comm);
  return large::send(buf, n, t, dest, tag, comm);
}

inline int ssend(const void* buf, std::size_t n, MPI_Datatype t, int dest, int tag, MPI_Comm comm) {
  if (fits_int(n)) [[likely]]
    return MPI_Ssend(buf, to_int(n), t, dest, tag, comm);
  return large::ssend(buf, n, t, dest, tag, comm);
}

inline int recv(void* buf, std::size_t n, MPI_Datatype t, int source, int tag, MPI_Comm comm,
                MPI_Status* status) {
  if (fits_int(n)) [[likely]]
    return MPI_Recv(buf, to_int(n), t, source, tag, comm, status);
  return large::recv(buf, n, t, source, tag, comm, status);
}

inline int mrecv(void* buf, std::size_t n, MPI_Datatype t, MPI_Message* message,
                 MPI_Status* status) {
  if (fits_int(n)) [[likely]]
    return MPI_Mrecv(buf, to_int(n), t, message, status);
  return large::mrecv(buf, n, t, message, status);
}

inline int isend(const void* buf, std::size_t n, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
                 MPI_Request* request) {
  if (fits_int(n)) [[likely]]
    return MPI_Isend(buf, to_int(n), t, dest, tag, comm, request);
  return large::isend(buf, n, t, dest, tag, comm, request);
}

inline int issend(const void* buf, std::size_t n, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
                  MPI_Request* request) {
  if (fits_int(n)) [[likely]]
    return MPI_Issend(buf, to_int(n), t, dest, tag, comm, request);
  return large::issend(buf, n, t, dest, tag, comm, request);
}

inline int irecv(void* buf, std::size_t n, MPI_Datatype t, int source, int tag, MPI_Comm comm,
                 MPI_Request* request) {
  if (fits_int(n)) [[likely]]
    return MPI_Irecv(buf, to_int(n), t, source, tag, comm, request);
  return large::irecv(buf, n, t, source, tag, comm, request);
}

inline int imrecv(void* buf, std::size_t n, MPI_Datatype t, MPI_Message* message,
                  MPI_Request* request) {
  if (fits_int(n)) [[likely]]
    return MPI_Imrecv(buf, to_int(n), t, message, request);
  return large::imrecv(buf, n, t, message, request);
}

inline int sendrecv_replace(void* buf, std::size_t n, MPI_Datatype t, int dest, int send_tag,
                            int source, int recv_tag, MPI_Comm comm, MPI_Status* status) {
  if (fits_int(n)) [[likely]]
    return MPI_Sendrecv_replace(buf, to_int(n), t, dest, send_tag, source, recv_tag, comm, status);
  return large::sendrecv_replace(buf, n, t, dest, send_tag, source, recv_tag, comm, status);
}

inline int sendrecv(const void* send_buf, std::size_t send_n, MPI_Datatype send_t, int dest,
                    int send_tag, void* recv_buf, std::size_t recv_n, MPI_Datatype recv_t,
                    int source, int recv_tag, MPI_Comm comm, MPI_Status* status) {
  if (fits_int(send_n) && fits_int(recv_n)) [[likely]] {
    return MPI_Sendrecv(send_buf, to_int(send_n), send_t, dest, send_tag, recv_buf, to_int(recv_n),
                        recv_t, source, recv_tag, comm, status);
  }
  return large::sendrecv(send_buf, send_n, send_t, dest, send_tag, recv_buf, recv_n, recv_t, source,
                         recv_tag, comm, status);
}

}  // namespace thinmpi::detail
