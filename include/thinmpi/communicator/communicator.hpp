#pragma once
/// \file
/// comm_view (a non-owning handle, e.g. world()) and communicator (owns what it frees).
///
/// Each family of operations owns its declarations and definitions in its own header, as a
/// class template that comm_view derives from (p2p/send.hpp defines p2p_send<Comm> with send
/// and ssend, collectives/bcast.hpp the broadcasts, ...). This header only lists the families:
/// it includes them, they never include it, and adding an operation touches only its family.

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "thinmpi/collectives/allgather.hpp"
#include "thinmpi/collectives/alltoall.hpp"
#include "thinmpi/collectives/barrier.hpp"
#include "thinmpi/collectives/bcast.hpp"
#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/root_checks.hpp"
#include "thinmpi/collectives/gather.hpp"
#include "thinmpi/collectives/reduce.hpp"
#include "thinmpi/collectives/reduce_scatter.hpp"
#include "thinmpi/collectives/scan.hpp"
#include "thinmpi/collectives/scatter.hpp"
#include "thinmpi/collectives/sparse_exchange.hpp"
#include "thinmpi/communicator/detail/no_neighborhood.hpp"
#include "thinmpi/communicator/group.hpp"
#include "thinmpi/communicator/hardware.hpp"
#include "thinmpi/core/detail/comm_queries.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/core/info.hpp"
#include "thinmpi/p2p/nonblocking.hpp"
#include "thinmpi/p2p/partitioned.hpp"
#include "thinmpi/p2p/persistent.hpp"
#include "thinmpi/p2p/probe.hpp"
#include "thinmpi/p2p/recv.hpp"
#include "thinmpi/p2p/recv_reuse.hpp"
#include "thinmpi/p2p/send.hpp"
#include "thinmpi/p2p/sendrecv.hpp"
#include "thinmpi/requests/collective_request.hpp"

