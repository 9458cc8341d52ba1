#pragma once
/// \file
/// thinmpi::group, an MPI group as a value: the ranks of a communicator (comm.group()), of a
/// window or a file, and what set operations make of them. Groups are immutable, so copies
/// share one MPI_Group (freed with the last copy); every operation is local, no communication.
/// A communicator of a group's ranks comes from comm.create(g) (collective over comm) or
/// comm.create_group(g, tag) (collective over the group's ranks only).
///
///     const thinmpi::group all = world.group();
///     const thinmpi::group first = all.include(std::vector<int>{0});  // rank 0 alone
///     const thinmpi::group others = all - first;                      // every other rank
///     std::vector<int> there = all.translate(std::vector<int>{0}, others);  // {undefined}
///     thinmpi::communicator rest = world.create(others);  // the null communicator on rank 0

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/narrow.hpp"
#include "thinmpi/core/detail/raise.hpp"

namespace thinmpi {

/// How two groups compare (MPI_Group_compare): the same ranks in the same order, the same
/// ranks in another order, or not the same ranks.
enum class group_relation { identical, similar, unequal };

/// A range of ranks for group::include_ranges / exclude_ranges: first, first + stride, ... up
/// to last (inclusive), as MPI_Group_range_incl takes them.
struct rank_range {
  int first;       ///< the first rank
  int last;        ///< the last rank the range may reach (inclusive)
  int stride = 1;  ///< the step, negative to go down
};

/// An MPI group as a value (see the file comment).
class group {
 public:
  /// The empty group (MPI_GROUP_EMPTY).
  group() noexcept = default;
  /// Takes ownership of `handle` (freed with the last copy); MPI_GROUP_EMPTY and MPI_GROUP_NULL
  /// are not freed.
  [[nodiscard]] static group adopt(MPI_Group handle) {
    group g;
    if (handle != MPI_GROUP_NULL && handle != MPI_GROUP_EMPTY) {
      g.handle_ = std::shared_ptr<MPI_Group>(new MPI_Group(handle), [](MPI_Group* h) {
        if (detail::mpi_is_running()) MPI_Group_free(h);
        delete h;
      });
    }
    return g;
  }

  /// The number of ranks in the group (MPI_Group_size).
  [[nodiscard]] int size() const {
    int n = 0;
    detail::check(MPI_Group_size(native(), &n), "MPI_Group_size");
    return n;
  }
  /// This process's rank in the group, or nothing if it is not a member (MPI_Group_rank).
  [[nodiscard]] std::optional<int> rank() const {
    int r = MPI_UNDEFINED;
    detail::check(MPI_Group_rank(native(), &r), "MPI_Group_rank");
    return r == MPI_UNDEFINED ? std::nullopt : std::optional<int>(r);
  }
  /// Whether this process is a member.
  [[nodiscard]] bool contains_me() const { return rank().has_value(); }

  /// The listed ranks of this group, in the listed order (MPI_Group_incl). A rank outside the
  /// group or listed twice is an mpi_error (MPI_ERR_RANK) naming it, found before MPI is called
  /// (the check costs one MPI_Group_size; local).
  [[nodiscard]] group include(std::span<const int> ranks) const {
    check_ranks("MPI_Group_incl", ranks);
    MPI_Group out = MPI_GROUP_NULL;
    detail::check(MPI_Group_incl(native(), detail::to_int(ranks.size()), ranks.data(), &out),
                  "MPI_Group_incl");
    return adopt(out);
  }
  /// This group without the listed ranks (MPI_Group_excl); errors as include().
  [[nodiscard]] group exclude(std::span<const int> ranks) const {
    check_ranks("MPI_Group_excl", ranks);
    MPI_Group out = MPI_GROUP_NULL;
    detail::check(MPI_Group_excl(native(), detail::to_int(ranks.size()), ranks.data(), &out),
                  "MPI_Group_excl");
    return adopt(out);
  }
  /// The ranks of the ranges, in order (MPI_Group_range_incl); errors as include().
  [[nodiscard]] group include_ranges(std::span<const rank_range> ranges) const {
    return adopt(ranged("MPI_Group_range_incl", ranges, true));
  }
  /// This group without the ranks of the ranges (MPI_Group_range_excl); errors as include().
  [[nodiscard]] group exclude_ranges(std::span<const rank_range> ranges) const {
    return adopt(ranged("MPI_Group_range_excl", ranges, false));
  }

  /// The rank in `other` of each of `ranks` of this group, thinmpi::undefined (MPI_UNDEFINED)
  /// where that process is not in `other` (MPI_Group_translate_ranks; the ranks are checked
  /// first as include()'s are, with one MPI_Group_size).
  [[nodiscard]] std::vector<int> translate(std::span<const int> ranks, const group& other) const {
    check_ranks("MPI_Group_translate_ranks", ranks, false);
    std::vector<int> out(ranks.size());
    detail::check(MPI_Group_translate_ranks(native(), detail::to_int(ranks.size()), ranks.data(),
                                            other.native(), out.data()),
                  "MPI_Group_translate_ranks");
    return out;
  }
  /// How this group compares with `other` (MPI_Group_compare).
  [[nodiscard]] group_relation compare(const group& other) const {
    int result = MPI_UNEQUAL;
    detail::check(MPI_Group_compare(native(), other.native(), &result), "MPI_Group_compare");
    if (result == MPI_IDENT) return group_relation::identical;
    return result == MPI_SIMILAR ? group_relation::similar : group_relation::unequal;
  }

