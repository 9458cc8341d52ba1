// The thinmpi variants of the io suite: what a user naturally writes with thinmpi::file,
// measured against the C variant that makes the same MPI-IO calls (bench/kernels/c/io_c.c;
// io_variant.h has the layout that both follow):
//
//   write_at, read_at            thinmpi::file f(comm, path, read_write | create);   (at setup)
//                                f.write_at(offset, span<const std::byte>);           (one call)
//                                n = f.read_at(offset, span<std::byte>);
//   write_at_all, read_at_all    f.set_view(thinmpi::file_subarray<double>(...));     (at setup)
//                                f.write_at_all(0, span<const double>);
//                                n = f.read_at_all(0, span<double>);
//   write_shared, write_ordered, read_ordered
//                                f.write_shared(span); f.write_ordered(span);
//                                n = f.read_ordered(span); f.seek_shared(0) before each block
//
// Built only when this file compiles against the tree's thinmpi (bench/cmake/WbIo.cmake tries
// it).
#include <cstddef>
#include <cstdio>
#include <exception>
#include <optional>
#include <span>
#include <string>

#include "io_variant.h"
#include "thinmpi/thinmpi.hpp"

namespace {

/// A kernel's file: the layout it follows, the thinmpi::file, whether a call came up short.
struct io_state {
  const wb_io_layout* layout;
  std::optional<thinmpi::file> file;
  bool failed = false;
};

io_state& state_of(void* state) {
  return *static_cast<io_state*>(state);
}

std::span<const std::byte> bytes_of(const wb_io_layout& layout) {
  return {reinterpret_cast<const std::byte*>(layout.data), layout.bytes};
}

std::span<std::byte> into_bytes(const wb_io_layout& layout) {
  return {reinterpret_cast<std::byte*>(layout.into), layout.bytes};
}

std::span<const double> doubles_of(const wb_io_layout& layout) {
  return {reinterpret_cast<const double*>(layout.data), layout.bytes / sizeof(double)};
}

std::span<double> into_doubles(const wb_io_layout& layout) {
  return {reinterpret_cast<double*>(layout.into), layout.bytes / sizeof(double)};
}

/// Runs one call; an mpi_error (or a read that came up short) marks the state failed, as an
/// error code does in io_c.c.
template <class Call>
void guarded(void* state, Call call) noexcept {
  auto& s = state_of(state);
  try {
    call(s, *s.layout);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "thinmpi io kernel: %s\n", error.what());
    s.failed = true;
  }
}

void* open_file(const wb_io_layout* layout) noexcept {
  auto* s = new (std::nothrow) io_state{layout, std::nullopt};
  if (!s) return nullptr;
  try {
    s->file.emplace(thinmpi::comm_view(layout->comm), std::string(layout->path),
                    thinmpi::file_mode::read_write | thinmpi::file_mode::create);
    if (layout->form == WB_IO_COLLECTIVE)
      s->file->set_view(thinmpi::file_subarray<double>({layout->sizes[0], layout->sizes[1]},
                                                       {layout->subsizes[0], layout->subsizes[1]},
                                                       {layout->starts[0], layout->starts[1]}));
    return s;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "thinmpi io kernel: %s\n", error.what());
    delete s;
    return nullptr;
  }
}

void write_at(void* state) {
  guarded(state,
          [](io_state& s, const wb_io_layout& l) { s.file->write_at(l.offset, bytes_of(l)); });
}

void read_at(void* state) {
  guarded(state, [](io_state& s, const wb_io_layout& l) {
    if (s.file->read_at(l.offset, into_bytes(l)) != l.bytes) s.failed = true;
  });
}

void write_at_all(void* state) {
  guarded(state,
          [](io_state& s, const wb_io_layout& l) { s.file->write_at_all(0, doubles_of(l)); });
}

void read_at_all(void* state) {
  guarded(state, [](io_state& s, const wb_io_layout& l) {
    auto into = into_doubles(l);
    if (s.file->read_at_all(0, into) != into.size()) s.failed = true;
  });
}

void write_shared(void* state) {
  guarded(state, [](io_state& s, const wb_io_layout& l) { s.file->write_shared(bytes_of(l)); });
}

void write_ordered(void* state) {
  guarded(state, [](io_state& s, const wb_io_layout& l) { s.file->write_ordered(bytes_of(l)); });
}

void read_ordered(void* state) {
  guarded(state, [](io_state& s, const wb_io_layout& l) {
    if (s.file->read_ordered(into_bytes(l)) != l.bytes) s.failed = true;
  });
}

void rewind_shared(void* state) {
  guarded(state, [](io_state& s, const wb_io_layout&) { s.file->seek_shared(0); });
}

int close_file(void* state) noexcept {
  auto* s = static_cast<io_state*>(state);
  bool failed = s->failed;
  try {
    s->file->close();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "thinmpi io kernel: %s\n", error.what());
    failed = true;
  }
  delete s;
  return failed ? 1 : 0;
}

constexpr wb_io_variant variant(const char* op, const char* baseline, wb_io_form form, int reads,
                                void (*call)(void*), void (*rewind)(void*) = nullptr) {
  return {"thinmpi", op, baseline, form, reads, open_file, call, rewind, close_file};
}

const wb_io_variant thinmpi_io_variants[] = {
    variant("write_at", "c/write_at", WB_IO_INDEPENDENT, 0, write_at),
    variant("read_at", "c/read_at", WB_IO_INDEPENDENT, 1, read_at),
    variant("write_at_all", "c/write_at_all", WB_IO_COLLECTIVE, 0, write_at_all),
    variant("read_at_all", "c/read_at_all", WB_IO_COLLECTIVE, 1, read_at_all),
    variant("write_shared", "c/write_shared", WB_IO_SHARED, 0, write_shared, rewind_shared),
    variant("write_ordered", "c/write_ordered", WB_IO_SHARED, 0, write_ordered, rewind_shared),
    variant("read_ordered", "c/read_ordered", WB_IO_SHARED, 1, read_ordered, rewind_shared),
};

}  // namespace

extern "C" size_t wb_thinmpi_io_variants(const wb_io_variant** table) {
  *table = thinmpi_io_variants;
  return sizeof thinmpi_io_variants / sizeof thinmpi_io_variants[0];
}
