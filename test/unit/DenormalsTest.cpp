// The floating-point modes steps run in (tfc/Runtime/Denormals.h): subnormal
// results and operands are zeros inside a FlushDenormals scope and on every
// thread of the kernels' parallel loops, as in TensorFlow; the modes the
// threads had come back after.

#include "tfc/Runtime/Denormals.h"
#include "tfc/Runtime/tfc_runtime.h"

#include "gtest/gtest.h"

#include <atomic>
#include <chrono>
#include <omp.h>
#include <thread>

namespace {

// Read through volatile so that the compiler computes nothing in advance.
volatile float tiny = 1e-30f, small = 1e-10f, subnormal = 1e-39f, huge = 1e38f;

/// Whether this thread flushes: a subnormal product comes out 0 and a
/// subnormal operand reads as 0.
bool flushes() {
  float product = tiny * small;
  float scaled = subnormal * huge;
  return product == 0.0f && scaled == 0.0f;
}

/// Whether this thread keeps subnormals (the default modes).
bool keepsSubnormals() {
  float product = tiny * small;
  float scaled = subnormal * huge;
  return product > 0.0f && scaled > 0.09f;
}

TEST(DenormalsTest, FlushedWithinTheScopeOnly) {
  ASSERT_TRUE(keepsSubnormals());
  {
    tfc::FlushDenormals flush;
    EXPECT_TRUE(flushes());
    {
      // A scope within one changes nothing, at its end either.
      tfc::FlushDenormals inner;
      EXPECT_TRUE(flushes());
    }
    EXPECT_TRUE(flushes());
  }
  EXPECT_TRUE(keepsSubnormals());
}

TEST(DenormalsTest, ParallelLoopsFlushOnEveryThread) {
  tfc_runtime_options options{};
  options.threads = 2;
  tfc_runtime *runtime = tfc_runtime_create(&options);
  ASSERT_NE(runtime, nullptr);
  // OpenMP's team started in the default modes, as an application's
  // would be before it calls a step: its threads keep them.
  std::atomic<int> keeping{0};
#pragma omp parallel num_threads(2)
  if (keepsSubnormals())
    ++keeping;
  ASSERT_EQ(keeping.load(), 2);

  // A loop worth both threads: every part flushes, on both threads. A
  // thread done with its share takes the other's chunks (ParallelForTest),
  // so each part waits (5 s at most) for both threads to have begun one.
  struct Seen {
    std::atomic<int> parts{0}, flushing{0}, threadMask{0};
  } seen;
  tfc_parallel_for(
      runtime,
      [](void *captures, int64_t, int64_t) {
        auto *seen = static_cast<Seen *>(captures);
        ++seen->parts;
        if (flushes())
          ++seen->flushing;
        seen->threadMask |= 1 << omp_get_thread_num();
        auto deadline =
            std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (seen->threadMask.load() != 3 &&
               std::chrono::steady_clock::now() < deadline)
          std::this_thread::yield();
      },
      &seen, /*n=*/1 << 20, /*bytes_loaded=*/64, /*bytes_stored=*/64,
      /*cycles=*/1000);
  EXPECT_GE(seen.parts.load(), 2);
  EXPECT_EQ(seen.flushing.load(), seen.parts.load());
  EXPECT_EQ(seen.threadMask.load(), 3);

  // The caller and the team are back in their own modes.
  EXPECT_TRUE(keepsSubnormals());
  keeping = 0;
#pragma omp parallel num_threads(2)
  if (keepsSubnormals())
    ++keeping;
  EXPECT_EQ(keeping.load(), 2);
  tfc_runtime_destroy(runtime);
}

} // namespace
