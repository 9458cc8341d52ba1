#pragma once
/// \file
/// The one door every request completes through. A request type of any family (point-to-point,
/// collective, multi-stage) states a kind with a few hooks (requests/request_face.hpp), and
/// everything that completes a request (its wait(), test(), last_status(), destructor, and
/// wait_all / wait_any / test_all / test_any) drives it through progress() below, so the owner's
/// completion step (shrinking a container, checking elements, handing back results, posting the
/// next stage) runs whichever way the request completes.
///
/// Hooks (of a request's kind, or of a request written without the face):
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

/// The hooks of request types, for the completion functions. A request_face (request_face.hpp)
/// answers through its kind; a kind, or a request written without the face, answers itself.
struct request_access {
  template <class R>
  static auto& hooks(R& r) noexcept {
    if constexpr (requires { r.kind_; }) {
      return r.kind_;
    } else {
      return r;
    }
  }
  template <class R>
  static auto handle(R& r) noexcept -> decltype(hooks(r).posted_handle()) {
    return hooks(r).posted_handle();
  }
  template <class R>
  static void complete(R& r, int rc, const MPI_Status& raw) {
    hooks(r).complete_stage(rc, raw);
  }
  template <class R>
  static bool awaiting_start(const R& r) noexcept {
    auto& h = hooks(r);
    if constexpr (requires { h.awaiting_start(); }) return h.awaiting_start();
    return false;
  }
  template <class R>
  static bool try_start(R& r) {
    auto& h = hooks(r);
    if constexpr (requires { h.try_start(); }) return h.try_start();
    return true;
  }
  template <class R>
  static void start(R& r) {
    auto& h = hooks(r);
    if constexpr (requires { h.start(); }) h.start();
  }
  template <class R>
  static void give_up(R& r) noexcept {
    auto& h = hooks(r);
    if constexpr (requires { h.give_up(); }) h.give_up();
  }
  /// Whether anything of r remains to be done.
  template <class R>
  static bool active(const R& r) noexcept {
    return awaiting_start(r) || handle(const_cast<R&>(r)) != MPI_REQUEST_NULL;
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
