#pragma once
/// \file
/// thinmpi::session: MPI-4 sessions (MPI-4.0 section 11.3), the way a library starts MPI for
/// itself without owning MPI_Init, beside a program that may call MPI_Init (or make a
/// thinmpi::environment) or not. A session lists the process sets the runtime offers
/// ("mpi://WORLD", "mpi://SELF", and any the launcher adds), makes a group of one, and a
/// communicator of that group comes from thinmpi::communicator_from_group (collective over the
/// group's processes; the string tag tells apart creations that run at once). The session's
/// communicators are freed before it; it is finalized (MPI_Session_finalize) when destroyed.
///
///     // not compiled: MPI-4 only (MPICH 4); the build that compiles the samples is Open MPI 4.1
///     thinmpi::session mine;                                  // MPI_Session_init
///     thinmpi::group everyone = mine.group("mpi://WORLD");    // MPI_Group_from_session_pset
///     thinmpi::communicator comm =
///         thinmpi::communicator_from_group(everyone, "org.example.solver");
///     double total = comm.allreduce(1.0, std::plus<>{});
///
/// Where the installed MPI has no sessions (MPI_VERSION below 4: Open MPI 4.1), using
/// thinmpi::session or communicator_from_group does not compile, with one sentence saying so.

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "thinmpi/communicator/communicator.hpp"
#include "thinmpi/communicator/group.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/core/info.hpp"

namespace thinmpi {

/// Whether the installed MPI has sessions and partitioned communication (MPI-4).
inline constexpr bool has_mpi4_sessions = MPI_VERSION >= 4;

#if MPI_VERSION >= 4

/// An MPI-4 session (see the file comment). Move-only.
class session {
 public:
  /// Starts a session (MPI_Session_init) whose errors MPI returns, for thinmpi to throw.
  explicit session(const info& hints = {}) {
    detail::check(MPI_Session_init(hints.native(), MPI_ERRORS_RETURN, &handle_),
                  "MPI_Session_init");
  }
  session(const session&) = delete;
  session& operator=(const session&) = delete;
  /// Takes other's session over; other holds none.
  session(session&& other) noexcept : handle_(std::exchange(other.handle_, MPI_SESSION_NULL)) {}
  /// Finalizes this session, then takes other's over.
  session& operator=(session&& other) noexcept {
    if (this != &other) {
      end();
      handle_ = std::exchange(other.handle_, MPI_SESSION_NULL);
    }
    return *this;
  }
  /// Finalizes the session (MPI_Session_finalize); errors are not reported here (call
  /// finalize() to see them).
  ~session() { end(); }