namespace thinmpi {

/// The split() color of ranks that want no new communicator.
inline constexpr int undefined = MPI_UNDEFINED;

class communicator;

namespace detail {
/// Tag for handles whose error handler is already MPI_ERRORS_RETURN: world() and self(), and
/// every communicator MPI makes from a thinmpi handle (dup, split, the topologies, ...), which
/// inherits its parent's handler (MPI standard, "Error Handling": a new communicator inherits
/// the error handler of its parent), so thinmpi sets nothing on it.
struct errors_return_already_set {};
/// errors_return_already_set{}, for the communicators MPI made from a thinmpi handle.
inline constexpr errors_return_already_set inherited_errors_return{};
struct idup_state;
}  // namespace detail

/// A non-owning handle of an MPI communicator, with every operation thinmpi offers (from the
/// family classes it derives from). Copying it copies the handle, never the communicator.
/// Operations throw thinmpi::mpi_error on failure.
///
///     auto world = thinmpi::world();
///     world.send(std::vector<double>{1, 2, 3}, 1, 0);
class comm_view : public p2p_send<comm_view>,
                  public p2p_recv<comm_view>,
                  public p2p_recv_reuse<comm_view>,
                  public p2p_sendrecv<comm_view>,
                  public p2p_probe<comm_view>,
                  public p2p_nonblocking<comm_view>,
                  public p2p_persistent<comm_view>,
                  public p2p_partitioned<comm_view>,
                  public collective_barrier<comm_view>,
                  public collective_bcast<comm_view>,
                  public collective_gather<comm_view>,
                  public collective_scatter<comm_view>,
                  public collective_allgather<comm_view>,
                  public collective_alltoall<comm_view>,
                  public collective_reduce<comm_view>,
                  public collective_reduce_scatter<comm_view>,
                  public collective_scan<comm_view>,
                  public collective_sparse_exchange<comm_view>,
                  public detail::no_neighborhood {
 public:
  /// The null communicator.
  comm_view() noexcept = default;
  /// Wraps comm and makes MPI return errors on it (MPI_ERRORS_RETURN) so thinmpi can throw them.
  explicit comm_view(MPI_Comm comm) : comm_(comm) {
    if (comm_ != MPI_COMM_NULL) {
      detail::check(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler",
                    comm_);
    }
  }
  /// Wraps comm whose error handler is already MPI_ERRORS_RETURN.
  comm_view(MPI_Comm comm, detail::errors_return_already_set) noexcept : comm_(comm) {}

  /// The MPI handle, for calling MPI directly.
  [[nodiscard]] MPI_Comm native() const noexcept { return comm_; }
  /// Whether this is the null communicator (e.g. a split() with color undefined).
  [[nodiscard]] bool is_null() const noexcept { return comm_ == MPI_COMM_NULL; }
  /// This process's rank.
  [[nodiscard]] int rank() const { return detail::rank_in(comm_); }
  /// The number of ranks.
  [[nodiscard]] int size() const { return detail::size_of(comm_); }
  /// The largest tag MPI accepts (at least 32767; MPI_TAG_UB of MPI_COMM_WORLD).
  [[nodiscard]] int tag_ub() const;
  /// Ends every process of this communicator's job with `code` (MPI_Abort).
  [[noreturn]] void abort(int code) const;

  /// A new communicator with the same ranks (MPI_Comm_dup): the only way thinmpi duplicates.
  [[nodiscard]] communicator dup() const;
  /// dup() with hints for the new communicator (MPI_Comm_dup_with_info): e.g. MPI-4's
  /// "mpi_assert_no_any_tag", "mpi_assert_allow_overtaking".
  [[nodiscard]] communicator dup(const thinmpi::info& hints) const;
  /// dup() without blocking (MPI_Comm_idup, collective): the request's wait() hands back the
  /// new communicator (once; a request destroyed before that frees it). The ranks may go on
  /// communicating on this communicator meanwhile.
  [[nodiscard]] collective_request<detail::idup_state> idup() const;
  /// The hints MPI holds for this communicator (MPI_Comm_get_info; a new info object).
  [[nodiscard]] thinmpi::info info() const;
  /// Ranks with the same color form a new communicator, ordered by key then old rank; a rank
  /// passing thinmpi::undefined gets the null communicator. A negative color other than
  /// undefined on one rank ends the job (the others are in MPI_Comm_split); built with
  /// THINMPI_CHECKED_COLLECTIVES=1 the ranks agree first and every rank throws MPI_ERR_ARG.
  [[nodiscard]] communicator split(int color, int key = 0) const;
  /// The ranks that share memory with this one (MPI_COMM_TYPE_SHARED).
  [[nodiscard]] communicator split_shared(int key = 0) const;
  /// MPI_Comm_split_type with a split type of this MPI library and its hints, as MPI takes
  /// them: MPI-4's MPI_COMM_TYPE_HW_GUIDED with "mpi_hw_resource_type", Open MPI's
  /// OMPI_COMM_TYPE_SOCKET, ... (what each returns differs between libraries: see
  /// split_hardware()). One MPI call.
  [[nodiscard]] communicator split_type(int type, int key = 0,
                                        const thinmpi::info& hints = {}) const;
  /// The ranks that share an instance of a hardware resource with this one, ordered by key
  /// then rank, found the same way on every MPI (communicator/hardware.hpp): a rank not
  /// confined to one instance (free to run on CPUs of two cores, say) gets the null
  /// communicator. hardware::node is split_shared() (one MPI call); the others read the
  /// machine's sysfs and cost MPI_Comm_split_type (the node) and MPI_Comm_split (the
  /// instance within it). A machine without that information is MPI_ERR_UNSUPPORTED_OPERATION
  /// (every rank of one machine alike; ranks of a mixed job end the job as a bad split() color
  /// does).
  [[nodiscard]] communicator split_hardware(hardware kind, int key = 0) const;
  /// A communicator of the listed ranks, in that order (collective over this communicator);
  /// ranks not listed get the null communicator. A rank outside the communicator, or listed
  /// twice, ends the job as a bad color in split() does (checked: every rank throws).
  [[nodiscard]] communicator subset(std::span<const int> ranks) const;
  /// subset({0, 2, 4})
  [[nodiscard]] communicator subset(std::initializer_list<int> ranks) const;
  /// The communicator's name (MPI_Comm_get_name; local): "MPI_COMM_WORLD" for world(), empty
  /// where none was set.
  [[nodiscard]] std::string name() const;
  /// Names the communicator for tools and error messages (MPI_Comm_set_name; local). A name of
  /// MPI_MAX_OBJECT_NAME characters or more (MPI would cut it short silently) or holding a
  /// NUL is MPI_ERR_ARG, before MPI is called.
  void set_name(std::string_view name) const;
  /// The group of this communicator's ranks (MPI_Comm_group; local).
  [[nodiscard]] thinmpi::group group() const;
  /// A communicator of the ranks of `g`, a group of this communicator's processes, in g's order
  /// (MPI_Comm_create, collective over this communicator: every rank passes the same group);
  /// ranks outside `g` get the null communicator.
  [[nodiscard]] communicator create(const thinmpi::group& g) const;
  /// A communicator of the ranks of `g` made by them alone (MPI_Comm_create_group: collective
  /// over g's ranks only, the others do not call it); `tag` tells apart creations that run at
  /// once. A rank outside `g` calling it is an mpi_error (MPI_ERR_GROUP) before MPI is called.
  [[nodiscard]] communicator create_group(const thinmpi::group& g, int tag = 0) const;

 protected:
  MPI_Comm comm_ = MPI_COMM_NULL;  ///< the handle; communicator owns it, a view does not
};

/// Two views are equal when they hold the same handle.
[[nodiscard]] inline bool operator==(const comm_view& a, const comm_view& b) noexcept {
  return a.native() == b.native();
}

/// An owned MPI communicator, freed (MPI_Comm_free) when destroyed. Move-only: copying would
/// need a hidden MPI_Comm_dup, so it does not compile; call dup() to duplicate.
class communicator : public comm_view {
 public:
  /// The null communicator.
  communicator() noexcept = default;
  /// Takes ownership of comm (it will be freed) and sets MPI_ERRORS_RETURN on it.
  [[nodiscard]] static communicator adopt(MPI_Comm comm) { return communicator(comm); }
  /// Takes ownership of comm, whose error handler is already MPI_ERRORS_RETURN: what thinmpi's
  /// own creation calls return (the new communicator inherited its parent's handler), one MPI
  /// call each, as in C.
  [[nodiscard]] static communicator adopt(MPI_Comm comm,
                                          detail::errors_return_already_set already) noexcept {
    return communicator(comm, already);
  }

