/* The counted windows of the audit and instructions modes, written once for the ping-pong
 * harness (harness_run.c) and the collectives harness (coll_harness.c). */
#ifndef WB_HARNESS_WINDOWS_H
#define WB_HARNESS_WINDOWS_H

#include <stddef.h>

/* Runs `count` round trips (or calls) of `variant` on its state. */
typedef void wb_window_work(const void* variant, void* state, long count);

/* Runs `warmup` of the work, then, after a barrier on MPI_COMM_WORLD:
 * - instructions > 0 (under valgrind --tool=callgrind --collect-atstart=no, callgrind_window.h):
 *   the warm-up collected apart, then two collected windows of `instructions` and twice as many,
 *   each after a barrier and dumped as "wb rank=R variant=NAME count=COUNT calls=K";
 * - otherwise `audit` inside MPI_Pcontrol(1, name) ... MPI_Pcontrol(0), for libwb_audit.
 * Ends with a barrier. */
void wb_count_windows(wb_window_work* work, const void* variant, void* state, const char* name,
                      size_t count, long warmup, long audit, long instructions);

#endif /* WB_HARNESS_WINDOWS_H */
