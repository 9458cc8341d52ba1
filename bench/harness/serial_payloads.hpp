// The serialization suite's payloads as C++ values (serial_payloads.h says what they hold), for
// the thinmpi and Boost.MPI kernels.
#ifndef WB_SERIAL_PAYLOADS_HPP
#define WB_SERIAL_PAYLOADS_HPP

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

// serial_payloads.h is C: its casts are C casts.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
#include "serial_payloads.h"
#pragma GCC diagnostic pop

namespace wb_serial {

/// ser_record: a struct of a string and a vector of doubles. Boost.MPI needs the serialize
/// member; thinmpi reflects the aggregate (and ignores the member template's Archive form).
struct record {
  std::string name;
  std::vector<double> values;
  bool operator==(const record&) const = default;
};

inline std::string text(std::size_t seed, std::size_t length) {
  std::string chars(length, ' ');
  for (std::size_t j = 0; j < length; ++j)
    chars[j] = wb_serial_char(seed, j);
  return chars;
}

inline std::vector<std::string> make_vecstr(std::size_t n) {
  std::vector<std::string> strings;
  strings.reserve(n);
  for (std::size_t i = 0; i < n; ++i)
    strings.push_back(text(i, n));
  return strings;
}

inline std::map<int, std::string> make_map(std::size_t n) {
  std::map<int, std::string> entries;
  for (std::size_t i = 0; i < n; ++i)
    entries.emplace(wb_serial_key(i), text(i, WB_SERIAL_MAP_VALUE_CHARS));
  return entries;
}

/// ser_map_flat: the same entries, in key order, as a vector of pairs. Its encoding is the
/// map's (a length, then each key and value), so C's floor is c/ser_map's.
inline std::vector<std::pair<int, std::string>> make_map_flat(std::size_t n) {
  std::vector<std::pair<int, std::string>> entries;
  entries.reserve(n);
  for (std::size_t i = 0; i < n; ++i)
    entries.emplace_back(wb_serial_key(i), text(i, WB_SERIAL_MAP_VALUE_CHARS));
  return entries;
}

inline record make_record(std::size_t n) {
  record r{text(0, n), std::vector<double>(n)};
  for (std::size_t j = 0; j < n; ++j)
    r.values[j] = wb_serial_value(j);
  return r;
}

}  // namespace wb_serial

#endif  // WB_SERIAL_PAYLOADS_HPP
