#pragma once
/// \file
/// Sample sort with thinmpi, the KaMPIng paper's second program: splitters by sampling (one
/// allgather), the buckets exchanged with their counts (alltoallv with exchange_counts: one
/// MPI_Alltoall of the counts, one MPI_Alltoallv), then a local sort. examples/sample_sort.cpp
/// runs and checks it; wrapper-bench runs it against bench/programs/sample_sort.c.
///
/// The lines between the START and END markers are the ones counted by scripts/count_lines.py (as
/// the KaMPIng repository counts its versions); the local steps above them contain no MPI call and
/// are left out of the count in every version, as in KaMPIng's.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <random>
#include <vector>

#include "thinmpi/thinmpi.hpp"

namespace sample_sort_example {

/// Sorts the gathered samples and keeps `ranks - 1` equidistant splitters.
template <class T>
void pick_splitters(int ranks, std::size_t oversampling, std::vector<T>& samples) {
  std::sort(samples.begin(), samples.end());
  const auto splitters = static_cast<std::size_t>(ranks - 1);
  for (std::size_t i = 0; i < splitters; ++i)
    samples[i] = samples[oversampling * (i + 1)];
  samples.resize(splitters);
}

/// data split into one bucket per rank: bucket r holds the elements below splitter r.
template <class T>
std::vector<std::vector<T>> build_buckets(const std::vector<T>& data,
                                          const std::vector<T>& splitters) {
  std::vector<std::vector<T>> buckets(splitters.size() + 1);
  for (const T& element : data) {
    const auto bound = std::upper_bound(splitters.begin(), splitters.end(), element);
    buckets[static_cast<std::size_t>(bound - splitters.begin())].push_back(element);
  }
  return buckets;
}

/// 16 log2(ranks) + 1 samples per rank, as in the KaMPIng paper.
inline std::size_t oversampling_ratio(int ranks) {
  return static_cast<std::size_t>(16 * std::log2(ranks) + 1);
}

//> START SORTING THINMPI
template <class T>
void sort(thinmpi::comm_view comm, std::vector<T>& data, std::size_t seed) {
  const int ranks = comm.size();
  const std::size_t oversampling = oversampling_ratio(ranks);
  std::vector<T> local_samples(oversampling);
  std::sample(data.begin(), data.end(), local_samples.begin(), oversampling, std::mt19937{seed});
  auto global_samples = comm.allgather(local_samples);
  pick_splitters(ranks, oversampling, global_samples);
  std::vector<T> send;
  std::vector<int> counts;
  for (const auto& bucket : build_buckets(data, global_samples)) {
    send.insert(send.end(), bucket.begin(), bucket.end());
    counts.push_back(static_cast<int>(bucket.size()));
  }
  data = comm.alltoallv(send, counts, thinmpi::exchange_counts).data;
  std::sort(data.begin(), data.end());
}
//> END

}  // namespace sample_sort_example
