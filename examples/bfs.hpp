#pragma once
/// \file
/// Breadth-first search with thinmpi, the KaMPIng paper's third program, on a generated graph
/// whose vertices are spread over the ranks in equal blocks. The partition is a distributed
/// graph communicator (MPI_Dist_graph_create_adjacent): a rank's out-neighbours own the far
/// ends of its edges, its in-neighbours, which it cannot see from its own edges, are found once
/// by a sparse exchange of empty messages. Each level's newly found vertices go to their owners
/// by neighbor_alltoallv with exchange_counts (MPI_Neighbor_alltoall of the counts,
/// MPI_Neighbor_alltoallv), and the search ends when no rank has any (one MPI_Allreduce).
/// examples/bfs.cpp runs and checks it; wrapper-bench runs it against bench/programs/bfs.c.
///
/// Why neighbor_alltoallv for the frontier, not the sparse exchange: who may send to whom is
/// fixed by the partition, so once the graph is known the count exchange is one int per
/// neighbour and nothing more; the sparse exchange finds senders it does not know of, at a
/// synchronous send per message plus a nonblocking barrier and probing, and would still need
/// the allreduce to end the search. It is the right tool for the one question the partition
/// cannot answer locally, the in-neighbours, asked once.
///
/// The lines between the START and END markers are the ones counted by scripts/count_lines.py,
/// the frontier exchange, as the KaMPIng repository counts its versions; the search around it is
/// the same in every version (bench/programs/bfs.c has it in C).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "thinmpi/thinmpi.hpp"

namespace bfs_example {

using vertex = std::uint64_t;
inline constexpr int degree = 4;

/// splitmix64, the generator of the graph (bench/programs/programs.h has the same).
inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15u;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
  return x ^ (x >> 31);
}

/// The k-th out-neighbour of v in the generated graph of `vertices` vertices.
inline vertex neighbor(vertex v, int k, vertex vertices) {
  return mix(v * degree + static_cast<vertex>(k)) % vertices;
}

/// The partition as a distributed graph, and each rank's out-neighbour slot.
struct partition {
  thinmpi::graph_communicator graph;
  std::vector<int> slot_of;  ///< per rank: its place among the out-neighbours, -1 if none
  std::size_t out_degree;    ///< how many out-neighbours
};

/// The partition of comm's ranks owning `local_n` vertices each: out-neighbours from this
/// rank's edges, in-neighbours from one sparse exchange of empty messages (tag 16016).
inline partition make_partition(thinmpi::comm_view comm, vertex local_n) {
  const vertex first = static_cast<vertex>(comm.rank()) * local_n;
  const vertex vertices = static_cast<vertex>(comm.size()) * local_n;
  std::vector<int> slot_of(static_cast<std::size_t>(comm.size()), -1);
  std::vector<std::pair<int, std::span<const vertex>>> hello;  // one empty message each
  for (vertex v = first; v < first + local_n; ++v) {
    for (int k = 0; k < degree; ++k) {
      const auto owner = static_cast<int>(neighbor(v, k, vertices) / local_n);
      if (slot_of[static_cast<std::size_t>(owner)] >= 0) continue;
      slot_of[static_cast<std::size_t>(owner)] = static_cast<int>(hello.size());
      hello.emplace_back(owner, std::span<const vertex>{});
    }
  }
  std::vector<int> sources, destinations;
  for (const auto& [source, nothing] : comm.sparse_exchange(hello, 16016))
    sources.push_back(source);
  for (const auto& [destination, nothing] : hello)
    destinations.push_back(destination);
  return {thinmpi::graph_communicator(comm, sources, destinations), std::move(slot_of),
          destinations.size()};
}

//> START BFS THINMPI
/// Vertices received from MPI: a vector that is not zeroed before MPI writes it.
using vertex_list = std::vector<vertex, thinmpi::default_init_allocator<vertex>>;

/// Sends every out-neighbour the vertices found for it and empties the buckets; returns the
/// vertices sent to this rank, or nothing when no rank found any.
inline std::optional<vertex_list> exchange(const thinmpi::graph_communicator& graph,
                                           std::vector<std::vector<vertex>>& found) {
  std::size_t total = 0;
  for (const auto& bucket : found)
    total += bucket.size();
  std::vector<vertex> send;
  send.reserve(total);
  std::vector<int> counts;
  counts.reserve(found.size());
  for (auto& bucket : found) {
    send.insert(send.end(), bucket.begin(), bucket.end());
    counts.push_back(static_cast<int>(bucket.size()));
    bucket.clear();
  }
  if (graph.allreduce(send.empty(), std::logical_and<>{})) return std::nullopt;
  return graph.neighbor_alltoallv<vertex_list>(send, counts, thinmpi::exchange_counts).data;
}
//> END

/// The level of each of this rank's `local_n` vertices (a block of the vertices, in rank order)
/// from root; -1 where root does not reach. `found` holds a bucket per out-neighbour.
inline std::vector<int> bfs(const partition& part, vertex local_n, vertex root,
                            std::vector<std::vector<vertex>>& found) {
  const vertex first = static_cast<vertex>(part.graph.rank()) * local_n;
  const vertex vertices = static_cast<vertex>(part.graph.size()) * local_n;
  std::vector<int> level_of(local_n, -1);
  found.resize(part.out_degree);
  std::optional<vertex_list> frontier = vertex_list{};
  if (root >= first && root < first + local_n) frontier->push_back(root);
  for (int level = 0; frontier; ++level) {
    for (const vertex v : *frontier) {
      if (level_of[v - first] >= 0) continue;
      level_of[v - first] = level;
      for (int k = 0; k < degree; ++k) {
        const vertex u = neighbor(v, k, vertices);
        found[static_cast<std::size_t>(part.slot_of[u / local_n])].push_back(u);
      }
    }
    frontier.reset();  // the next level's vertices can take this level's memory
    frontier = exchange(part.graph, found);
  }
  return level_of;
}

/// The levels of all vertices from root by a sequential BFS (the check).
inline std::vector<int> sequential_bfs(vertex vertices, vertex root) {
  std::vector<int> level(vertices, -1);
  std::vector<vertex> queue{root};
  level[root] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const vertex v = queue[head];
    for (int k = 0; k < degree; ++k) {
      const vertex u = neighbor(v, k, vertices);
      if (level[u] < 0) level[u] = level[v] + 1, queue.push_back(u);
    }
  }
  return level;
}

}  // namespace bfs_example