  communicator(const communicator&) = delete;
  communicator& operator=(const communicator&) = delete;
  /// Takes over other's handle; other is left the null communicator.
  communicator(communicator&& other) noexcept : comm_view() {
    comm_ = std::exchange(other.comm_, MPI_COMM_NULL);
  }
  /// Frees this communicator's handle, then takes over other's.
  communicator& operator=(communicator&& other) noexcept {
    if (this != &other) {
      free();
      comm_ = std::exchange(other.comm_, MPI_COMM_NULL);
    }
    return *this;
  }
  ~communicator() { free(); }

  /// Gives up ownership: the caller frees the returned handle.
  [[nodiscard]] MPI_Comm release() noexcept { return std::exchange(comm_, MPI_COMM_NULL); }

 private:
  explicit communicator(MPI_Comm comm) : comm_view(comm) {}
  communicator(MPI_Comm comm, detail::errors_return_already_set already) noexcept
      : comm_view(comm, already) {}

  void free() noexcept {
    if (comm_ == MPI_COMM_NULL) return;
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized == 0) MPI_Comm_free(&comm_);
    comm_ = MPI_COMM_NULL;
  }
};

namespace detail {

/// Whether MPI_Comm_create, MPI_Comm_create_group and MPI_Intercomm_merge give the new
/// communicator its parent's error handler, as the MPI standard says and Open MPI 4.1 does.
/// MPICH 4.0.2 leaves theirs unset (MPI_Comm_get_errhandler answers MPI_ERRORS_ARE_FATAL, and an
/// error takes MPI_COMM_WORLD's handler): elsewhere than Open MPI, thinmpi sets
/// MPI_ERRORS_RETURN on what these three make (Audit.MadeCommunicatorsInheritReturnErrors).
#if defined(OMPI_MAJOR_VERSION)
inline constexpr bool created_communicators_inherit_errhandler = true;
#else
inline constexpr bool created_communicators_inherit_errhandler = false;
#endif

/// Takes ownership of what MPI_Comm_create, MPI_Comm_create_group or MPI_Intercomm_merge made
/// from a thinmpi handle: its inherited MPI_ERRORS_RETURN, or set where the MPI forgets it.
[[nodiscard]] inline communicator adopt_created(MPI_Comm made) {
  if constexpr (created_communicators_inherit_errhandler) {
    return communicator::adopt(made, inherited_errors_return);
  } else {
    return communicator::adopt(made);
  }
}

/// Sets MPI_ERRORS_RETURN on a predefined communicator once MPI is running.
inline bool make_errors_return(MPI_Comm comm, const char* which) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized == 0) {
    raise(MPI_ERR_OTHER,
          error_site{.operation = which,
                     .problem = "MPI is not initialized: construct a thinmpi::environment first"});
  }
  check(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler", comm);
  return true;
}

}  // namespace detail

