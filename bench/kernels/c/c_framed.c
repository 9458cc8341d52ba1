/* c/framed: n MPI_INT received without knowing the count and without a probe, by the framed
 * protocol written in C (the same wire format and default frame size F as
 * thinmpi::framed_channel: 4032 bytes on Open MPI, 8192 on MPICH, the largest eager message
 * within a node; every message is MPI_BYTE): a payload below F is one plain message, received
 * by one MPI_Recv of F bytes into scratch, then malloc + memcpy. Up to 2F, a full frame (the
 * first F - 16 bytes, then a 16-byte header: total bytes, continuation tag, magic) and the
 * rest; from 2F up, a short frame of 17 bytes (the header and a zero byte, so no payload of
 * whole ints has its size) and the whole payload, received into the malloc'd result. The frame
 * goes with MPI_Isend so that the continuation follows at once on a private communicator
 * (MPI_Comm_dup), received from the frame's source. What the protocol itself costs, without
 * thinmpi. */
#include <stdint.h>

#include "c_kernel.h"
#include "c_variants.h"

#if defined(OPEN_MPI)
enum { FRAME_BYTES = 4032 };
#else
enum { FRAME_BYTES = 8192 };
#endif
enum { FRAME_INTS = FRAME_BYTES / 4, HEADER_BYTES = 16, SHORT_FRAME_BYTES = HEADER_BYTES + 1 };

typedef struct frame_header {
  uint64_t total_bytes;
  uint32_t continuation_tag;
  uint32_t magic;
} frame_header;

typedef struct framed_state {
  wb_c_state* base;
  MPI_Comm continuation;
  unsigned next_tag;
  unsigned char frame_in[FRAME_BYTES];
  unsigned char frame_out[FRAME_BYTES];
} framed_state;

static void* setup(MPI_Comm comm, size_t count) {
  framed_state* f = (framed_state*)calloc(1, sizeof *f);
  if (!f) return NULL;
  f->base = (wb_c_state*)wb_c_setup(comm, count, MPI_INT, sizeof(int), wb_c_fill_bytes);
  if (!f->base || MPI_Comm_dup(comm, &f->continuation) != MPI_SUCCESS) {
    if (f->base) wb_c_teardown(f->base);
    free(f);
    return NULL;
  }
  return f;
}

static void framed_send(framed_state* f, const unsigned char* payload, int count) {
  wb_c_state* s = f->base;
  if (count < FRAME_INTS) {
    MPI_Send(payload, count * 4, MPI_BYTE, s->peer, WB_C_TAG, s->comm);
    return;
  }
  frame_header header;
  header.total_bytes = (uint64_t)count * 4u;
  header.continuation_tag = f->next_tag++ & 0x7fffu; /* every MPI accepts tags up to 32767 */
  header.magic = 0x7f4d5046u;
  /* Up to two frames: a full frame with the payload's first bytes, the rest after it. From two
   * frames up: a short frame, the whole payload after it. */
  const int full = count < 2 * FRAME_INTS;
  const size_t carried = full ? FRAME_BYTES - HEADER_BYTES : 0;
  const int frame_bytes = full ? FRAME_BYTES : SHORT_FRAME_BYTES;
  memcpy(f->frame_out, payload, carried);
  memcpy(f->frame_out + carried, &header, sizeof header);
  if (!full) f->frame_out[HEADER_BYTES] = 0;
  MPI_Request frame_sent;
  MPI_Isend(f->frame_out, frame_bytes, MPI_BYTE, s->peer, WB_C_TAG, s->comm, &frame_sent);
  MPI_Send(payload + carried, (int)(header.total_bytes - carried), MPI_BYTE, s->peer,
           (int)header.continuation_tag, f->continuation);
  MPI_Wait(&frame_sent, MPI_STATUS_IGNORE);
}

static unsigned char* framed_receive(framed_state* f, int* count) {
  wb_c_state* s = f->base;
  MPI_Status status;
  int bytes = 0;
  MPI_Recv(f->frame_in, FRAME_BYTES, MPI_BYTE, s->peer, WB_C_TAG, s->comm, &status);
  MPI_Get_count(&status, MPI_BYTE, &bytes);
  if (bytes != SHORT_FRAME_BYTES && bytes != FRAME_BYTES) {
    unsigned char* payload = (unsigned char*)malloc((size_t)bytes + 1u);
    memcpy(payload, f->frame_in, (size_t)bytes);
    *count = bytes / 4;
    return payload;
  }
  const size_t carried = bytes == FRAME_BYTES ? FRAME_BYTES - HEADER_BYTES : 0;
  frame_header header;
  memcpy(&header, f->frame_in + carried, sizeof header);
  unsigned char* payload = (unsigned char*)malloc((size_t)header.total_bytes + 1u);
  memcpy(payload, f->frame_in, carried);
  MPI_Recv(payload + carried, (int)(header.total_bytes - carried), MPI_BYTE, status.MPI_SOURCE,
           (int)header.continuation_tag, f->continuation, MPI_STATUS_IGNORE);
  *count = (int)(header.total_bytes / 4u);
  return payload;
}

static void round_trips(void* state, long iterations) {
  framed_state* f = (framed_state*)state;
  wb_c_state* s = f->base;
  int count = 0;
  for (long i = 0; i < iterations; ++i) {
    if (s->rank == 0) framed_send(f, s->sent, s->count);
    unsigned char* payload = framed_receive(f, &count);
    if (s->rank == 1) framed_send(f, payload, count);
    if (i == iterations - 1)
      s->last_matches = count == s->count && memcmp(payload, s->sent, s->bytes) == 0;
    free(payload);
  }
}

static int verify(void* state) {
  return wb_c_verify_last_match(((framed_state*)state)->base);
}

static void teardown(void* state) {
  framed_state* f = (framed_state*)state;
  MPI_Comm_free(&f->continuation);
  wb_c_teardown(f->base);
  free(f);
}

const wb_variant wb_c_framed = {"c",   "framed",    NULL,   sizeof(int), 0,
                                setup, round_trips, verify, teardown};
