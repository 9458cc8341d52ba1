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

/// Calls call(int count, MPI_Datatype type) with the classic count, or, past INT_MAX, with one
/// element of a large_count_type.
template <class Call>
int with_count(std::size_t count, MPI_Datatype type, Call call) {
  if (fits_int(count)) [[likely]] {
    return call(to_int(count), type);
  }
  const large_count_type whole(count, type);
  return call(1, whole.get());
}

#if THINMPI_HAS_LARGE_COUNT_CALLS
#define THINMPI_DETAIL_LARGE(count, large_call) \
  if (!fits_int(count)) return large_call
#else
#define THINMPI_DETAIL_LARGE(count, large_call) static_cast<void>(0)
#endif

// Each call below is the classic MPI call when count fits an int (the only branch a small
// message takes), the MPI-4 `_c` call past INT_MAX where it exists, the fallback elsewhere.

inline int send(const void* buf, std::size_t n, MPI_Datatype t, int dest, int tag, MPI_Comm comm) {
  THINMPI_DETAIL_LARGE(n, MPI_Send_c(buf, static_cast<MPI_Count>(n), t, dest, tag, comm));
  return with_count(n, t,
                    [&](int c, MPI_Datatype d) { return MPI_Send(buf, c, d, dest, tag, comm); });
}

inline int ssend(const void* buf, std::size_t n, MPI_Datatype t, int dest, int tag, MPI_Comm comm) {
  THINMPI_DETAIL_LARGE(n, MPI_Ssend_c(buf, static_cast<MPI_Count>(n), t, dest, tag, comm));
  return with_count(n, t,
                    [&](int c, MPI_Datatype d) { return MPI_Ssend(buf, c, d, dest, tag, comm); });
}

inline int recv(void* buf, std::size_t n, MPI_Datatype t, int source, int tag, MPI_Comm comm,
                MPI_Status* status) {
  THINMPI_DETAIL_LARGE(n, MPI_Recv_c(buf, static_cast<MPI_Count>(n), t, source, tag, comm, status));
  return with_count(
      n, t, [&](int c, MPI_Datatype d) { return MPI_Recv(buf, c, d, source, tag, comm, status); });
}

inline int mrecv(void* buf, std::size_t n, MPI_Datatype t, MPI_Message* message,
                 MPI_Status* status) {
  THINMPI_DETAIL_LARGE(n, MPI_Mrecv_c(buf, static_cast<MPI_Count>(n), t, message, status));
  return with_count(n, t,
                    [&](int c, MPI_Datatype d) { return MPI_Mrecv(buf, c, d, message, status); });
}

inline int isend(const void* buf, std::size_t n, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
                 MPI_Request* request) {
  THINMPI_DETAIL_LARGE(n, MPI_Isend_c(buf, static_cast<MPI_Count>(n), t, dest, tag, comm, request));
  return with_count(
      n, t, [&](int c, MPI_Datatype d) { return MPI_Isend(buf, c, d, dest, tag, comm, request); });
}

inline int issend(const void* buf, std::size_t n, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
                  MPI_Request* request) {
  THINMPI_DETAIL_LARGE(n,
                       MPI_Issend_c(buf, static_cast<MPI_Count>(n), t, dest, tag, comm, request));
  return with_count(
      n, t, [&](int c, MPI_Datatype d) { return MPI_Issend(buf, c, d, dest, tag, comm, request); });
}

inline int irecv(void* buf, std::size_t n, MPI_Datatype t, int source, int tag, MPI_Comm comm,
                 MPI_Request* request) {
  THINMPI_DETAIL_LARGE(n,
                       MPI_Irecv_c(buf, static_cast<MPI_Count>(n), t, source, tag, comm, request));
  return with_count(n, t, [&](int c, MPI_Datatype d) {
    return MPI_Irecv(buf, c, d, source, tag, comm, request);
  });
}

inline int imrecv(void* buf, std::size_t n, MPI_Datatype t, MPI_Message* message,
                  MPI_Request* request) {
  THINMPI_DETAIL_LARGE(n, MPI_Imrecv_c(buf, static_cast<MPI_Count>(n), t, message, request));
  return with_count(n, t,
                    [&](int c, MPI_Datatype d) { return MPI_Imrecv(buf, c, d, message, request); });
}

inline int sendrecv(const void* send_buf, std::size_t send_n, MPI_Datatype send_t, int dest,
                    int send_tag, void* recv_buf, std::size_t recv_n, MPI_Datatype recv_t,
                    int source, int recv_tag, MPI_Comm comm, MPI_Status* status) {
#if THINMPI_HAS_LARGE_COUNT_CALLS
  if (!fits_int(send_n) || !fits_int(recv_n)) {
    return MPI_Sendrecv_c(send_buf, static_cast<MPI_Count>(send_n), send_t, dest, send_tag,
                          recv_buf, static_cast<MPI_Count>(recv_n), recv_t, source, recv_tag, comm,
                          status);
  }
#endif
  return with_count(send_n, send_t, [&](int sc, MPI_Datatype sd) {
    return with_count(recv_n, recv_t, [&](int rc, MPI_Datatype rd) {
      return MPI_Sendrecv(send_buf, sc, sd, dest, send_tag, recv_buf, rc, rd, source, recv_tag,
                          comm, status);
    });
  });
}

inline int sendrecv_replace(void* buf, std::size_t n, MPI_Datatype t, int dest, int send_tag,
                            int source, int recv_tag, MPI_Comm comm, MPI_Status* status) {
  THINMPI_DETAIL_LARGE(n, MPI_Sendrecv_replace_c(buf, static_cast<MPI_Count>(n), t, dest, send_tag,
                                                 source, recv_tag, comm, status));
  return with_count(n, t, [&](int c, MPI_Datatype d) {
    return MPI_Sendrecv_replace(buf, c, d, dest, send_tag, source, recv_tag, comm, status);
  });
}

#undef THINMPI_DETAIL_LARGE

}  // namespace thinmpi::detail
