#pragma once
/// \file
/// The collectives of serialized values: bcast, gatherv, allgatherv, scatterv and alltoallv of
/// thinmpi::serialized(x), reached through the hook (detail/serialized_hook.hpp) from the
/// collective families. A value's encoded size is known only on its own rank, so each form
/// exchanges the byte counts first, then moves the bytes with the communicator's counts-given
/// call (which checks counts, displacements and INT_MAX as for any payload), then decodes each
/// rank's block straight from the received bytes:
///
///     std::map<std::string, double> config;  // filled on the root
///     world.bcast(thinmpi::serialized(config), 0, thinmpi::exchange_counts);  // 2 MPI_Bcast
///     std::vector<std::string> mine = {"ada", "grace"};
///     std::vector<std::vector<std::string>> all =
///         world.allgatherv(thinmpi::serialized(mine), thinmpi::exchange_counts);
///
/// A rank that cannot send (a vector that is not one value per rank, a value that encodes to
/// more than INT_MAX bytes, ...) still takes part in the count exchange, with -1 for its counts,
/// then throws its own error; every rank that receives a -1 throws too, before the second call,
/// so no rank is left waiting in it for one that has gone.

#include <cstddef>
#include <exception>
#include <optional>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/displacements.hpp"
#include "thinmpi/collectives/detail/v_calls.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/narrow.hpp"
#include "thinmpi/core/detail/serialized_hook.hpp"
#include "thinmpi/serialization/codec.hpp"
#include "thinmpi/serialization/wire.hpp"

