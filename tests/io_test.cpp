// Parallel I/O (include/thinmpi/io/): thinmpi::file opened collectively, every read and write
// form (explicit offset, individual and shared pointers, ordered; blocking, collective,
// nonblocking and split), views from file layouts (subarray, strided, darray, a struct's
// datatype, external32), sizes and pointers. Every file written is read back with plain POSIX
// reads and compared byte for byte with what a serial program computes, never only with what
// MPI reads back. Reads past the end of the file return what is there (a vector shrinks, a
// count says how much): MPICH 4.0.2's and Open MPI 4.1.4's collective reads report the count
// asked for there, and OMPIO's nonblocking reads never complete, so these are the cases that
// check thinmpi's bound. Bad input (a mode MPI refuses, a missing or existing file, a write to
// a read-only file, a full device, a view of another element type, a closed file) is an
// mpi_error naming the file and operation, and the file stays usable where MPI allows.

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <numeric>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "support/mpi_error_match.hpp"
#include "thinmpi/thinmpi.hpp"

namespace {

using thinmpi::file;
using thinmpi::file_mode;
using thinmpi_test::mentions;
using thinmpi_test::throws_mpi_error;

constexpr file_mode create_rw = file_mode::read_write | file_mode::create;

std::size_t uz(int value) {
  return static_cast<std::size_t>(value);
}

/// A file name for this test at this rank count (launches at several rank counts share a
/// working directory), with no file left there by an earlier run that stopped (collective).
std::string name_for(const char* what) {
  auto world = thinmpi::world();
  std::string path = std::string("io_test_") + std::to_string(world.size()) + "_" + what + ".bin";
  if (world.rank() == 0) std::remove(path.c_str());
  world.barrier();
  return path;
}

/// The file's bytes, read with plain POSIX I/O (std::ifstream), not MPI.
std::vector<unsigned char> posix_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

template <class T>
std::vector<unsigned char> bytes_of(const std::vector<T>& values) {
  std::vector<unsigned char> bytes(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

/// Removes the file on rank 0 once every rank is done with it.
void remove_after_all(const std::string& path) {
  auto world = thinmpi::world();
  world.barrier();
  if (world.rank() == 0) file::remove(path);
  world.barrier();
}

TEST(IoFile, WriteAtAndReadAtEveryRankItsOwnRegion) {
  auto world = thinmpi::world();
  const std::string path = name_for("at");
  const int rank = world.rank(), size = world.size();
  const std::size_t n = 100;
  {
    file f(world, path, create_rw);
    std::vector<int> mine(n);
    std::iota(mine.begin(), mine.end(), rank * 1000);
    f.write_at(static_cast<thinmpi::file_offset>(uz(rank) * n * sizeof(int)), mine);
    f.sync();
    world.barrier();
    f.sync();
    // The next rank's region, written by another process.
    const int next = (rank + 1) % size;
    std::vector<int> theirs(n);
    EXPECT_EQ(f.read_at(static_cast<thinmpi::file_offset>(uz(next) * n * sizeof(int)), theirs), n);
    EXPECT_EQ(theirs[0], next * 1000);
    EXPECT_EQ(theirs[n - 1], next * 1000 + static_cast<int>(n) - 1);
    EXPECT_EQ(f.size(), uz(size) * n * sizeof(int));
  }
  if (rank == 0) {
    std::vector<int> serial(uz(size) * n);
    for (std::size_t r = 0; r < uz(size); ++r)
      std::iota(serial.begin() + static_cast<std::ptrdiff_t>(r * n),
                serial.begin() + static_cast<std::ptrdiff_t>((r + 1) * n),
                static_cast<int>(r) * 1000);
    EXPECT_EQ(posix_bytes(path), bytes_of(serial));
  }
  remove_after_all(path);
}

TEST(IoFile, ReadsPastTheEndSayWhatTheyGot) {
  auto world = thinmpi::world();
  const std::string path = name_for("end");
  file f(world, path, create_rw);
  if (world.rank() == 0) f.write_at(0, std::vector<int>{1, 2, 3});
  f.sync();
  world.barrier();
  f.sync();
  // Independent: a vector shrinks, a span's count says 2, a scalar past the end throws.
  std::vector<int> bound(10, 99);
  EXPECT_EQ(f.read_at(4, bound), 2u);
  EXPECT_EQ(bound, (std::vector<int>{2, 3}));
  std::array<int, 4> fixed{9, 9, 9, 9};
  EXPECT_EQ(f.read_at(8, std::span(fixed)), 1u);
  EXPECT_EQ(fixed[0], 3);
  int scalar = 0;
  EXPECT_TRUE(throws_mpi_error([&] { f.read_at(12, scalar); }, MPI_ERR_IO,
                               "the file ends before the element"));
  std::vector<int> partial(10);
  EXPECT_TRUE(throws_mpi_error([&] { f.read_at(2, partial); }, MPI_ERR_IO,
                               "read 10 bytes of 40, not a whole number of elements"));
  // Collective: both MPIs report the count asked for here; thinmpi reads only what is there.
  std::vector<int> all(10, 99);
  EXPECT_EQ(f.read_at_all(0, all), 3u);
  EXPECT_EQ(all, (std::vector<int>{1, 2, 3}));
  std::vector<int> by_pointer(10, 99);
  f.seek(4);
  EXPECT_EQ(f.read_all(by_pointer), 2u);
  EXPECT_EQ(by_pointer, (std::vector<int>{2, 3}));
  // Nonblocking and split: OMPIO's would never complete past the end.
  EXPECT_EQ(f.iread_at(0, std::vector<int>(10)).wait(), (std::vector<int>{1, 2, 3}));
  std::vector<int> borrowed(10, 99);
  EXPECT_EQ(f.iread_at_all(8, borrowed).wait(), 1u);
  EXPECT_EQ(borrowed, (std::vector<int>{3}));
  EXPECT_EQ(f.read_at_all_begin(0, std::vector<int>(6)).end(), (std::vector<int>{1, 2, 3}));
  f.close();
  remove_after_all(path);
}

TEST(IoFile, SubarrayViewWritesOneRowMajorArrayWithOneCollectiveCall) {
  // Opened on a Cartesian communicator, after a header: Open MPI 4.1.4's OMPIO moved wrong data
  // here in a third to three quarters of runs at 4 ranks (file.hpp, open_on); three rounds.
  auto world = thinmpi::world();
  const std::string path = name_for("subarray");
  const std::vector<int> dims = thinmpi::dims_create(world.size(), 2);
  const thinmpi::cartesian_communicator grid(world, dims, {false, false});
  const std::vector<int> at = grid.coords();
  const std::size_t block_rows = 5, block_cols = 3, header = 4096;
  const std::size_t rows = block_rows * uz(dims[0]), cols = block_cols * uz(dims[1]);
  const std::size_t row0 = uz(at[0]) * block_rows, col0 = uz(at[1]) * block_cols;
  for (int round = 0; round < 3; ++round) {
    const auto value = [cols, round](std::size_t r, std::size_t c) {
      return static_cast<double>(r * cols + c) + 0.5 + round;
    };
    // The block with a one-cell halo in memory: written from a memory view, no packing copy.
    std::vector<double> local((block_rows + 2) * (block_cols + 2), -1.0);
    for (std::size_t i = 0; i < block_rows; ++i)
      for (std::size_t j = 0; j < block_cols; ++j)
        local[(i + 1) * (block_cols + 2) + j + 1] = value(row0 + i, col0 + j);
    const auto interior = thinmpi::subarray(local, {block_rows + 2, block_cols + 2},
                                            {block_rows, block_cols}, {1, 1});
    {
      file f(grid, path, create_rw);
      f.set_view(
          thinmpi::file_subarray<double>({rows, cols}, {block_rows, block_cols}, {row0, col0}),
          header);
      f.write_at_all(0, interior);
      EXPECT_EQ(f.byte_offset(1), header + (row0 * cols + col0 + 1) * sizeof(double));
      // Read back into a plain vector through the same view.
      std::vector<double> back(block_rows * block_cols);
      EXPECT_EQ(f.read_at_all(0, back), back.size());
      EXPECT_EQ(back[0], value(row0, col0));
      EXPECT_EQ(back.back(), value(row0 + block_rows - 1, col0 + block_cols - 1));
    }
    if (world.rank() == 0) {
      std::vector<double> serial(rows * cols);
      for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c)
          serial[r * cols + c] = value(r, c);
      std::vector<unsigned char> expected(header, 0);
      const std::vector<unsigned char> body = bytes_of(serial);
      expected.insert(expected.end(), body.begin(), body.end());
      EXPECT_EQ(posix_bytes(path), expected);
    }
    world.barrier();
  }
  remove_after_all(path);
}

TEST(IoFile, StridedAndDarrayLayoutsMatchTheirDefinitions) {
  auto world = thinmpi::world();
  const int rank = world.rank(), size = world.size();
  // Interleaved: blocks of 3 ints, rank r's at r x 3 + k x size x 3.
  const std::string path = name_for("strided");
  const std::size_t blocks = 4, block = 3;
  {
    file f(world, path, create_rw);
    f.set_view(thinmpi::file_strided<int>(1, uz(size) * block, block),
               uz(rank) * block * sizeof(int));
    std::vector<int> mine(blocks * block);
    std::iota(mine.begin(), mine.end(), rank * 100);
    f.write_at_all(0, mine);
  }
  if (rank == 0) {
    std::vector<int> serial(blocks * block * uz(size));
    for (std::size_t r = 0; r < uz(size); ++r)
      for (std::size_t k = 0; k < blocks * block; ++k)
        serial[(k / block) * uz(size) * block + r * block + k % block] =
            static_cast<int>(r) * 100 + static_cast<int>(k);
    EXPECT_EQ(posix_bytes(path), bytes_of(serial));
  }
  remove_after_all(path);

  // Block-cyclic (blocks of 2) over a 1-D array of 13 on `size` processes, as HPF deals it:
  // global index g belongs to process (g / 2) % size.
  const std::string cyclic_path = name_for("darray");
  const std::size_t total = 13;
  const std::array<std::size_t, 1> sizes{total};
  const std::array<thinmpi::distribution, 1> how{thinmpi::distribution::cyclic(2)};
  const std::array<int, 1> grid{size};
  std::vector<std::int64_t> mine;
  for (std::size_t g = 0; g < total; ++g)
    if ((g / 2) % uz(size) == uz(rank)) mine.push_back(static_cast<std::int64_t>(g * g));
  {
    file f(world, cyclic_path, create_rw);
    f.set_view(thinmpi::file_darray<std::int64_t>(size, rank, sizes, how, grid));
    f.write_all(mine);
  }
  if (rank == 0) {
    std::vector<std::int64_t> serial(total);
    for (std::size_t g = 0; g < total; ++g)
      serial[g] = static_cast<std::int64_t>(g * g);
    EXPECT_EQ(posix_bytes(cyclic_path), bytes_of(serial));
  }
  remove_after_all(cyclic_path);
  EXPECT_TRUE(
      throws_mpi_error([&] { (void)thinmpi::file_darray<int>(size + 1, rank, sizes, how, grid); },
                       MPI_ERR_ARG, "the grid must hold exactly"));
}

struct particle {
  int id;
  double mass;  // 4 bytes of padding before it in memory, none in the file
};

TEST(IoFile, StructElementsLieInTheFileAsInMemory) {
  // The native representation: each element takes its extent (16 bytes: int, 4 bytes of
  // padding, double) in the file, its members at their offsets in memory.
  auto world = thinmpi::world();
  const std::string path = name_for("struct");
  const int rank = world.rank();
  std::vector<particle> mine{{rank, rank + 0.25}, {rank + 100, rank + 0.75}};
  {
    file f(world, path, create_rw);
    f.set_view(thinmpi::file_contiguous<particle>());
    f.write_at_all(static_cast<thinmpi::file_offset>(2 * rank), mine);
    std::vector<particle> back(2);
    EXPECT_EQ(f.read_at_all(static_cast<thinmpi::file_offset>(2 * rank), back), 2u);
    EXPECT_EQ(back[1].id, rank + 100);
    EXPECT_EQ(back[1].mass, rank + 0.75);
  }
  if (rank == 0) {
    const std::vector<unsigned char> bytes = posix_bytes(path);
    ASSERT_EQ(bytes.size(), uz(world.size()) * 2 * sizeof(particle));
    for (std::size_t k = 0; k < bytes.size() / sizeof(particle); ++k) {
      const int r = static_cast<int>(k / 2);
      int id = 0;
      double mass = 0;
      std::memcpy(&id, bytes.data() + k * sizeof(particle) + offsetof(particle, id), sizeof id);
      std::memcpy(&mass, bytes.data() + k * sizeof(particle) + offsetof(particle, mass),
                  sizeof mass);
      EXPECT_EQ(id, k % 2 == 0 ? r : r + 100);
      EXPECT_EQ(mass, k % 2 == 0 ? r + 0.25 : r + 0.75);
    }
  }
  remove_after_all(path);
}

TEST(IoFile, External32IsBigEndian) {
  auto world = thinmpi::world();
  const std::string path = name_for("external32");
  {
    file f(world, path, create_rw);
    f.set_view(thinmpi::file_contiguous<std::int32_t>(), 0,
               thinmpi::file_representation::external32);
    const std::int32_t value = 0x01020304 + world.rank();
    f.write_at_all(world.rank(), value);
    std::int32_t back = 0;
    f.read_at_all(world.rank(), back);
    EXPECT_EQ(back, value);
  }
  if (world.rank() == 0) {
    std::vector<unsigned char> expected;
    for (int r = 0; r < world.size(); ++r)
      expected.insert(expected.end(), {1, 2, 3, static_cast<unsigned char>(4 + r)});
    EXPECT_EQ(posix_bytes(path), expected);
  }
  remove_after_all(path);
}

TEST(IoFile, SharedAndOrderedPointers) {
  auto world = thinmpi::world();
  const int rank = world.rank(), size = world.size();
  const std::string path = name_for("ordered");
  // Ordered: rank r writes r + 1 chars of 'a' + r; the file is them in rank order.
  std::string expected;
  for (int r = 0; r < size; ++r)
    expected.append(uz(r) + 1, static_cast<char>('a' + r));
  {
    file f(world, path, create_rw);
    f.write_ordered(std::string(uz(rank) + 1, static_cast<char>('a' + rank)));
    f.seek_shared(0);
    std::string back(uz(rank) + 1, ' ');
    EXPECT_EQ(f.read_ordered(back), uz(rank) + 1);
    EXPECT_EQ(back, std::string(uz(rank) + 1, static_cast<char>('a' + rank)));
    f.seek_shared(0);
    auto split = f.read_ordered_begin(std::string(uz(rank) + 1, ' '));
    EXPECT_EQ(split.end(), back);
  }
  if (rank == 0) {
    const std::vector<unsigned char> bytes = posix_bytes(path);
    EXPECT_EQ(std::string(bytes.begin(), bytes.end()), expected);
  }
  remove_after_all(path);

  // Shared, in whatever order ranks come: every rank's record once.
  const std::string shared_path = name_for("shared");
  {
    file f(world, shared_path, create_rw);
    f.write_shared(std::array<int, 2>{rank, rank * rank});
    auto pending = f.iwrite_shared(std::vector<int>{rank + 1000, 0});
    EXPECT_EQ(pending.wait(), (std::vector<int>{rank + 1000, 0}));
  }
  if (rank == 0) {
    const std::vector<unsigned char> bytes = posix_bytes(shared_path);
    ASSERT_EQ(bytes.size(), uz(size) * 4 * sizeof(int));
    std::vector<int> records(uz(size) * 4);
    std::memcpy(records.data(), bytes.data(), bytes.size());
    std::vector<int> seen(uz(size), 0), seen_late(uz(size), 0);
    for (std::size_t i = 0; i < records.size(); i += 2) {
      const int r = records[i];
      if (r >= 1000) {
        ++seen_late[uz(r - 1000)];
      } else {
        EXPECT_EQ(records[i + 1], r * r);
        ++seen[uz(r)];
      }
    }
    EXPECT_EQ(seen, std::vector<int>(uz(size), 1));
    EXPECT_EQ(seen_late, std::vector<int>(uz(size), 1));
  }
  remove_after_all(shared_path);
}

TEST(IoFile, IndividualPointerNonblockingAndSplitForms) {
  auto world = thinmpi::world();
  const int rank = world.rank(), size = world.size();
  const std::string path = name_for("pointer");
  file f(world, path, create_rw);
  // Each rank sees only its own ints: a strided view of blocks of 4 (its pointer moves there).
  f.set_view(thinmpi::file_strided<int>(1, uz(size) * 4, 4), uz(rank) * 4 * sizeof(int));
  f.write(std::array<int, 2>{rank, rank + 1});
  EXPECT_EQ(f.position(), 2);
  auto owned = f.iwrite(std::vector<int>{rank + 2, rank + 3});
  std::vector<int> handed_back = owned.wait();
  EXPECT_EQ(handed_back, (std::vector<int>{rank + 2, rank + 3}));
  EXPECT_EQ(f.position(), 4);
  auto split = f.write_all_begin(std::vector<int>{rank + 4, rank + 5, rank + 6, rank + 7});
  EXPECT_TRUE(split.active());
  EXPECT_EQ(split.end().size(), 4u);
  EXPECT_FALSE(split.active());
  f.sync();
  world.barrier();
  f.sync();
  f.seek(1);
  std::vector<int> back(3);
  auto reading = f.iread(back);
  auto reading_all = f.iread_at_all(4, std::vector<int>(4));
  thinmpi::wait_all(reading, reading_all);
  EXPECT_EQ(back, (std::vector<int>{rank + 1, rank + 2, rank + 3}));
  EXPECT_EQ(reading_all.wait(), (std::vector<int>{rank + 4, rank + 5, rank + 6, rank + 7}));
  f.seek(0);
  std::vector<int> everything(8);
  EXPECT_EQ(f.read_all_begin(everything).end(), 8u);
  std::vector<int> expected(8);
  std::iota(expected.begin(), expected.end(), rank);
  EXPECT_EQ(everything, expected);
  f.seek(-2, thinmpi::seek_from::end);
  EXPECT_EQ(f.position(), 6);
  f.close();
  EXPECT_TRUE(f.is_null());
  remove_after_all(path);
}

TEST(IoFile, SizesModesHintsAndAtomicity) {
  auto world = thinmpi::world();
  const std::string path = name_for("size");
  file f(world, path, create_rw | file_mode::delete_on_close,
         thinmpi::info{{"access_style", "write_once"}});
  EXPECT_EQ(f.path(), path);
  EXPECT_TRUE(thinmpi::has(f.mode(), file_mode::read_write));
  EXPECT_TRUE(thinmpi::has(f.mode(), file_mode::delete_on_close));
  // A size query is not synchronized with other ranks' calls: a barrier between each step.
  EXPECT_EQ(f.size(), 0u);
  world.barrier();
  f.resize(1000);
  world.barrier();
  EXPECT_EQ(f.size(), 1000u);
  world.barrier();
  f.preallocate(4096);
  world.barrier();
  EXPECT_GE(f.size(), 4096u);
  world.barrier();
  f.resize(10);
  world.barrier();
  EXPECT_EQ(f.size(), 10u);
  f.set_atomicity(true);
  EXPECT_TRUE(f.atomicity());
  f.set_atomicity(false);
  EXPECT_FALSE(f.atomicity());
  const thinmpi::info used = f.hints();
  EXPECT_GT(used.size(), 0u);  // both MPIs report the hints they apply
  f.close();
  world.barrier();
  EXPECT_TRUE(posix_bytes(path).empty());  // deleted on close
}

TEST(IoInfo, KeysValuesCopiesAndErrors) {
  thinmpi::info hints{{"cb_nodes", "2"}};
  hints.set("striping_unit", "1048576");
  EXPECT_EQ(hints.get("cb_nodes"), "2");
  EXPECT_EQ(hints.get("missing"), std::nullopt);
  EXPECT_EQ(hints.size(), 2u);
  thinmpi::info copy = hints;
  copy.erase("cb_nodes");
  EXPECT_EQ(copy.keys(), std::vector<std::string>{"striping_unit"});
  EXPECT_EQ(hints.size(), 2u);  // a copy is its own object
  thinmpi::info none;
  EXPECT_EQ(none.native(), MPI_INFO_NULL);
  EXPECT_TRUE(none.empty());
  EXPECT_TRUE(throws_mpi_error([&] { hints.set(std::string(MPI_MAX_INFO_KEY + 5, 'k'), "v"); },
                               MPI_ERR_INFO_KEY, "characters"));
}

TEST(IoErrors, OpeningNamesTheFileAndTheProblem) {
  auto world = thinmpi::world();
  const std::string missing = name_for("missing");
  EXPECT_TRUE(throws_mpi_error([&] { file f(world, missing, file_mode::read); },
                               MPI_ERR_NO_SUCH_FILE, "MPI_File_open(file \"" + missing + "\")"));
  EXPECT_TRUE(throws_mpi_error([&] { file f(world, missing, file_mode::read | file_mode::create); },
                               MPI_ERR_AMODE, "creates a file it may only read"));
  EXPECT_TRUE(throws_mpi_error([&] { file f(world, missing, file_mode::create); }, MPI_ERR_AMODE,
                               "exactly one of file_mode::read, write and read_write"));
  EXPECT_TRUE(throws_mpi_error([&] { file::remove(missing); }, MPI_ERR_NO_SUCH_FILE, missing));
  const std::string existing = name_for("existing");
  { file f(world, existing, create_rw); }
  EXPECT_TRUE(throws_mpi_error(
      [&] { file f(world, existing, file_mode::write | file_mode::create | file_mode::exclusive); },
      MPI_ERR_FILE_EXISTS, existing));
  remove_after_all(existing);
}

TEST(IoErrors, AFailedCallLeavesTheFileUsable) {
  auto world = thinmpi::world();
  const std::string path = name_for("readonly");
  {
    file f(world, path, create_rw);
    if (world.rank() == 0) f.write_at(0, std::vector<int>{7, 8});
  }
  file f(world, path, file_mode::read);
  const int value = 1;
  const auto error = thinmpi_test::error_from([&] { f.write_at(4, value); });
  EXPECT_EQ(error.error_class(), MPI_ERR_READ_ONLY);
  EXPECT_TRUE(
      mentions(error.what(), "MPI_File_write_at(file \"" + path + "\", offset 4, 1 x MPI_INT"));
  EXPECT_TRUE(mentions(error.what(), "on rank " + std::to_string(world.rank())));
  std::vector<int> back(2);
  EXPECT_EQ(f.read_at(0, back), 2u);  // the same handle still reads
  EXPECT_EQ(back, (std::vector<int>{7, 8}));
  // A view of doubles, a buffer of ints: named before MPI is called.
  f.set_view(thinmpi::file_contiguous<double>());
  int one = 0;
  EXPECT_TRUE(throws_mpi_error([&] { f.read_at(0, one); }, MPI_ERR_TYPE,
                               "the file's view has elements of MPI_DOUBLE, this buffer MPI_INT"));
  f.reset_view();
  EXPECT_EQ(f.read_at(4, one), 1u);
  EXPECT_EQ(one, 8);
  f.close();
  EXPECT_TRUE(throws_mpi_error([&] { f.read_at(0, one); }, MPI_ERR_FILE, "the file is not open"));
  remove_after_all(path);
}

TEST(IoErrors, AFullDeviceIsAnErrorNotASilentShortWrite) {
  // /dev/full: every write fails with ENOSPC. ROMIO reports it (MPI_ERR_IO); OMPIO (Open MPI
  // 4.1.4) returns MPI_SUCCESS with 0 bytes written in the status, which thinmpi checks.
  auto world = thinmpi::world();
  file f(world, "/dev/full", file_mode::write);
  const std::vector<char> block(65536, 'x');
  const auto error = thinmpi_test::error_from([&] { f.write_at(0, block); });
  EXPECT_TRUE(error.error_class() == MPI_ERR_IO || error.error_class() == MPI_ERR_NO_SPACE)
      << error.what();
  EXPECT_TRUE(mentions(error.what(), "MPI_File_write_at(file \"/dev/full\""));
}

TEST(IoErrors, BadLayoutsAreNamed) {
  EXPECT_TRUE(throws_mpi_error(
      [] {
        (void)thinmpi::file_subarray<int>({4, 4}, {2, 3}, {0, 2});
      },
      MPI_ERR_ARG, "start 2 + subsize 3 is past the size 4"));
  EXPECT_TRUE(throws_mpi_error([] { (void)thinmpi::file_strided<int>(2, 3, 4); }, MPI_ERR_ARG,
                               "blocks no longer than the stride"));
}

}  // namespace
