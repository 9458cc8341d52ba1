// The decoder of thinmpi::from_bytes (the one every serialized receive uses) against malformed
// input: every truncation of sample encodings, lengths set to huge values, bytes appended,
// invalid tags. Each is a serialization_error naming the type and the offset; none crashes,
// reads out of bounds (the sanitizer build of the fuzz target checks that) or allocates more
// than the message could fill.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <new>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "support/serial_samples.hpp"
#include "thinmpi/serialization/serialized.hpp"

namespace {

/// The largest single request to the global operator new since the last reset (this binary
/// replaces operator new, below, to measure it).
std::atomic<std::size_t> largest_allocation{0};

void note_allocation(std::size_t n) noexcept {
  std::size_t seen = largest_allocation.load(std::memory_order_relaxed);
  while (n > seen && !largest_allocation.compare_exchange_weak(seen, n)) {
  }
}

/// The largest allocation `decode` makes, from thinmpi's or the standard library's code alike.
template <class F>
std::size_t largest_allocation_in(F&& decode) {
  largest_allocation = 0;
  decode();
  return largest_allocation.load();
}

}  // namespace

// The global operator new and delete of this test binary count what they are asked for: a
// decoder that sizes a container from a length before checking it against the bytes left shows
// as an allocation far beyond the message's size. (MPI allocates with malloc: not counted.)
// Not inlined: GCC 12 would see free() meet a pointer from operator new at each call site
// (-Wmismatched-new-delete), not knowing that this operator new is malloc.
[[gnu::noinline]] void* operator new(std::size_t n) {
  note_allocation(n);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void operator delete(void* p) noexcept {
  std::free(p);
}
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}

