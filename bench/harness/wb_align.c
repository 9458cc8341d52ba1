/* libwb_align: where the timed launches' buffers lie (docs/bench.md, "Where the buffers lie").
 *
 * Preloaded into the ranks of every timed launch (LD_PRELOAD, core/placement.py), whatever the
 * library under test: malloc and calloc of 4 KiB or more return page-aligned memory, of 1 KiB
 * or more 64-byte aligned memory, smaller requests what glibc gives. Without it, where malloc
 * happened to put a variant's buffer decided its time at 4 KiB and up: a 4 KiB MPI_Get from a
 * shared-memory window ran 2.52-3.50 us by where its result buffer lay in its page (4K
 * aliasing against the window), and a 4 KiB MPI_Accumulate 5% faster from a 64-byte-aligned
 * origin (Open MPI 4.1.4, AVX-512 op) -- the same C calls, in the same process. The heap's
 * layout changes with each launch and with the variants set up before, so one variant drew
 * the lucky place and its C baseline did not. OSU aligns its buffers to the page the same way.
 *
 * Everything else is glibc's: free, realloc and malloc_usable_size take these blocks as they
 * take memalign's; posix_memalign, aligned_alloc and C++'s aligned new are untouched. */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* glibc's own entry points (exported by libc.so.6 since 2.2.5). */
extern void* __libc_malloc(size_t size);
extern void* __libc_calloc(size_t count, size_t size);
extern void* __libc_memalign(size_t alignment, size_t size);

enum { WB_PAGE_FROM = 4096, WB_LINE_FROM = 1024, WB_PAGE = 4096, WB_LINE = 64 };

/* The alignment a block of `size` bytes gets, 0 for glibc's own. */
static size_t wb_alignment(size_t size) {
  return size >= WB_PAGE_FROM ? WB_PAGE : size >= WB_LINE_FROM ? WB_LINE : 0;
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
