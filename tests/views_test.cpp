// Strided and sub-array views (core/views.hpp): a column and a block of a row-major grid sent and
// received between ranks and to self by every point-to-point form, compared with the elements
// picked by hand; one cached datatype per shape; out-of-range views rejected before MPI is
// called; and a view sent as one MPI_Send of one element of its datatype, with no MPI_Pack and
// no datatype built per send (counted by PMPI wrappers defined in this file).

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <span>
#include <vector>

#include "support/mpi_error_match.hpp"
#include "support/ring.hpp"
#include "thinmpi/thinmpi.hpp"

namespace {

/// MPI calls this program made, counted by the wrappers below.
struct call_counts {
  int send = 0;
  int pack = 0;
  int type_vector = 0;
  int type_subarray = 0;
  int type_commit = 0;
};
call_counts counted;

}  // namespace

// The profiling interface: these definitions take the place of the library's MPI_ names in
// this program, and forward to the PMPI_ ones.
extern "C" {
int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  ++counted.send;
  return PMPI_Send(buf, count, type, dest, tag, comm);
}
int MPI_Pack(const void* in, int count, MPI_Datatype type, void* out, int size, int* position,
             MPI_Comm comm) {
  ++counted.pack;
  return PMPI_Pack(in, count, type, out, size, position, comm);
}
int MPI_Type_vector(int count, int block, int stride, MPI_Datatype old, MPI_Datatype* made) {
  ++counted.type_vector;
  return PMPI_Type_vector(count, block, stride, old, made);
}
int MPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[], const int starts[],
                             int order, MPI_Datatype old, MPI_Datatype* made) {
  ++counted.type_subarray;
  return PMPI_Type_create_subarray(ndims, sizes, subsizes, starts, order, old, made);
}
int MPI_Type_commit(MPI_Datatype* type) {
  ++counted.type_commit;
  return PMPI_Type_commit(type);
}
}

namespace {

using thinmpi_test::ring;
using thinmpi_test::throws_mpi_error;

constexpr std::size_t rows = 5;
constexpr std::size_t cols = 7;

/// What rank `owner` holds at (r, c) of its grid: predictable on every rank.
double cell(int owner, std::size_t r, std::size_t c) {
  return owner * 1000.0 + static_cast<double>(r * cols + c);
}

std::vector<double> grid_of(int owner) {
  std::vector<double> grid(rows * cols);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c)
      grid[r * cols + c] = cell(owner, r, c);
  }
  return grid;
}

/// Column c of `owner`'s grid, picked by hand.
std::vector<double> column_of(int owner, std::size_t c) {
  std::vector<double> column;
  for (std::size_t r = 0; r < rows; ++r)
    column.push_back(cell(owner, r, c));
  return column;
}

/// The block of `owner`'s grid of h x w cells at (r0, c0), row by row, picked by hand.
std::vector<double> block_of(int owner, std::size_t r0, std::size_t c0, std::size_t h,
                             std::size_t w) {
  std::vector<double> block;
  for (std::size_t r = r0; r < r0 + h; ++r) {
    for (std::size_t c = c0; c < c0 + w; ++c)
      block.push_back(cell(owner, r, c));
  }
  return block;
}

/// Checks that `grid` holds `expected` at (r0.., c0..) (h x w, row by row) and -1 elsewhere.
void expect_only_block(const std::vector<double>& grid, std::size_t r0, std::size_t c0,
                       std::size_t h, std::size_t w, const std::vector<double>& expected) {
  std::size_t k = 0;
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) {
      const bool inside = r >= r0 && r < r0 + h && c >= c0 && c < c0 + w;
      EXPECT_EQ(grid[r * cols + c], inside ? expected[k++] : -1.0) << "at " << r << "," << c;
    }
  }
}

TEST(Views, IterateTheElementsTheySelect) {
  const std::vector<double> grid = grid_of(3);
  const auto column = thinmpi::strided(std::span(grid).subspan(2), rows, cols);
  EXPECT_EQ(std::vector<double>(column.begin(), column.end()), column_of(3, 2));
  EXPECT_EQ(column.size(), rows);
  const auto block = thinmpi::subarray(grid, {rows, cols}, {2, 3}, {1, 4});
  EXPECT_EQ(std::vector<double>(block.begin(), block.end()), block_of(3, 1, 4, 2, 3));
  const auto pairs = thinmpi::strided(grid, 3, 10, 2);  // {0,1}, {10,11}, {20,21}
  EXPECT_EQ(std::vector<double>(pairs.begin(), pairs.end()),
            (std::vector<double>{grid[0], grid[1], grid[10], grid[11], grid[20], grid[21]}));
}

