/* The ping-pong shared by the C kernels: buffers, the known-count and the matched-probe round trip.
 *
 * Every function is static inline so that each variant's object file references, and `nm` lists,
 * exactly the MPI calls its own path makes (the symbol check of the report). Rank 0 sends first;
 * rank 1 sends back what it received (an echo), so both ranks can check the payload. */
#ifndef WB_C_KERNEL_H
#define WB_C_KERNEL_H

#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

enum { WB_C_TAG = 7 };

/* One variant's buffers on one rank. `sent` holds the pattern, `received` the last payload. */
typedef struct wb_c_state {
  MPI_Comm comm;
  int rank;
  int peer;
  int count;
  MPI_Datatype type;
  size_t element_bytes;
  size_t bytes;
  unsigned char* sent;
  unsigned char* received;
  int last_matches; /* matched-probe receives free their buffer: they record the check here */
} wb_c_state;

/* Fills `buffer` with the byte pattern every C payload without fields carries. */
static inline void wb_c_fill_bytes(unsigned char* buffer, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i)
    buffer[i] = (unsigned char)((i * 31u + 7u) & 0x7fu);
}

/* Allocates zeroed buffers for `count` elements of `type` and fills `sent` with fill(). */
static inline void* wb_c_setup(MPI_Comm comm, size_t count, MPI_Datatype type, size_t element_bytes,
                               void (*fill)(unsigned char*, size_t)) {
  if (count > (size_t)INT_MAX) return NULL;
  wb_c_state* s = (wb_c_state*)calloc(1, sizeof *s);
  if (!s) return NULL;
  s->comm = comm;
  MPI_Comm_rank(comm, &s->rank);
  s->peer = 1 - s->rank;
  s->count = (int)count;
  s->type = type;
  s->element_bytes = element_bytes;
  s->bytes = count * element_bytes;
  s->sent = (unsigned char*)calloc(s->bytes + 1, 1);
  s->received = (unsigned char*)calloc(s->bytes + 1, 1);
  if (!s->sent || !s->received) {
    free(s->sent);
    free(s->received);
    free(s);
    return NULL;
  }
  fill(s->sent, s->bytes);
  return s;
}

/* Known count: MPI_Send and MPI_Recv of `count` elements, rank 1 echoes. */
static inline void wb_c_known_count_round_trips(void* state, long iterations) {
  wb_c_state* s = (wb_c_state*)state;
  const void* reply = s->rank == 0 ? s->sent : s->received;
  for (long i = 0; i < iterations; ++i) {
    if (s->rank == 0) MPI_Send(reply, s->count, s->type, s->peer, WB_C_TAG, s->comm);
    MPI_Recv(s->received, s->count, s->type, s->peer, WB_C_TAG, s->comm, MPI_STATUS_IGNORE);
    if (s->rank == 1) MPI_Send(reply, s->count, s->type, s->peer, WB_C_TAG, s->comm);
  }
}

/* Unknown count, the honest C way: MPI_Mprobe, MPI_Get_count, malloc, MPI_Mrecv; free after use. */
static inline void* wb_c_mprobe_receive(wb_c_state* s, int* count) {
  MPI_Message message;
  MPI_Status status;
  MPI_Mprobe(s->peer, WB_C_TAG, s->comm, &message, &status);
  MPI_Get_count(&status, s->type, count);
  void* buffer = malloc((size_t)*count * s->element_bytes + 1);
  MPI_Mrecv(buffer, *count, s->type, &message, MPI_STATUS_IGNORE);
  return buffer;
}

/* Unknown count, the way GoMPI's Recv does it (as far as its mpi.go shows): MPI_Probe,
 * MPI_Get_count, malloc, MPI_Recv of the probed count from the same source and tag. Not safe
 * with several threads receiving on one communicator (the matched probe is); as cheap in calls. */
static inline void* wb_c_probe_receive(wb_c_state* s, int* count) {
  MPI_Status status;
  MPI_Probe(s->peer, WB_C_TAG, s->comm, &status);
  MPI_Get_count(&status, s->type, count);
  void* buffer = malloc((size_t)*count * s->element_bytes + 1);
  MPI_Recv(buffer, *count, s->type, s->peer, WB_C_TAG, s->comm, &status);
  return buffer;
}

/* Defines `name`, the round trips whose receives use `receive` (wb_c_mprobe_receive or
 * wb_c_probe_receive); the last payload is checked before free. A macro rather than a function
 * taking `receive`, so that each variant's timed loop calls its own receive directly. */
#define WB_C_UNKNOWN_COUNT_ROUND_TRIPS(name, receive)                                     \
  static inline void name(void* state, long iterations) {                                 \
    wb_c_state* s = (wb_c_state*)state;                                                   \
    int count = 0;                                                                        \
    for (long i = 0; i < iterations; ++i) {                                               \
      if (s->rank == 0) MPI_Send(s->sent, s->count, s->type, s->peer, WB_C_TAG, s->comm); \
      void* payload = receive(s, &count);                                                 \
      if (s->rank == 1) MPI_Send(payload, count, s->type, s->peer, WB_C_TAG, s->comm);    \
      if (i == iterations - 1)                                                            \
        s->last_matches = count == s->count && memcmp(payload, s->sent, s->bytes) == 0;   \
      free(payload);                                                                      \
    }                                                                                     \
  }
WB_C_UNKNOWN_COUNT_ROUND_TRIPS(wb_c_mprobe_round_trips, wb_c_mprobe_receive)
WB_C_UNKNOWN_COUNT_ROUND_TRIPS(wb_c_probe_round_trips, wb_c_probe_receive)

/* 0 when the last payload received by the known-count path is the pattern. */
static inline int wb_c_verify_received(void* state) {
  wb_c_state* s = (wb_c_state*)state;
  return memcmp(s->received, s->sent, s->bytes) != 0;
}

/* 0 when the last payload received by the matched-probe path was the pattern. */
static inline int wb_c_verify_last_match(void* state) {
  return ((wb_c_state*)state)->last_matches ? 0 : 1;
}

/* Frees the buffers of wb_c_setup (not the datatype: its variant owns that); NULL: nothing. */
static inline void wb_c_teardown(void* state) {
  wb_c_state* s = (wb_c_state*)state;
  if (!s) return;
  free(s->sent);
  free(s->received);
  free(s);
}

/* Defines the setup `name` of a variant table (void* (MPI_Comm, size_t)): `setup` of the comm and
 * count with the further arguments given, e.g. the kind of collective. */
#define WB_C_SETUP_WITH(name, setup, ...)          \
  static void* name(MPI_Comm comm, size_t count) { \
    return setup(comm, count, __VA_ARGS__);        \
  }

/* Defines the ping-pong variant c/<payload> (`wb_c_<payload>` of c_variants.h): `count`
 * elements of `type`, `element_bytes` each, filled by wb_c_fill_bytes, sent by `round_trips` and
 * checked by `verify`. */
#define WB_C_PING_PONG_VARIANT(payload, type, element_bytes, round_trips, verify)    \
  WB_C_SETUP_WITH(setup_##payload, wb_c_setup, type, element_bytes, wb_c_fill_bytes) \
  const wb_variant wb_c_##payload = {                                                \
      "c", #payload, NULL, element_bytes, 0, setup_##payload, round_trips, verify, wb_c_teardown}

#endif /* WB_C_KERNEL_H */