namespace thinmpi::detail::serial {

/// The count a rank puts in the exchange when it cannot send its values.
inline constexpr int no_count = -1;

/// Fails to compile, with one sentence naming the fix, unless V holds one value per rank.
template <class V>
consteval void require_one_per_rank() {
  static_assert(std::ranges::sized_range<V>,
                "thinmpi: scatterv and alltoallv of thinmpi::serialized(values) send one value "
                "to each rank: pass a std::vector (or another sized range) of size() values");
}

/// Throws MPI_ERR_COUNT for encoded bytes that the int counts and displacements of the v-calls
/// cannot state: "a std::string encodes to 3000000008 bytes, past INT_MAX: ...".
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_encoded_past_int(
    const collective_call& call, const std::string& what, std::size_t bytes, const char* why) {
  raise_collective(MPI_ERR_COUNT, call, std::nullopt, MPI_BYTE,
                   what + " encodes to " + std::to_string(bytes) + " bytes, past INT_MAX: " + why);
}
/// See raise_encoded_past_int; the count of one value's bytes, as the exchange sends it.
inline int exchanged_count(const collective_call& call, std::size_t bytes, std::string_view type) {
  if (!fits_int(bytes)) [[unlikely]] {
    raise_encoded_past_int(call, "a " + readable_name(type), bytes,
                           "serialized collectives exchange int byte counts");
  }
  return static_cast<int>(bytes);
}

/// Throws after the count exchange when rank `sender` sent no_count.
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_absent(const collective_call& call,
                                                                std::size_t sender) {
  raise_collective(MPI_ERR_OTHER, call, std::nullopt, MPI_DATATYPE_NULL,
                   "rank " + std::to_string(sender) +
                       " could not send its serialized values (its own error says why) and took "
                       "part in the count exchange only; no bytes were sent");
}
/// See raise_absent: checks every exchanged count.
inline void check_exchanged(const collective_call& call, std::span<const int> counts) {
  for (std::size_t rank = 0; rank < counts.size(); ++rank) {
    if (counts[rank] == no_count) [[unlikely]] {
      raise_absent(call, rank);
    }
  }
}

/// Runs this rank's work before the count exchange (checks, encoding) and returns what it threw,
/// to be rethrown after the exchange, in which the rank then puts no_count.
template <class Prepare>
std::exception_ptr attempt(Prepare&& prepare) {
  try {
    prepare();
    return nullptr;
  } catch (...) {
    return std::current_exception();
  }
}

/// Encodes values, one per rank, end to end in one buffer: a size pass per value (counts[r] is
/// value r's size), one allocation, one write pass.
template <class Range>
wire_bytes encode_each(const collective_call& call, const Range& values, int ranks,
                       std::vector<int>& counts) {
  check_per_rank(call, std::ranges::size(values), ranks, "the vector of serialized values");
  using value_type = std::ranges::range_value_t<Range>;
  counts.clear();
  counts.reserve(std::ranges::size(values));
  std::size_t total = 0;
  for (const auto& value : values) {
    const std::size_t bytes = wire_size(value);
    counts.push_back(exchanged_count(call, bytes, spelled_name<value_type>()));
    total += bytes;
  }
  wire_bytes encoded;
  encoded.resize(total);
  byte_writer out(encoded.data());
  for (const auto& value : values)
    write(out, value);
  return encoded;
}

/// The bytes the exchanged counts add up to.
inline std::size_t total_of(std::span<const int> counts) {
  std::size_t total = 0;
  for (const int count : counts)
    total += static_cast<std::size_t>(count);
  return total;
}

/// Decodes bytes holding one block per rank (counts[r] bytes from rank r, in rank order) as a
/// T each; a malformed block is a serialization_error naming the rank it came from.
template <class T>
std::vector<T> decode_each(std::span<const std::byte> bytes, std::span<const int> counts,
                           MPI_Comm comm) {
  std::vector<T> values;
  values.reserve(counts.size());
  std::size_t at = 0;
  for (std::size_t rank = 0; rank < counts.size(); ++rank) {
    const auto n = static_cast<std::size_t>(counts[rank]);
    values.push_back(decode_in<T>(bytes.subspan(at, n), {.operation = "thinmpi::decode",
                                                         .comm = comm,
                                                         .peer_role = "block of rank",
                                                         .peer = static_cast<int>(rank)}));
    at += n;
  }
  return values;
}

/// The root's value into `value` on every other rank: MPI_Bcast of the byte size, MPI_Bcast of
/// the bytes (any size: detail/large_count.hpp), one decode on each other rank.
template <class T, class Comm>
void bcast_value(const Comm& comm, T& value, int root) {
  const bool is_root = comm.rank() == root;
  wire_bytes bytes;
  if (is_root) bytes = encode<wire_bytes>(value);
  unsigned long long size = bytes.size();
  comm.bcast(size, root);
  if (!is_root) bytes.resize(static_cast<std::size_t>(size));
  comm.bcast(bytes, root);
  if (!is_root) {
    value = decode_in<T>(
        bytes,
        {.operation = "thinmpi::decode", .comm = comm.native(), .peer_role = "root", .peer = root});
  }
}

/// Every rank's value to the root: MPI_Gather of the byte counts, MPI_Gatherv of the bytes, one
/// decode per block on the root, which gets the values in rank order; other ranks get nothing.
template <class T, class Comm>
std::optional<std::vector<T>> gather_values(const Comm& comm, const T& value, int root) {
  const collective_call call{"MPI_Gatherv", comm.native(), root};
  wire_bytes bytes;
  int mine = no_count;
  const std::exception_ptr failed = attempt([&] {
    bytes = encode<wire_bytes>(value);
    mine = exchanged_count(call, bytes.size(), spelled_name<T>());
  });
  const std::optional<std::vector<int>> counts = comm.gather(mine, root);
  if (failed) std::rethrow_exception(failed);
  wire_bytes all;
  if (!counts) {
    comm.gatherv(bytes, all, {}, root);
    return std::nullopt;
  }
  check_exchanged(call, *counts);
  all.resize(total_of(*counts));
  comm.gatherv(bytes, all, *counts, root);
  return decode_each<T>(all, *counts, comm.native());
}

/// Every rank's value to every rank: MPI_Allgather of the byte counts, MPI_Allgatherv of the
/// bytes, one decode per block.
template <class T, class Comm>
std::vector<T> allgather_values(const Comm& comm, const T& value) {
  const collective_call call{"MPI_Allgatherv", comm.native()};
  wire_bytes bytes;
  int mine = no_count;
  const std::exception_ptr failed = attempt([&] {
    bytes = encode<wire_bytes>(value);
    mine = exchanged_count(call, bytes.size(), spelled_name<T>());
  });
  const std::vector<int> counts = comm.allgather(mine);
  if (failed) std::rethrow_exception(failed);
  check_exchanged(call, counts);
  wire_bytes all;
  all.resize(total_of(counts));
  comm.allgatherv(bytes, all, counts);
  return decode_each<T>(all, counts, comm.native());
}

/// Value r of the root's `values` to rank r: MPI_Scatter of the byte counts, MPI_Scatterv of
/// the bytes, one decode on each rank. `values` is read on the root only.
template <class Range, class Comm>
std::ranges::range_value_t<Range> scatter_values(const Comm& comm, const Range& values, int root) {
  using T = std::ranges::range_value_t<Range>;
  const collective_call call{"MPI_Scatterv", comm.native(), root};
  wire_bytes bytes;
  std::vector<int> counts;
  std::vector<int> displs;
  std::exception_ptr failed;
  if (comm.rank() == root) {
    failed = attempt([&] {
      bytes = encode_each(call, values, comm.size(), counts);
      const v_layout layout = packed_displacements(call, counts, comm.size(), "sendcounts", displs);
      if (!layout.fits_int) [[unlikely]] {
        raise_encoded_past_int(call, "the root's values", bytes.size(),
                               "MPI_Scatterv takes int displacements");
      }
    });
    if (failed) counts.assign(static_cast<std::size_t>(comm.size()), no_count);
  }
  int mine = 0;
  comm.scatter(counts, mine, root);
  if (failed) std::rethrow_exception(failed);
  if (mine == no_count) [[unlikely]] {
    raise_absent(call, static_cast<std::size_t>(root));
  }
  wire_bytes block;
  block.resize(static_cast<std::size_t>(mine));
  comm.scatterv(bytes, counts, displs, block, root);
  return decode_in<T>(
      block,
      {.operation = "thinmpi::decode", .comm = comm.native(), .peer_role = "root", .peer = root});
}

/// Value d of each rank's `values` to rank d: MPI_Alltoall of the byte counts, MPI_Alltoallv of
/// the bytes, one decode per block; the values from each rank, in rank order.
template <class Range, class Comm>
std::vector<std::ranges::range_value_t<Range>> alltoall_values(const Comm& comm,
                                                               const Range& values) {
  const collective_call call{"MPI_Alltoallv", comm.native()};
  wire_bytes bytes;
  std::vector<int> sendcounts;
  const std::exception_ptr failed = attempt([&] {
    bytes = encode_each(call, values, comm.size(), sendcounts);
    // Checked here, before the exchange, where no `_c` call can take displacements past INT_MAX.
    const std::size_t last =
        sendcounts.empty() ? 0 : bytes.size() - static_cast<std::size_t>(sendcounts.back());
    check_packed_fits({bytes.size(), fits_int(last)}, call, MPI_BYTE, "the sum of sendcounts",
                      "MPI_Alltoallv_c");
  });
  if (failed) sendcounts.assign(static_cast<std::size_t>(comm.size()), no_count);
  const std::vector<int> recvcounts = comm.alltoall(sendcounts);
  if (failed) std::rethrow_exception(failed);
  check_exchanged(call, recvcounts);
  wire_bytes all;
  all.resize(total_of(recvcounts));
  comm.alltoallv(bytes, sendcounts, all, recvcounts);
  return decode_each<std::ranges::range_value_t<Range>>(all, recvcounts, comm.native());
}

}  // namespace thinmpi::detail::serial
