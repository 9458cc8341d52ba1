// Several threads on each of two ranks send and receive framed messages on one channel, all
// with the same tag, the receivers taking any source: each continuation must reach the thread
// that received its frame. Every payload describes itself (its length and its sender's thread
// and sequence number), so a continuation joined to the wrong frame is caught. Needs
// MPI_THREAD_MULTIPLE; its own main, because the GoogleTest main asks for a single thread.

#include <atomic>
#include <cstddef>
#include <cstdio>
#include <thread>
#include <vector>

#include "thinmpi/thinmpi.hpp"

namespace {

constexpr int threads = 4;
constexpr int messages_per_thread = 60;
constexpr int tag = 5;

/// The size of a sender's message: around the frame, below it, and several frames.
std::size_t size_of(int thread, int index) {
  constexpr std::size_t frame = thinmpi::framed_channel::default_frame_size / sizeof(int);
  const std::size_t sizes[] = {3, frame - 1, frame, frame + 1, 5 * frame + 17, 40, 2 * frame};
  return sizes[static_cast<std::size_t>(thread + index) % std::size(sizes)];
}

std::vector<int> payload(int thread, int index) {
  std::vector<int> values(size_of(thread, index));
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = thread * 1'000'000 + index * 1000 + static_cast<int>(i % 1000);
  return values;
}

/// Whether `values` is one whole payload of some sender thread.
bool is_whole_payload(const std::vector<int>& values) {
  if (values.empty()) return false;
  const int thread = values[0] / 1'000'000;
  const int index = (values[0] % 1'000'000) / 1000;
  return thread >= 0 && thread < threads && index >= 0 && index < messages_per_thread &&
         values == payload(thread, index);
}

/// The exit status that tells ctest the test was skipped, not passed.
constexpr int skipped = 77;

}  // namespace

int main(int argc, char** argv) {
  thinmpi::environment env(argc, argv, thinmpi::thread_level::multiple);
  if (env.provided() != thinmpi::thread_level::multiple) {
    // ctest reports the test as skipped on this code (SKIP_RETURN_CODE in tests/CMakeLists.txt).
    std::printf("SKIPPED: MPI_THREAD_MULTIPLE is not provided\n");
    return skipped;
  }
  auto world = thinmpi::world();
  if (world.size() != 2) {
    std::fprintf(stderr, "run on 2 ranks\n");
    return 2;
  }
  const thinmpi::framed_channel channel(world);
  const int peer = 1 - world.rank();
  std::atomic<int> bad{0};
  std::atomic<int> received{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      try {
        for (int i = 0; i < messages_per_thread; ++i) {
          const auto out = payload(t, i);
          // Every other receive nonblocking, on both sides.
          if (i % 2 == 0) {
            auto sent = channel.isend(out, peer, tag);
            const auto in = channel.recv<std::vector<int>>(thinmpi::any_source, tag);
            if (!is_whole_payload(in)) ++bad;
            sent.wait();
          } else {
            // A framed irecv posts its continuation only when tested or waited on, so the send
            // must not block first (a blocking send of a large payload on both sides would wait
            // for continuations neither side posts).
            auto pending = channel.irecv<std::vector<int>>(thinmpi::any_source, tag);
            auto sent = channel.isend(out, peer, tag);
            if (!is_whole_payload(pending.wait())) ++bad;
            sent.wait();
          }
          ++received;
        }
      } catch (const std::exception& e) {
        std::fprintf(stderr, "rank %d thread %d: %s\n", world.rank(), t, e.what());
        ++bad;
      }
    });
  }
  for (auto& worker : workers)
    worker.join();
  std::printf("rank %d: %d payloads received, %d wrong\n", world.rank(), received.load(),
              bad.load());
  int failed = bad.load() != 0 || received.load() != threads * messages_per_thread ? 1 : 0;
  int any_failed = 0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return any_failed;
}
