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
#include <numeric>
#include <random>
#include <vector>

#include "thinmpi/thinmpi.hpp"

namespace sample_sort_example {

/// `count` samples of data at positions drawn from a generator seeded with `seed`: one draw a
/// sample, as the C version (std::sample would draw once per element of data).
template <class T>
std::vector<T> draw_samples(const std::vector<T>& data, std::size_t count, std::size_t seed) {
  std::vector<T> samples(count);
  std::minstd_rand generator(static_cast<std::minstd_rand::result_type>(seed) + 1);
  if (!data.empty()) {
    for (T& sample : samples)
      sample = data[generator() % data.size()];
  }
  return samples;
}

/// Sorts the gathered samples and keeps `ranks - 1` equidistant splitters.
template <class T>
void pick_splitters(int ranks, std::size_t oversampling, std::vector<T>& samples) {
  std::sort(samples.data(), samples.data() + samples.size());  // on pointers: see sort below
  const auto splitters = static_cast<std::size_t>(ranks - 1);
  for (std::size_t i = 0; i < splitters; ++i)
    samples[i] = samples[oversampling * (i + 1)];
  samples.resize(splitters);
}

/// A rank's elements grouped by destination rank, and how many go to each.
template <class T>
struct buckets {
  std::vector<T, thinmpi::default_init_allocator<T>> elements;
  std::vector<int> counts;
};

/// data grouped by bucket (bucket r holds the elements below splitter r, in their order): one
/// pass counts, one places, as the C version; the grouped elements are not zeroed first
/// (default_init_allocator), as C's malloc.
template <class T>
buckets<T> build_buckets(const std::vector<T>& data, const std::vector<T>& splitters) {
  buckets<T> result{std::vector<T, thinmpi::default_init_allocator<T>>(data.size()),
                    std::vector<int>(splitters.size() + 1)};
  std::vector<int, thinmpi::default_init_allocator<int>> bucket_of(data.size());
  for (std::size_t i = 0; i < data.size(); ++i) {
    const auto bound = std::ranges::upper_bound(splitters, data[i]);
    bucket_of[i] = static_cast<int>(bound - splitters.begin());
    ++result.counts[static_cast<std::size_t>(bucket_of[i])];
  }
  std::vector<std::size_t> next(result.counts.size());
  std::exclusive_scan(result.counts.begin(), result.counts.end(), next.begin(), std::size_t{0});
  for (std::size_t i = 0; i < data.size(); ++i)
    result.elements[next[static_cast<std::size_t>(bucket_of[i])]++] = data[i];
  return result;
}

/// 16 log2(ranks) + 1 samples per rank, as in the KaMPIng paper.
inline std::size_t oversampling_ratio(int ranks) {
  return static_cast<std::size_t>(16 * std::log2(ranks) + 1);
}

// The local sorts run std::sort on pointers, not on vector iterators: GCC 12 compiles
// std::sort<std::vector<int>::iterator> into ~7% more instructions than std::sort<int*> on the
// same ints, and the C version (wb_sort_ints) sorts int*; both run the same sort this way.
//> START SORTING THINMPI
template <class T>
void sort(thinmpi::comm_view comm, std::vector<T>& data, std::size_t seed) {
  const int ranks = comm.size();
  const std::size_t oversampling = oversampling_ratio(ranks);
  auto global_samples = comm.allgather(draw_samples(data, oversampling, seed));
  pick_splitters(ranks, oversampling, global_samples);
  const auto send = build_buckets(data, global_samples);
  data = comm.alltoallv(send.elements, send.counts, thinmpi::exchange_counts).data;
  std::sort(data.data(), data.data() + data.size());
}
//> END

}  // namespace sample_sort_example
