/* ctest wb_align_check: libwb_align.so, preloaded, aligns what a setup allocates and nothing
 * else (wb_align.c, placement.h). Without the library preloaded it fails: nothing is aligned. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "placement.h"

static int failures;

static void expect(int ok, const char* what) {
  if (!ok) {
    fprintf(stderr, "wb_align_check: %s\n", what);
    ++failures;
  }
}

static int aligned(const void* p, uintptr_t to) {
  return (uintptr_t)p % to == 0;
}

static int zero(const unsigned char* p, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (p[i]) return 0;
  return 1;
}

int main(void) {
  enum { N = 16 };
  void* blocks[N];
  /* A heap block freed dirty, so a calloc that reuses it must clear it. */
  unsigned char* dirty = malloc(8192);
  memset(dirty, 0xab, 8192);
  free(dirty);

  wb_placement_begin();
  for (int i = 0; i < N; ++i)
    blocks[i] = malloc(1500);
  unsigned char* page = malloc(5000);
  unsigned char* heap_zero = calloc(4, 2000);
  unsigned char* mapped_zero = calloc(1, (size_t)3 << 20);
  unsigned char* small = malloc(100);
  wb_placement_end();

  for (int i = 0; i < N; ++i)
    expect(aligned(blocks[i], 64), "a 1500-byte block of a setup is not on a 64-byte line");
  expect(aligned(page, 4096), "a 5000-byte block of a setup is not page-aligned");
  expect(aligned(heap_zero, 4096) && zero(heap_zero, 8000),
         "calloc(4, 2000) in a setup is not page-aligned and zero");
  expect(aligned(mapped_zero, 4096) && zero(mapped_zero, (size_t)3 << 20),
         "calloc of 3 MiB in a setup is not page-aligned and zero");
  expect(small != NULL, "a small block of a setup");
  memset(page, 1, 5000);
  page = realloc(page, 20000);
  expect(page && page[4999] == 1, "realloc lost an aligned block's bytes");

  /* Outside a setup malloc is glibc's: consecutive 1500-byte blocks lie 1520 bytes apart, so
   * they cannot all start a line. */
  void* later[N];
  int all_on_a_line = 1;
  for (int i = 0; i < N; ++i) {
    later[i] = malloc(1500);
    all_on_a_line &= aligned(later[i], 64);
  }
  expect(!all_on_a_line, "blocks allocated outside a setup were aligned too");

  for (int i = 0; i < N; ++i)
    free(blocks[i]), free(later[i]);
  free(page), free(heap_zero), free(mapped_zero), free(small);
  if (!failures) puts("wb_align_check: setups aligned, the rest glibc's");
  return failures != 0;
}
