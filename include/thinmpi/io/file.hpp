#pragma once
/// \file
/// thinmpi::file, a file opened collectively by the ranks of a communicator (MPI_File_open):
/// its reads and writes (io/transfers.hpp, io/requests.hpp, io/split.hpp), its view
/// (io/layout.hpp), its size, pointers and consistency. Every MPI-IO return code is checked and
/// thrown as an mpi_error naming the file, the operation, the offset, the count and the rank;
/// a file's handle stays usable after an error wherever MPI allows (MPI-IO returns errors by
/// default, MPI_ERRORS_RETURN, and thinmpi sets it on each file it opens).
///
///     const int my_rows = rows / size, row0 = rank * my_rows;  // a block of rows a rank
///     thinmpi::file f(world, "field.bin", thinmpi::file_mode::write | thinmpi::file_mode::create);
///     f.set_view(thinmpi::file_subarray<double>({rows, cols}, {my_rows, cols}, {row0, 0}));
///     f.write_at_all(0, std::span(field).first(std::size_t(my_rows * cols)));  // one call
///     f.close();  // or let the destructor close it

#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <utility>

#include "thinmpi/communicator/communicator.hpp"
#include "thinmpi/communicator/group.hpp"
#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/core/info.hpp"
#include "thinmpi/io/detail/file_state.hpp"
#include "thinmpi/io/detail/raise_io.hpp"
#include "thinmpi/io/layout.hpp"
#include "thinmpi/io/modes.hpp"
#include "thinmpi/io/requests.hpp"
#include "thinmpi/io/split.hpp"
#include "thinmpi/io/transfers.hpp"

namespace thinmpi {

/// A file open on the ranks of a communicator (see the file comment). Move-only; closed once,
/// collectively, by close() or the destructor.
class file : public file_transfers<file>, public file_nonblocking<file>, public file_split<file> {
 public:
  /// No file.
  file() = default;
  /// Opens `path` on every rank of `comm` (MPI_File_open, collective; the ranks pass the same
  /// name and mode). A mode MPI does not take (not exactly one of read, write, read_write;
  /// read with create) throws MPI_ERR_AMODE on every rank before MPI is called; a missing
  /// file, one that exists with exclusive, or one the process may not open throws MPI's class
  /// (MPI_ERR_NO_SUCH_FILE, MPI_ERR_FILE_EXISTS, MPI_ERR_ACCESS, ...) naming the file.
  file(comm_view comm, std::string path, file_mode mode, const info& hints = info{})
      : state_(std::make_shared<detail::file_state>()) {
    detail::file_state& s = *state_;
    s.path = std::move(path);
    s.uncaught_at_open = std::uncaught_exceptions();
    detail::check(MPI_Comm_rank(comm.native(), &s.rank), "MPI_Comm_rank", comm.native());
    detail::check(MPI_Comm_size(comm.native(), &s.size), "MPI_Comm_size", comm.native());
    if (std::string problem = detail::mode_problem(mode); !problem.empty()) [[unlikely]] {
      detail::io_site site = s.site("MPI_File_open");
      site.problem = std::move(problem);
      detail::raise_io(MPI_ERR_AMODE, site);
    }
    const int rc = open_on(comm.native(), s, mode, hints);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      s.handle = MPI_FILE_NULL;
      detail::raise_io(rc, s.site("MPI_File_open"));
    }
    MPI_File_set_errhandler(s.handle, MPI_ERRORS_RETURN);
  }
  file(const file&) = delete;
  file& operator=(const file&) = delete;
  /// Takes the file over; the moved-from one is no file.
  file(file&&) noexcept = default;
  /// Closes this file (collective, as the destructor), then takes `other` over.
  file& operator=(file&& other) noexcept {
    if (this != &other) {
      release();
      state_ = std::move(other.state_);
    }
    return *this;
  }
  /// Closes the file (MPI_File_close, collective), errors dropped. While an exception that
  /// began after the file was opened unwinds the stack, it does not: the other ranks may not
  /// be closing (MPI_File_close synchronizes them), so waiting for them could hang; the handle
  /// is left to the end of the job (thinmpi::environment aborts it when the exception reaches
  /// it), and what completed writes put in the file stays there.
  ~file() { release(); }

