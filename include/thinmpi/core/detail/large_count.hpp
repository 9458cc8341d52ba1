#pragma once
/// \file
/// Counts past INT_MAX. Every MPI call thinmpi makes with a std::size_t count goes through
/// counted_call: when the counts fit an int it is the classic call after one comparison; larger
/// ones take, out of line, the MPI-4 `_c` call where the library has it (MPICH 4.0), otherwise
/// the classic call with one element of a contiguous datatype spanning them all (Open MPI 4.1).

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/narrow.hpp"
#include "thinmpi/core/detail/raise.hpp"

/// The MPI-4 large-count variant of an MPI function (`MPI_Send` -> `&MPI_Send_c`), or nullptr
/// where the library has none; for counted_call's second argument. Internal to thinmpi.
#if THINMPI_HAS_LARGE_COUNT_CALLS
#define THINMPI_LARGE_COUNT_CALL(function) &function##_c
#else
#define THINMPI_LARGE_COUNT_CALL(function) nullptr
#endif

namespace thinmpi::detail {

/// `count` elements of `type` as a single element of a derived datatype, for MPI-3 calls.
class large_count_type {
 public:
  large_count_type(std::size_t count, MPI_Datatype type) {
    constexpr std::size_t chunk = std::size_t{1} << 30;
    MPI_Datatype chunk_type = MPI_DATATYPE_NULL;
    MPI_Datatype chunks = MPI_DATATYPE_NULL;
    check(MPI_Type_contiguous(to_int(chunk), type, &chunk_type), "MPI_Type_contiguous");
    const int rc = MPI_Type_contiguous(to_int(count / chunk), chunk_type, &chunks);
    MPI_Type_free(&chunk_type);
    check(rc, "MPI_Type_contiguous");
    const std::size_t rest = count % chunk;
    if (rest == 0) {
      type_ = chunks;
    } else {
      type_ = append_rest(chunks, rest, type, count - rest);
    }
    check(MPI_Type_commit(&type_), "MPI_Type_commit");
  }
  large_count_type(const large_count_type&) = delete;
  large_count_type& operator=(const large_count_type&) = delete;
  ~large_count_type() { MPI_Type_free(&type_); }

  [[nodiscard]] MPI_Datatype get() const noexcept { return type_; }

 private:
  static MPI_Datatype append_rest(MPI_Datatype chunks, std::size_t rest, MPI_Datatype type,
                                  std::size_t rest_offset) {
    MPI_Aint lower_bound = 0;
    MPI_Aint extent = 0;
    MPI_Datatype tail = MPI_DATATYPE_NULL;
    MPI_Datatype whole = MPI_DATATYPE_NULL;
    int rc = MPI_Type_get_extent(type, &lower_bound, &extent);
    if (rc == MPI_SUCCESS) rc = MPI_Type_contiguous(to_int(rest), type, &tail);
    if (rc == MPI_SUCCESS) {
      const int lengths[2] = {1, 1};
      const MPI_Aint offsets[2] = {0, static_cast<MPI_Aint>(rest_offset) * extent};
      const MPI_Datatype types[2] = {chunks, tail};
      rc = MPI_Type_create_struct(2, lengths, offsets, types, &whole);
      MPI_Type_free(&tail);
    }
    MPI_Type_free(&chunks);
    check(rc, "MPI_Type_create_struct");
    return whole;
  }

  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

/// The argument positions (0-based) of an MPI call's counts; each is followed by its datatype.
template <std::size_t... Positions>
struct counts_at {};

template <std::size_t I, std::size_t... Positions>
inline constexpr bool is_count_at = ((I == Positions) || ...);

/// Argument I of a classic call: a count narrowed to int, anything else as it is.
template <std::size_t I, std::size_t... Positions, class Arg>
[[gnu::always_inline]] inline auto classic_arg(Arg arg) noexcept {
  if constexpr (is_count_at<I, Positions...>) {
    return to_int(arg);
  } else {
    return arg;
  }
}

/// Argument I of an MPI-4 `_c` call: a count as MPI_Count, anything else as it is.
template <std::size_t I, std::size_t... Positions, class Arg>
inline auto large_arg(Arg arg) noexcept {
  if constexpr (is_count_at<I, Positions...>) {
    return static_cast<MPI_Count>(arg);
  } else {
    return arg;
  }
}

template <auto Classic, std::size_t... Positions, class... Args, std::size_t... I>
[[gnu::always_inline]] inline int call_classic(std::index_sequence<I...>, Args... args) {
  return Classic(classic_arg<I, Positions...>(args)...);
}

/// Where count J sits among Positions.
template <std::size_t J, std::size_t... Positions>
consteval std::size_t count_index() {
  constexpr std::size_t positions[] = {Positions...};
  for (std::size_t k = 0; k < sizeof...(Positions); ++k) {
    if (positions[k] == J) return k;
  }
  return 0;
}

/// Argument J of the MPI-3 fallback: 1 for a count, the spanning datatype for its datatype.
template <std::size_t J, std::size_t... Positions, class Given, class Spans>
auto fallback_arg(const Given& given, const Spans& spans) {
  if constexpr (is_count_at<J, Positions...>) {
    return 1;
  } else if constexpr (J > 0 && is_count_at<J - 1, Positions...>) {
    return spans[count_index<J - 1, Positions...>()].get();
  } else {
    return std::get<J>(given);
  }
}

/// The classic call with each count replaced by 1 and its datatype by a large_count_type.
template <auto Classic, std::size_t... Positions, class... Args, std::size_t... I>
int call_with_large_types(std::index_sequence<I...>, Args... args) {
  const auto given = std::make_tuple(args...);
  const large_count_type spans[] = {
      large_count_type(std::get<Positions>(given), std::get<Positions + 1>(given))...};
  return Classic(fallback_arg<I, Positions...>(given, spans)...);
}

/// The large-count side of counted_call: cold, out of line.
template <auto Classic, auto Large, std::size_t... Positions, class... Args>
[[gnu::noinline, gnu::cold]] int call_large(Args... args) {
  if constexpr (!std::is_null_pointer_v<decltype(Large)>) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return Large(large_arg<I, Positions...>(args)...);
    }
    (std::index_sequence_for<Args...>{});
  } else {
    return call_with_large_types<Classic, Positions...>(std::index_sequence_for<Args...>{},
                                                        args...);
  }
}

/// Calls `Classic` (an MPI function) with `args`, whose arguments at `Positions` are
/// std::size_t counts: the classic call when every count fits an int, else `Large` (its `_c`
/// variant, THINMPI_LARGE_COUNT_CALL) or, without one, derived datatypes.
///
///     counted_call<&MPI_Send, THINMPI_LARGE_COUNT_CALL(MPI_Send)>(counts_at<1>{}, buf, n, ...)
template <auto Classic, auto Large, std::size_t... Positions, class... Args>
[[gnu::always_inline]] inline int counted_call(counts_at<Positions...>, Args... args) {
  const auto given = std::forward_as_tuple(args...);
  if ((fits_int(std::get<Positions>(given)) && ...)) [[likely]] {
    return call_classic<Classic, Positions...>(std::index_sequence_for<Args...>{}, args...);
  }
  return call_large<Classic, Large, Positions...>(args...);
}

}  // namespace thinmpi::detail
