#pragma once
/// \file
/// detail::request_face, what every thinmpi request does, written once over the one completion
/// path (detail/request_access.hpp): move, destruction and move-assignment (an active request
/// completes first: detail::abandon), wait(), test(), active() and last_status().
///
/// A request type derives from request_face<Kind> and states only its Kind: the operation's
/// state with the completion hooks request_access.hpp lists, plus
///   R result()                        what wait() hands back once complete (void for nothing)
/// and, where the kind has them,
///   thinmpi::status last_status() const   the completed operation's status (a request that
///                                         hands back a buffer reports it here)
///   void release() noexcept           frees what outlives completion (a persistent request's
///                                     MPI request), after the request has completed
/// The kind is a member, not a derived class (CRTP): a base's destructor runs after the
/// derived class's members are gone, too late to complete an operation that writes into them.

#include <optional>
#include <type_traits>
#include <utility>

#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/status.hpp"
#include "thinmpi/requests/detail/request_access.hpp"

namespace thinmpi::detail {

/// Kind records a status to report (a request that hands back a buffer or a value).
template <class Kind>
concept reports_status = requires(const Kind& kind) {
  kind.last_status();
};

/// The face of a request whose operation is a Kind (see the file comment). Move-only; a
/// moved-from request is inactive.
template <class Kind>
class [[nodiscard]] request_face {
 public:
  /// What wait() hands back.
  using result_type = decltype(std::declval<Kind&>().result());

  request_face(request_face&& other) noexcept : kind_(other.release_kind()) {}
  request_face& operator=(request_face&& other) noexcept {
    if (this != &other) {
      finish();
      kind_ = other.release_kind();
    }
    return *this;
  }
  request_face(const request_face&) = delete;
  request_face& operator=(const request_face&) = delete;
  /// Completes an active request first (a receive is cancelled where MPI can, then waited for).
  ~request_face() { finish(); }

  /// Blocks until the operation has completed (throws thinmpi::mpi_error if it failed), then
  /// hands back its result.
  result_type wait() {
    progress(kind_, true);
    return kind_.result();
  }
  /// The result if the operation has completed, else nothing; a bool where there is no result.
  /// Never blocks.
  [[nodiscard]] auto test() {
    const bool done = progress(kind_, false);
    if constexpr (std::is_void_v<result_type>) {
      return done;
    } else {
      return done ? std::optional<result_type>(kind_.result()) : std::nullopt;
    }
  }
  /// Whether something of the operation remains: posted and running, or waiting to be posted.
  [[nodiscard]] bool active() const noexcept { return request_access::active(kind_); }
  /// Blocks until complete (as wait() does, the result staying in the request), then returns
  /// the status.
  [[nodiscard]] thinmpi::status last_status() requires reports_status<Kind> {
    progress(kind_, true);
    return kind_.last_status();
  }

 protected:
  /// An inactive request.
  request_face() = default;
  /// A request whose kind is Kind{args...}.
  template <class... Args>
  explicit request_face(std::in_place_t, Args&&... args) : kind_{std::forward<Args>(args)...} {}

  [[nodiscard]] Kind& kind() noexcept { return kind_; }
  [[nodiscard]] const Kind& kind() const noexcept { return kind_; }
  /// Moves the operation out (for a request that takes another over), leaving this inactive.
  [[nodiscard]] Kind release_kind() noexcept { return std::exchange(kind_, Kind{}); }

 private:
  friend struct request_access;

  void finish() noexcept {
    abandon(kind_);
    if constexpr (requires { kind_.release(); }) kind_.release();
  }

  Kind kind_;
};

}  // namespace thinmpi::detail
