// libFuzzer target for the serialization decoder (thinmpi::from_bytes, which every serialized
// receive uses): the first byte picks the type, the rest is the message. Any outcome but a
// value or a thinmpi::serialization_error (a crash, a sanitizer report, another exception, an
// allocation past -rss_limit_mb) is a finding. A value that decodes must encode and decode again
// without any error (a serialization_error there is a finding too) to an equal value
// (operator==; for values holding a NaN, to the same bytes), of the same encoded length.
//
//   make fuzz FUZZ_SECONDS=600      a longer run (build/openmpi-clang/tests/serialization_fuzz)

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <tuple>
#include <unordered_map>
#include <variant>
#include <vector>

#include "support/serial_samples.hpp"
#include "thinmpi/serialization/serialized.hpp"

namespace {

template <class T>
void decode_as(std::span<const std::byte> message) {
  std::optional<T> value;
  try {
    value.emplace(thinmpi::from_bytes<T>(message));
  } catch (const thinmpi::serialization_error&) {
    return;  // the expected outcome for malformed input
  }
  // The message was a valid encoding: the value's own encoding must decode back to it. Any
  // exception from here on (a serialization_error too) escapes and is a finding.
  const auto again = thinmpi::to_bytes(*value);
  const T twice = thinmpi::from_bytes<T>(again);
  if (thinmpi::serialized_size(twice) != again.size()) std::abort();
  // A NaN (any double field) is not equal to itself: where the values compare unequal, the
  // re-encoded bytes must be the same bits instead.
  if (!(twice == *value)) {
    const auto third = thinmpi::to_bytes(twice);
    if (!std::equal(third.begin(), third.end(), again.begin(), again.end())) std::abort();
  }
}

using decoder = void (*)(std::span<const std::byte>);

constexpr decoder decoders[] = {
    &decode_as<std::vector<std::string>>,
    &decode_as<std::map<int, std::string>>,
    &decode_as<thinmpi_test::record>,
    &decode_as<thinmpi_test::nested>,
    &decode_as<thinmpi_test::mixed>,
    &decode_as<thinmpi_test::account>,
    &decode_as<std::unordered_map<std::string, std::set<int>>>,
    &decode_as<std::vector<std::variant<std::monostate, int, std::string, std::optional<double>>>>,
    &decode_as<std::vector<double>>,
    &decode_as<std::tuple<bool, std::optional<std::vector<char>>>>,
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto* bytes = reinterpret_cast<const std::byte*>(data);
  decoders[data[0] % std::size(decoders)](std::span(bytes + 1, size - 1));
  return 0;
}
