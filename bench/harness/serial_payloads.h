/* The payloads of the serialization suite, the same from C, C++ and (in mpi4py_serial.py)
 * Python, so every rank can verify what it got:
 *
 *   ser_vecstr  count n: n strings of n chars (a vector<string>)
 *   ser_map     count n: n entries, key 3i+1 -> a string of 16 chars (a map<int, string>)
 *   ser_record  count n: a struct of a string of n chars and a vector of n doubles
 *
 * The wire format of the C packing is thinmpi's: 64-bit lengths, native byte order. */
#ifndef WB_SERIAL_PAYLOADS_H
#define WB_SERIAL_PAYLOADS_H

#include <stddef.h>

enum { WB_SERIAL_MAP_VALUE_CHARS = 16 };

/* Character j of string i of a payload. */
static inline char wb_serial_char(size_t i, size_t j) {
  return (char)('a' + (int)((i * 7u + j) % 26u));
}

/* Key of map entry i. */
static inline int wb_serial_key(size_t i) {
  return (int)(3u * i + 1u);
}

/* Value j of the record's vector. */
static inline double wb_serial_value(size_t j) {
  return (double)j * 0.5 + 1.0;
}

#endif /* WB_SERIAL_PAYLOADS_H */
