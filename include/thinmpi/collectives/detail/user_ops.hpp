#pragma once
/// \file
/// User reduction operations (any callable that is not one of MPI's predefined operations).
///
/// MPI_Op_create takes a plain function with no user-data pointer, so:
/// - a stateless callable (an empty, default-constructible type: a lambda without captures,
///   a function object without members) gets one MPI_Op per (callable type, element type,
///   commutativity), created on first use; its MPI function default-constructs the callable;
/// - a stateful callable (a capturing lambda) borrows, for the duration of its call or request,
///   one of op_slot_count slots. Slot i has its own MPI function (a trampoline) that reads the
///   callable's address and its element-wise function from slot i, so each call sees its own
///   captured state, whatever else is in flight on other threads or in other requests. Slots
///   are taken with one compare-exchange on a free flag and given back with one store; their
///   two MPI_Ops (commutative or not) are created once per slot, on its first use.
/// Every MPI_Op created here is freed when MPI_Finalize deletes MPI_COMM_SELF's attributes.
///
/// MPI's callback must not throw: an exception from the user's callable ends the job
/// (MPI_Abort) with a message that names the callable and the exception.

#include <array>
#include <atomic>
#include <concepts>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <type_traits>
#include <utility>

#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/at_finalize.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"

namespace thinmpi::detail {

/// Ends the job after a user operation threw: MPI's callback has no way to report it.
[[noreturn, gnu::cold, gnu::noinline]] inline void user_op_threw(const std::string& op_name,
                                                                 const std::string& element_name,
                                                                 const char* what) noexcept {
  std::fprintf(stderr,
               "thinmpi: the user reduction operation %s threw while reducing elements of %s: "
               "%s; a reduction cannot be undone on the other ranks, so the job is aborted "
               "(MPI_Abort)\n",
               op_name.c_str(), element_name.c_str(), what);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();  // MPI_Abort does not return
}

/// inout[i] = f(in[i], inout[i]) for len elements: MPI's order for a user operation (the
/// contribution of the lower ranks is the left operand).
template <class F, class T>
void apply_user_op(const void* function, const void* in, void* inout, int len) noexcept {
  const F& f = *static_cast<const F*>(function);
  const T* left = static_cast<const T*>(in);
  T* right = static_cast<T*>(inout);
  try {
    for (int i = 0; i < len; ++i)
      right[i] = f(left[i], right[i]);
  } catch (const std::exception& e) {
    user_op_threw(type_name<F>(), type_name<T>(), e.what());
  } catch (...) {
    user_op_threw(type_name<F>(), type_name<T>(), "an exception not derived from std::exception");
  }
}

/// MPI_Op_create, with the op freed at MPI_Finalize.
inline MPI_Op create_op(MPI_User_function* function, bool commutative) {
  MPI_Op op = MPI_OP_NULL;
  check(MPI_Op_create(function, commutative ? 1 : 0, &op), "MPI_Op_create");
  finalize_registry<MPI_Op, &MPI_Op_free>::add(op);
  return op;
}

/// The MPI function of a stateless callable F on elements of T.
template <class F, class T>
void stateless_trampoline(void* in, void* inout, int* len, MPI_Datatype*) noexcept {
  const F function{};
  apply_user_op<F, T>(&function, in, inout, *len);
}

/// The one MPI_Op of the stateless callable F on T, created on first use (thread-safe).
template <class F, class T, bool Commutative>
MPI_Op stateless_op() {
  static const MPI_Op op = create_op(&stateless_trampoline<F, T>, Commutative);
  return op;
}

/// How many reductions with stateful operations may be in flight at once, over all threads.
inline constexpr std::size_t op_slot_count = 64;

/// What a trampoline reads: the callable of the call that holds the slot and how to apply it.
struct op_slot {
  std::atomic<bool> busy{false};
  const void* function = nullptr;
  void (*apply)(const void*, const void*, void*, int) noexcept = nullptr;
  MPI_Op ops[2] = {MPI_OP_NULL, MPI_OP_NULL};  ///< non-commutative, commutative
};

/// The slots (constant-initialized: no guard on access).
inline op_slot op_slot_table[op_slot_count];

template <std::size_t I>
void slot_trampoline(void* in, void* inout, int* len, MPI_Datatype*) noexcept {
  const op_slot& slot = op_slot_table[I];
  slot.apply(slot.function, in, inout, *len);
}

template <std::size_t... I>
constexpr std::array<MPI_User_function*, sizeof...(I)> make_trampolines(
    std::index_sequence<I...>) noexcept {
  return {&slot_trampoline<I>...};
}

/// Slot i's MPI function.
inline constexpr std::array<MPI_User_function*, op_slot_count> slot_trampolines =
    make_trampolines(std::make_index_sequence<op_slot_count>{});

[[noreturn, gnu::cold, gnu::noinline]] inline void raise_no_free_slot() {
  raise(MPI_ERR_OP,
        error_site{.operation = "MPI_Op_create",
                   .problem = "more than " + std::to_string(op_slot_count) +
                              " reductions with a stateful (capturing) operation are in flight "
                              "at once; complete some first, or use an operation without "
                              "captures"});
}

/// A slot held for one call or request: its MPI_Op calls `function` on elements of T.
class op_lease {
 public:
  template <class F, class T>
  op_lease(const F& function, std::type_identity<T>, bool commutative) {
    for (std::size_t i = 0; i < op_slot_count; ++i) {
      bool expected = false;
      if (!op_slot_table[i].busy.load(std::memory_order_relaxed) &&
          op_slot_table[i].busy.compare_exchange_strong(expected, true,
                                                        std::memory_order_acquire)) {
        slot_ = i;
        break;
      }
    }
    if (slot_ == op_slot_count) [[unlikely]] {
      raise_no_free_slot();
    }
    op_slot& slot = op_slot_table[slot_];
    slot.function = &function;
    slot.apply = &apply_user_op<F, T>;
    MPI_Op& op = slot.ops[commutative ? 1 : 0];
    if (op == MPI_OP_NULL) [[unlikely]] {
      try {
        op = create_op(slot_trampolines[slot_], commutative);
      } catch (...) {
        release();
        throw;
      }
    }
    op_ = op;
  }
  op_lease(const op_lease&) = delete;
  op_lease& operator=(const op_lease&) = delete;
  ~op_lease() { release(); }

  /// The slot's MPI_Op.
  [[nodiscard]] MPI_Op get() const noexcept { return op_; }

 private:
  void release() noexcept {
    if (slot_ == op_slot_count) return;
    op_slot_table[slot_].busy.store(false, std::memory_order_release);
    slot_ = op_slot_count;
  }

  std::size_t slot_ = op_slot_count;
  MPI_Op op_ = MPI_OP_NULL;
};

/// An op that needs nothing held: a predefined one, or a stateless user op.
struct fixed_op {
  MPI_Op op;
  [[nodiscard]] MPI_Op get() const noexcept { return op; }
};

/// Whether F needs no state: MPI's function can default-construct it.
template <class F>
inline constexpr bool is_stateless_op =
    std::is_empty_v<F>&& std::is_default_constructible_v<F>&& std::is_trivially_copyable_v<F>;

}  // namespace thinmpi::detail
