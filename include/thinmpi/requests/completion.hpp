#pragma once
/// \file
/// wait_all, wait_any, wait_some, test_all, test_any and test_some over ranges of requests (or a
/// few named ones of different kinds and families). Requests of unknown size (probing_request) take
/// part: they are matched as the others progress, so wait_any() returns whichever message comes
/// first; multi-stage requests count as completed once their last stage has.

#include <array>
#include <cstddef>
#include <exception>
#include <optional>
#include <ranges>
#include <span>
#include <type_traits>
#include <vector>

#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/requests/detail/request_access.hpp"

namespace thinmpi {

namespace detail {

/// One request of any kind, seen through function pointers to its request_access hooks.
struct request_ref {
  struct operations {
    MPI_Request& (*handle)(void*);
    void (*complete)(void*, int, const MPI_Status&);
    bool (*awaiting_start)(const void*);
    bool (*try_start)(void*);
    void (*start)(void*);
  };

  template <class R>
  static constexpr operations operations_of = {
      [](void* r) -> MPI_Request& { return request_access::handle(*static_cast<R*>(r)); },
      [](void* r, int rc, const MPI_Status& raw) {
        request_access::complete(*static_cast<R*>(r), rc, raw);
      },
      [](const void* r) { return request_access::awaiting_start(*static_cast<const R*>(r)); },
      [](void* r) { return request_access::try_start(*static_cast<R*>(r)); },
      [](void* r) { request_access::start(*static_cast<R*>(r)); },
  };

  template <class R>
  explicit request_ref(R& r) noexcept : object(&r), ops(&operations_of<R>) {}

  [[nodiscard]] MPI_Request& handle() const { return ops->handle(object); }
  void complete(int rc, const MPI_Status& raw) const { ops->complete(object, rc, raw); }
  [[nodiscard]] bool awaiting_start() const { return ops->awaiting_start(object); }
  [[nodiscard]] bool try_start() const { return ops->try_start(object); }
  void start() const { ops->start(object); }
  /// Whether a stage remains: posted, or waiting to be posted.
  [[nodiscard]] bool active() const { return awaiting_start() || handle() != MPI_REQUEST_NULL; }