TEST(Views, ColumnGoesToTheNextRankAndIntoItsColumn) {
  auto world = thinmpi::world();
  const ring r(world);
  const std::vector<double> grid = grid_of(r.rank);
  std::vector<double> into(rows * cols, -1.0);
  // Contiguous on one side, strided on the other, then strided on both.
  auto sent =
      world.isend(thinmpi::strided(std::span(grid).subspan(cols - 1), rows, cols), r.next(), 1);
  std::vector<double> column(rows);
  world.recv(column, r.prev(), 1);
  sent.wait();
  EXPECT_EQ(column, column_of(r.prev(), cols - 1));

  auto right = thinmpi::strided(std::span(into).subspan(2), rows, cols);
  const thinmpi::status st =
      world.sendrecv(thinmpi::strided(grid, rows, cols), r.next(), 2, right, r.prev(), 2);
  EXPECT_EQ(st.bytes(), rows * sizeof(double));
  expect_only_block(into, 0, 2, rows, 1, column_of(r.prev(), 0));
}

TEST(Views, BlockGoesToTheNextRankAndIntoItsBlock) {
  auto world = thinmpi::world();
  const ring r(world);
  const std::vector<double> grid = grid_of(r.rank);
  std::vector<double> into(rows * cols, -1.0);
  // The receive is posted first into a temporary view, which the request borrows.
  auto receiving = world.irecv(thinmpi::subarray(into, {rows, cols}, {3, 2}, {2, 5}), r.prev(), 3);
  world.send(thinmpi::subarray(grid, {rows, cols}, {3, 2}, {1, 1}), r.next(), 3);
  const thinmpi::status st = receiving.wait();
  EXPECT_EQ(st.bytes(), 6 * sizeof(double));
  expect_only_block(into, 2, 5, 3, 2, block_of(r.prev(), 1, 1, 3, 2));
}

TEST(Views, ToSelfWithEveryForm) {
  auto world = thinmpi::world();
  const int me = world.rank();
  const std::vector<double> grid = grid_of(me);
  std::vector<double> into(rows * cols, -1.0);
  auto column = thinmpi::strided(std::span(into).subspan(4), rows, cols);
  auto receiving = world.irecv(column, me, 4);
  world.send(thinmpi::strided(std::span(grid).subspan(3), rows, cols), me, 4);
  receiving.wait();
  expect_only_block(into, 0, 4, rows, 1, column_of(me, 3));

  std::vector<double> blocks(rows * cols, -1.0);
  const auto block = thinmpi::subarray(blocks, {rows, cols}, {2, 4}, {3, 0});
  world.sendrecv(thinmpi::subarray(grid, {rows, cols}, {2, 4}, {0, 3}), me, 5, block, me, 5);
  expect_only_block(blocks, 3, 0, 2, 4, block_of(me, 0, 3, 2, 4));

  // sendrecv_replace through a view: the column is sent and then overwritten in place.
  std::vector<double> own = grid_of(me);
  world.sendrecv_replace(thinmpi::strided(own, rows, cols), me, 6, me, 6);
  EXPECT_EQ(own, grid_of(me));
}

TEST(Views, ThreeDimensionsAndBlocksOfSeveralElements) {
  auto world = thinmpi::world();
  const int me = world.rank();
  constexpr std::size_t nx = 4;
  constexpr std::size_t ny = 3;
  constexpr std::size_t nz = 5;
  std::vector<int> field(nx * ny * nz);
  for (std::size_t i = 0; i < field.size(); ++i)
    field[i] = static_cast<int>(i);
  // The y = 1 plane without its edges: x in [1, 3), z in [1, 4).
  const auto plane = thinmpi::subarray(field, {nx, ny, nz}, {2, 1, 3}, {1, 1, 1});
  std::vector<int> expected;
  for (std::size_t x = 1; x < 3; ++x) {
    for (std::size_t z = 1; z < 4; ++z)
      expected.push_back(static_cast<int>((x * ny + 1) * nz + z));
  }
  std::vector<int> got(6);
  world.sendrecv(plane, me, 7, got, me, 7);
  EXPECT_EQ(got, expected);
  // Two elements every five, three times: {0, 1, 5, 6, 10, 11}.
  std::vector<int> pairs(6);
  world.sendrecv(thinmpi::strided(field, 3, 5, 2), me, 8, pairs, me, 8);
  EXPECT_EQ(pairs, (std::vector<int>{0, 1, 5, 6, 10, 11}));
}

TEST(Views, EmptyViewsSendEmptyMessages) {
  auto world = thinmpi::world();
  const int me = world.rank();
  std::vector<double> grid = grid_of(me);
  const auto none = thinmpi::strided(grid, 0, cols);
  const auto no_block = thinmpi::subarray(grid, {rows, cols}, {0, 3}, {1, 1});
  EXPECT_TRUE(none.empty());
  EXPECT_TRUE(no_block.empty());
  std::vector<double> into(3, -1.0);
  const thinmpi::status st = world.sendrecv(none, me, 9, into, me, 9);
  EXPECT_EQ(st.bytes(), 0U);
  EXPECT_EQ(into.size(), 0U);
  world.sendrecv(no_block, me, 10, thinmpi::strided(grid, 0, 1), me, 10);
  EXPECT_EQ(grid, grid_of(me));
}