namespace {

using bytes = std::vector<std::byte>;

template <class T>
bytes encode(const T& value) {
  const auto wire = thinmpi::to_bytes(value);
  return bytes(wire.begin(), wire.end());
}

/// Decoding every proper prefix of value's encoding fails with an offset inside the prefix.
template <class T>
void every_truncation_fails(const T& value) {
  const bytes whole = encode(value);
  EXPECT_EQ(thinmpi::from_bytes<T>(whole), value);
  for (std::size_t n = 0; n < whole.size(); ++n) {
    try {
      static_cast<void>(thinmpi::from_bytes<T>(std::span(whole.data(), n)));
      ADD_FAILURE() << "a prefix of " << n << " of " << whole.size() << " bytes was accepted";
    } catch (const thinmpi::serialization_error& e) {
      EXPECT_LE(e.offset(), n);
      EXPECT_EQ(e.message_bytes(), n);
      EXPECT_FALSE(e.type_name().empty());
      EXPECT_EQ(e.operation(), "thinmpi::from_bytes");
    }
  }
}

/// Appending a byte to value's encoding is an error about the bytes left over.
template <class T>
void appended_bytes_fail(const T& value) {
  bytes longer = encode(value);
  longer.push_back(std::byte{0});
  try {
    static_cast<void>(thinmpi::from_bytes<T>(longer));
    ADD_FAILURE() << "a trailing byte was accepted";
  } catch (const thinmpi::serialization_error& e) {
    EXPECT_EQ(e.offset(), longer.size() - 1);
    EXPECT_NE(std::string(e.what()).find("1 byte left over"), std::string::npos) << e.what();
  }
}

TEST(SerializationDecode, EveryTruncationOfEverySampleIsAnError) {
  every_truncation_fails(thinmpi_test::sample_strings(3));
  every_truncation_fails(thinmpi_test::sample_record(4));
  every_truncation_fails(thinmpi_test::sample_nested(5));
  every_truncation_fails(thinmpi_test::sample_mixed(6));
  every_truncation_fails(thinmpi_test::account("someone", 42));
  every_truncation_fails(std::map<int, std::string>{{1, "one"}, {2, "two"}});
}

TEST(SerializationDecode, AppendedBytesAreAnError) {
  appended_bytes_fail(thinmpi_test::sample_strings(3));
  appended_bytes_fail(thinmpi_test::sample_record(4));
  appended_bytes_fail(thinmpi_test::sample_mixed(6));
  appended_bytes_fail(std::string());
}

/// The most a decode of `message_bytes` may ask of operator new at once: room for as many
/// strings as the message holds lengths (8 bytes each), or the error message's text (1 KiB).
std::size_t max_allocation_for(std::size_t message_bytes) {
  return std::max<std::size_t>(message_bytes / 8 * sizeof(std::string), 1024);
}

TEST(SerializationDecode, EveryLengthSetHugeIsRejectedBeforeAllocating) {
  // A vector<string> of two strings: lengths at offsets 0, 8 and 8 + 8 + 3.
  const bytes whole = encode(std::vector<std::string>{"abc", "de"});
  for (const std::size_t at : {std::size_t{0}, std::size_t{8}, std::size_t{19}}) {
    for (const std::uint64_t huge :
         {std::numeric_limits<std::uint64_t>::max(), std::uint64_t{1} << 40,
          std::uint64_t{std::numeric_limits<int>::max()} + 1, std::uint64_t{whole.size()}}) {
      bytes evil = whole;
      std::memcpy(evil.data() + at, &huge, sizeof huge);
      const std::size_t largest = largest_allocation_in([&] {
        try {
          static_cast<void>(thinmpi::from_bytes<std::vector<std::string>>(evil));
          ADD_FAILURE() << "length " << huge << " at " << at << " was accepted";
        } catch (const thinmpi::serialization_error& e) {
          EXPECT_EQ(e.offset(), at) << e.what();
          EXPECT_NE(std::string(e.what()).find("exceeds the"), std::string::npos) << e.what();
        }
      });
      // Nothing sized from the length: no allocation beyond what the message could fill (a
      // string per 8 bytes of it, each length at least 8 bytes) or the error's own text.
      EXPECT_LE(largest, max_allocation_for(evil.size()))
          << "length " << huge << " at " << at << ": an allocation of " << largest << " bytes";
    }
  }
}

TEST(SerializationDecode, NineBytesNeverAskForGigabytes) {
  // Nine bytes: a length of 2^63 and one byte. Checked against the byte left, not allocated.
  bytes nine(9, std::byte{0});
  nine[7] = std::byte{0x80};
  const std::size_t largest = largest_allocation_in([&] {
    EXPECT_THROW(static_cast<void>(thinmpi::from_bytes<std::string>(nine)),
                 thinmpi::serialization_error);
    EXPECT_THROW(static_cast<void>(thinmpi::from_bytes<std::vector<double>>(nine)),
                 thinmpi::serialization_error);
    EXPECT_THROW(static_cast<void>(thinmpi::from_bytes<std::map<int, int>>(nine)),
                 thinmpi::serialization_error);
  });
  EXPECT_LE(largest, max_allocation_for(nine.size())) << "an allocation of " << largest << " bytes";
  // A vector of 1 double needs 8 bytes; one is left.
  nine[7] = std::byte{0};
  nine[0] = std::byte{1};
  try {
    static_cast<void>(thinmpi::from_bytes<std::vector<double>>(nine));
    ADD_FAILURE();
  } catch (const thinmpi::serialization_error& e) {
    EXPECT_NE(std::string(e.what()).find("a length of 1 element of at least 8 bytes each exceeds "
                                         "the 1 byte left"),
              std::string::npos)
        << e.what();
    EXPECT_NE(e.type_name().find("vector<double"), std::string::npos) << e.type_name();
  }
}

TEST(SerializationDecode, InvalidTagsAreErrors) {
  bytes flag = encode(std::optional<int>(5));
  flag[0] = std::byte{2};
  EXPECT_THROW(static_cast<void>(thinmpi::from_bytes<std::optional<int>>(flag)),
               thinmpi::serialization_error);

  using either = std::variant<int, std::string>;
  bytes index = encode(either(7));
  index[0] = std::byte{2};
  try {
    static_cast<void>(thinmpi::from_bytes<either>(index));
    ADD_FAILURE();
  } catch (const thinmpi::serialization_error& e) {
    EXPECT_NE(std::string(e.what()).find("an alternative index of 2"), std::string::npos)
        << e.what();
  }

  bytes truth = encode(true);
  truth[0] = std::byte{7};
  EXPECT_THROW(static_cast<void>(thinmpi::from_bytes<bool>(truth)), thinmpi::serialization_error);
}

TEST(SerializationDecode, DuplicateKeysAreErrors) {
  bytes twice = encode(std::map<int, int>{{1, 10}, {2, 20}});
  const int one = 1;
  std::memcpy(twice.data() + 8 + 8, &one, sizeof one);  // the second key becomes 1 too
  EXPECT_THROW(static_cast<void>(thinmpi::from_bytes<std::map<int, int>>(twice)),
               thinmpi::serialization_error);
}

TEST(SerializationDecode, ADuplicateKeyIsReportedAfterItsValue) {
  // A map's entry is decoded into its node (its value read in place): a duplicate key is still
  // reported where the whole entry ends, and a duplicate whose value is cut short is a
  // truncation, as when the entry was read before the key was looked up.
  using table = std::map<int, std::string>;
  bytes twice = encode(table{{1, "one"}, {2, "two"}});
  const int one = 1;
  const std::size_t second = 8 + (4 + 8 + 3);  // the second entry's key
  std::memcpy(twice.data() + second, &one, sizeof one);
  try {
    static_cast<void>(thinmpi::from_bytes<table>(twice));
    ADD_FAILURE() << "a duplicate key was accepted";
  } catch (const thinmpi::serialization_error& e) {
    EXPECT_EQ(e.offset(), twice.size()) << e.what();
    EXPECT_NE(std::string(e.what()).find("a duplicate key (the element at byte 23)"),
              std::string::npos)
        << e.what();
  }
  try {
    static_cast<void>(thinmpi::from_bytes<table>(std::span(twice.data(), twice.size() - 1)));
    ADD_FAILURE() << "a cut duplicate was accepted";
  } catch (const thinmpi::serialization_error& e) {
    EXPECT_EQ(e.offset(), second + 4) << e.what();  // the value's length
    EXPECT_NE(std::string(e.what()).find("reading std::string, a length of 3 elements of at least "
                                         "1 byte each exceeds the 2 bytes left"),
              std::string::npos)
        << e.what();
  }
  every_truncation_fails(table{{1, "one"}, {2, "a value longer than a short string"}});
  every_truncation_fails(std::unordered_map<int, std::string>{{1, "one"}, {2, "two"}});
}

TEST(SerializationDecode, AVectorOfPairsReadsAMapsBytes) {
  // The flat form of a map (wrapper-bench's ser_map_flat): the same wire format both ways.
  const std::map<int, std::string> table = {{1, "one"}, {4, "a value longer than sixteen"}};
  using flat = std::vector<std::pair<int, std::string>>;
  const flat entries(table.begin(), table.end());
  EXPECT_EQ(encode(entries), encode(table));
  EXPECT_EQ(thinmpi::from_bytes<flat>(encode(table)), entries);
  using table_type = std::map<int, std::string>;
  EXPECT_EQ(thinmpi::from_bytes<table_type>(encode(entries)), table);
  every_truncation_fails(entries);
  every_truncation_fails(std::vector<std::pair<std::string, std::string>>{
      {"key", "a value longer than sixteen"}, {"", ""}});
}

TEST(SerializationDecode, ErrorNamesTheTypeBeingDecoded) {
  const bytes whole = encode(thinmpi_test::sample_record(1));
  try {
    static_cast<void>(thinmpi::from_bytes<thinmpi_test::record>(std::span(whole.data(), 3)));
    ADD_FAILURE();
  } catch (const thinmpi::serialization_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("as thinmpi_test::record"), std::string::npos) << what;
    EXPECT_NE(what.find("at byte 0, reading int"), std::string::npos) << what;
    EXPECT_NE(what.find("of 3 bytes"), std::string::npos) << what;
  }
}

TEST(SerializationDecode, FormatIsNativeWithSixtyFourBitLengths) {
  const bytes b = encode(std::string("hi"));
  ASSERT_EQ(b.size(), 10u);
  std::uint64_t length = 0;
  std::memcpy(&length, b.data(), sizeof length);
  EXPECT_EQ(length, 2u);
  EXPECT_EQ(static_cast<char>(b[8]), 'h');
}

}  // namespace
