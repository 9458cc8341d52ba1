/* One collected callgrind window around a measured loop, for the instruction counts of
 * wrapper-bench (bench/driver/wrapper_bench/suites/instructions/instructions.py). The harnesses run
 * under `valgrind --tool=callgrind --collect-atstart=no`, so only what runs inside a window is
 * counted; each window is dumped as its own profile, labelled
 * "wb rank=R variant=NAME count=N calls=K" for the driver (N: the variant's count, so that one
 * launch may count a variant at several). Without valgrind's header (or outside valgrind) the
 * client requests do nothing. */
#ifndef WB_CALLGRIND_WINDOW_H
#define WB_CALLGRIND_WINDOW_H

#include <stdio.h>

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#endif
#endif

#ifndef CALLGRIND_TOGGLE_COLLECT /* no valgrind headers: the window is the work alone */
#define CALLGRIND_TOGGLE_COLLECT
#define CALLGRIND_DUMP_STATS_AT(label) (void)(label)
#endif

/* Runs the warm-up collected too, dumped under a label the driver skips: callgrind 3.19 counts
 * calls (not their cost) while collection is off, and a dump resets only the call counts of
 * the arcs that have a cost, so a warm-up run uncollected would leave its calls to malloc in the
 * first window's counts. */
#define WB_CALLGRIND_WARMUP(work)          \
  do {                                     \
    CALLGRIND_TOGGLE_COLLECT;              \
    work;                                  \
    CALLGRIND_TOGGLE_COLLECT;              \
    CALLGRIND_DUMP_STATS_AT("wb warm-up"); \
  } while (0)

/* Runs `work` with collection on (this thread only) and dumps what it counted. */
#define WB_CALLGRIND_WINDOW(work, rank, name, count, calls)                            \
  do {                                                                                 \
    char wb_label_[256];                                                               \
    snprintf(wb_label_, sizeof wb_label_, "wb rank=%d variant=%s count=%lu calls=%ld", \
             (int)(rank), (name), (unsigned long)(count), (long)(calls));              \
    CALLGRIND_TOGGLE_COLLECT;                                                          \
    work;                                                                              \
    CALLGRIND_TOGGLE_COLLECT;                                                          \
    CALLGRIND_DUMP_STATS_AT(wb_label_);                                                \
  } while (0)

#endif /* WB_CALLGRIND_WINDOW_H */
