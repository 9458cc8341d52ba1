#pragma once
/// \file
/// Member access for aggregate structs, so that thinmpi can build their MPI datatype without a
/// macro: the member count comes from aggregate initialization, the members from a structured
/// binding. Supports up to 32 members of arithmetic, enum, std::byte, std::complex, std::array,
/// C array and nested aggregate types.

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace thinmpi::detail {

/// Converts to any type: T{{any_member{}}, ...} initializes one member per braced element (no
/// brace elision, so a C array member counts once), and a member of class type that is not an
/// aggregate is reached through this conversion.
struct any_member {
  template <class U>
  operator U() const;  // never defined: only named in unevaluated requires-expressions
};

/// Converts to arithmetic, enum and pointer types and to aggregates only, so that a member such
/// as std::complex is built by its (double, double) constructor instead of being ambiguous with
/// its copy (or, in libstdc++, with its GNU __complex__ constructor).
struct any_plain_member {
  template <class U>
  requires(std::is_arithmetic_v<U> || std::is_enum_v<U> || std::is_pointer_v<U> ||
           (std::is_class_v<U> && std::is_aggregate_v<U>))
  operator U() const;  // never defined: only named in unevaluated requires-expressions
};

template <class T, class Filler, std::size_t... I>
concept braced_initializable = requires {
  T{{(void(I), Filler{})}...};
};

template <class T, class Filler, std::size_t N>
consteval bool braced_initializable_n() {
  return []<std::size_t... I>(std::index_sequence<I...>) {
    return braced_initializable<T, Filler, I...>;
  }
  (std::make_index_sequence<N>{});
}

/// The most members thinmpi reflects in one struct.
inline constexpr std::size_t max_fields = 32;

/// The largest N up to max_fields such that T{{x}, ... N times} compiles. A braced element
/// initializes exactly one member, so this never exceeds T's member count.
template <class T, class Filler, std::size_t N = 1>
consteval std::size_t braced_count() {
  if constexpr (N > max_fields || !braced_initializable_n<T, Filler, N>()) {
    return N - 1;
  } else {
    return braced_count<T, Filler, N + 1>();
  }
}

/// The number of members of the aggregate T.
template <class T>
inline constexpr std::size_t field_count = std::max(braced_count<T, any_member>(),
                                                    braced_count<T, any_plain_member>());

/// Calls visit(member0, member1, ...) with references to the members of object.
template <std::size_t fields, class T, class Visit>
constexpr decltype(auto) visit_fields(T& object, Visit&& visit) {
  static_assert(fields >= 1 && fields <= max_fields);
  // clang-format off
  if constexpr (fields == 1) {
    auto& [m0] = object;
    return visit(m0);
  } else if constexpr (fields == 2) {
    auto& [m0, m1] = object;
    return visit(m0, m1);
  } else if constexpr (fields == 3) {
    auto& [m0, m1, m2] = object;
    return visit(m0, m1, m2);
  } else if constexpr (fields == 4) {
    auto& [m0, m1, m2, m3] = object;
    return visit(m0, m1, m2, m3);
  } else if constexpr (fields == 5) {
    auto& [m0, m1, m2, m3, m4] = object;
    return visit(m0, m1, m2, m3, m4);
  } else if constexpr (fields == 6) {
    auto& [m0, m1, m2, m3, m4, m5] = object;
    return visit(m0, m1, m2, m3, m4, m5);
  } else if constexpr (fields == 7) {
    auto& [m0, m1, m2, m3, m4, m5, m6] = object;
    return visit(m0, m1, m2, m3, m4, m5, m6);
  } else if constexpr (fields == 8) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7] = object;
    return visit(m0, m1, m2, m3, m4, m5, m6, m7);
  } else if constexpr (fields == 9) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8] = object;
    return visit(m0, m1, m2, m3, m4, m5, m6, m7, m8);
  } else if constexpr (fields == 10) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9] = object;
    return visit(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9);
  } else if constexpr (fields == 11) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10] = object;
    return visit(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10);
  } else if constexpr (fields == 12) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11] = object;
    return visit(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11);
  } else if constexpr (fields == 13) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12] = object;
    return visit(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12);
  } else if constexpr (fields == 14) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13] = object;
    return visit(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13);
  } else if constexpr (fields == 15) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14] = object;
    return visit(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14);
  } else if constexpr (fields == 16) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15] = object;
    return visit(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15);
  } else if constexpr (fields == 17) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16] = object;
    return visit(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16);
  } else if constexpr (fields == 18) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17] = object;
    return visit(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17);
  } else if constexpr (fields == 19) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18] = object;
    return visit(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18);
  } else if constexpr (fields == 20) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19] = object;
    return visit(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19);
  } else if constexpr (fields == 21) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20] = object;
    return visit(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20);
  } else if constexpr (fields == 22) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21] = object;
    return visit(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21);
  } else if constexpr (fields == 23) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22] = object;
    return visit(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22);
  } else if constexpr (fields == 24) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23] = object;
    return visit(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23);
  } else if constexpr (fields == 25) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23, m24] = object;
    return visit(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23, m24);
  } else if constexpr (fields == 26) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23, m24, m25] = object;
    return visit(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23, m24, m25);
  } else if constexpr (fields == 27) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23, m24, m25, m26] = object;
    return visit(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23, m24, m25, m26);
  } else if constexpr (fields == 28) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23, m24, m25, m26, m27] = object;
    return visit(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23, m24, m25, m26, m27);
  } else if constexpr (fields == 29) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23, m24, m25, m26, m27, m28] = object;
    return visit(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23, m24, m25, m26, m27, m28);
  } else if constexpr (fields == 30) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23, m24, m25, m26, m27, m28, m29] = object;
    return visit(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23, m24, m25, m26, m27, m28, m29);
  } else if constexpr (fields == 31) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23, m24, m25, m26, m27, m28, m29, m30] = object;
    return visit(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23, m24, m25, m26, m27, m28, m29, m30);
  } else if constexpr (fields == 32) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23, m24, m25, m26, m27, m28, m29, m30, m31] = object;
    return visit(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23, m24, m25, m26, m27, m28, m29, m30, m31);
  }
  // clang-format on
}

}  // namespace thinmpi::detail
