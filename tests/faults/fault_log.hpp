#pragma once
// The fault programs' stderr goes to a file of their own when faults/run_fault.sh asks for it
// (THINMPI_FAULT_LOG_DIR): a rank's last words then reach the check whatever the launcher does.
// MPICH 4.0.2's launcher (hydra) can tear the job down after an MPI_Abort before it has
// forwarded the aborting rank's stderr: the job then ends with the right status and no text
// (seen once in a few dozen runs under load), so the message is read where it was written.

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace fault_log {

/// Points file descriptor 2 of this process at $THINMPI_FAULT_LOG_DIR/rank<rank>.stderr.
inline void send_stderr_to_file(int rank) {
  const char* dir = std::getenv("THINMPI_FAULT_LOG_DIR");
  if (dir == nullptr || *dir == '\0') return;
  const std::string path = std::string(dir) + "/rank" + std::to_string(rank) + ".stderr";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0 || ::dup2(fd, STDERR_FILENO) < 0) {
    std::fprintf(stderr, "fault: cannot write %s\n", path.c_str());
    std::exit(2);
  }
  ::close(fd);
}

}  // namespace fault_log
