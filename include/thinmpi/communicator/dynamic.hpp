#pragma once
/// \file
/// Dynamic processes (MPI-4.0 chapter 11): spawn new processes and talk to them over an
/// intercommunicator, and connect two jobs started apart through a port.
///
/// - thinmpi::spawn(comm, root, command, args, processes, hints) starts `processes` copies of
///   `command` (MPI_Comm_spawn, collective over comm: the root's arguments count) and returns
///   the intercommunicator to them (their ranks are the remote group) and each one's error
///   code on the root. spawn_multiple starts several commands as one group of children.
/// - thinmpi::parent() in a spawned process is the intercommunicator to its parents (the null
///   one in a process that was not spawned).
/// - thinmpi::port::open() opens a port (MPI_Open_port) whose name another job learns (a file, a
///   message); accept(comm, root, port, limit) on one side and connect(comm, root, name, limit)
///   on the other give both an intercommunicator. Neither MPI call can be cancelled, and Open
///   MPI 4.1.4's connect waits forever for a port nobody accepts on: `limit` is how long this
///   process waits before it ends the job with a message naming the port and the wait (the
///   one way out of a call MPI cannot end).
///
///     // the manager, alone in its job: four workers of the same program
///     thinmpi::spawned team = thinmpi::spawn(thinmpi::self(), 0, argv[0], {"--worker"}, 4);
///     const std::vector<int> task{1, 2, 3};
///     team.children.bcast(task, thinmpi::local_root(0));
///
/// A program that is not there is an mpi_error (MPI_ERR_SPAWN) naming it, found on the root
/// before MPI is called: Open MPI 4.1.4 otherwise aborts the job from its launcher. On a
/// communicator of more than one rank the root's finding ends the job (the others are inside
/// MPI_Comm_spawn); THINMPI_CHECKED_COLLECTIVES=1 makes every rank throw instead (one
/// MPI_Allreduce first). MPICH 4.0.2 built on ch4:ucx, as Debian's is, has no dynamic
/// processes at all: each of these calls is its mpi_error, with a sentence saying so.

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/root_checks.hpp"
#include "thinmpi/communicator/communicator.hpp"
#include "thinmpi/communicator/intercommunicator.hpp"
#include "thinmpi/core/detail/comm_queries.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/core/info.hpp"

namespace thinmpi {

/// What spawn() returns: the intercommunicator to the children, and on the root each child's
/// error code (MPI_SUCCESS for each one started; empty on the other ranks).
struct spawned {
  intercommunicator children;  ///< the local group is comm's, the remote group the children
  std::vector<int> errors;     ///< on the root: one code per process asked for
};

/// One command of spawn_multiple: a program, its arguments, how many copies, its hints ("wdir",
/// "host", ...).
struct spawn_command {
  std::string command;              ///< the program (a path, or a name looked up as MPI does)
  std::vector<std::string> args{};  ///< its arguments, without the program's name
  int processes = 1;                ///< how many copies
  info hints{};                     ///< MPI_Comm_spawn's info for this command
};

namespace detail {

/// The sentence MPICH's failures of dynamic processes get: its ch4:ucx build has none.
inline std::string dynamic_note(int rc) {
#ifdef MPICH_VERSION
  if (mpi_error_class(rc) == MPI_ERR_OTHER || mpi_error_class(rc) == MPI_ERR_SPAWN ||
      mpi_error_class(rc) == MPI_ERR_PORT) {
    return "MPICH built on ch4:ucx (as Debian's 4.0.2 is) has no dynamic processes: spawn, "
           "ports and join need Open MPI or an MPICH on ch3 or ch4:ofi";
  }
#else
  static_cast<void>(rc);
#endif
  return {};
}

/// Throws unless rc is MPI_SUCCESS, with dynamic_note's sentence.
inline void check_dynamic(int rc, const char* operation, MPI_Comm comm) {
  if (rc != MPI_SUCCESS) [[unlikely]] {
    raise(rc, error_site{.operation = operation, .comm = comm, .problem = dynamic_note(rc)});
  }
}

/// Whether `command` names an executable file as MPI would find it: a path (relative to `wdir`
/// if given, else to the current directory), or a bare name in the current directory or on
/// PATH.
inline bool program_exists(const std::string& command, const std::string& wdir) {
  const auto runnable = [](const std::string& path) { return ::access(path.c_str(), X_OK) == 0; };
  const std::string here = wdir.empty() ? std::string(".") : wdir;
  if (command.find('/') != std::string::npos) {
    return runnable(command.front() == '/' ? command : here + "/" + command);
  }
  if (runnable(here + "/" + command)) return true;
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "";
  for (std::size_t start = 0; start <= dirs.size();) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = dirs.substr(start, end - start);
    if (runnable((dir.empty() ? "." : dir) + "/" + command)) return true;
    start = end + 1;
  }
  return false;
}

/// The root's check of the commands before MPI_Comm_spawn(_multiple): a program that is not
/// there ends here (see the file comment) on a communicator of one rank by throwing, on more
/// by failed_check (the job ends; checked, every rank throws). The other ranks agree.
inline void check_programs(const collective_call& call, bool is_root,
                           std::span<const spawn_command> commands) {
  if (is_root) {
    for (const spawn_command& c : commands) {
      const std::string wdir = c.hints.get("wdir").value_or("");
      if (c.processes < 1) [[unlikely]] {
        raise(MPI_ERR_ARG,
              error_site{.operation = call.operation,
                         .comm = call.comm,
                         .problem = "spawning " + std::to_string(c.processes) + " copies of \"" +
                                    c.command + "\"; ask for 1 or more"});
      }
      if (!program_exists(c.command, wdir)) [[unlikely]] {
        const auto raise_missing = [&] {
          raise(MPI_ERR_SPAWN, error_site{.operation = call.operation,
                                          .comm = call.comm,
                                          .problem = "there is no program \"" + c.command +
                                                     "\" to spawn: not an executable file " +
                                                     (c.command.find('/') != std::string::npos
                                                          ? "at that path"
                                                          : "in the working directory or on PATH") +
                                                     (wdir.empty() ? "" : " (wdir " + wdir + ")")});
        };
        if (size_of(call.comm) == 1) raise_missing();
        failed_check(call, raise_missing);
      }
    }
  }
  agree_if_checked(call);
}

/// argv for MPI: the strings' addresses and a null pointer.
inline std::vector<char*> argv_of(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (const std::string& a : args)
    argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  return argv;
}

/// Ends the job if `done` is not set within `limit` (see the file comment): the watchdog of
/// a connect or accept, a thread that sleeps on a condition variable.
class wait_limit {
 public:
  wait_limit(std::chrono::milliseconds limit, std::string what)
      : watcher_([this, limit, what = std::move(what)] {
          std::unique_lock<std::mutex> lock(mutex_);
          if (cv_.wait_for(lock, limit, [this] { return done_; })) return;
          const std::string text = "thinmpi: " + what + " did not complete within " +
                                   std::to_string(limit.count()) +
                                   " ms; MPI cannot cancel it, so the job ends\n";
          std::fwrite(text.data(), 1, text.size(), stderr);
          std::fflush(stderr);
          std::_Exit(EXIT_FAILURE);
        }) {}
  wait_limit(const wait_limit&) = delete;
  wait_limit& operator=(const wait_limit&) = delete;
  ~wait_limit() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    cv_.notify_one();
    watcher_.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread watcher_;  // last: it starts once the rest is made
};

}  // namespace detail

