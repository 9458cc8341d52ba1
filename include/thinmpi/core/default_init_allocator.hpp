#pragma once
/// \file
/// thinmpi::default_init_allocator: a std::vector that MPI fills need not be zeroed first.

#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace thinmpi {

/// An allocator whose value-initialization is default-initialization: resizing a
/// std::vector<T, default_init_allocator<T>> of trivial T leaves the new elements unwritten
/// instead of zeroing them. A std::vector<T> cannot be sized without zeroing, which
/// recv<std::vector<T>>() pays on every message (a memset of the payload: a quarter of the cost
/// of a 1 MiB receive on a small machine); this vector does not.
///
///     using buffer = std::vector<double, thinmpi::default_init_allocator<double>>;
///     buffer values = world.recv<buffer>(0, tag);  // MPI_Mprobe + MPI_Mrecv, no memset
template <class T, class Base = std::allocator<T>>
class default_init_allocator : public Base {
  using traits = std::allocator_traits<Base>;

 public:
  /// The same allocator for elements of type U (what std::allocator_traits rebinds to).
  template <class U>
  struct rebind {
    /// default_init_allocator over Base rebound to U.
    using other = default_init_allocator<U, typename traits::template rebind_alloc<U>>;
  };

  using Base::Base;

  /// Default-initializes: no write at all for trivially default-constructible U.
  template <class U>
  void construct(U* place) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(place)) U;
  }
  /// Any other construction is the base allocator's.
  template <class U, class... Args>
  void construct(U* place, Args&&... args) {
    traits::construct(static_cast<Base&>(*this), place, std::forward<Args>(args)...);
  }
};

}  // namespace thinmpi
