// Checkpoint and restart of the 2D Jacobi plate (examples/halo_2d.hpp) with thinmpi's MPI-IO
// layer (include/thinmpi/io/): one file holds the whole plate, row-major after a small header,
// whatever grid of ranks wrote it, so a run can be restarted on a different number of ranks.
//
// `write <path>`: 40 sweeps of a 48 x 48 plate on a grid of ranks (blocks of 48/dims[0] x
// 48/dims[1] cells), then rank 0 writes the header (write_at at byte 0), every rank sets a
// file_subarray view of its block after the header and writes its block's interior straight
// from its buffer (a subarray memory view skips the halo) in one collective write_at_all.
// Rank 0 then reads the file back with plain stdio and compares every byte with the plate
// swept by one process.
//
// `restart <path>`: on any number of ranks, reads and checks the header, sets the same kind of
// view for this run's grid, reads its block with one read_at_all, sweeps on to 80, and checks
// every block against an uninterrupted serial run of 80 sweeps (exactly: a fixed number of
// sweeps, no tolerance, so the result is bitwise the same). It removes the file at the end.
//
//   mpiexec -n 4 ./example_checkpoint write cp.bin &&
//     mpiexec -n 3 ./example_checkpoint restart cp.bin

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "halo_2d.hpp"

namespace {

constexpr int plate_rows = 48, plate_cols = 48;  // 1, 2, 3 and 4 ranks divide it
constexpr int write_sweeps = 40, total_sweeps = 80;
constexpr std::int64_t magic = 0x74686e6d70696370;  // "thnmpicp"

/// What the file starts with; the plate's cells follow, row-major doubles.
struct header {
  std::int64_t magic, rows, cols, sweeps;
};

/// This rank's rows x cols block of the plate, from (row0, col0), in a (rows + 2) x (cols + 2)
/// buffer with its halo.
struct block {
  explicit block(const halo_example::grid& g) {
    const std::vector<int> dims = g.comm.dims(), at = g.comm.coords();
    rows = plate_rows / dims[0];
    cols = plate_cols / dims[1];
    row0 = at[0] * rows;
    col0 = at[1] * cols;
  }
  int rows, cols, row0, col0;
};

/// Rows 0, 1, rows and rows + 1 (spans) and columns 0, 1, cols and cols + 1 (strided views)
/// of one buffer: the halo, the border, the border and the halo on each side, as halo_2d.hpp's
/// borders, for blocks that are not square.
struct rect_borders {
  rect_borders(std::vector<double>& u, const block& b) {
    const auto r = static_cast<std::size_t>(b.rows), c = static_cast<std::size_t>(b.cols);
    for (const std::size_t i : {std::size_t{0}, std::size_t{1}, r, r + 1}) {
      rows.push_back(std::span(u).subspan(i * (c + 2) + 1, c));
    }
    for (const std::size_t j : {std::size_t{0}, std::size_t{1}, c, c + 1}) {
      cols.push_back(thinmpi::strided(std::span(u).subspan(c + 2 + j), r, c + 2));
    }
  }
  std::vector<std::span<double>> rows;
  std::vector<thinmpi::strided_view<double>> cols;
};

/// Fills the halo of a buffer from the four neighbours.
void exchange_halos(const halo_example::grid& g, const rect_borders& b) {
  g.comm.sendrecv(b.rows[1], g.rows.source, 0, b.rows[3], g.rows.dest, 0);
  g.comm.sendrecv(b.rows[2], g.rows.dest, 1, b.rows[0], g.rows.source, 1);
  g.comm.sendrecv(b.cols[1], g.cols.source, 2, b.cols[3], g.cols.dest, 2);
  g.comm.sendrecv(b.cols[2], g.cols.dest, 3, b.cols[0], g.cols.source, 3);
}

/// `sweeps` sweeps of the block in u (with its halo, edges included).
void sweep_block(const halo_example::grid& g, const block& b, std::vector<double>& u, int sweeps) {
  std::vector<double> next = u;                     // the plate's edges are in both buffers
  const rect_borders first(u, b), second(next, b);  // u and next swap buffers every sweep
  for (int k = 0; k < sweeps; ++k) {
    exchange_halos(g, k % 2 == 0 ? first : second);
    static_cast<void>(halo_example::sweep_cells(u, next, static_cast<std::size_t>(b.rows),
                                                static_cast<std::size_t>(b.cols)));
    std::swap(u, next);
  }
}

/// The rows x cols cells from (row0, col0) of a buffer of `width` cells a row plus its halo.
std::vector<double> cells(const std::vector<double>& u, int width, int row0, int col0, int rows,
                          int cols) {
  std::vector<double> out;
  const auto w = static_cast<std::ptrdiff_t>(width + 2);
  for (int i = 0; i < rows; ++i) {
    const auto first = u.begin() + (row0 + i + 1) * w + col0 + 1;
    out.insert(out.end(), first, first + cols);
  }
  return out;
}

/// The whole plate (with its halo) after `sweeps` sweeps by one process.
std::vector<double> serial_plate(int sweeps) {
  std::vector<double> u;
  halo_example::fill(u, plate_rows, plate_cols, 0, 0, plate_rows, plate_cols);
  std::vector<double> next = u;
  for (int k = 0; k < sweeps; ++k) {
    static_cast<void>(halo_example::sweep_plate(u, next, plate_rows, plate_cols));
    std::swap(u, next);
  }
  return u;
}

/// This rank's block as the file sees it: a sub-array of the plate, after the header.
void set_block_view(thinmpi::file& f, const block& b) {
  f.set_view(
      thinmpi::file_subarray<double>({plate_rows, plate_cols}, {b.rows, b.cols}, {b.row0, b.col0}),
      sizeof(header));
}

/// The interior of u (no halo) as one sub-array memory view.
auto interior_of(std::vector<double>& u, const block& b) {
  return thinmpi::subarray(u, {b.rows + 2, b.cols + 2}, {b.rows, b.cols}, {1, 1});
}

/// Whether the bytes of `path` are the header and the serial plate after `sweeps` sweeps.
bool file_matches(const std::string& path, const header& h, int sweeps) {
  const std::vector<double> plate =
      cells(serial_plate(sweeps), plate_cols, 0, 0, plate_rows, plate_cols);
  std::vector<unsigned char> expected(sizeof(header) + plate.size() * sizeof(double));
  std::memcpy(expected.data(), &h, sizeof(header));
  std::memcpy(expected.data() + sizeof(header), plate.data(), plate.size() * sizeof(double));
  std::vector<unsigned char> got(expected.size() + 1);  // one more: a longer file is wrong too
  std::FILE* in = std::fopen(path.c_str(), "rb");
  if (in == nullptr) return false;
  got.resize(std::fread(got.data(), 1, got.size(), in));
  std::fclose(in);
  return got == expected;
}

/// `write <path>`: sweeps, saves the plate, checks the file; the exit status.
int write_checkpoint(thinmpi::comm_view world, const halo_example::grid& g,
                     const std::string& path) {
  const block b(g);
  std::vector<double> u;
  halo_example::fill(u, b.rows, b.cols, b.row0, b.col0, plate_rows, plate_cols);
  sweep_block(g, b, u, write_sweeps);

  const header h{magic, plate_rows, plate_cols, write_sweeps};
  thinmpi::file f(world, path, thinmpi::file_mode::write | thinmpi::file_mode::create);
  f.resize(0);  // opening does not truncate a file that is already there
  if (world.rank() == 0) f.write_at(0, h);  // the byte view: offset 0 is byte 0
  set_block_view(f, b);
  f.write_at_all(0, interior_of(u, b));
  f.close();
  world.barrier();  // every rank's part is in the file before rank 0 reads it

  const std::vector<int> dims = g.comm.dims();
  int ok = 1;
  if (world.rank() == 0) {
    ok = file_matches(path, h, write_sweeps) ? 1 : 0;
    std::printf("checkpoint: %d sweeps of the %d x %d plate written by %d ranks (%d x %d): %s\n",
                write_sweeps, plate_rows, plate_cols, world.size(), dims[0], dims[1],
                ok != 0 ? "the file matches the serial plate byte for byte" : "WRONG");
  }
  return world.allreduce(ok, std::logical_and<>{}) != 0 ? 0 : 1;
}

/// `restart <path>`: loads the plate, sweeps on, checks it, removes the file; the exit status.
int restart_from_checkpoint(thinmpi::comm_view world, const halo_example::grid& g,
                            const std::string& path) {
  const block b(g);
  thinmpi::file f(world, path, thinmpi::file_mode::read);
  header h{};
  f.read_at(0, h);
  const std::uint64_t bytes =
      sizeof(header) + std::uint64_t{plate_rows * plate_cols} * sizeof(double);
  if (h.magic != magic || h.rows != plate_rows || h.cols != plate_cols || h.sweeps < 0 ||
      h.sweeps > total_sweeps || f.size() != bytes) {
    if (world.rank() == 0) {
      std::printf("checkpoint: WRONG: %s is not a checkpoint of the %d x %d plate\n", path.c_str(),
                  plate_rows, plate_cols);
    }
    return 1;
  }
  const int done = static_cast<int>(h.sweeps);
  std::vector<double> u;  // the edges from the start, the interior from the file
  halo_example::fill(u, b.rows, b.cols, b.row0, b.col0, plate_rows, plate_cols);
  set_block_view(f, b);
  f.read_at_all(0, interior_of(u, b));
  f.close();

  sweep_block(g, b, u, total_sweeps - done);
  const bool same = cells(u, b.cols, 0, 0, b.rows, b.cols) ==
                    cells(serial_plate(total_sweeps), plate_cols, b.row0, b.col0, b.rows, b.cols);
  const bool ok = world.allreduce(same, std::logical_and<>{});
  if (world.rank() == 0) {
    std::printf("checkpoint: restarted from %d sweeps on %d ranks, %d sweeps %s\n", done,
                world.size(), total_sweeps,
                ok ? "match the uninterrupted run" : "WRONG: differ from the uninterrupted run");
    thinmpi::file::remove(path);
  }
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  thinmpi::environment env(argc, argv);
  auto world = thinmpi::world();
  const std::string command = argc == 3 ? argv[1] : "";
  const std::vector<int> dims = thinmpi::dims_create(world.size(), 2);
  if ((command != "write" && command != "restart") || plate_rows % dims[0] != 0 ||
      plate_cols % dims[1] != 0) {
    if (world.rank() == 0) {
      std::printf(
          "usage: example_checkpoint write|restart <path>, on a grid of ranks that "
          "divides the %d x %d plate\n",
          plate_rows, plate_cols);
    }
    return 1;
  }
  const halo_example::grid g(world);
  return command == "write" ? write_checkpoint(world, g, argv[2])
                            : restart_from_checkpoint(world, g, argv[2]);
}
