/* The cache-line ping-pong of floor.h, with or without a payload. */
#define _GNU_SOURCE /* shm_open, sched_yield, clock_gettime under -std=c11 */
#include "floor.h"

#include <fcntl.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

enum { SEGMENT_BYTES = 4096, LINE_BYTES = 64, NAME_BYTES = 64, SPINS_BEFORE_YIELD = 1 << 14 };

typedef struct floor_state {
  int rank;
  long sequence;          /* the last value this pair of ranks wrote to the line */
  atomic_long* line;      /* the first cache line of the segment: the only memory that moves */
  size_t bytes;           /* payload bytes per message (0: the line alone) */
  unsigned char* payload; /* in the line after the counter, or from the second line on */
  size_t segment_bytes;
  MPI_Comm comm;
} floor_state;

/* Whether both ranks report success (collective). */
static int both(MPI_Comm comm, int ok) {
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
  return all;
}

/* Rank 0 creates the segment of `segment_bytes` and names it to rank 1; returns the
 * descriptor or -1. */
static int open_segment(MPI_Comm comm, int rank, char* name, size_t segment_bytes) {
  int fd = -1;
  if (rank == 0) {
    snprintf(name, NAME_BYTES, "/wb_floor_%ld_%ld", (long)getpid(), (long)time(NULL));
    fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd >= 0 && ftruncate(fd, (off_t)segment_bytes) != 0) {
      close(fd);
      shm_unlink(name);
      fd = -1;
    }
  }
  MPI_Bcast(name, NAME_BYTES, MPI_CHAR, 0, comm);
  int created = both(comm, rank != 0 || fd >= 0);
  if (!created && fd >= 0) close(fd);
  if (!created) return -1;
  return rank == 1 ? shm_open(name, O_RDWR, 0600) : fd;
}

/* The segment of a floor whose messages carry `bytes` bytes, mapped on both ranks. */
static void* open_floor(MPI_Comm comm, size_t bytes) {
  char name[NAME_BYTES] = {0};
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  size_t segment_bytes = bytes <= WB_FLOOR_INLINE_BYTES ? SEGMENT_BYTES : LINE_BYTES + bytes;
  int fd = open_segment(comm, rank, name, segment_bytes);
  void* mapped =
      fd >= 0 ? mmap(NULL, segment_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
  if (fd >= 0) close(fd);
  floor_state* s = mapped != MAP_FAILED ? calloc(1, sizeof *s) : NULL;
  int ok = both(comm, s != NULL);
  if (rank == 0 && name[0]) shm_unlink(name); /* both mapped it, or gave up */
  if (!ok) {
    if (mapped != MAP_FAILED) munmap(mapped, segment_bytes);
    free(s);
    return NULL;
  }
  s->rank = rank;
  s->comm = comm;
  s->line = (atomic_long*)mapped;
  s->bytes = bytes;
  s->payload =
      (unsigned char*)mapped + (bytes <= WB_FLOOR_INLINE_BYTES ? sizeof(long) : LINE_BYTES);
  s->segment_bytes = segment_bytes;
  if (rank == 0) atomic_store(s->line, 0);
  MPI_Barrier(comm);
  return s;
}

void* wb_floor_open(MPI_Comm comm) {
  return open_floor(comm, 0);
}

void* wb_floor_open_payload(MPI_Comm comm, size_t bytes) {
  return open_floor(comm, bytes);
}

/* Spins until the line holds `value`; yields the core now and then so that two ranks that
 * share one core still make progress (slowly: that is the slow mode the floor exposes). */
static void wait_for(atomic_long* line, long value) {
  int spins = 0;
  while (atomic_load_explicit(line, memory_order_acquire) != value)
    if (++spins == SPINS_BEFORE_YIELD) spins = 0, sched_yield();
}

static double seconds_now(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

static int compare_doubles(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* `round_trips` round trips of the line; with a payload, each rank copies it into the segment
 * before it writes the line and out of it after it saw the line (rank 1 sends back what it
 * received). The line's release and acquire order the copies. */
static void move_line(floor_state* s, const unsigned char* sent, unsigned char* received,
                      long round_trips) {
  for (long i = 0; i < round_trips; ++i) {
    if (s->rank == 0) {
      if (s->bytes) memcpy(s->payload, sent, s->bytes);
      atomic_store_explicit(s->line, s->sequence + 1, memory_order_release);
      wait_for(s->line, s->sequence + 2);
      if (s->bytes) memcpy(received, s->payload, s->bytes);
    } else {
      wait_for(s->line, s->sequence + 1);
      if (s->bytes) memcpy(received, s->payload, s->bytes), memcpy(s->payload, received, s->bytes);
      atomic_store_explicit(s->line, s->sequence + 2, memory_order_release);
    }
    s->sequence += 2;
  }
}

/* Seconds of `round_trips` round trips of the line, as rank 0 sees them. */
static double block(floor_state* s, long trips) {
  double start = seconds_now();
  move_line(s, NULL, NULL, trips);
  return seconds_now() - start;
}

void wb_floor_payload_round_trips(void* floor, const unsigned char* sent, unsigned char* received,
                                  long trips) {
  move_line((floor_state*)floor, sent, received, trips);
}

wb_floor wb_floor_measure(void* floor, long round_trips, long blocks) {
  floor_state* s = (floor_state*)floor;
  wb_floor result = {-1.0, -1.0};
  if (!s || blocks < 1 || blocks > 1024 || round_trips < blocks) return result;
  double one_way_us[1024];
  MPI_Barrier(s->comm);
  for (long b = 0; b < blocks; ++b) {
    long in_block = round_trips * (b + 1) / blocks - round_trips * b / blocks;
    one_way_us[b] = block(s, in_block) * 1e6 / (2.0 * (double)in_block);
  }
  qsort(one_way_us, (size_t)blocks, sizeof one_way_us[0], compare_doubles);
  result.low_decile_us = one_way_us[blocks / 10];
  result.median_us = one_way_us[blocks / 2];
  MPI_Bcast(&result, 2, MPI_DOUBLE, 0, s->comm);
  return result;
}

void wb_floor_close(void* floor) {
  floor_state* s = (floor_state*)floor;
  if (!s) return;
  munmap((void*)s->line, s->segment_bytes);
  free(s);
}
