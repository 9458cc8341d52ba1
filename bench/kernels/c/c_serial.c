/* c/ser_vecstr, c/ser_map, c/ser_record: the hand-written C floor of the serialization suite.
 * The sender computes the exact size, mallocs one buffer, packs lengths and bytes into it and
 * sends it (MPI_Send of MPI_BYTE); the receiver matches the message (MPI_Mprobe), asks its size
 * (MPI_Get_count), mallocs, receives (MPI_Mrecv) and unpacks into newly allocated strings and
 * arrays, checking every length against the bytes left, as careful C code does. Rank 1 packs
 * what it unpacked and sends it back.
 *
 * c/ser_vecstr_kept, c/ser_map_kept, c/ser_record_kept: the same messages unpacked into the
 * payload received last time, as a C program that receives in a loop keeps it: each string is
 * copied into the chars it already has (a larger malloc only when it does not fit), the arrays
 * of strings, entries and doubles grow only when the message has more. The byte buffer is still
 * malloc'd per message, as in the floor (and in thinmpi's and Boost.MPI's receives). */
#include <limits.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "c_kernel.h"
#include "c_variants.h"
#include "serial_payloads.h"

enum { WB_SERIAL_TAG = 7 };

typedef struct text {
  size_t length;
  size_t capacity; /* bytes chars holds, its terminator's included */
  char* chars;
} text;

typedef struct entry {
  int key;
  text value;
} entry;

/* One payload of any of the three shapes: `items` strings (vecstr), `items` entries (map), or
 * one name and `items` doubles (record); the array holds `slots` of them (kept past `items` by
 * the _kept receive, zeroed until used). */
typedef struct payload {
  size_t items;
  size_t slots;
  text* strings;
  entry* entries;
  text name;
  double* values;
} payload;

typedef enum shape { vecstr, map, record } shape;

typedef struct serial_state {
  MPI_Comm comm;
  int rank;
  int peer;
  shape kind;
  int kept; /* the _kept variants: unpack into `received` as it is */
  payload sent;
  payload received;
} serial_state;

static int make_text(text* t, size_t length, size_t seed) {
  t->length = length;
  t->capacity = length + 1;
  t->chars = (char*)malloc(length + 1);
  if (!t->chars) return 0;
  for (size_t j = 0; j < length; ++j)
    t->chars[j] = wb_serial_char(seed, j);
  return 1;
}

static void free_payload(payload* p) {
  if (p->strings)
    for (size_t i = 0; i < p->slots; ++i)
      free(p->strings[i].chars);
  if (p->entries)
    for (size_t i = 0; i < p->slots; ++i)
      free(p->entries[i].value.chars);
  free(p->strings);
  free(p->entries);
  free(p->name.chars);
  free(p->values);
  memset(p, 0, sizeof *p);
}

static int make_payload(payload* p, shape kind, size_t n) {
  memset(p, 0, sizeof *p);
  p->items = n;
  p->slots = n;
  if (kind == vecstr) {
    p->strings = (text*)calloc(n + 1, sizeof(text));
    if (!p->strings) return 0;
    for (size_t i = 0; i < n; ++i)
      if (!make_text(&p->strings[i], n, i)) return 0;
  } else if (kind == map) {
    p->entries = (entry*)calloc(n + 1, sizeof(entry));
    if (!p->entries) return 0;
    for (size_t i = 0; i < n; ++i) {
      p->entries[i].key = wb_serial_key(i);
      if (!make_text(&p->entries[i].value, WB_SERIAL_MAP_VALUE_CHARS, i)) return 0;
    }
  } else {
    p->values = (double*)malloc((n + 1) * sizeof(double));
    if (!p->values || !make_text(&p->name, n, 0)) return 0;
    for (size_t j = 0; j < n; ++j)
      p->values[j] = wb_serial_value(j);
  }
  return 1;
}

