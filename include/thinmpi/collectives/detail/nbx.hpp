#pragma once
/// \file
/// One rank's side of the NBX protocol (Hoefler, Siebert, Lumsdaine, "Scalable communication
/// protocols for dynamic sparse data exchange", PPoPP 2010), which sparse_exchange runs: each
/// message goes out as a synchronous send (MPI_Issend), so its completion means the destination
/// has matched it; the rank receives whatever a matched probe (MPI_Improbe on any source, the
/// exchange's tag) finds, and once its own sends have completed it enters a nonblocking barrier
/// (MPI_Ibarrier). When that barrier completes, every rank's sends have been matched, so no
/// message of the exchange is left to receive. O(messages) calls per rank; no rank learns who
/// sends to it from a count exchange over all ranks.
///
/// Its arguments are each rank's own (its destinations, like a v-collective's counts) or must
/// be alike (the tag), and the other ranks enter the protocol without looking at them: a bad
/// one ends the job (checked collectives: the ranks agree first, and every rank throws;
/// detail/root_checks.hpp). Once a rank is in the protocol, the others wait for its messages
/// and its barrier, so an MPI call that fails there ends the job too (raise_nbx).

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/root_checks.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/large_count.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"

namespace thinmpi::detail {

/// The exchange as a collective call, for end_job and the agreement of checked collectives.
inline collective_call nbx_call(MPI_Comm comm) noexcept {
  return {"thinmpi::sparse_exchange", comm};
}

/// The exchange's failed MPI call, with its peer and tag. The other ranks are in the protocol
/// and would wait for this rank's messages or barrier: the job ends with the error.
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_nbx(int code, const char* operation,
                                                             MPI_Comm comm, int peer, int tag,
                                                             const char* peer_role = "dest") {
  try {
    raise(code, error_site{.operation = operation,
                           .comm = comm,
                           .peer_role = peer_role,
                           .peer = peer == MPI_ANY_SOURCE ? std::optional<int>() : peer,
                           .tag = tag});
  } catch (const mpi_error& error) {
    end_job(nbx_call(comm), error, {}, false);
  }
}

/// Input that the exchange rejects before any MPI call: a bad tag or destination.
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_nbx_input(int code, MPI_Comm comm,
                                                                   std::string problem) {
  raise(code,
        error_site{
            .operation = "thinmpi::sparse_exchange", .comm = comm, .problem = std::move(problem)});
}
/// Such input on this rank: the others enter the protocol regardless, so the job ends
/// (checked collectives: the ranks agree, and every rank throws).
[[noreturn, gnu::cold, gnu::noinline]] inline void nbx_input_fails(int code, MPI_Comm comm,
                                                                   const std::string& problem) {
  failed_check(nbx_call(comm), [&] { raise_nbx_input(code, comm, problem); });
}

/// MPI_TAG_UB (an attribute of MPI_COMM_WORLD, the same for every communicator).
inline int largest_tag() {
  int* value = nullptr;
  int found = 0;
  check(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &found), "MPI_Comm_get_attr");
  return found != 0 && value != nullptr ? *value : 32767;
}

/// One rank's side of one sparse exchange. Move-less: it lives in the call that runs it.
class nbx_exchange {
 public:
  /// An exchange on comm with tag; throws (before any MPI call) for the null communicator. A
  /// negative tag (MPI_ANY_TAG would match other traffic) ends the job (nbx_input_fails);
  /// checked collectives also compare the tag with MPI_TAG_UB here (unchecked, MPI does, and
  /// the job ends: raise_nbx).
  nbx_exchange(MPI_Comm comm, int tag, int ranks) : comm_(comm), tag_(tag), ranks_(ranks) {
    if (comm == MPI_COMM_NULL) [[unlikely]] {
      raise_nbx_input(MPI_ERR_COMM, comm, "the communicator is the null communicator");
    }
    if (tag < 0) [[unlikely]] {
      nbx_input_fails(MPI_ERR_TAG, comm,
                      "tag " + std::to_string(tag) +
                          " is negative; give the exchange a tag of its own (0 or more)");
    }
    if constexpr (checked_collectives) {
      if (const int most = largest_tag(); tag > most) [[unlikely]] {
        nbx_input_fails(MPI_ERR_TAG, comm,
                        "tag " + std::to_string(tag) + " is above MPI_TAG_UB, " +
                            std::to_string(most) + "; give the exchange a smaller tag");
      }
    }
  }
  nbx_exchange(const nbx_exchange&) = delete;
  nbx_exchange& operator=(const nbx_exchange&) = delete;
  /// After an error, requests still active are freed (MPI_Request_free): waiting for them could
  /// hang, as the other ranks may never match them.
  ~nbx_exchange() {
    for (std::size_t i = 0; i < sent_; ++i) {
      if (sends_[i] != MPI_REQUEST_NULL) MPI_Request_free(&sends_[i]);
    }
    if (barrier_ != MPI_REQUEST_NULL) MPI_Request_free(&barrier_);
  }