/// MPI_COMM_WORLD, with MPI_ERRORS_RETURN set on first use.
[[nodiscard]] inline comm_view world() {
  static const bool ready = detail::make_errors_return(MPI_COMM_WORLD, "thinmpi::world");
  static_cast<void>(ready);
  return comm_view(MPI_COMM_WORLD, detail::errors_return_already_set{});
}

/// MPI_COMM_SELF, with MPI_ERRORS_RETURN set on first use.
[[nodiscard]] inline comm_view self() {
  static const bool ready = detail::make_errors_return(MPI_COMM_SELF, "thinmpi::self");
  static_cast<void>(ready);
  return comm_view(MPI_COMM_SELF, detail::errors_return_already_set{});
}

inline int comm_view::tag_ub() const {
  int* value = nullptr;
  int found = 0;
  // MPI_TAG_UB is an attribute of MPI_COMM_WORLD only, and the same for every communicator.
  detail::check(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &found), "MPI_Comm_get_attr");
  return found != 0 && value != nullptr ? *value : 32767;
}

inline void comm_view::abort(int code) const {
  MPI_Abort(comm_ == MPI_COMM_NULL ? MPI_COMM_WORLD : comm_, code);
  std::abort();  // MPI_Abort does not return; this tells the compiler so
}

inline communicator comm_view::dup() const {
  MPI_Comm out = MPI_COMM_NULL;
  detail::check(MPI_Comm_dup(comm_, &out), "MPI_Comm_dup", comm_);
  return communicator::adopt(out, detail::inherited_errors_return);
}

namespace detail {

/// A communicator constructor's argument that only this rank sees is wrong: the others are in
/// the constructor's collective call (or will be), so the job ends; checked collectives agree
/// first and every rank throws (collectives/detail/root_checks.hpp).
[[noreturn, gnu::cold, gnu::noinline]] inline void constructor_fails(const char* operation,
                                                                     MPI_Comm comm, int code,
                                                                     const std::string& problem) {
  failed_check(collective_call{operation, comm}, [&] {
    raise(code, error_site{.operation = operation, .comm = comm, .problem = problem});
  });
}

}  // namespace detail