  /// The names of the process sets this session sees (MPI_Session_get_num_psets, then
  /// MPI_Session_get_nth_pset twice a set: its length, its name).
  [[nodiscard]] std::vector<std::string> process_sets() const {
    int count = 0;
    detail::check(MPI_Session_get_num_psets(handle_, MPI_INFO_NULL, &count),
                  "MPI_Session_get_num_psets");
    std::vector<std::string> names;
    names.reserve(static_cast<std::size_t>(count));
    for (int n = 0; n < count; ++n) {
      int length = 0;
      detail::check(MPI_Session_get_nth_pset(handle_, MPI_INFO_NULL, n, &length, nullptr),
                    "MPI_Session_get_nth_pset");
      std::string name(static_cast<std::size_t>(length), '\0');  // length counts the '\0'
      detail::check(MPI_Session_get_nth_pset(handle_, MPI_INFO_NULL, n, &length, name.data()),
                    "MPI_Session_get_nth_pset");
      name.resize(name.find('\0') == std::string::npos ? name.size() : name.find('\0'));
      names.push_back(std::move(name));
    }
    return names;
  }
  /// The group of a process set's processes (MPI_Group_from_session_pset; process_sets()
  /// first). A name the session does not know is an mpi_error (MPI_ERR_ARG) naming it and the
  /// sets it has, found before MPI is called.
  [[nodiscard]] thinmpi::group group(std::string_view process_set) const {
    // Checked before MPI is called: MPICH 4.0.2 ignores the session's MPI_ERRORS_RETURN and
    // ends the job on a name it does not know (unless MPI_Init ran and MPI_COMM_WORLD returns
    // errors). Names compare without case, as MPICH compares them.
    const std::string name(process_set);
    const std::vector<std::string> sets = process_sets();
    const auto same = [&](const std::string& set) {
      return set.size() == name.size() &&
             std::equal(set.begin(), set.end(), name.begin(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) ==
                      std::tolower(static_cast<unsigned char>(b));
             });
    };
    if (std::none_of(sets.begin(), sets.end(), same)) [[unlikely]] {
      std::string known;
      for (const std::string& set : sets)
        known += (known.empty() ? "" : ", ") + set;
      detail::raise(MPI_ERR_ARG, detail::error_site{.operation = "MPI_Group_from_session_pset",
                                                    .problem = "no process set is named \"" + name +
                                                               "\"; this session has " + known});
    }
    MPI_Group g = MPI_GROUP_NULL;
    detail::check(MPI_Group_from_session_pset(handle_, name.c_str(), &g),
                  "MPI_Group_from_session_pset");
    return thinmpi::group::adopt(g);
  }
  /// Finalizes the session now (MPI_Session_finalize), throwing on failure; its communicators
  /// must be freed first.
  void finalize() {
    if (handle_ == MPI_SESSION_NULL) return;
    detail::check(MPI_Session_finalize(&handle_), "MPI_Session_finalize");
    handle_ = MPI_SESSION_NULL;
  }

  /// The MPI handle, for calling MPI directly; the session keeps ownership.
  [[nodiscard]] MPI_Session native() const noexcept { return handle_; }

 private:
  void end() noexcept {
    if (handle_ != MPI_SESSION_NULL) MPI_Session_finalize(&handle_);
    handle_ = MPI_SESSION_NULL;
  }

  MPI_Session handle_ = MPI_SESSION_NULL;
};

/// A communicator of `g`'s processes, in its order (MPI_Comm_create_from_group, collective over
/// them): `tag` tells apart creations that run at once (a library names its own, such as
/// "org.example.solver"). With MPI_ERRORS_RETURN set, as every thinmpi communicator.
[[nodiscard]] inline communicator communicator_from_group(const group& g, std::string_view tag,
                                                          const info& hints = {}) {
  const std::string name(tag);
  MPI_Comm out = MPI_COMM_NULL;
  detail::check(
      MPI_Comm_create_from_group(g.native(), name.c_str(), hints.native(), MPI_ERRORS_RETURN, &out),
      "MPI_Comm_create_from_group");
  return communicator::adopt(out, detail::errors_return_already_set{});  // passed above
}

#else

namespace detail {
template <class...>
inline constexpr bool needs_mpi4_sessions = false;
}  // namespace detail

/// This MPI has no sessions: using one does not compile (see the file comment).
class session {
 public:
  /// Fails to compile, with one sentence saying why.
  template <class... Args>
  explicit session(Args&&...) {
    static_assert(detail::needs_mpi4_sessions<Args...>,
                  "thinmpi::session needs MPI-4 sessions (MPI_Session_init), which this MPI does "
                  "not have (its mpi.h says MPI_VERSION < 4, as Open MPI 4.1's does): build with "
                  "MPICH 4 or Open MPI 5");
  }
};

/// Fails to compile: this MPI has no MPI_Comm_create_from_group (see session).
template <class... Args>
communicator communicator_from_group(Args&&...) {
  static_assert(detail::needs_mpi4_sessions<Args...>,
                "thinmpi::communicator_from_group needs MPI-4 (MPI_Comm_create_from_group), "
                "which this MPI does not have (MPI_VERSION < 4, as Open MPI 4.1's): build with "
                "MPICH 4 or Open MPI 5");
  return {};
}

#endif

}  // namespace thinmpi
