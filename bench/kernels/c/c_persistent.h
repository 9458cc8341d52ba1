/* What the C kernels on requests set up once share (c/persistent, c/partitioned): the state, its
 * set-up on c/int_buffer's buffers (the receive on `received`, the send on `sent` on rank 0 and on
 * `received` on rank 1, so that rank 1 sends back what came), the check and the teardown. Each
 * kernel passes the call that sets its requests up, so that its object file references, and `nm`
 * lists, only its own MPI calls; each writes its own round trips. */
#ifndef WB_C_PERSISTENT_H
#define WB_C_PERSISTENT_H

#include "c_kernel.h"

typedef struct wb_c_requests {
  wb_c_state* base;
  MPI_Request send;
  MPI_Request receive;
} wb_c_requests;

/* Sets a request up on `buffer`, of s->count MPI_INT with s->peer: the send when `sends`, else
 * the receive. Returns what MPI returned. */
typedef int (*wb_c_request_init)(void* buffer, int sends, const wb_c_state* s,
                                 MPI_Request* request);

/* The buffers of `count` MPI_INT and both requests, set up by init(); NULL on error. */
static inline void* wb_c_requests_setup(MPI_Comm comm, size_t count, wb_c_request_init init) {
  wb_c_requests* p = (wb_c_requests*)calloc(1, sizeof *p);
  if (!p) return NULL;
  p->send = p->receive = MPI_REQUEST_NULL;
  p->base = (wb_c_state*)wb_c_setup(comm, count, MPI_INT, sizeof(int), wb_c_fill_bytes);
  wb_c_state* s = p->base;
  if (s && init(s->received, 0, s, &p->receive) == MPI_SUCCESS &&
      init(s->rank == 0 ? s->sent : s->received, 1, s, &p->send) == MPI_SUCCESS)
    return p;
  if (p->receive != MPI_REQUEST_NULL) MPI_Request_free(&p->receive);
  if (s) wb_c_teardown(s);
  free(p);
  return NULL;
}

/* 0 when the last payload received is the pattern. */
static inline int wb_c_requests_verify(void* state) {
  return wb_c_verify_received(((wb_c_requests*)state)->base);
}

/* Frees both requests and the buffers. */
static inline void wb_c_requests_teardown(void* state) {
  wb_c_requests* p = (wb_c_requests*)state;
  MPI_Request_free(&p->send);
  MPI_Request_free(&p->receive);
  wb_c_teardown(p->base);
  free(p);
}

/* The wb_variant of such a kernel: c/<payload>, its own set-up and round trips, the rest above. */
#define WB_C_REQUESTS_VARIANT(payload, setup, round_trips)                        \
  {                                                                               \
    "c", payload, NULL, sizeof(int), 0, setup, round_trips, wb_c_requests_verify, \
        wb_c_requests_teardown                                                    \
  }

#endif /* WB_C_PERSISTENT_H */