  /// The ranks of a, then those of b not in a (MPI_Group_union).
  [[nodiscard]] friend group operator|(const group& a, const group& b) {
    return combined(&MPI_Group_union, "MPI_Group_union", a, b);
  }
  /// The ranks of a that are in b, in a's order (MPI_Group_intersection).
  [[nodiscard]] friend group operator&(const group& a, const group& b) {
    return combined(&MPI_Group_intersection, "MPI_Group_intersection", a, b);
  }
  /// The ranks of a that are not in b, in a's order (MPI_Group_difference).
  [[nodiscard]] friend group operator-(const group& a, const group& b) {
    return combined(&MPI_Group_difference, "MPI_Group_difference", a, b);
  }
  /// The same ranks in the same order.
  [[nodiscard]] friend bool operator==(const group& a, const group& b) {
    return a.compare(b) == group_relation::identical;
  }

  /// The MPI handle (MPI_GROUP_EMPTY for the empty group), for calling MPI directly; the group
  /// keeps ownership.
  [[nodiscard]] MPI_Group native() const noexcept { return handle_ ? *handle_ : MPI_GROUP_EMPTY; }

 private:
  using combine_call = int (*)(MPI_Group, MPI_Group, MPI_Group*);
  static group combined(combine_call call, const char* operation, const group& a, const group& b) {
    MPI_Group out = MPI_GROUP_NULL;
    detail::check(call(a.native(), b.native(), &out), operation);
    return adopt(out);
  }

  [[noreturn, gnu::cold, gnu::noinline]] static void raise_rank(const char* operation,
                                                                std::string problem) {
    detail::raise(MPI_ERR_RANK,
                  detail::error_site{.operation = operation, .problem = std::move(problem)});
  }

  /// Throws unless every rank lies in the group (and, `distinct`, none is listed twice).
  void check_ranks(const char* operation, std::span<const int> ranks, bool distinct = true) const {
    const int n = size();
    std::vector<bool> seen(static_cast<std::size_t>(n), false);
    for (const int r : ranks) {
      if (r < 0 || r >= n) [[unlikely]] {
        raise_rank(operation, "rank " + std::to_string(r) + " is outside the group of " +
                                  detail::counted(static_cast<std::size_t>(n), "rank", "ranks"));
      }
      if (distinct && seen[static_cast<std::size_t>(r)]) [[unlikely]] {
        raise_rank(operation, "rank " + std::to_string(r) + " is listed twice");
      }
      seen[static_cast<std::size_t>(r)] = true;
    }
  }

  MPI_Group ranged(const char* operation, std::span<const rank_range> ranges, bool include) const {
    std::vector<int> flat;  // the ranges' ranks, to check as include() does
    flat.reserve(ranges.size());
    for (const rank_range& r : ranges) {
      if (r.stride == 0 || (r.stride > 0 && r.first > r.last) || (r.stride < 0 && r.first < r.last))
          [[unlikely]] {
        raise_rank(operation, "the range " + std::to_string(r.first) + " to " +
                                  std::to_string(r.last) + " by " + std::to_string(r.stride) +
                                  " is empty or never ends");
      }
      for (int k = r.first; r.stride > 0 ? k <= r.last : k >= r.last; k += r.stride)
        flat.push_back(k);
    }
    check_ranks(operation, flat);
    std::vector<int> triplets;
    triplets.reserve(3 * ranges.size());
    for (const rank_range& r : ranges)
      triplets.insert(triplets.end(), {r.first, r.last, r.stride});
    MPI_Group out = MPI_GROUP_NULL;
    // MPI takes int[][3]; a vector of ints three by three has that layout.
    auto* as_triplets = reinterpret_cast<int(*)[3]>(triplets.data());
    const int count = detail::to_int(ranges.size());
    detail::check(include ? MPI_Group_range_incl(native(), count, as_triplets, &out)
                          : MPI_Group_range_excl(native(), count, as_triplets, &out),
                  operation);
    return out;
  }

  std::shared_ptr<MPI_Group> handle_{};
};

namespace detail {

/// The group of `comm`'s (local) ranks (MPI_Comm_group; local).
[[nodiscard]] inline group group_of(MPI_Comm comm) {
  MPI_Group g = MPI_GROUP_NULL;
  check(MPI_Comm_group(comm, &g), "MPI_Comm_group", comm);
  return group::adopt(g);
}

}  // namespace detail

}  // namespace thinmpi