/// Starts `processes` copies of `command` with `args` (MPI_Comm_spawn, collective over comm;
/// the root's arguments count); see the file comment.
[[nodiscard]] inline spawned spawn(comm_view comm, int root, const std::string& command,
                                   const std::vector<std::string>& args, int processes,
                                   const info& hints = {}) {
  const bool is_root = comm.rank() == root;
  const detail::collective_call call{"MPI_Comm_spawn", comm.native(), root};
  if (is_root) {
    const spawn_command one{command, {}, processes, hints};
    detail::check_programs(call, true, std::span<const spawn_command>(&one, 1));
  } else {
    detail::check_programs(call, false, {});
  }
  std::vector<char*> argv = detail::argv_of(args);
  spawned result;
  if (is_root) result.errors.assign(static_cast<std::size_t>(processes), MPI_SUCCESS);
  MPI_Comm children = MPI_COMM_NULL;
  const int rc =
      MPI_Comm_spawn(command.c_str(), argv.data(), processes, hints.native(), root, comm.native(),
                     &children, is_root ? result.errors.data() : MPI_ERRCODES_IGNORE);
  detail::check_dynamic(rc, "MPI_Comm_spawn", comm.native());
  result.children = intercommunicator::adopt(children);
  return result;
}

/// Starts several commands as one group of children (MPI_Comm_spawn_multiple, collective over
/// comm): their ranks follow the commands' order. errors holds one code per process asked for.
[[nodiscard]] inline spawned spawn_multiple(comm_view comm, int root,
                                            std::span<const spawn_command> commands) {
  const bool is_root = comm.rank() == root;
  const detail::collective_call call{"MPI_Comm_spawn_multiple", comm.native(), root};
  detail::check_programs(call, is_root, commands);
  std::vector<char*> names;
  std::vector<std::vector<char*>> argvs;
  std::vector<char**> argv_table;
  std::vector<int> counts;
  std::vector<MPI_Info> infos;
  int total = 0;
  for (const spawn_command& c : commands) {
    names.push_back(const_cast<char*>(c.command.c_str()));
    argvs.push_back(detail::argv_of(c.args));
    counts.push_back(c.processes);
    infos.push_back(c.hints.native());
    total += c.processes;
  }
  for (std::vector<char*>& argv : argvs)
    argv_table.push_back(argv.data());
  spawned result;
  if (is_root) result.errors.assign(static_cast<std::size_t>(total), MPI_SUCCESS);
  MPI_Comm children = MPI_COMM_NULL;
  const int rc =
      MPI_Comm_spawn_multiple(static_cast<int>(commands.size()), names.data(), argv_table.data(),
                              counts.data(), infos.data(), root, comm.native(), &children,
                              is_root ? result.errors.data() : MPI_ERRCODES_IGNORE);
  detail::check_dynamic(rc, "MPI_Comm_spawn_multiple", comm.native());
  result.children = intercommunicator::adopt(children);
  return result;
}