static size_t packed_size(const payload* p, shape kind) {
  size_t bytes = sizeof(uint64_t);
  if (kind == vecstr) {
    for (size_t i = 0; i < p->items; ++i)
      bytes += sizeof(uint64_t) + p->strings[i].length;
  } else if (kind == map) {
    for (size_t i = 0; i < p->items; ++i)
      bytes += sizeof(int) + sizeof(uint64_t) + p->entries[i].value.length;
  } else {
    bytes += p->name.length + sizeof(uint64_t) + p->items * sizeof(double);
  }
  return bytes;
}

static unsigned char* put_length(unsigned char* out, size_t n) {
  uint64_t length = (uint64_t)n;
  memcpy(out, &length, sizeof length);
  return out + sizeof length;
}

static unsigned char* put_text(unsigned char* out, const text* t) {
  out = put_length(out, t->length);
  memcpy(out, t->chars, t->length);
  return out + t->length;
}

static void pack(const payload* p, shape kind, unsigned char* out) {
  if (kind == vecstr) {
    out = put_length(out, p->items);
    for (size_t i = 0; i < p->items; ++i)
      out = put_text(out, &p->strings[i]);
  } else if (kind == map) {
    out = put_length(out, p->items);
    for (size_t i = 0; i < p->items; ++i) {
      memcpy(out, &p->entries[i].key, sizeof(int));
      out = put_text(out + sizeof(int), &p->entries[i].value);
    }
  } else {
    out = put_text(out, &p->name);
    out = put_length(out, p->items);
    memcpy(out, p->values, p->items * sizeof(double));
  }
}

/* Reads a length that `unit` bytes per element must fit in what is left; 0 when it does not. */
static int take_length(const unsigned char** at, const unsigned char* end, size_t unit, size_t* n) {
  uint64_t length;
  if ((size_t)(end - *at) < sizeof length) return 0;
  memcpy(&length, *at, sizeof length);
  *at += sizeof length;
  if (length > (uint64_t)(end - *at) / unit) return 0;
  *n = (size_t)length;
  return 1;
}

static int take_text(const unsigned char** at, const unsigned char* end, text* t) {
  if (!take_length(at, end, 1, &t->length)) return 0;
  t->capacity = t->length + 1;
  t->chars = (char*)malloc(t->length + 1);
  if (!t->chars) return 0;
  memcpy(t->chars, *at, t->length);
  *at += t->length;
  return 1;
}

/* Unpacks into a new payload; 0 when the bytes are not one. */
static int unpack(const unsigned char* at, size_t bytes, shape kind, payload* p) {
  const unsigned char* end = at + bytes;
  memset(p, 0, sizeof *p);
  if (kind == vecstr) {
    if (!take_length(&at, end, sizeof(uint64_t), &p->items)) return 0;
    p->slots = p->items;
    p->strings = (text*)calloc(p->items + 1, sizeof(text));
    if (!p->strings) return 0;
    for (size_t i = 0; i < p->items; ++i)
      if (!take_text(&at, end, &p->strings[i])) return 0;
  } else if (kind == map) {
    if (!take_length(&at, end, sizeof(int) + sizeof(uint64_t), &p->items)) return 0;
    p->slots = p->items;
    p->entries = (entry*)calloc(p->items + 1, sizeof(entry));
    if (!p->entries) return 0;
    for (size_t i = 0; i < p->items; ++i) {
      if ((size_t)(end - at) < sizeof(int)) return 0;
      memcpy(&p->entries[i].key, at, sizeof(int));
      at += sizeof(int);
      if (!take_text(&at, end, &p->entries[i].value)) return 0;
    }
  } else {
    if (!take_text(&at, end, &p->name)) return 0;
    if (!take_length(&at, end, sizeof(double), &p->items)) return 0;
    p->slots = p->items;
    p->values = (double*)malloc((p->items + 1) * sizeof(double));
    if (!p->values) return 0;
    memcpy(p->values, at, p->items * sizeof(double));
    at += p->items * sizeof(double);
  }
  return at == end;
}