  void* object;
  const operations* ops;
};

/// request_refs to named requests of different kinds, in argument order.
template <class... R>
std::array<request_ref, sizeof...(R)> named_refs(R&... requests) noexcept {
  return {request_ref(requests)...};
}

template <class Range>
std::vector<request_ref> refs_of(Range& requests) {
  std::vector<request_ref> refs;
  if constexpr (std::ranges::sized_range<Range>) refs.reserve(std::ranges::size(requests));
  for (auto& r : requests)
    refs.emplace_back(r);
  return refs;
}

/// Copies the handles out for a multi-completion call; matches what can be matched without
/// blocking. Returns whether some request is still waiting for its message.
inline bool gather(std::span<const request_ref> refs, std::vector<MPI_Request>& handles) {
  bool unmatched = false;
  handles.resize(refs.size());
  for (std::size_t i = 0; i < refs.size(); ++i) {
    if (refs[i].awaiting_start() && !refs[i].try_start()) unmatched = true;
    handles[i] = refs[i].handle();
  }
  return unmatched;
}

[[noreturn]] inline void raise_completion(int rc, const char* operation) {
  raise(rc, error_site{.operation = operation});
}

/// Which handles are posted: MPI_Waitall and MPI_Testall report nothing about the others.
inline std::vector<bool> posted(const std::vector<MPI_Request>& handles) {
  std::vector<bool> flags(handles.size());
  for (std::size_t i = 0; i < handles.size(); ++i)
    flags[i] = handles[i] != MPI_REQUEST_NULL;
  return flags;
}

/// Whether a multi-completion call failed as a whole, rather than per request (MPICH returns
/// error codes whose class, not value, is MPI_ERR_IN_STATUS).
inline bool failed_as_a_whole(int rc) {
  return rc != MPI_SUCCESS && mpi_error_class(rc) != MPI_ERR_IN_STATUS;
}

/// Hands one completion back to its request (which throws if it failed).
inline void finish_one(const request_ref& ref, MPI_Request handle, int rc, const MPI_Status& raw) {
  ref.handle() = handle;
  ref.complete(rc, raw);
}

/// One MPI_Waitall over the posted requests: hands back every completion (keeping the first
/// error), and returns whether some are still pending (MPICH stops at a failed request and
/// reports those after it as MPI_ERR_PENDING) or have posted a further stage.
inline bool wait_all_once(std::span<const request_ref> refs, std::exception_ptr& first_error) {
  std::vector<MPI_Request> handles;
  gather(refs, handles);
  std::vector<MPI_Status> statuses(refs.size());
  const std::vector<bool> was_active = posted(handles);
  const int rc = MPI_Waitall(static_cast<int>(handles.size()), handles.data(), statuses.data());
  if (failed_as_a_whole(rc)) raise_completion(rc, "MPI_Waitall");
  bool pending = false;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    if (!was_active[i]) continue;
    const int status_rc = rc == MPI_SUCCESS ? MPI_SUCCESS : statuses[i].MPI_ERROR;
    if (status_rc != MPI_SUCCESS && mpi_error_class(status_rc) == MPI_ERR_PENDING) {
      refs[i].handle() = handles[i];
      pending = true;
      continue;
    }
    try {
      finish_one(refs[i], handles[i], status_rc, statuses[i]);
    } catch (...) {
      if (!first_error) first_error = std::current_exception();
    }
    if (refs[i].active()) pending = true;  // a multi-stage request posted its next stage
  }
  return pending;
}

/// Posts the stages that wait for something (a probe), keeping the first error.
inline void start_waiting(std::span<const request_ref> refs, std::exception_ptr& first_error) {
  for (const auto& ref : refs) {
    if (!ref.awaiting_start()) continue;
    try {
      ref.start();  // blocking is safe: MPI progresses the others meanwhile
    } catch (...) {
      if (!first_error) first_error = std::current_exception();
    }
  }
}

inline void wait_all(std::span<const request_ref> refs) {
  std::exception_ptr first_error;
  do {
    start_waiting(refs, first_error);
  } while (wait_all_once(refs, first_error));
  if (first_error) std::rethrow_exception(first_error);
}

/// MPI_Waitany when every request has its handle and `block`; MPI_Testany otherwise (a request
/// still waiting for its message has none yet, so blocking in MPI_Waitany could miss it).
inline int any_call(std::vector<MPI_Request>& handles, bool wait, int& index, MPI_Status& raw) {
  const int n = static_cast<int>(handles.size());
  if (wait) return MPI_Waitany(n, handles.data(), &index, &raw);
  int flag = 0;
  return MPI_Testany(n, handles.data(), &index, &flag, &raw);
}

inline std::optional<std::size_t> any_completed(std::span<const request_ref> refs, bool block) {
  std::vector<MPI_Request> handles;
  while (true) {
    const bool unmatched = gather(refs, handles);
    int index = MPI_UNDEFINED;
    MPI_Status raw{};
    const int rc = any_call(handles, block && !unmatched, index, raw);
    if (index != MPI_UNDEFINED) {
      const auto i = static_cast<std::size_t>(index);
      finish_one(refs[i], handles[i], rc, raw);
      if (!refs[i].active()) return i;
      continue;  // that request posted its next stage: it has not completed yet
    }
    if (rc != MPI_SUCCESS) raise_completion(rc, block ? "MPI_Waitany" : "MPI_Testany");
    if (!block || !unmatched) return std::nullopt;
  }
}

inline bool test_all(std::span<const request_ref> refs) {
  std::vector<MPI_Request> handles;
  if (gather(refs, handles)) return false;
  std::vector<MPI_Status> statuses(refs.size());
  const std::vector<bool> was_active = posted(handles);
  int flag = 0;
  const int rc =
      MPI_Testall(static_cast<int>(handles.size()), handles.data(), &flag, statuses.data());
  if (failed_as_a_whole(rc)) raise_completion(rc, "MPI_Testall");
  if (flag == 0 && rc == MPI_SUCCESS) return false;
  bool all_done = true;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    if (was_active[i]) {
      finish_one(refs[i], handles[i], rc == MPI_SUCCESS ? MPI_SUCCESS : statuses[i].MPI_ERROR,
                 statuses[i]);
      if (refs[i].active()) all_done = false;  // posted its next stage
    }
  }
  return all_done;
}

