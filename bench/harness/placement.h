/* Where a variant's buffers lie (docs/bench.md, "Where the buffers lie").
 *
 * With WB_ALIGN=1 the timed launches preload libwb_align.so (wb_align.c), which aligns the blocks
 * of 1 KiB and up that malloc and calloc give while a setup runs: a variant's buffers, made once,
 * sit at the same place in their page and line for C and every library. The harnesses bracket each
 * variant's setup with these; outside them, and without the library, malloc is glibc's. */
#ifndef WB_PLACEMENT_H
#define WB_PLACEMENT_H

/* libwb_align.so's switch; null where it is not preloaded. */
void wb_align_setup(int on) __attribute__((weak));

static inline void wb_placement_begin(void) {
  if (wb_align_setup) wb_align_setup(1);
}

static inline void wb_placement_end(void) {
  if (wb_align_setup) wb_align_setup(0);
}

#endif