/* Copies a text into the chars t already has: a larger malloc (not realloc: the old chars are
 * not kept) only when they are too few. */
static int take_text_kept(const unsigned char** at, const unsigned char* end, text* t) {
  size_t length;
  if (!take_length(at, end, 1, &length)) return 0;
  if (length + 1 > t->capacity) {
    free(t->chars);
    t->capacity = 0;
    t->chars = (char*)malloc(length + 1);
    if (!t->chars) return 0;
    t->capacity = length + 1;
  }
  t->length = length;
  memcpy(t->chars, *at, length);
  *at += length;
  return 1;
}

/* Makes room for n elements of `size` bytes in *array of *slots, the new ones zeroed. */
static int grow_slots(void** array, size_t* slots, size_t n, size_t size) {
  if (n <= *slots && *array) return 1;
  void* grown = realloc(*array, (n + 1) * size);
  if (!grown) return 0;
  size_t had = *array ? *slots : 0;
  memset((char*)grown + had * size, 0, (n + 1 - had) * size);
  *array = grown;
  *slots = n;
  return 1;
}

/* Unpacks into the payload p already holds, keeping its storage; 0 when the bytes are not one
 * (p is then still a payload free_payload can free). */
static int unpack_kept(const unsigned char* at, size_t bytes, shape kind, payload* p) {
  const unsigned char* end = at + bytes;
  size_t n;
  if (kind == vecstr) {
    if (!take_length(&at, end, sizeof(uint64_t), &n)) return 0;
    if (!grow_slots((void**)&p->strings, &p->slots, n, sizeof(text))) return 0;
    p->items = n;
    for (size_t i = 0; i < n; ++i)
      if (!take_text_kept(&at, end, &p->strings[i])) return 0;
  } else if (kind == map) {
    if (!take_length(&at, end, sizeof(int) + sizeof(uint64_t), &n)) return 0;
    if (!grow_slots((void**)&p->entries, &p->slots, n, sizeof(entry))) return 0;
    p->items = n;
    for (size_t i = 0; i < n; ++i) {
      if ((size_t)(end - at) < sizeof(int)) return 0;
      memcpy(&p->entries[i].key, at, sizeof(int));
      at += sizeof(int);
      if (!take_text_kept(&at, end, &p->entries[i].value)) return 0;
    }
  } else {
    if (!take_text_kept(&at, end, &p->name)) return 0;
    if (!take_length(&at, end, sizeof(double), &n)) return 0;
    if (!grow_slots((void**)&p->values, &p->slots, n, sizeof(double))) return 0;
    p->items = n;
    memcpy(p->values, at, n * sizeof(double));
    at += n * sizeof(double);
  }
  return at == end;
}

static void send_payload(const serial_state* s, const payload* p) {
  size_t bytes = packed_size(p, s->kind);
  unsigned char* buffer = (unsigned char*)malloc(bytes);
  if (!buffer || bytes > (size_t)INT_MAX) MPI_Abort(s->comm, 4);
  pack(p, s->kind, buffer);
  MPI_Send(buffer, (int)bytes, MPI_BYTE, s->peer, WB_SERIAL_TAG, s->comm);
  free(buffer);
}

static void receive_payload(serial_state* s) {
  MPI_Message message;
  MPI_Status status;
  int bytes = 0;
  MPI_Mprobe(s->peer, WB_SERIAL_TAG, s->comm, &message, &status);
  MPI_Get_count(&status, MPI_BYTE, &bytes);
  unsigned char* buffer = (unsigned char*)malloc((size_t)bytes + 1);
  if (!buffer) MPI_Abort(s->comm, 4);
  MPI_Mrecv(buffer, bytes, MPI_BYTE, &message, MPI_STATUS_IGNORE);
  if (s->kept) {
    if (!unpack_kept(buffer, (size_t)bytes, s->kind, &s->received)) MPI_Abort(s->comm, 5);
    free(buffer);
    return;
  }
  /* The new payload first, then the bytes and the last payload freed: the order of a receive
   * that returns a new object, as the wrappers' do (the old one goes when the new one is
   * assigned). Freeing the last payload before unpacking made the floor 9-13 % slower at 8 map
   * entries (Open MPI gcc; docs/bench.md, "The C baselines"). */
  payload fresh;
  if (!unpack(buffer, (size_t)bytes, s->kind, &fresh)) MPI_Abort(s->comm, 5);
  free(buffer);
  free_payload(&s->received);
  s->received = fresh;
}