/// In a spawned process, the intercommunicator to the processes that spawned it (local group:
/// this process and its siblings; remote group: the parents); the null one otherwise
/// (MPI_Comm_get_parent). MPI owns it; disconnect_parent() parts from the parents.
[[nodiscard]] inline inter_view parent() {
  MPI_Comm comm = MPI_COMM_NULL;
  detail::check(MPI_Comm_get_parent(&comm), "MPI_Comm_get_parent");
  return inter_view(comm);
}

/// Parts from the parents (MPI_Comm_disconnect of the parent intercommunicator, collective
/// with the parents' disconnect() of theirs), so that each side may finalize alone; parent()
/// is the null one afterwards. Nothing in a process that was not spawned.
inline void disconnect_parent() {
  MPI_Comm comm = MPI_COMM_NULL;
  detail::check(MPI_Comm_get_parent(&comm), "MPI_Comm_get_parent");
  if (comm != MPI_COMM_NULL) {
    detail::check(MPI_Comm_disconnect(&comm), "MPI_Comm_disconnect", comm);
  }
}

/// A port that other jobs connect to (MPI_Open_port), closed when destroyed (MPI_Close_port).
/// Move-only.
class port {
 public:
  /// No port (what the non-root ranks of an accept hold).
  port() noexcept = default;
  /// Opens a port (MPI_Open_port). MPICH on ch4:ucx has none: an mpi_error saying so.
  [[nodiscard]] static port open(const info& hints = {}) {
    char name[MPI_MAX_PORT_NAME] = {};
    detail::check_dynamic(MPI_Open_port(hints.native(), name), "MPI_Open_port", MPI_COMM_NULL);
    return port(name);
  }
  port(const port&) = delete;
  port& operator=(const port&) = delete;
  /// Takes other's port over; other holds none.
  port(port&& other) noexcept : name_(std::exchange(other.name_, std::string())) {}
  /// Closes this port, then takes other's over.
  port& operator=(port&& other) noexcept {
    if (this != &other) {
      close();
      name_ = std::exchange(other.name_, std::string());
    }
    return *this;
  }
  ~port() { close(); }

  /// The port's name, for the jobs that connect.
  [[nodiscard]] const std::string& name() const noexcept { return name_; }

 private:
  explicit port(std::string name) : name_(std::move(name)) {}
  void close() noexcept {
    if (!name_.empty() && detail::mpi_is_running()) MPI_Close_port(name_.data());
    name_.clear();
  }
  std::string name_;
};

namespace detail {

/// The shape of MPI_Comm_accept and MPI_Comm_connect.
using port_call = int (*)(const char*, MPI_Info, int, MPI_Comm, MPI_Comm*);

/// accept() or connect(): `call` beside the watchdog of `limit` (wait_limit), `what` naming it in
/// the watchdog's message.
[[nodiscard]] inline intercommunicator join_at_port(port_call call, const char* operation,
                                                    const std::string& what, comm_view comm,
                                                    int root, const std::string& port_name,
                                                    std::chrono::milliseconds limit,
                                                    const info& hints) {
  MPI_Comm out = MPI_COMM_NULL;
  int rc = MPI_SUCCESS;
  {
    const wait_limit watchdog(limit, what);
    rc = call(port_name.c_str(), hints.native(), root, comm.native(), &out);
  }
  check_dynamic(rc, operation, comm.native());
  return intercommunicator::adopt(out);
}

}  // namespace detail

/// Waits, collectively over comm, for a job to connect to `port_name` (MPI_Comm_accept; the
/// root's name counts) and returns the intercommunicator to it. If none connects within
/// `limit`, this process ends the job with a message (see the file comment).
[[nodiscard]] inline intercommunicator accept(comm_view comm, int root,
                                              const std::string& port_name,
                                              std::chrono::milliseconds limit,
                                              const info& hints = {}) {
  return detail::join_at_port(&MPI_Comm_accept, "MPI_Comm_accept",
                              "MPI_Comm_accept on port \"" + port_name + "\"", comm, root,
                              port_name, limit, hints);
}

/// Connects, collectively over comm, to the job accepting on `port_name` (MPI_Comm_connect;
/// the root's name counts) and returns the intercommunicator to it. If nobody accepts within
/// `limit`, this process ends the job with a message (see the file comment).
[[nodiscard]] inline intercommunicator connect(comm_view comm, int root,
                                               const std::string& port_name,
                                               std::chrono::milliseconds limit,
                                               const info& hints = {}) {
  return detail::join_at_port(&MPI_Comm_connect, "MPI_Comm_connect",
                              "MPI_Comm_connect to port \"" + port_name + "\"", comm, root,
                              port_name, limit, hints);
}

}  // namespace thinmpi