inline communicator comm_view::dup(const thinmpi::info& hints) const {
  MPI_Comm out = MPI_COMM_NULL;
  detail::check(MPI_Comm_dup_with_info(comm_, hints.native(), &out), "MPI_Comm_dup_with_info",
                comm_);
  return communicator::adopt(out, detail::inherited_errors_return);
}

namespace detail {

/// The state of an idup(): the new handle, in the request's block while MPI writes it.
struct idup_state {
  MPI_Comm parent = MPI_COMM_NULL;
  MPI_Comm made = MPI_COMM_NULL;

  idup_state() = default;
  idup_state(const idup_state&) = delete;
  idup_state& operator=(const idup_state&) = delete;
  /// A communicator nobody took (the request was dropped, or wait() never called) is freed.
  ~idup_state() {
    if (made != MPI_COMM_NULL && mpi_is_running()) MPI_Comm_free(&made);
  }
  [[noreturn]] void raise(int rc) const {
    detail::raise(rc, error_site{.operation = "MPI_Comm_idup", .comm = parent});
  }
  communicator take() {
    return communicator::adopt(std::exchange(made, MPI_COMM_NULL), inherited_errors_return);
  }
};

}  // namespace detail

inline collective_request<detail::idup_state> comm_view::idup() const {
  auto state = std::make_unique<detail::idup_state>();
  state->parent = comm_;
  MPI_Request handle = MPI_REQUEST_NULL;
  detail::check(MPI_Comm_idup(comm_, &state->made, &handle), "MPI_Comm_idup", comm_);
  return {std::move(state), handle};
}

inline std::string comm_view::name() const {
  char text[MPI_MAX_OBJECT_NAME] = {};
  int length = 0;
  detail::check(MPI_Comm_get_name(comm_, text, &length), "MPI_Comm_get_name", comm_);
  return std::string(text, static_cast<std::size_t>(length));
}

inline void comm_view::set_name(std::string_view name) const {
  if (name.size() >= static_cast<std::size_t>(MPI_MAX_OBJECT_NAME) ||
      name.find('\0') != std::string_view::npos) [[unlikely]] {
    const bool nul = name.find('\0') != std::string_view::npos;
    detail::raise(
        MPI_ERR_ARG,
        detail::error_site{
            .operation = "MPI_Comm_set_name",
            .comm = comm_,
            .problem = nul ? std::string("the name holds a NUL character, where MPI would end it")
                           : "the name has " + std::to_string(name.size()) +
                                 " characters; this MPI keeps at most " +
                                 std::to_string(MPI_MAX_OBJECT_NAME - 1) +
                                 " (MPI_MAX_OBJECT_NAME - 1) and would cut it short"});
  }
  const std::string text(name);
  detail::check(MPI_Comm_set_name(comm_, text.c_str()), "MPI_Comm_set_name", comm_);
}

inline thinmpi::info comm_view::info() const {
  MPI_Info held = MPI_INFO_NULL;
  detail::check(MPI_Comm_get_info(comm_, &held), "MPI_Comm_get_info", comm_);
  return thinmpi::info::adopt(held);
}

inline communicator comm_view::split(int color, int key) const {
  // MPI checks the color too, on this rank alone: the others would wait in MPI_Comm_split.
  if (color < 0 && color != undefined) [[unlikely]] {
    detail::constructor_fails("MPI_Comm_split", comm_, MPI_ERR_ARG,
                              "color " + std::to_string(color) +
                                  " is negative; pass a color of 0 or more, or "
                                  "thinmpi::undefined for no new communicator");
  }
  detail::agree_if_checked({"MPI_Comm_split", comm_});
  MPI_Comm out = MPI_COMM_NULL;
  detail::check(MPI_Comm_split(comm_, color, key, &out), "MPI_Comm_split", comm_);
  return communicator::adopt(out, detail::inherited_errors_return);
}