  /// Deletes the file `path` (MPI_File_delete; not collective). A missing file is an mpi_error
  /// (MPI_ERR_NO_SUCH_FILE) naming it.
  static void remove(const std::string& path, const info& hints = info{}) {
    const int rc = MPI_File_delete(path.c_str(), hints.native());
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_io(rc, detail::io_site{.operation = "MPI_File_delete", .path = &path});
    }
  }

  /// Closes the file now (MPI_File_close, collective), throwing if MPI fails; afterwards this
  /// is no file. Nonblocking requests on it must have completed.
  void close() {
    if (is_null()) return;
    const std::shared_ptr<detail::file_state> s = std::exchange(state_, nullptr);
    const int rc = MPI_File_close(&s->handle);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_io(rc, s->site("MPI_File_close"));
    }
  }

  /// The MPI handle (MPI_FILE_NULL when no file is open), for calling MPI directly.
  [[nodiscard]] MPI_File native() const noexcept { return state_ ? state_->handle : MPI_FILE_NULL; }
  /// Whether no file is open (default-constructed, moved from, or closed).
  [[nodiscard]] bool is_null() const noexcept { return native() == MPI_FILE_NULL; }
  /// The group of ranks that opened the file (MPI_File_get_group; local).
  [[nodiscard]] thinmpi::group group() const {
    MPI_Group g = MPI_GROUP_NULL;
    check(MPI_File_get_group(handle("MPI_File_get_group"), &g), "MPI_File_get_group");
    return thinmpi::group::adopt(g);
  }
  /// The name the file was opened with.
  [[nodiscard]] const std::string& path() const { return live("thinmpi::file::path").path; }
  /// The mode it was opened with (MPI_File_get_amode).
  [[nodiscard]] file_mode mode() const {
    int amode = 0;
    check(MPI_File_get_amode(handle("MPI_File_get_amode"), &amode), "MPI_File_get_amode");
    return static_cast<file_mode>(static_cast<unsigned>(amode));
  }
  /// The hints MPI uses for it (MPI_File_get_info).
  [[nodiscard]] info hints() const {
    MPI_Info used = MPI_INFO_NULL;
    check(MPI_File_get_info(handle("MPI_File_get_info"), &used), "MPI_File_get_info");
    return info::adopt(used);
  }
  /// Sets hints on the open file (MPI_File_set_info, collective).
  void set_hints(const info& hints) {
    check(MPI_File_set_info(handle("MPI_File_set_info"), hints.native()), "MPI_File_set_info");
  }

  /// The file's size in bytes (MPI_File_get_size).
  [[nodiscard]] std::uint64_t size() const {
    MPI_Offset bytes = 0;
    check(MPI_File_get_size(handle("MPI_File_get_size"), &bytes), "MPI_File_get_size");
    return static_cast<std::uint64_t>(bytes);
  }
  /// Truncates or extends the file to `bytes` (MPI_File_set_size, collective).
  void resize(std::uint64_t bytes) {
    check(MPI_File_set_size(handle("MPI_File_set_size"), static_cast<MPI_Offset>(bytes)),
          "MPI_File_set_size");
  }
  /// Makes sure the file has room for `bytes` (MPI_File_preallocate, collective).
  void preallocate(std::uint64_t bytes) {
    check(MPI_File_preallocate(handle("MPI_File_preallocate"), static_cast<MPI_Offset>(bytes)),
          "MPI_File_preallocate");
  }
  /// Writes what this rank wrote to the storage device and makes other ranks' writes visible
  /// to it (MPI_File_sync, collective).
  void sync() { check(MPI_File_sync(handle("MPI_File_sync")), "MPI_File_sync"); }
  /// Atomic mode on or off (MPI_File_set_atomicity, collective): in atomic mode a rank's
  /// write is seen whole or not at all by the others' conflicting accesses.
  void set_atomicity(bool atomic) {
    check(MPI_File_set_atomicity(handle("MPI_File_set_atomicity"), atomic ? 1 : 0),
          "MPI_File_set_atomicity");
  }
  /// Whether atomic mode is on (MPI_File_get_atomicity).
  [[nodiscard]] bool atomicity() const {
    int flag = 0;
    check(MPI_File_get_atomicity(handle("MPI_File_get_atomicity"), &flag),
          "MPI_File_get_atomicity");
    return flag != 0;
  }

  /// Sets this rank's view (MPI_File_set_view, collective): from `displacement` bytes into the
  /// file, it sees the elements `layout` selects, in elements of T; offsets, file pointers and
  /// the element type of every later read and write are the view's (both pointers go back to
  /// 0). A representation MPI does not have is MPI_ERR_UNSUPPORTED_DATAREP.
  template <class T>
  void set_view(const file_layout<T>& layout, std::uint64_t displacement = 0,
                file_representation representation = file_representation::native,
                const info& hints = info{}) {
    detail::file_state& s = live("MPI_File_set_view");
    const int rc = MPI_File_set_view(s.handle, static_cast<MPI_Offset>(displacement),
                                     layout.element_type(), layout.filetype(),
                                     detail::representation_name(representation), hints.native());
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_io(rc, s.site("MPI_File_set_view"));
    }
    s.etype = layout.element_type();
    s.etype_bytes = detail::wire_size<T>();
  }
  /// Goes back to the view a file opens with: every byte, from the start.
  void reset_view() { set_view(file_contiguous<std::byte>()); }
  /// The byte in the file where view offset `offset` lies (MPI_File_get_byte_offset).
  [[nodiscard]] std::uint64_t byte_offset(file_offset offset) const {
    MPI_Offset bytes = 0;
    check(MPI_File_get_byte_offset(handle("MPI_File_get_byte_offset"), offset, &bytes),
          "MPI_File_get_byte_offset");
    return static_cast<std::uint64_t>(bytes);
  }

  /// Moves this rank's file pointer (MPI_File_seek). From the end, the end is found by
  /// thinmpi (MPI_File_get_size and MPI_File_get_byte_offset, a binary search over the view)
  /// and the seek is from the start: Open MPI 4.1.4 places MPI_SEEK_END at the end of the
  /// view's first filetype, not of the file (open-mpi/ompi#8266, #12952).
  void seek(file_offset offset, seek_from from = seek_from::start) {
    if (from == seek_from::end) {
      offset += end_position("MPI_File_seek");
      from = seek_from::start;
    }
    check(MPI_File_seek(handle("MPI_File_seek"), offset, static_cast<int>(from)), "MPI_File_seek");
  }
  /// This rank's file pointer, in view elements (MPI_File_get_position).
  [[nodiscard]] file_offset position() const {
    MPI_Offset offset = 0;
    check(MPI_File_get_position(handle("MPI_File_get_position"), &offset), "MPI_File_get_position");
    return offset;
  }
  /// Moves the shared file pointer (MPI_File_seek_shared, collective: every rank the same).
  void seek_shared(file_offset offset, seek_from from = seek_from::start) {
    if (from == seek_from::end) {
      offset += end_position("MPI_File_seek_shared");
      from = seek_from::start;
    }
    check(MPI_File_seek_shared(handle("MPI_File_seek_shared"), offset, static_cast<int>(from)),
          "MPI_File_seek_shared");
  }
  /// The shared file pointer, in view elements (MPI_File_get_position_shared).
  [[nodiscard]] file_offset position_shared() const {
    MPI_Offset offset = 0;
    check(MPI_File_get_position_shared(handle("MPI_File_get_position_shared"), &offset),
          "MPI_File_get_position_shared");
    return offset;
  }

  /// The state of an open file, else an mpi_error (MPI_ERR_FILE) naming `operation`.
  [[nodiscard]] detail::file_state& live(const char* operation) const {
    if (is_null()) [[unlikely]] {
      raise_closed(operation);
    }
    return *state_;
  }
  /// The shared state of an open file (requests keep it), as live().
  [[nodiscard]] std::shared_ptr<const detail::file_state> shared_state(
      const char* operation) const {
    (void)live(operation);
    return state_;
  }

 private:
  [[noreturn, gnu::cold, gnu::noinline]] static void raise_closed(const char* operation) {
    detail::raise_io(MPI_ERR_FILE,
                     detail::io_site{.operation = operation,
                                     .problem = "the file is not open (default-constructed, "
                                                "moved from, or closed)"});
  }
  [[nodiscard]] MPI_File handle(const char* operation) const { return live(operation).handle; }
  /// MPI_File_open. Open MPI 4.1.4's OMPIO groups its aggregators by the Cartesian topology of
  /// the communicator a file is opened on, and its collective reads and writes through a view
  /// at a nonzero displacement then move wrong data in a third to three quarters of runs (a
  /// 2 x 2 grid of ranks, a sub-array view at 16 or 4096 bytes; plain C the same; none on a
  /// communicator without the topology). So there a file opened on a Cartesian communicator is
  /// opened on a copy of it without the topology (one MPI_Comm_split, freed once the file is
  /// open: MPI_File_open keeps a communicator of its own).
  static int open_on(MPI_Comm comm, detail::file_state& s, file_mode mode, const info& hints) {
#if defined(OPEN_MPI)
    int topology = MPI_UNDEFINED;
    MPI_Topo_test(comm, &topology);
    if (topology == MPI_CART) {
      MPI_Comm plain = MPI_COMM_NULL;
      detail::check(MPI_Comm_split(comm, 0, s.rank, &plain), "MPI_Comm_split", comm);
      const int rc =
          MPI_File_open(plain, s.path.c_str(), static_cast<int>(mode), hints.native(), &s.handle);
      MPI_Comm_free(&plain);
      return rc;
    }
#endif
    return MPI_File_open(comm, s.path.c_str(), static_cast<int>(mode), hints.native(), &s.handle);
  }
  /// The view offset of the end of the file: the first etype whose byte lies at or past it.
  [[nodiscard]] file_offset end_position(const char* operation) const {
    const MPI_File fh = handle(operation);
    MPI_Offset file_bytes = 0;
    check(MPI_File_get_size(fh, &file_bytes), "MPI_File_get_size");
    const auto at_or_past_end = [&](MPI_Offset etypes) {
      MPI_Offset byte = 0;
      check(MPI_File_get_byte_offset(fh, etypes, &byte), "MPI_File_get_byte_offset");
      return byte >= file_bytes;
    };
    MPI_Offset low = -1;  // before the end (the view's first etype may lie past it: then 0)
    MPI_Offset high = file_bytes / static_cast<MPI_Offset>(state_->etype_bytes) + 1;
    while (!at_or_past_end(high))  // a view whose first etype starts past byte 0
      high *= 2;
    while (high - low > 1) {
      const MPI_Offset middle = low + (high - low) / 2;
      (middle >= 0 && at_or_past_end(middle) ? high : low) = middle;
    }
    return high;
  }
  void check(int rc, const char* operation) const {
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_io(rc, state_->site(operation));
    }
  }
  void release() noexcept {
    if (is_null()) return;
    if (std::uncaught_exceptions() > state_->uncaught_at_open || !detail::mpi_is_running()) {
      state_.reset();  // see ~file(): no collective call while an exception unwinds
      return;
    }
    MPI_File_close(&state_->handle);
    state_.reset();
  }

  std::shared_ptr<detail::file_state> state_{};
};

}  // namespace thinmpi