TEST(Views, ALargerMessageThanTheViewIsAnError) {
  auto world = thinmpi::world();
  const int me = world.rank();
  std::vector<double> grid = grid_of(me);
  // (Open MPI 4.1's MPI_Sendrecv to self reports no truncation, even into a plain buffer, so
  // the message goes by MPI_Isend and MPI_Recv.)
  auto sending = world.isend(std::vector<double>(rows + 1, 1.0), me, 11);
  EXPECT_TRUE(throws_mpi_error([&] { world.recv(thinmpi::strided(grid, rows, cols), me, 11); },
                               MPI_ERR_TRUNCATE, "larger than"));
  sending.wait();
}

TEST(Views, OneDatatypePerShape) {
  std::vector<double> grid = grid_of(0);
  const auto a = thinmpi::strided(grid, rows, cols);
  const auto b = thinmpi::strided(std::span(grid).subspan(3), rows, cols);  // same shape
  const auto c = thinmpi::strided(grid, rows - 1, cols);
  EXPECT_EQ(a.datatype(), b.datatype());
  EXPECT_NE(a.datatype(), c.datatype());
  std::vector<float> floats(rows * cols);
  EXPECT_NE(thinmpi::strided(floats, rows, cols).datatype(), a.datatype());

  const auto s = thinmpi::subarray(grid, {rows, cols}, {2, 2}, {1, 1});
  EXPECT_EQ(s.datatype(), thinmpi::subarray(grid, {rows, cols}, {2, 2}, {1, 1}).datatype());
  EXPECT_NE(s.datatype(), thinmpi::subarray(grid, {rows, cols}, {2, 2}, {1, 2}).datatype());
  // Every third element of a line and a block of it: two shapes, two datatypes.
  std::vector<double> line(9);
  EXPECT_NE(thinmpi::subarray(line, std::array<std::size_t, 1>{9}, {3}, {1}).datatype(),
            thinmpi::strided(line, 3, 3, 1).datatype());

  // Found again, not built again: no MPI datatype constructor runs.
  counted = {};
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(thinmpi::strided(grid, rows, cols).datatype(), a.datatype());
    EXPECT_EQ(thinmpi::subarray(grid, {rows, cols}, {2, 2}, {1, 1}).datatype(), s.datatype());
  }
  EXPECT_EQ(counted.type_vector, 0);
  EXPECT_EQ(counted.type_subarray, 0);
  EXPECT_EQ(counted.type_commit, 0);
}

TEST(Views, SendingAViewIsOneMpiSendWithNoPacking) {
  auto world = thinmpi::world();
  const int me = world.rank();
  const std::vector<double> grid = grid_of(me);
  const auto column = thinmpi::strided(grid, rows, cols);
  const auto block = thinmpi::subarray(grid, {rows, cols}, {2, 3}, {2, 2});
  std::vector<double> back(rows);
  std::vector<double> block_back(6);
  auto first = world.irecv(back, me, 12);
  auto second = world.irecv(block_back, me, 13);
  counted = {};
  world.send(column, me, 12);
  world.send(block, me, 13);
  EXPECT_EQ(counted.send, 2);
  EXPECT_EQ(counted.pack, 0);
  EXPECT_EQ(counted.type_vector + counted.type_subarray + counted.type_commit, 0);
  first.wait();
  second.wait();
  EXPECT_EQ(back, column_of(me, 0));
  EXPECT_EQ(block_back, block_of(me, 2, 2, 2, 3));
}

TEST(Views, OutOfRangeViewsAreRejectedBeforeMpiIsCalled) {
  std::vector<double> grid(rows * cols);
  counted = {};
  // Column 3 of 5 rows: the last element would be 3 + 4 x 7 = 31 < 35, fine; from 8 it is not.
  EXPECT_TRUE(
      throws_mpi_error([&] { (void)thinmpi::strided(std::span(grid).subspan(8), rows, cols); },
                       MPI_ERR_ARG, "reach 29 elements, past the 27 of the array"));
  EXPECT_TRUE(throws_mpi_error([&] { (void)thinmpi::strided(grid, 3, 2, 3); }, MPI_ERR_ARG,
                               "blocks of 3 elements every 2 overlap"));
  EXPECT_TRUE(throws_mpi_error(
      [&] {
        (void)thinmpi::subarray(grid, {rows, cols}, {2, 3}, {4, 0});
      },
      MPI_ERR_ARG, "in dimension 0, start 4 + subsize 2 is past the size 5"));
  EXPECT_TRUE(throws_mpi_error(
      [&] {
        (void)thinmpi::subarray(grid, {rows, cols}, {1, 3}, {0, 5});
      },
      MPI_ERR_ARG, "in dimension 1, start 5 + subsize 3 is past the size 7"));
  EXPECT_TRUE(throws_mpi_error(
      [&] {
        (void)thinmpi::subarray(grid, {rows + 1, cols}, {1, 1}, {0, 0});
      },
      MPI_ERR_ARG, "an array of 6x7 = 42 elements is larger than the 35 of the span"));
  const int minus_one = -1;
  EXPECT_TRUE(throws_mpi_error(
      [&] {
        (void)thinmpi::subarray(grid, {rows, cols}, {1, 1}, {minus_one, 0});
      },
      MPI_ERR_ARG, "starts[0] is negative"));
  EXPECT_EQ(counted.type_vector + counted.type_subarray + counted.type_commit, 0);
}

}  // namespace