inline communicator comm_view::split_shared(int key) const {
  MPI_Comm out = MPI_COMM_NULL;
  detail::check(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, key, MPI_INFO_NULL, &out),
                "MPI_Comm_split_type", comm_);
  return communicator::adopt(out, detail::inherited_errors_return);
}

inline communicator comm_view::split_type(int type, int key, const thinmpi::info& hints) const {
  MPI_Comm out = MPI_COMM_NULL;
  detail::check(MPI_Comm_split_type(comm_, type, key, hints.native(), &out), "MPI_Comm_split_type",
                comm_);
  return communicator::adopt(out, detail::inherited_errors_return);
}

inline communicator comm_view::split_hardware(hardware kind, int key) const {
  if (kind == hardware::node) return split_shared(key);
  const std::optional<int> instance = detail::confined_instance(kind);
  if (!instance) [[unlikely]] {
    detail::constructor_fails(
        "MPI_Comm_split", comm_, MPI_ERR_UNSUPPORTED_OPERATION,
        std::string("split_hardware(") + name_of(kind) +
            "): this machine does not say which CPUs share one (no Linux sysfs topology, or "
            "no CPU affinity); split_shared() or split_type() with the MPI's own kinds work "
            "without it");
  }
  const communicator node = split_shared(key);
  return node.split(*instance < 0 ? undefined : *instance, key);
}

inline communicator comm_view::subset(std::span<const int> ranks) const {
  MPI_Group all = MPI_GROUP_NULL;
  MPI_Group chosen = MPI_GROUP_NULL;
  detail::check(MPI_Comm_group(comm_, &all), "MPI_Comm_group", comm_);
  const int rc = MPI_Group_incl(all, static_cast<int>(ranks.size()), ranks.data(), &chosen);
  MPI_Group_free(&all);
  if (rc != MPI_SUCCESS) [[unlikely]] {
    // Local to this rank: the others would wait in MPI_Comm_create.
    detail::constructor_fails(
        "MPI_Group_incl", comm_, rc,
        "one of the " + detail::counted(ranks.size(), "listed rank", "listed ranks") +
            " is outside this communicator of " +
            detail::counted(static_cast<std::size_t>(size()), "rank", "ranks") +
            ", or listed twice");
  }
  try {
    // Checked, a rank whose list was fine throws here because another's was not.
    detail::agree_if_checked({"MPI_Comm_create", comm_});
  } catch (...) {
    MPI_Group_free(&chosen);
    throw;
  }
  MPI_Comm out = MPI_COMM_NULL;
  const int created = MPI_Comm_create(comm_, chosen, &out);
  MPI_Group_free(&chosen);
  detail::check(created, "MPI_Comm_create", comm_);
  return detail::adopt_created(out);
}

inline communicator comm_view::subset(std::initializer_list<int> ranks) const {
  return subset(std::span<const int>(ranks.begin(), ranks.size()));
}

inline group comm_view::group() const {
  return detail::group_of(comm_);
}

inline communicator comm_view::create(const thinmpi::group& g) const {
  MPI_Comm out = MPI_COMM_NULL;
  detail::check(MPI_Comm_create(comm_, g.native(), &out), "MPI_Comm_create", comm_);
  return detail::adopt_created(out);
}

inline communicator comm_view::create_group(const thinmpi::group& g, int tag) const {
  if (!g.contains_me()) [[unlikely]] {
    detail::raise(MPI_ERR_GROUP,
                  detail::error_site{.operation = "MPI_Comm_create_group",
                                     .comm = comm_,
                                     .problem = "this rank is not in the group; only the group's "
                                                "ranks call create_group"});
  }
  MPI_Comm out = MPI_COMM_NULL;
  detail::check(MPI_Comm_create_group(comm_, g.native(), tag, &out), "MPI_Comm_create_group",
                comm_);
  return detail::adopt_created(out);
}

}  // namespace thinmpi
