/* The physical floor of a process: a cache-line ping-pong between the two ranks' cores through a
 * POSIX shared-memory segment, no MPI on the path. A message cannot go faster than one cache line
 * moving from one core to the other and back, so a process whose floor is far above the run's
 * best ran while the machine was slow (a loaded host, vCPUs sharing a core), whatever it was
 * measuring. The harness, libwb_ckernels (for the mpi4py and Go kernels) measure it before and
 * after their variants. */
#ifndef WB_FLOOR_H
#define WB_FLOOR_H

#include <mpi.h>
#include <stddef.h>

/* The floor of one measurement: one-way microseconds, half a round trip of the cache line. */
typedef struct wb_floor {
  double low_decile_us; /* the 10th percentile of the blocks, what the cores can do */
  double median_us;     /* the median block */
} wb_floor;

enum { WB_FLOOR_ROUND_TRIPS = 10000, WB_FLOOR_BLOCKS = 20 };

/* Sets up the segment once on ranks 0 and 1 of a two-rank `comm` (collective); NULL on failure
 * of either rank. */
void* wb_floor_open(MPI_Comm comm);
/* Runs `round_trips` cache-line round trips in `blocks` blocks on both ranks (collective on the
 * two ranks); rank 0's result is the measured one, rank 1's mirrors it. */
wb_floor wb_floor_measure(void* floor, long round_trips, long blocks);
/* Unmaps the segment (its name is unlinked as soon as both ranks have mapped it). */
void wb_floor_close(void* floor);

/* The floor of a message of `bytes` bytes (the node suite's, node_floor.c): the same ping-pong
 * with the payload copied into the segment before the line moves and out of it after, by both
 * ranks. Up to WB_FLOOR_INLINE_BYTES the payload shares the line with the counter, so one line
 * moves each way; above, it follows the line. Collective on a two-rank `comm`; NULL on failure
 * of either rank. */
enum { WB_FLOOR_INLINE_BYTES = 56 };
void* wb_floor_open_payload(MPI_Comm comm, size_t bytes);
/* `round_trips` round trips carrying `bytes` bytes: rank 0 sends `sent` and receives into
 * `received`; rank 1 receives into `received` and sends it back. No timing, no MPI. */
void wb_floor_payload_round_trips(void* floor, const unsigned char* sent, unsigned char* received,
                                  long trips);

#endif /* WB_FLOOR_H */
