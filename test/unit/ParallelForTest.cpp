// The kernels' parallel loops (runtime/kernels/cpu/Parallel.h), through
// tfc_parallel_for, the entry generated loops call: every index of the
// loop is visited once, and a thread done with its share takes over the
// chunks of a slower thread's share that it has not begun.

#include "tfc/Runtime/tfc_runtime.h"

#include "gtest/gtest.h"

#include <chrono>
#include <mutex>
#include <omp.h>
#include <thread>
#include <vector>

namespace {

struct Range {
  int64_t first, last;
  int thread;
};

struct Ranges {
  std::mutex mutex;
  std::vector<Range> seen;
  /// A range starting here sleeps first (-1: none).
  int64_t slowStart = -1;
};

void record(void *captures, int64_t first, int64_t last) {
  auto *ranges = static_cast<Ranges *>(captures);
  if (first == ranges->slowStart)
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  std::lock_guard<std::mutex> lock(ranges->mutex);
  ranges->seen.push_back({first, last, omp_get_thread_num()});
}

/// Runs a loop of n indices worth two threads, recording its ranges.
void run(tfc_runtime *runtime, int64_t n, Ranges &ranges) {
  tfc_parallel_for(runtime, record, &ranges, n, /*bytes_loaded=*/64,
                   /*bytes_stored=*/64, /*cycles=*/1000);
}

/// How many times each index of [0, n) was visited.
std::vector<int> visits(const Ranges &ranges, int64_t n) {
  std::vector<int> count(n, 0);
  for (const Range &range : ranges.seen) {
    EXPECT_LE(0, range.first);
    EXPECT_LT(range.first, range.last);
    EXPECT_LE(range.last, n);
    for (int64_t i = range.first; i < range.last && i < n; ++i)
      ++count[i];
  }
  return count;
}

class ParallelForTest : public ::testing::Test {
protected:
  void SetUp() override {
    tfc_runtime_options options{};
    options.threads = 2;
    runtime = tfc_runtime_create(&options);
    ASSERT_NE(runtime, nullptr);
  }
  void TearDown() override { tfc_runtime_destroy(runtime); }
  tfc_runtime *runtime = nullptr;
};

TEST_F(ParallelForTest, VisitsEveryIndexOnce) {
  // Shares of unequal and of fewer indices than chunks as well.
  for (int64_t n : {int64_t(2), int64_t(3), int64_t(17), int64_t(1000),
                    int64_t(1) << 20, (int64_t(1) << 20) + 7}) {
    Ranges ranges;
    run(runtime, n, ranges);
    std::vector<int> count = visits(ranges, n);
    for (int64_t i = 0; i < n; ++i)
      ASSERT_EQ(count[i], 1) << "index " << i << " of " << n;
  }
}

TEST_F(ParallelForTest, ThreadDoneEarlyTakesOverSlowerShare) {
  // The first chunk of the first share sleeps: its thread is the slow one.
  // The other thread ends its own share long before, and then takes the
  // first share's chunks that are left. (A static split would give each
  // thread its share and no more: the first share would be the slow
  // thread's alone.)
  const int64_t n = int64_t(1) << 20;
  Ranges ranges;
  ranges.slowStart = 0;
  run(runtime, n, ranges);
  std::vector<int> count = visits(ranges, n);
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(count[i], 1) << "index " << i;

  int slowThread = -1;
  for (const Range &range : ranges.seen)
    if (range.first == 0)
      slowThread = range.thread;
  ASSERT_NE(slowThread, -1);
  int64_t ofFirstShareByOthers = 0;
  for (const Range &range : ranges.seen)
    if (range.thread != slowThread && range.last <= n / 2)
      ofFirstShareByOthers += range.last - range.first;
  EXPECT_GT(ofFirstShareByOthers, 0);
}

} // namespace