/// MPI_Waitsome (every request has its handle and `block`) or MPI_Testsome over the handles;
/// hands each completion back to its request and returns the indices of those that completed
/// (none if none is active). A request still waiting for its message makes a blocking call
/// test in a loop, as any_completed does; one that posted a further stage is not counted yet.
inline std::vector<std::size_t> some_completed(std::span<const request_ref> refs, bool block) {
  std::vector<MPI_Request> handles;
  std::vector<int> indices(refs.size());
  std::vector<MPI_Status> statuses(refs.size());
  while (true) {
    const bool unmatched = gather(refs, handles);
    const int n = static_cast<int>(handles.size());
    int outcount = 0;
    const bool wait = block && !unmatched;
    const int rc =
        wait ? MPI_Waitsome(n, handles.data(), &outcount, indices.data(), statuses.data())
             : MPI_Testsome(n, handles.data(), &outcount, indices.data(), statuses.data());
    if (failed_as_a_whole(rc)) raise_completion(rc, wait ? "MPI_Waitsome" : "MPI_Testsome");
    std::vector<std::size_t> done;
    if (outcount == MPI_UNDEFINED) {
      if (!unmatched) return done;  // nothing active
      outcount = 0;
    }
    std::exception_ptr first_error;
    for (int k = 0; k < outcount; ++k) {
      const auto i = static_cast<std::size_t>(indices[static_cast<std::size_t>(k)]);
      const MPI_Status& status = statuses[static_cast<std::size_t>(k)];
      try {
        finish_one(refs[i], handles[i], rc == MPI_SUCCESS ? MPI_SUCCESS : status.MPI_ERROR, status);
      } catch (...) {
        if (!first_error) first_error = std::current_exception();
      }
      if (!refs[i].active()) done.push_back(i);
    }
    if (first_error) std::rethrow_exception(first_error);
    if (!done.empty() || !block) return done;
  }
}

}  // namespace detail

/// A thinmpi request of any family: request, `owning_request<B>`, `probing_request<C>`, and the
/// requests of nonblocking and persistent collectives.
template <class R>
concept request_type = detail::completable<std::remove_cvref_t<R>>;

/// A range of requests of one kind, e.g. std::vector<thinmpi::request>.
template <class R>
concept request_range = std::ranges::range<R> && request_type<std::ranges::range_value_t<R>>;

/// Blocks until every request has completed (MPI_Waitall); throws the first failure after
/// completing all the others.
template <request_range Range>
void wait_all(Range&& requests) {
  detail::wait_all(detail::refs_of(requests));
}
/// wait_all() over named requests of different kinds: wait_all(sent, received).
template <request_type... R>
void wait_all(R&... requests) {
  detail::wait_all(detail::named_refs(requests...));
}

/// Blocks until one request completes and returns its index, or nothing if none is active.
/// Unknown-size receives (probing_request) count as soon as their message arrives whole.
template <request_range Range>
std::optional<std::size_t> wait_any(Range&& requests) {
  return detail::any_completed(detail::refs_of(requests), true);
}
/// wait_any() over named requests of different kinds; the index is the argument position.
template <request_type... R>
std::optional<std::size_t> wait_any(R&... requests) {
  return detail::any_completed(detail::named_refs(requests...), true);
}

/// Whether every request has completed, completing them all if so (MPI_Testall); never blocks.
template <request_range Range>
bool test_all(Range&& requests) {
  return detail::test_all(detail::refs_of(requests));
}
/// test_all() over named requests of different kinds.
template <request_type... R>
bool test_all(R&... requests) {
  return detail::test_all(detail::named_refs(requests...));
}

/// Blocks until at least one request completes, then returns the indices of every request
/// that has completed by then (MPI_Waitsome), in no particular order; empty if none is active.
/// A request that failed throws, after the others completed with it are handed back.
template <request_range Range>
std::vector<std::size_t> wait_some(Range&& requests) {
  return detail::some_completed(detail::refs_of(requests), true);
}
/// wait_some() over named requests of different kinds; the indices are argument positions.
template <request_type... R>
std::vector<std::size_t> wait_some(R&... requests) {
  return detail::some_completed(detail::named_refs(requests...), true);
}

/// The indices of the requests that have completed now, possibly none (MPI_Testsome); never
/// blocks.
template <request_range Range>
std::vector<std::size_t> test_some(Range&& requests) {
  return detail::some_completed(detail::refs_of(requests), false);
}
/// test_some() over named requests of different kinds.
template <request_type... R>
std::vector<std::size_t> test_some(R&... requests) {
  return detail::some_completed(detail::named_refs(requests...), false);
}

/// The index of a request that completed now, if any (MPI_Testany); never blocks.
template <request_range Range>
std::optional<std::size_t> test_any(Range&& requests) {
  return detail::any_completed(detail::refs_of(requests), false);
}
/// test_any() over named requests of different kinds.
template <request_type... R>
std::optional<std::size_t> test_any(R&... requests) {
  return detail::any_completed(detail::named_refs(requests...), false);
}

}  // namespace thinmpi
