#pragma once
/// \file
/// detail::held, the one holder of what a request keeps alive for MPI: a payload passed as P&&
/// is borrowed when it is a named object (the request keeps its address; the caller keeps it
/// alive) and held by value otherwise (moved in and owned, or a view such as std::span copied).
/// Every family's nonblocking and persistent requests hold their payloads in it.

#include <memory>
#include <ranges>
#include <type_traits>
#include <utility>
#include <vector>

namespace thinmpi::detail {

/// Whether a request borrows P (a named object, or a view of someone else's data) rather than
/// taking it over and handing it back.
template <class P>
inline constexpr bool borrows =
    std::is_lvalue_reference_v<P> || std::ranges::borrowed_range<std::remove_cvref_t<P>>;

/// Whether a buffer's elements stay where they are when the buffer object is moved: true for
/// std::vector (heap storage), false for std::string (small strings live inside the object),
/// std::array and scalars.
template <class B>
inline constexpr bool data_survives_move = false;
template <class T, class A>
inline constexpr bool data_survives_move<std::vector<T, A>> = true;

/// Where a holder stands: in a block whose address never changes (a collective's state), or
/// inside a request object that the caller may move (a point-to-point request). A moving
/// holder boxes an object whose data would move with it, so the address MPI was given stays.
enum class holder_site { fixed, moving };

/// A payload passed as P&& (P deduced as for a forwarding reference: T& or T): a pointer to a
/// named object, else the object itself. Move-only.
template <class P, holder_site Site = holder_site::fixed>
class held {
 public:
  using object_type = std::remove_cvref_t<P>;
  /// Whether the request hands the payload back (moved in: not a named object, not a view).
  static constexpr bool owned = !borrows<P>;

  /// Holds nothing (a request that was never posted).
  held() = default;
  /// Points to a named payload; moves in any other. (Initialized, not assigned: a
  /// std::span of static extent has no empty state to assign to.)
  explicit held(P&& payload) : object_(stored(std::forward<P>(payload))) {}
  held(held&&) noexcept = default;
  held& operator=(held&&) noexcept = default;
  held(const held&) = delete;
  held& operator=(const held&) = delete;
  ~held() = default;

  /// The payload, wherever it is.
  [[nodiscard]] auto& get() noexcept {
    if constexpr (by_address || boxed) {
      return *object_;
    } else {
      return object_;
    }
  }
  /// The object moved out (nothing for a borrowed one; an empty object when none is held).
  auto take() {
    if constexpr (by_address) {
      return;
    } else if constexpr (boxed) {
      return object_ ? std::move(*object_) : object_type{};
    } else {
      return std::move(object_);
    }
  }

 private:
  static constexpr bool by_address = std::is_lvalue_reference_v<P>;
  static constexpr bool boxed =
      !by_address && Site == holder_site::moving && !data_survives_move<object_type>;
  using storage =
      std::conditional_t<by_address, std::remove_reference_t<P>*,
                         std::conditional_t<boxed, std::unique_ptr<object_type>, object_type>>;

  static storage stored(P&& payload) {
    if constexpr (by_address) {
      return std::addressof(payload);
    } else if constexpr (boxed) {
      return std::make_unique<object_type>(std::move(payload));
    } else {
      return storage(std::move(payload));
    }
  }

  storage object_{};
};

/// held(std::forward<P>(p)) holds p as passed: by address if named, by value otherwise.
template <class P>
held(P&&) -> held<P>;

}  // namespace thinmpi::detail
