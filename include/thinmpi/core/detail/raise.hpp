#pragma once
/// \file
/// The one path every failed MPI call takes: its context (error_site) becomes a
/// thinmpi::mpi_error with MPI's explanation, the ranks, tag and sizes. Everything here but
/// check() runs only after a call failed, so it may call MPI freely and allocate.

#include <cstddef>
#include <optional>
#include <string>
#include <utility>

#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/error.hpp"

namespace thinmpi::detail {

/// Where an error happened, filled in only on the error path.
struct error_site {
  const char* operation = "";
  MPI_Comm comm = MPI_COMM_NULL;
  const char* peer_role = "peer";  ///< "dest" or "source"
  std::optional<int> peer{};
  std::optional<int> tag{};
  std::optional<std::size_t> count{};
  MPI_Datatype type = MPI_DATATYPE_NULL;
  std::optional<std::size_t> incoming_bytes{};
  std::string problem{};  ///< thinmpi's own sentence, for errors MPI does not explain itself
};

/// True between MPI_Init and MPI_Finalize, when MPI's own query functions may be called.
inline bool mpi_is_running() noexcept {
  int initialized = 0;
  int finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized != 0 && finalized == 0;
}

inline std::string mpi_error_string(int code) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) return {};
  return std::string(text, static_cast<std::size_t>(length));
}

inline int mpi_error_class(int code) {
  int error_class = MPI_ERR_UNKNOWN;
  if (MPI_Error_class(code, &error_class) != MPI_SUCCESS) return code;
  return error_class;
}

/// "MPI_INT", or the name thinmpi gave a derived datatype.
inline std::string datatype_name(MPI_Datatype type) {
  char name[MPI_MAX_OBJECT_NAME] = {};
  int length = 0;
  if (type == MPI_DATATYPE_NULL || MPI_Type_get_name(type, name, &length) != MPI_SUCCESS ||
      length == 0) {
    return "elements of a derived datatype";
  }
  return std::string(name, static_cast<std::size_t>(length));
}

inline std::optional<std::size_t> datatype_size(MPI_Datatype type) {
  MPI_Count size = 0;
  if (type == MPI_DATATYPE_NULL || MPI_Type_size_x(type, &size) != MPI_SUCCESS || size <= 0) {
    return std::nullopt;
  }
  return static_cast<std::size_t>(size);
}

/// "1 entry", "3 entries": a count and its noun, singular or plural as the count wants. Every
/// sentence that counts something (entries, ranks, bytes, neighbors) says it through this, so
/// that none reads "1 entries".
inline std::string counted(std::size_t count, const char* one, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

/// "4 x MPI_INT = 16 bytes", "1 x MPI_CHAR = 1 byte"
inline std::string describe_elements(std::size_t count, MPI_Datatype type) {
  std::string text = std::to_string(count) + " x " + datatype_name(type);
  if (const auto size = datatype_size(type)) {
    text += " = " + counted(count * *size, "byte", "bytes");
  }
  return text;
}

/// The first line of a text.
inline std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

/// MPI's explanation in one line. MPICH answers "Invalid rank, error stack:" followed by lines
/// such as "internal_Send(78).: Invalid rank has value 7 but must be ... less than 2"; the last
/// of them says the most. Open MPI answers in one line already.
inline std::string mpi_reason(const std::string& text) {
  const std::string head = first_line(text);
  const std::string stack_marker = ", error stack:";
  const auto marker = head.find(stack_marker);
  if (marker == std::string::npos) return head;
  std::string last = text.substr(text.find_last_of('\n', text.size() - 2) + 1);
  while (!last.empty() && (last.back() == '\n' || last.back() == ' '))
    last.pop_back();
  const auto detail_start = last.find(": ");
  const std::string detail =
      detail_start == std::string::npos ? std::string() : last.substr(detail_start + 2);
  const std::string summary = head.substr(0, marker);
  return detail.empty() || detail == summary ? summary : summary + ": " + detail;
}

inline mpi_error::report make_report(int code, const error_site& site) {
  mpi_error::report report;
  report.code = code;
  report.operation = site.operation;
  report.peer = site.peer;
  report.tag = site.tag;
  report.count = site.count;
  report.incoming_bytes = site.incoming_bytes;
  report.error_class = code;  // thinmpi's own errors use a class as their code
  if (!mpi_is_running()) return report;
  report.error_class = mpi_error_class(code);
  report.mpi_message = mpi_error_string(code);
  int rank = 0;
  int size = 0;
  if (site.comm != MPI_COMM_NULL && MPI_Comm_rank(site.comm, &rank) == MPI_SUCCESS &&
      MPI_Comm_size(site.comm, &size) == MPI_SUCCESS) {
    report.rank = rank;
    report.comm_size = size;
  }
  const auto element_size = datatype_size(site.type);
  if (site.incoming_bytes && element_size && *site.incoming_bytes % *element_size == 0) {
    report.incoming_count = *site.incoming_bytes / *element_size;
  }
  return report;
}

/// "thinmpi: MPI_Send(dest 7, tag 0, 1 x MPI_INT = 4 bytes) failed on rank 0 of 2: ..."
inline std::string describe(const mpi_error::report& report, const error_site& site) {
  std::string args;
  const auto append = [&args](const std::string& part) {
    args += args.empty() ? part : ", " + part;
  };
  if (report.peer) append(std::string(site.peer_role) + " " + std::to_string(*report.peer));
  if (report.tag) append("tag " + std::to_string(*report.tag));
  if (report.count) append(describe_elements(*report.count, site.type));
  std::string text = "thinmpi: " + report.operation + "(" + args + ") failed";
  if (report.rank) {
    text += " on rank " + std::to_string(*report.rank) + " of " + std::to_string(*report.comm_size);
  }
  const std::string reason = site.problem.empty() ? mpi_reason(report.mpi_message) : site.problem;
  text += ": " + (reason.empty() ? std::string("MPI error") : reason);
  return text + " [" + error_class_name(report.error_class) + "]";
}

[[noreturn, gnu::cold, gnu::noinline]] inline void raise(int code, const error_site& site) {
  mpi_error::report report = make_report(code, site);
  std::string what = describe(report, site);
  throw mpi_error(what, std::move(report));
}

/// Throws unless rc is MPI_SUCCESS. For calls whose only context is their name.
inline void check(int rc, const char* operation) {
  if (rc != MPI_SUCCESS) [[unlikely]] {
    raise(rc, error_site{.operation = operation});
  }
}

/// Throws unless rc is MPI_SUCCESS, naming the operation and its communicator.
inline void check(int rc, const char* operation, MPI_Comm comm) {
  if (rc != MPI_SUCCESS) [[unlikely]] {
    raise(rc, error_site{.operation = operation, .comm = comm});
  }
}

}  // namespace thinmpi::detail
