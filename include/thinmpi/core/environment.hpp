#pragma once
/// \file
/// thinmpi::environment: MPI_Init_thread and MPI_Finalize as one object, and the queries about
/// the MPI library that need no communicator.

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <utility>

#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"

namespace thinmpi {

/// The thread support levels of MPI_Init_thread, weakest first.
enum class thread_level : int {
  single = MPI_THREAD_SINGLE,          ///< one thread
  funneled = MPI_THREAD_FUNNELED,      ///< only the main thread calls MPI
  serialized = MPI_THREAD_SERIALIZED,  ///< one thread at a time calls MPI
  multiple = MPI_THREAD_MULTIPLE,      ///< any thread, any time
};

/// Whether MPI_Init has been called.
[[nodiscard]] inline bool initialized() {
  int flag = 0;
  detail::check(MPI_Initialized(&flag), "MPI_Initialized");
  return flag != 0;
}

/// Whether MPI_Finalize has been called.
[[nodiscard]] inline bool finalized() {
  int flag = 0;
  detail::check(MPI_Finalized(&flag), "MPI_Finalized");
  return flag != 0;
}

/// Seconds since some time in the past (MPI_Wtime).
[[nodiscard]] inline double wtime() noexcept {
  return MPI_Wtime();
}

/// The resolution of wtime() in seconds (MPI_Wtick).
[[nodiscard]] inline double wtick() noexcept {
  return MPI_Wtick();
}

/// The name of the processor this rank runs on (MPI_Get_processor_name).
[[nodiscard]] inline std::string processor_name() {
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  detail::check(MPI_Get_processor_name(name, &length), "MPI_Get_processor_name");
  return std::string(name, static_cast<std::size_t>(length));
}

/// The MPI library's own description of itself, e.g. "Open MPI v4.1.4, ..." (first line).
[[nodiscard]] inline std::string library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  detail::check(MPI_Get_library_version(text, &length), "MPI_Get_library_version");
  return detail::first_line(std::string(text, static_cast<std::size_t>(length)));
}

/// The thread level MPI provides now (MPI_Query_thread).
[[nodiscard]] inline thread_level query_thread() {
  int provided = MPI_THREAD_SINGLE;
  detail::check(MPI_Query_thread(&provided), "MPI_Query_thread");
  return static_cast<thread_level>(provided);
}

namespace detail {

/// Run at exit() in a process whose environment initialized MPI: if MPI is still running, the
/// process is leaving without MPI_Finalize (exit() called while the environment is alive, which
/// skips its destructor). MPICH 4.0's launcher then ends the whole job with status 0 and no
/// message; aborting makes it fail visibly, as Open MPI does by itself.
inline void abort_if_exiting_unfinalized() noexcept {
  int initialized = 0;
  int finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized == 0 || finalized != 0) return;
  std::fputs(
      "thinmpi: exit() was called while MPI is running (the thinmpi::environment was never "
      "destroyed, so MPI_Finalize never ran): aborting the job\n",
      stderr);
  MPI_Abort(MPI_COMM_WORLD, EXIT_FAILURE);
}

}  // namespace detail

/// Initializes MPI for its lifetime. If MPI is already initialized (by the application or
/// another library) it uses it as it is and does not finalize it. Either way MPI_COMM_WORLD and
/// MPI_COMM_SELF return errors (MPI_ERRORS_RETURN), which thinmpi throws as thinmpi::mpi_error.
///
/// Destroyed normally, it calls MPI_Finalize. Destroyed while an exception unwinds the stack, it
/// calls MPI_Abort instead: MPI_Finalize would wait forever for ranks still communicating. A
/// process that calls exit() while it is alive never finalizes: that also aborts the job.
///
///     int main(int argc, char** argv) {
///       thinmpi::environment env(argc, argv);
///       auto world = thinmpi::world();
///     }
class environment {
 public:
  /// MPI_Init_thread without arguments, requesting `required`.
  explicit environment(thread_level required = thread_level::single) {
    start(nullptr, nullptr, required);
  }
  /// MPI_Init_thread(&argc, &argv, required): MPI may remove its own arguments.
  environment(int& argc, char**& argv, thread_level required = thread_level::single) {
    start(&argc, &argv, required);
  }
  environment(const environment&) = delete;
  environment& operator=(const environment&) = delete;
  environment(environment&&) = delete;
  environment& operator=(environment&&) = delete;
  ~environment() {
    if (!owns_mpi_) return;
    int done = 0;
    MPI_Finalized(&done);
    if (done != 0) return;
    if (std::uncaught_exceptions() > uncaught_at_start_) MPI_Abort(MPI_COMM_WORLD, EXIT_FAILURE);
    MPI_Finalize();
  }

  /// The thread level MPI provides; it may be lower than the one requested.
  [[nodiscard]] thread_level provided() const noexcept { return provided_; }
  /// Whether this object initialized MPI, and so will finalize it.
  [[nodiscard]] bool owns_mpi() const noexcept { return owns_mpi_; }

 private:
  void start(int* argc, char*** argv, thread_level required) {
    if (finalized()) {
      detail::raise(MPI_ERR_OTHER,
                    detail::error_site{.operation = "MPI_Init_thread",
                                       .problem = "MPI was finalized and cannot start again"});
    }
    int provided = MPI_THREAD_SINGLE;
    if (initialized()) {
      detail::check(MPI_Query_thread(&provided), "MPI_Query_thread");
    } else {
      detail::check(MPI_Init_thread(argc, argv, static_cast<int>(required), &provided),
                    "MPI_Init_thread");
      owns_mpi_ = true;
      static const bool at_exit = std::atexit(&detail::abort_if_exiting_unfinalized) == 0;
      static_cast<void>(at_exit);
    }
    provided_ = static_cast<thread_level>(provided);
    detail::check(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN),
                  "MPI_Comm_set_errhandler");
    detail::check(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN),
                  "MPI_Comm_set_errhandler");
  }

  thread_level provided_ = thread_level::single;
  bool owns_mpi_ = false;
  int uncaught_at_start_ = std::uncaught_exceptions();
};

}  // namespace thinmpi
