#pragma once
/// \file
/// The one door every request completes through. A request type of any family (point-to-point,
/// collective, multi-stage) gives request_access a few private hooks, and everything that
/// completes a request (its wait(), test(), last_status(), destructor, and wait_all / wait_any
/// / test_all / test_any) drives it through progress() below, so the owner's completion step
/// (shrinking a container, checking elements, handing back results, posting the next stage)
/// runs whichever way the request completes.
///
/// Hooks (private; `friend struct thinmpi::detail::request_access;`):
///   MPI_Request& posted_handle() noexcept        the posted stage, MPI_REQUEST_NULL if none
///   void complete_stage(int rc, const MPI_Status&)   MPI finished that stage; throws on failure,
///                                                    may post the next stage
/// and, only for requests with a stage that is not posted yet (a receive of unknown size
/// waiting for its message, a stage that needs a probe):
///   bool awaiting_start() const noexcept         a stage remains to be posted
///   bool try_start()                             post it if that can be done without blocking
///   void start()                                 post it, blocking until that can be done
/// and, for requests with something that can be given up when abandoned (a receive):
///   void give_up() noexcept                      cancel what MPI may cancel

#include <exception>

#include "thinmpi/core/detail/mpi.hpp"

namespace thinmpi::detail {

/// Whether an operation sends or receives: receives may be cancelled when abandoned.
enum class direction { send, receive };

/// True when MPI has been finalized: a request cannot be completed any more.
inline bool mpi_finalized() noexcept {
  int finalized = 0;
  MPI_Finalized(&finalized);
  return finalized != 0;
}

/// The private hooks of request types, for the completion functions.
struct request_access {
  template <class R>
  static auto handle(R& r) noexcept -> decltype(r.posted_handle()) {
    return r.posted_handle();
  }
  template <class R>
  static void complete(R& r, int rc, const MPI_Status& raw) {
    r.complete_stage(rc, raw);
  }
  template <class R>
  static bool awaiting_start(const R& r) noexcept {
    if constexpr (requires { r.awaiting_start(); }) {
      return r.awaiting_start();
    } else {
      return false;
    }
  }
  template <class R>
  static bool try_start(R& r) {
    if constexpr (requires { r.try_start(); }) {
      return r.try_start();
    } else {
      return true;
    }
  }
  template <class R>
  static void start(R& r) {
    if constexpr (requires { r.start(); }) r.start();
  }
  template <class R>
  static void give_up(R& r) noexcept {
    if constexpr (requires { r.give_up(); }) r.give_up();
  }
  /// Whether anything of r remains to be done.
  template <class R>
  static bool active(const R& r) noexcept {
    return awaiting_start(r) || const_cast<R&>(r).posted_handle() != MPI_REQUEST_NULL;
  }
};

/// A type whose completion goes through request_access (every thinmpi request type).
template <class R>
concept completable = requires(R& r) {
  request_access::handle(r);
};

/// Completes r's stages: blocking (MPI_Wait) until nothing remains, or not (MPI_Test) until a
/// stage is still running. Returns whether r has completed. Every request completes here.
template <class R>
bool progress(R& r, bool block) {
  while (true) {
    if (request_access::awaiting_start(r)) {
      if (block) {
        request_access::start(r);
      } else if (!request_access::try_start(r)) {
        return false;
      }
    }
    MPI_Request& handle = request_access::handle(r);
    if (handle == MPI_REQUEST_NULL) return true;
    MPI_Status raw;  // filled by MPI_Wait / MPI_Test before it is read
    int flag = 1;
    const int rc = block ? MPI_Wait(&handle, &raw) : MPI_Test(&handle, &flag, &raw);
    if (rc == MPI_SUCCESS && flag == 0) return false;
    request_access::complete(r, rc, raw);
  }
}

/// What a request destroyed (or overwritten) while active does: gives up what can be given up
/// (a receive is cancelled), then completes the rest through progress(), so MPI never writes
/// into memory that is freed and a multi-stage collective still posts the stages the other
/// ranks wait for. Errors of an abandoned operation have nowhere to go and are dropped.
template <class R>
void abandon(R& r) noexcept {
  if (!request_access::active(r) || mpi_finalized()) return;
  request_access::give_up(r);
  try {
    progress(r, true);
  } catch (...) {
    // The caller dropped the request: nobody is left to hear of its failure.
  }
}

}  // namespace thinmpi::detail
