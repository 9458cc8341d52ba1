/* libwb_align: where a variant's buffers lie (docs/bench.md, "Where the buffers lie").
 *
 * Preloaded into the ranks of every timed launch when the driver runs with WB_ALIGN=1
 * (LD_PRELOAD, core/placement.py; off by default, docs/bench.md says why). While a
 * harness sets its variants up (placement.h brackets each setup with wb_align_setup), malloc
 * and calloc of 4 KiB or more return page-aligned blocks and of 1 KiB or more 64-byte-aligned
 * ones; at every other moment, and for smaller blocks, they are glibc's own, so the calls a
 * variant times allocate exactly as without the library (one more function call on the way).
 *
 * Without it, where glibc's heap happened to put a variant's buffer decided its time at 4 KiB
 * and up: a 4 KiB MPI_Get from a shared-memory window ran 2.52-3.51 us by where its result lay
 * in its page, a 4 KiB MPI_Accumulate 5% faster from a 64-byte-aligned origin (Open MPI 4.1.4,
 * AVX-512 op); the same C calls, in the same process. The heap's layout changes with each
 * launch and with the variants set up before, so a variant drew a lucky place and its C
 * baseline did not. OSU aligns its buffers to the page the same way.
 *
 * Aligning every allocation was tried and is wrong: glibc's memalign costs 60-250 ns more than
 * malloc from 1 to 64 KiB, and a freed page-aligned 1 MiB block is unmapped and mapped again at
 * the next (52 us a malloc and free), which would be charged to every allocating receive.
 *
 * free, realloc and malloc_usable_size take these blocks as they take memalign's. */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* glibc's own entry points (exported by libc.so.6 since 2.2.5). */
extern void* __libc_malloc(size_t size);
extern void* __libc_calloc(size_t count, size_t size);
extern void* __libc_memalign(size_t alignment, size_t size);

void wb_align_setup(int on);

enum { WB_PAGE_FROM = 4096, WB_LINE_FROM = 1024, WB_PAGE = 4096, WB_LINE = 64 };

/* Whether a setup is running; set by the harness's thread, read by any. */
static int wb_aligning;

void wb_align_setup(int on) {
  __atomic_store_n(&wb_aligning, on, __ATOMIC_RELAXED);
}

/* The alignment a block of `size` bytes gets now, 0 for glibc's own. */
static size_t wb_alignment(size_t size) {
  if (size < WB_LINE_FROM || !__atomic_load_n(&wb_aligning, __ATOMIC_RELAXED)) return 0;
  return size >= WB_PAGE_FROM ? WB_PAGE : WB_LINE;
}

void* malloc(size_t size) {
  size_t alignment = wb_alignment(size);
  return alignment ? __libc_memalign(alignment, size) : __libc_malloc(size);
}

void* calloc(size_t count, size_t size) {
  size_t total = 0;
  if (__builtin_mul_overflow(count, size, &total)) return __libc_calloc(count, size);
  size_t alignment = wb_alignment(total);
  if (!alignment) return __libc_calloc(count, size);
  void* block = __libc_memalign(alignment, total);
  /* glibc marks a block that has its own mapping (bit 1 of the size word before it): fresh
   * pages, zero already, as calloc leaves them. */
  if (block && !(((const size_t*)block)[-1] & 2u)) memset(block, 0, total);
  return block;
}