static void round_trips(void* state, long iterations) {
  serial_state* s = (serial_state*)state;
  for (long i = 0; i < iterations; ++i) {
    if (s->rank == 0) send_payload(s, &s->sent);
    receive_payload(s);
    if (s->rank == 1) send_payload(s, &s->received);
  }
}

static int same_text(const text* a, const text* b) {
  return a->length == b->length && memcmp(a->chars, b->chars, a->length) == 0;
}

static int verify(void* state) {
  const serial_state* s = (const serial_state*)state;
  const payload* a = &s->sent;
  const payload* b = &s->received;
  if (a->items != b->items) return 1;
  for (size_t i = 0; i < a->items; ++i) {
    if (s->kind == vecstr && !same_text(&a->strings[i], &b->strings[i])) return 1;
    if (s->kind == map && (a->entries[i].key != b->entries[i].key ||
                           !same_text(&a->entries[i].value, &b->entries[i].value)))
      return 1;
  }
  if (s->kind == record && (!same_text(&a->name, &b->name) ||
                            memcmp(a->values, b->values, a->items * sizeof(double)) != 0))
    return 1;
  return 0;
}

static void teardown(void* state) {
  serial_state* s = (serial_state*)state;
  free_payload(&s->sent);
  free_payload(&s->received);
  free(s);
}

static void* setup_shape(MPI_Comm comm, size_t count, shape kind) {
  serial_state* s = (serial_state*)calloc(1, sizeof *s);
  if (!s) return NULL;
  s->comm = comm;
  MPI_Comm_rank(comm, &s->rank);
  s->peer = 1 - s->rank;
  s->kind = kind;
  if (!make_payload(&s->sent, kind, count)) {
    teardown(s);
    return NULL;
  }
  return s;
}

static void* setup_kept_shape(MPI_Comm comm, size_t count, shape kind) {
  serial_state* s = (serial_state*)setup_shape(comm, count, kind);
  if (s) s->kept = 1;
  return s;
}

WB_C_SETUP_WITH(setup_vecstr, setup_shape, vecstr)
WB_C_SETUP_WITH(setup_map, setup_shape, map)
WB_C_SETUP_WITH(setup_record, setup_shape, record)

const wb_variant wb_c_ser_vecstr = {"c",          "ser_vecstr", NULL,   1,       0,
                                    setup_vecstr, round_trips,  verify, teardown};
const wb_variant wb_c_ser_map = {"c",       "ser_map",   NULL,   1,       0,
                                 setup_map, round_trips, verify, teardown};
const wb_variant wb_c_ser_record = {"c",          "ser_record", NULL,   1,       0,
                                    setup_record, round_trips,  verify, teardown};
WB_C_SETUP_WITH(setup_vecstr_kept, setup_kept_shape, vecstr)
WB_C_SETUP_WITH(setup_map_kept, setup_kept_shape, map)
WB_C_SETUP_WITH(setup_record_kept, setup_kept_shape, record)
const wb_variant wb_c_ser_vecstr_kept = {
    "c", "ser_vecstr_kept", NULL, 1, 0, setup_vecstr_kept, round_trips, verify, teardown};
const wb_variant wb_c_ser_map_kept = {"c",         "ser_map_kept", NULL,    1, 0, setup_map_kept,
                                      round_trips, verify,         teardown};
const wb_variant wb_c_ser_record_kept = {
    "c", "ser_record_kept", NULL, 1, 0, setup_record_kept, round_trips, verify, teardown};
