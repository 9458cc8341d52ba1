#pragma once
/// \file
/// thinmpi::hardware: the resources comm_view::split_hardware() groups ranks by, and where this
/// process runs among them, read from Linux's sysfs and the process's CPU affinity.
///
/// Why thinmpi reads the machine itself rather than pass MPI's own split types: MPI's
/// MPI_COMM_TYPE_HW_GUIDED and Open MPI's OMPI_COMM_TYPE_* kinds answer differently for the
/// same processes. On this project's machine (one package, one NUMA node, one L3, two cores):
/// MPICH 4.0.2 returns MPI_COMM_NULL for every resource but "mpi_shared_memory" (which MPI-4
/// allows, and which leaves the user nothing); Open MPI 4.1.4 puts three unbound processes of
/// one package each alone in a "socket", "numa" or "l3cache" communicator, though they share
/// all three. thinmpi's rule is the same on every MPI: a process belongs to an instance of a
/// resource when every CPU it may run on lies in that instance (an unbound process is confined
/// to the package, NUMA node and L3 of a machine that has one of each, never to one core); a
/// process not confined to one instance gets the null communicator.

#include <sched.h>

#include <cstddef>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace thinmpi {

/// A hardware resource that processes can share (comm_view::split_hardware).
enum class hardware {
  node,       ///< the ranks that share memory (MPI_COMM_TYPE_SHARED; one MPI call)
  numa,       ///< a NUMA node (/sys/devices/system/node)
  package,    ///< a package, or socket (topology/package_cpus_list)
  l3_cache,   ///< a level-3 cache (cache/index*/level 3, data or unified)
  l2_cache,   ///< a level-2 cache
  l1_cache,   ///< a level-1 data cache
  core,       ///< a core (topology/thread_siblings_list)
  hw_thread,  ///< one hardware thread: one CPU
};

/// The resource's name in error messages.
[[nodiscard]] constexpr const char* name_of(hardware kind) noexcept {
  switch (kind) {
    case hardware::node:
      return "node";
    case hardware::numa:
      return "numa";
    case hardware::package:
      return "package";
    case hardware::l3_cache:
      return "l3_cache";
    case hardware::l2_cache:
      return "l2_cache";
    case hardware::l1_cache:
      return "l1_cache";
    case hardware::core:
      return "core";
    case hardware::hw_thread:
      return "hw_thread";
  }
  return "?";
}

namespace detail {

/// The numbers of a sysfs list ("0-3,8,10-11"); empty if it does not parse.
[[nodiscard]] inline std::vector<int> parse_cpu_list(const std::string& text) {
  std::vector<int> cpus;
  std::size_t at = 0;
  while (at < text.size() && text[at] != '\n') {
    std::size_t used = 0;
    int first = 0;
    try {
      first = std::stoi(text.substr(at), &used);
    } catch (...) {
      return {};
    }
    at += used;
    int last = first;
    if (at < text.size() && text[at] == '-') {
      ++at;
      try {
        last = std::stoi(text.substr(at), &used);
      } catch (...) {
        return {};
      }
      at += used;
    }
    for (int cpu = first; cpu <= last; ++cpu)
      cpus.push_back(cpu);
    if (at < text.size() && text[at] == ',') ++at;
  }
  return cpus;
}

/// The first line of a file, or nothing if it cannot be read.
[[nodiscard]] inline std::optional<std::string> read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  return line;
}

/// The instance of `kind` that CPU `cpu` lies in, named by the lowest CPU of that instance
/// (NUMA: the node's number); nothing if sysfs does not say.
[[nodiscard]] inline std::optional<int> instance_of(hardware kind, int cpu) {
  const std::string base = "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/";
  std::optional<std::string> list;
  switch (kind) {
    case hardware::node:
      return 0;
    case hardware::hw_thread:
      return cpu;
    case hardware::core:
      list = read_line(base + "topology/thread_siblings_list");
      break;
    case hardware::package:
      list = read_line(base + "topology/core_siblings_list");
      break;
    case hardware::numa: {
      const auto online = read_line("/sys/devices/system/node/online");
      if (!online) return std::nullopt;
      for (int node : parse_cpu_list(*online)) {
        const auto cpus =
            read_line("/sys/devices/system/node/node" + std::to_string(node) + "/cpulist");
        if (!cpus) continue;
        for (int c : parse_cpu_list(*cpus))
          if (c == cpu) return node;
      }
      return std::nullopt;
    }
    case hardware::l3_cache:
    case hardware::l2_cache:
    case hardware::l1_cache: {
      const char wanted = kind == hardware::l3_cache ? '3' : kind == hardware::l2_cache ? '2' : '1';
      for (int index = 0; index < 16; ++index) {
        const std::string cache = base + "cache/index" + std::to_string(index) + "/";
        const auto level = read_line(cache + "level");
        if (!level) break;
        const auto type = read_line(cache + "type");
        if (level->empty() || (*level)[0] != wanted || !type || *type == "Instruction") continue;
        list = read_line(cache + "shared_cpu_list");
        break;
      }
      break;
    }
  }
  if (!list) return std::nullopt;
  const std::vector<int> cpus = parse_cpu_list(*list);
  if (cpus.empty()) return std::nullopt;
  int lowest = cpus.front();
  for (int c : cpus)
    lowest = c < lowest ? c : lowest;
  return lowest;
}

/// Where this process runs: the instance of `kind` every CPU it may run on lies in (-1 when
/// they lie in several: not confined to one), or nothing if the machine does not say (no
/// sysfs, no affinity).
[[nodiscard]] inline std::optional<int> confined_instance(hardware kind) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return std::nullopt;
  std::optional<int> instance;
  constexpr std::size_t cpus = CPU_SETSIZE;
  for (std::size_t cpu = 0; cpu < cpus; ++cpu) {
    if (!CPU_ISSET(cpu, &allowed)) continue;
    const std::optional<int> here = instance_of(kind, static_cast<int>(cpu));
    if (!here) return std::nullopt;
    if (instance && *instance != *here) return -1;
    instance = here;
  }
  return instance;
}

}  // namespace detail
}  // namespace thinmpi
