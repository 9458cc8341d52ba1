// Messages of more than INT_MAX elements: MPI-4 `_c` calls where the library has them (MPICH
// 4.0), one element of a derived datatype spanning them all elsewhere (Open MPI 4.1). One
// message of 2 GiB + 100 bytes each way between two ranks.

#include <gtest/gtest.h>

#include <climits>
#include <cstddef>
#include <vector>

#include "thinmpi/thinmpi.hpp"

namespace {

constexpr std::size_t huge = static_cast<std::size_t>(INT_MAX) + 101;

char pattern(std::size_t i) {
  return static_cast<char>(i * 7 % 251);
}

bool has_pattern(const std::vector<char>& data) {
  for (std::size_t i = 0; i < data.size(); i += 4093) {
    if (data[i] != pattern(i)) return false;
  }
  return data.size() == huge && data.back() == pattern(huge - 1);
}

std::vector<char> make_huge() {
  std::vector<char> data(huge);
  for (std::size_t i = 0; i < data.size(); i += 4093)
    data[i] = pattern(i);
  data.back() = pattern(huge - 1);
  return data;
}

TEST(LargeCount, MoreThanIntMaxElementsEachWay) {
  auto world = thinmpi::world();
  ASSERT_EQ(world.size(), 2) << "this test moves 2 GiB between exactly two ranks";
  if (world.rank() == 0) {
    {
      const std::vector<char> out = make_huge();
      world.send(out, 1, 0);
    }
    // Back into a bounded container: its size is the bound.
    std::vector<char> in(huge + 10);
    const thinmpi::status st = world.recv(in, 1, 1);
    EXPECT_EQ(st.count(), huge);
    EXPECT_EQ(st.bytes(), huge);
    EXPECT_TRUE(has_pattern(in));
  } else {
    // An allocating receive sizes the vector from the matched probe.
    std::vector<char> in = world.recv<std::vector<char>>(0, 0);
    EXPECT_TRUE(has_pattern(in));
    auto back = world.isend(std::move(in), 0, 1);
    static_cast<void>(back.wait());
  }
}

}  // namespace
