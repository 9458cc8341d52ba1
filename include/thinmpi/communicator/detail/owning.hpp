#pragma once
/// \file
/// detail::owning<View>: a view of a communicator (cartesian_view, graph_view, inter_view) that
/// owns its MPI communicator and frees it once, as thinmpi::communicator owns a comm_view's.
/// Move-only: copying would need a hidden MPI_Comm_dup.

#include <utility>

#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/requests/detail/request_access.hpp"

namespace thinmpi::detail {

/// View, owning its communicator (freed by MPI_Comm_free when destroyed, unless MPI has been
/// finalized or release() gave it up).
template <class View>
class owning : public View {
 public:
  /// The null communicator.
  owning() noexcept = default;
  owning(const owning&) = delete;
  owning& operator=(const owning&) = delete;
  owning(owning&& other) noexcept : View(std::exchange(other.view(), View{})) {}
  owning& operator=(owning&& other) noexcept {
    if (this != &other) {
      free();
      view() = std::exchange(other.view(), View{});
    }
    return *this;
  }
  ~owning() { free(); }

  /// Gives up ownership: the caller frees the returned handle.
  [[nodiscard]] MPI_Comm release() noexcept {
    const MPI_Comm comm = this->native();
    view() = View{};
    return comm;
  }

 protected:
  /// Owns what `view` refers to.
  explicit owning(View view) noexcept : View(view) {}

 private:
  View& view() noexcept { return *this; }
  void free() noexcept {
    if (this->comm_ != MPI_COMM_NULL && !mpi_finalized()) MPI_Comm_free(&this->comm_);
    view() = View{};
  }
};

}  // namespace thinmpi::detail