  /// Makes room for the requests of `messages` sends, before the first send(): in the exchange
  /// itself up to inline_sends of them, so that the few-destination case allocates nothing per
  /// call (a heap vector was the measured difference from the same protocol in C).
  void reserve(std::size_t messages) {
    if (messages > inline_.size()) {
      more_.resize(messages, MPI_REQUEST_NULL);
      sends_ = more_.data();
    }
  }

  /// Ends the job (MPI_ERR_RANK, before any MPI call; checked collectives: every rank throws)
  /// unless dest is a rank of the communicator or thinmpi::proc_null; `index` is the message's
  /// place in the caller's list.
  void check_dest(int dest, std::size_t index) const {
    if ((dest < 0 || dest >= ranks_) && dest != MPI_PROC_NULL) [[unlikely]] {
      dest_fails(dest, index);
    }
  }
  /// After every check: checked collectives agree here (every rank throws if one failed).
  void agree() const { agree_if_checked(nbx_call(comm_)); }

  /// Starts the synchronous send of out to dest (MPI_Issend; any count, large_count.hpp); at
  /// most as many sends as reserve() made room for.
  void send(int dest, const const_buffer& out) {
    MPI_Request& request = sends_[sent_++];
    request = MPI_REQUEST_NULL;  // what the destructor sees if the call fails
    const int rc = counted_call<&MPI_Issend, THINMPI_LARGE_COUNT_CALL(MPI_Issend)>(
        counts_at<1>{}, out.data, out.count, out.type, dest, tag_, comm_, &request);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      raise_nbx(rc, "MPI_Issend", comm_, dest, tag_);
    }
  }

  /// Runs the protocol to its end: every message matched by the probe is handed to
  /// receive(MPI_Message&, const MPI_Status&), which must receive it (MPI_Mrecv).
  template <class Receive>
  void run(Receive&& receive) {
    for (;;) {
      int found = 0;
      MPI_Message message;  // written by MPI_Improbe, read only when it found one
      MPI_Status status;
      if (const int rc = MPI_Improbe(MPI_ANY_SOURCE, tag_, comm_, &found, &message, &status);
          rc != MPI_SUCCESS) [[unlikely]] {
        raise_nbx(rc, "MPI_Improbe", comm_, MPI_ANY_SOURCE, tag_, "source");
      }
      if (found != 0) {
        receive(message, status);
      }
      if (!barrier_started_) {
        if (sends_completed()) start_barrier();
      } else if (barrier_completed()) {
        return;
      }
    }
  }

  [[nodiscard]] MPI_Comm comm() const noexcept { return comm_; }
  [[nodiscard]] int tag() const noexcept { return tag_; }

 private:
  [[noreturn, gnu::cold, gnu::noinline]] void dest_fails(int dest, std::size_t index) const {
    nbx_input_fails(MPI_ERR_RANK, comm_,
                    "message " + std::to_string(index) + " is for rank " + std::to_string(dest) +
                        ", which is not a rank of this communicator of " +
                        counted(static_cast<std::size_t>(ranks_), "rank", "ranks"));
  }
  bool sends_completed() {
    int done = 0;
    const int rc = MPI_Testall(static_cast<int>(sent_), sends_, &done, MPI_STATUSES_IGNORE);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      raise_nbx(rc, "MPI_Testall", comm_, MPI_ANY_SOURCE, tag_);
    }
    return done != 0;
  }
  void start_barrier() {
    if (const int rc = MPI_Ibarrier(comm_, &barrier_); rc != MPI_SUCCESS) [[unlikely]] {
      barrier_ = MPI_REQUEST_NULL;
      raise_nbx(rc, "MPI_Ibarrier", comm_, MPI_ANY_SOURCE, tag_);
    }
    barrier_started_ = true;
  }
  bool barrier_completed() {
    int done = 0;
    if (const int rc = MPI_Test(&barrier_, &done, MPI_STATUS_IGNORE); rc != MPI_SUCCESS)
        [[unlikely]] {
      raise_nbx(rc, "MPI_Test", comm_, MPI_ANY_SOURCE, tag_);
    }
    return done != 0;
  }

  MPI_Comm comm_;
  int tag_;
  int ranks_;
  static constexpr std::size_t inline_sends = 8;
  std::array<MPI_Request, inline_sends> inline_{};
  std::vector<MPI_Request> more_;  ///< the requests when there are more than inline_sends
  MPI_Request* sends_ = inline_.data();
  std::size_t sent_ = 0;
  MPI_Request barrier_ = MPI_REQUEST_NULL;
  bool barrier_started_ = false;
};

}  // namespace thinmpi::detail
