// Datatypes: C++ types map to MPI's predefined datatypes, arrays and aggregate structs get a
// derived datatype with the right size and extent (padding never sent), and a type can bring
// its own through thinmpi::datatype_traits.

#include <gtest/gtest.h>

#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <list>
#include <string>
#include <vector>

#include "support/ring.hpp"
#include "thinmpi/thinmpi.hpp"

namespace {

using thinmpi_test::ring;

enum class color : std::uint8_t { red = 1, green = 2 };
enum legacy { first = -1, second = 70000 };

struct padded {
  char tag;
  double value;  // 7 bytes of padding before it
  short small;   // 6 bytes of padding after it
};

struct with_arrays {
  double position[3];
  std::array<float, 2> pair;
  std::complex<double> phase;
  int id;
};

struct nested {
  padded inner;
  color shade;
  with_arrays items[2];
};

// A class thinmpi cannot see into, with a datatype of its own.
class opaque {
 public:
  opaque() = default;
  explicit opaque(long v) : value_(v) {}
  [[nodiscard]] long value() const { return value_; }

 private:
  long value_ = 0;
};

// An aggregate with a datatype of its own (MPI_2INT), which thinmpi uses instead of its members.
struct custom_pair {
  int first;
  int second;
};

}  // namespace

template <>
struct thinmpi::datatype_traits<opaque> {
  static MPI_Datatype get() { return MPI_LONG; }
};

template <>
struct thinmpi::datatype_traits<custom_pair> {
  static MPI_Datatype get() { return MPI_2INT; }
};

namespace {

MPI_Count size_of(MPI_Datatype type) {
  MPI_Count size = 0;
  MPI_Type_size_x(type, &size);
  return size;
}

MPI_Count extent_of(MPI_Datatype type) {
  MPI_Count lower = 0;
  MPI_Count extent = 0;
  MPI_Type_get_extent_x(type, &lower, &extent);
  return extent;
}

TEST(Datatype, PredefinedTypesMapToMpisOwn) {
  EXPECT_EQ(thinmpi::datatype_of<char>(), MPI_CHAR);
  EXPECT_EQ(thinmpi::datatype_of<signed char>(), MPI_SIGNED_CHAR);
  EXPECT_EQ(thinmpi::datatype_of<unsigned char>(), MPI_UNSIGNED_CHAR);
  EXPECT_EQ(thinmpi::datatype_of<short>(), MPI_SHORT);
  EXPECT_EQ(thinmpi::datatype_of<unsigned short>(), MPI_UNSIGNED_SHORT);
  EXPECT_EQ(thinmpi::datatype_of<int>(), MPI_INT);
  EXPECT_EQ(thinmpi::datatype_of<unsigned>(), MPI_UNSIGNED);
  EXPECT_EQ(thinmpi::datatype_of<long>(), MPI_LONG);
  EXPECT_EQ(thinmpi::datatype_of<unsigned long>(), MPI_UNSIGNED_LONG);
  EXPECT_EQ(thinmpi::datatype_of<long long>(), MPI_LONG_LONG);
  EXPECT_EQ(thinmpi::datatype_of<unsigned long long>(), MPI_UNSIGNED_LONG_LONG);
  EXPECT_EQ(thinmpi::datatype_of<float>(), MPI_FLOAT);
  EXPECT_EQ(thinmpi::datatype_of<double>(), MPI_DOUBLE);
  EXPECT_EQ(thinmpi::datatype_of<long double>(), MPI_LONG_DOUBLE);
  EXPECT_EQ(thinmpi::datatype_of<bool>(), MPI_CXX_BOOL);
  EXPECT_EQ(thinmpi::datatype_of<wchar_t>(), MPI_WCHAR);
  EXPECT_EQ(thinmpi::datatype_of<std::byte>(), MPI_BYTE);
  EXPECT_EQ(thinmpi::datatype_of<std::complex<float>>(), MPI_CXX_FLOAT_COMPLEX);
  EXPECT_EQ(thinmpi::datatype_of<std::complex<double>>(), MPI_CXX_DOUBLE_COMPLEX);
  EXPECT_EQ(thinmpi::datatype_of<std::complex<long double>>(), MPI_CXX_LONG_DOUBLE_COMPLEX);
  EXPECT_EQ(thinmpi::datatype_of<const int>(), MPI_INT);
  EXPECT_EQ(size_of(thinmpi::datatype_of<char16_t>()), 2);
  EXPECT_EQ(size_of(thinmpi::datatype_of<char32_t>()), 4);
  EXPECT_EQ(size_of(thinmpi::datatype_of<std::int8_t>()), 1);
  EXPECT_EQ(size_of(thinmpi::datatype_of<std::uint64_t>()), 8);
}

TEST(Datatype, EnumsTravelAsTheirUnderlyingType) {
  EXPECT_EQ(thinmpi::datatype_of<color>(), MPI_UNSIGNED_CHAR);
  EXPECT_EQ(size_of(thinmpi::datatype_of<legacy>()), static_cast<MPI_Count>(sizeof(legacy)));
}

TEST(Datatype, ArraysAreContiguousBlocks) {
  const MPI_Datatype triple = thinmpi::datatype_of<std::array<double, 3>>();
  EXPECT_EQ(size_of(triple), 24);
  EXPECT_EQ(extent_of(triple), 24);
  EXPECT_EQ((thinmpi::datatype_of<std::array<double, 3>>()), triple);  // built once
  using grid = int[2][3];
  EXPECT_EQ(size_of(thinmpi::datatype_of<grid>()), 24);
}

TEST(Datatype, StructsSendTheirMembersNotTheirPadding) {
  const MPI_Datatype type = thinmpi::datatype_of<padded>();
  EXPECT_EQ(size_of(type), 1 + 8 + 2);
  EXPECT_EQ(extent_of(type), static_cast<MPI_Count>(sizeof(padded)));
  EXPECT_EQ(size_of(thinmpi::datatype_of<with_arrays>()), 24 + 8 + 16 + 4);
  EXPECT_EQ(extent_of(thinmpi::datatype_of<nested>()), static_cast<MPI_Count>(sizeof(nested)));
  EXPECT_EQ(size_of(thinmpi::datatype_of<nested>()), 11 + 1 + 2 * 52);
  char name[MPI_MAX_OBJECT_NAME] = {};
  int length = 0;
  MPI_Type_get_name(type, name, &length);
  EXPECT_NE(std::string(name, static_cast<std::size_t>(length)).find("padded"), std::string::npos);
}

// A struct holding a member only MPI can size: its wire size is asked of MPI.
struct holds_custom {
  custom_pair inside;
  int id;
};

TEST(Datatype, WireSizesKnownAtCompileTimeAreWhatMpiSays) {
  using thinmpi::detail::static_wire_size;
  static_assert(static_wire_size<int>() == sizeof(int));
  static_assert(static_wire_size<color>() == 1);
  static_assert(static_wire_size<padded>() == 1 + 8 + 2);
  static_assert(static_wire_size<nested>() == 11 + 1 + 2 * 52);
  static_assert(static_wire_size<int[2][3]>() == 24);
  static_assert(static_wire_size<opaque>() == 0);        // a datatype_traits specialization
  static_assert(static_wire_size<holds_custom>() == 0);  // and a struct holding one
  static_assert(thinmpi::detail::wire_size_is_sizeof<holds_custom[1]> == false);
  static_assert(thinmpi::detail::wire_size_is_sizeof<std::array<int, 3>>);
  static_assert(!thinmpi::detail::wire_size_is_sizeof<with_arrays>);  // 52 bytes of 56
  static_assert(!thinmpi::detail::wire_size_is_sizeof<padded>);
  EXPECT_EQ(static_cast<MPI_Count>(thinmpi::detail::wire_size<padded>()),
            size_of(thinmpi::datatype_of<padded>()));
  EXPECT_EQ(static_cast<MPI_Count>(thinmpi::detail::wire_size<nested>()),
            size_of(thinmpi::datatype_of<nested>()));
  EXPECT_EQ(static_cast<MPI_Count>(thinmpi::detail::wire_size<holds_custom>()),
            size_of(thinmpi::datatype_of<holds_custom>()));
  EXPECT_EQ(thinmpi::detail::wire_size<holds_custom>(), 3 * sizeof(int));
}

TEST(Datatype, CustomDatatypesAreUsedAsGiven) {
  EXPECT_EQ(thinmpi::datatype_of<opaque>(), MPI_LONG);
  auto world = thinmpi::world();
  const ring r(world);
  auto sent = world.isend(std::vector<opaque>{opaque(r.rank), opaque(-5)}, r.next(), 0);
  const auto got = world.recv<std::vector<opaque>>(r.prev(), 0);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].value(), r.prev());
  EXPECT_EQ(got[1].value(), -5);
  sent.wait();
}

