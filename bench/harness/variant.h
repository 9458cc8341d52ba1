/* The contract between the ping-pong harness and every kernel it measures (C, thinmpi, Boost.MPI).
 *
 * A variant is one way of moving a payload of `count` elements from rank 0 to rank 1 and back:
 * rank 0 sends, rank 1 receives and sends the same kind of payload back, rank 0 receives. Kernels
 * written in C are compiled by the C compiler, C++ kernels by the C++ compiler; all of them are
 * linked into one harness binary per MPI implementation x compiler so that the harness can run
 * them in interleaved blocks inside one process. */
#ifndef WB_VARIANT_H
#define WB_VARIANT_H

#include <mpi.h>
#include <stddef.h>

#include "variant_tables.h"

#ifdef __cplusplus
extern "C" {
#endif

struct wb_variant {
  const char* api;      /* "c", "thinmpi", "boost" */
  const char* payload;  /* "int_buffer", "span", "vector_alloc", ... unique within the api */
  const char* baseline; /* "c/<payload>" of the C variant it is compared with; NULL for C itself */
  size_t element_bytes; /* bytes of one element: the message is count * element_bytes bytes */
  size_t max_count;     /* largest count it supports (1 for scalar payloads), 0 for no limit */
  /* Allocates and fills buffers for `count` elements on ranks 0 and 1 of comm; NULL on error. */
  void* (*setup)(MPI_Comm comm, size_t count);
  /* Runs `iterations` round trips (ranks 0 and 1 call it together; other ranks never do). */
  void (*round_trips)(void* state, long iterations);
  /* After round_trips: 0 when the payload last received on this rank is the one sent. */
  int (*verify)(void* state);
  void (*teardown)(void* state);
};
/* Each kernel translation unit exports a table of them, a wb_variant_table (variant_tables.h). */

#ifdef __cplusplus
}
#endif

#endif /* WB_VARIANT_H */
