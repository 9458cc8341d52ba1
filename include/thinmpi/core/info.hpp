#pragma once
/// \file
/// thinmpi::info, an owned MPI_Info: the key/value hints that files (and, in MPI, windows,
/// communicators and spawned processes) take. A value type: copying it is MPI_Info_dup, a local
/// call with no communication; the default is no hints (MPI_INFO_NULL, no object made).
///
///     thinmpi::info hints{{"cb_nodes", "2"}, {"romio_cb_write", "enable"}};
///     hints.set("striping_unit", "1048576");
///     std::optional<std::string> nodes = hints.get("cb_nodes");  // "2"

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"

namespace thinmpi {

/// Key/value hints for MPI (an owned MPI_Info). Copyable (MPI_Info_dup); moved-from and
/// default-constructed ones hold no object and pass MPI_INFO_NULL.
class info {
 public:
  /// No hints: native() is MPI_INFO_NULL.
  info() noexcept = default;
  /// The given hints, set in order (MPI_Info_create, MPI_Info_set each).
  info(std::initializer_list<std::pair<std::string_view, std::string_view>> hints) {
    for (const auto& [key, value] : hints)
      set(key, value);
  }
  /// Takes ownership of `handle` (freed with MPI_Info_free); MPI_INFO_NULL holds nothing.
  [[nodiscard]] static info adopt(MPI_Info handle) noexcept {
    info taken;
    taken.handle_ = handle;
    return taken;
  }
  /// A copy of the hints (MPI_Info_dup).
  info(const info& other) : handle_(other.duplicate()) {}
  /// Frees these hints, then holds a copy of other's.
  info& operator=(const info& other) {
    if (this != &other) {
      MPI_Info copy = other.duplicate();
      free();
      handle_ = copy;
    }
    return *this;
  }
  /// Takes other's hints over; other holds none.
  info(info&& other) noexcept : handle_(std::exchange(other.handle_, MPI_INFO_NULL)) {}
  /// Frees these hints, then takes other's over.
  info& operator=(info&& other) noexcept {
    if (this != &other) {
      free();
      handle_ = std::exchange(other.handle_, MPI_INFO_NULL);
    }
    return *this;
  }
  ~info() { free(); }

  /// Sets `key` to `value` (MPI_Info_set), making the object on first use. A key longer than
  /// MPI_MAX_INFO_KEY or a value longer than MPI_MAX_INFO_VAL is an mpi_error (MPI_ERR_INFO_KEY
  /// / MPI_ERR_INFO_VALUE) naming it.
  info& set(std::string_view key, std::string_view value) {
    if (key.empty() || key.size() >= MPI_MAX_INFO_KEY) [[unlikely]] {
      raise_bad(MPI_ERR_INFO_KEY, "the key \"" + std::string(key) + "\" is " +
                                      std::to_string(key.size()) + " characters; MPI takes 1 to " +
                                      std::to_string(MPI_MAX_INFO_KEY - 1));
    }
    if (value.size() >= MPI_MAX_INFO_VAL) [[unlikely]] {
      raise_bad(MPI_ERR_INFO_VALUE,
                "the value of \"" + std::string(key) + "\" is " + std::to_string(value.size()) +
                    " characters; MPI takes at most " + std::to_string(MPI_MAX_INFO_VAL - 1));
    }
    if (handle_ == MPI_INFO_NULL) detail::check(MPI_Info_create(&handle_), "MPI_Info_create");
    const std::string k(key);
    const std::string v(value);
    detail::check(MPI_Info_set(handle_, k.c_str(), v.c_str()), "MPI_Info_set");
    return *this;
  }
  /// The value of `key`, or nothing if it is not set (MPI_Info_get_valuelen, MPI_Info_get).
  [[nodiscard]] std::optional<std::string> get(std::string_view key) const {
    if (handle_ == MPI_INFO_NULL || key.empty() || key.size() >= MPI_MAX_INFO_KEY) return {};
    const std::string k(key);
    int length = 0;
    int found = 0;
    detail::check(MPI_Info_get_valuelen(handle_, k.c_str(), &length, &found),
                  "MPI_Info_get_valuelen");
    if (found == 0) return {};
    std::string value(static_cast<std::size_t>(length) + 1, '\0');
    detail::check(MPI_Info_get(handle_, k.c_str(), length, value.data(), &found), "MPI_Info_get");
    value.resize(static_cast<std::size_t>(length));
    return value;
  }
  /// Removes `key` if it is set (MPI_Info_delete).
  info& erase(std::string_view key) {
    if (get(key)) {
      const std::string k(key);
      detail::check(MPI_Info_delete(handle_, k.c_str()), "MPI_Info_delete");
    }
    return *this;
  }
  /// The keys that are set, in MPI's order (MPI_Info_get_nkeys, MPI_Info_get_nthkey).
  [[nodiscard]] std::vector<std::string> keys() const {
    std::vector<std::string> names;
    if (handle_ == MPI_INFO_NULL) return names;
    int count = 0;
    detail::check(MPI_Info_get_nkeys(handle_, &count), "MPI_Info_get_nkeys");
    names.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
      char key[MPI_MAX_INFO_KEY + 1] = {};
      detail::check(MPI_Info_get_nthkey(handle_, i, key), "MPI_Info_get_nthkey");
      names.emplace_back(key);
    }
    return names;
  }
  /// The number of keys set.
  [[nodiscard]] std::size_t size() const {
    int count = 0;
    if (handle_ != MPI_INFO_NULL) {
      detail::check(MPI_Info_get_nkeys(handle_, &count), "MPI_Info_get_nkeys");
    }
    return static_cast<std::size_t>(count);
  }
  /// Whether no key is set.
  [[nodiscard]] bool empty() const { return size() == 0; }

  /// The MPI handle (MPI_INFO_NULL when no hint was ever set), for calling MPI directly.
  [[nodiscard]] MPI_Info native() const noexcept { return handle_; }

 private:
  [[noreturn]] static void raise_bad(int error_class, std::string problem) {
    detail::raise(error_class,
                  detail::error_site{.operation = "MPI_Info_set", .problem = std::move(problem)});
  }
  [[nodiscard]] MPI_Info duplicate() const {
    MPI_Info copy = MPI_INFO_NULL;
    if (handle_ != MPI_INFO_NULL) detail::check(MPI_Info_dup(handle_, &copy), "MPI_Info_dup");
    return copy;
  }
  void free() noexcept {
    if (handle_ != MPI_INFO_NULL && detail::mpi_is_running()) MPI_Info_free(&handle_);
    handle_ = MPI_INFO_NULL;
  }

  MPI_Info handle_ = MPI_INFO_NULL;
};

}  // namespace thinmpi