TEST(Datatype, StructsRoundTripThroughMpi) {
  auto world = thinmpi::world();
  const ring r(world);
  nested out{};
  out.inner = {'x', 1.5 * r.rank, 7};
  out.shade = color::green;
  out.items[1].position[2] = -2.0;
  out.items[1].pair = {0.5f, 0.25f};
  out.items[1].phase = {1.0, -1.0};
  out.items[1].id = r.rank;
  auto sent = world.isend(out, r.next(), 0);
  const auto got = world.recv<nested>(r.prev(), 0);
  EXPECT_EQ(got.inner.tag, 'x');
  EXPECT_EQ(got.inner.value, 1.5 * r.prev());
  EXPECT_EQ(got.inner.small, 7);
  EXPECT_EQ(got.shade, color::green);
  EXPECT_EQ(got.items[1].position[2], -2.0);
  EXPECT_EQ(got.items[1].pair[1], 0.25f);
  EXPECT_EQ(got.items[1].phase, std::complex<double>(1.0, -1.0));
  EXPECT_EQ(got.items[1].id, r.prev());
  sent.wait();
}

TEST(Datatype, WhatHasADatatypeAndWhatDoesNot) {
  static_assert(thinmpi::has_datatype<padded>);
  static_assert(thinmpi::has_datatype<nested>);
  static_assert(thinmpi::has_datatype<std::array<padded, 4>>);
  static_assert(thinmpi::has_datatype<opaque>);
  struct with_pointer {
    int* p;
  };
  struct with_string {
    std::string s;
  };
  static_assert(!thinmpi::has_datatype<int*>);
  static_assert(!thinmpi::has_datatype<with_pointer>);
  static_assert(!thinmpi::has_datatype<with_string>);
  static_assert(!thinmpi::has_datatype<std::vector<int>>);
  static_assert(thinmpi::scalar_payload<padded>);
  static_assert(thinmpi::contiguous_payload<std::vector<padded>>);
  static_assert(thinmpi::contiguous_payload<std::string>);
  static_assert(thinmpi::resizable_payload<std::string>);
  static_assert(!thinmpi::resizable_payload<std::array<int, 3>>);
  static_assert(!thinmpi::payload<std::list<int>>);
  static_assert(!thinmpi::payload<std::vector<bool>>);
  static_assert(!thinmpi::payload<std::vector<std::string>>);
  SUCCEED();
}

}  // namespace
