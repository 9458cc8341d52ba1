// wb_sort_ints: std::sort for the C programs, so that their local sort is the examples' own.
#include <algorithm>
#include <cstddef>

#include "programs.h"

extern "C" void wb_sort_ints(int* values, size_t n) {
  std::sort(values, values + n);
}
