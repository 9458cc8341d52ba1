// std::sort for the C programs of the rma suite, so that their local work is the examples'.
#include <algorithm>
#include <cstddef>

#include "rma_kernels.h"

extern "C" void wb_sort_longs(long* values, std::size_t n) {
  std::sort(values, values + n);
}
