//===- KernelTest.cpp - CPU kernels against the reference kernels ---------===//

#include "tfc/Runtime/tfc_runtime.h"

#include "../../runtime/kernels/cpu/Reference.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>
#include <vector>

namespace {

std::vector<float> randomVector(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(rng);
  return v;
}

class KernelTest : public ::testing::TestWithParam<int> {
protected:
  void SetUp() override { runtime = tfc_runtime_create(GetParam()); }
  void TearDown() override { tfc_runtime_destroy(runtime); }
  tfc_runtime *runtime = nullptr;
};

TEST_P(KernelTest, MatMulMatchesReference) {
  // Shapes around the tile sizes, degenerate ones, and each transpose.
  const int64_t shapes[][3] = {{1, 1, 1}, {1, 784, 10}, {7, 13, 5},
                               {64, 64, 64}, {33, 129, 65}, {0, 4, 3},
                               {3, 0, 4}};
  for (auto [m, k, n] : shapes)
    for (int ta = 0; ta < 2; ++ta)
      for (int tb = 0; tb < 2; ++tb) {
        std::vector<float> a = randomVector(m * k, 1), b = randomVector(k * n, 2);
        std::vector<float> got(m * n, 42.f), want(m * n);
        tfc_cpu_matmul_f32(runtime, a.data(), b.data(), got.data(), m, k, n,
                           ta, tb);
        tfc::reference::matmul(a.data(), b.data(), want.data(), m, k, n, ta, tb);
        for (int64_t i = 0; i < m * n; ++i)
          ASSERT_NEAR(got[i], want[i], 1e-5f * (1 + std::sqrt(float(k))))
              << "m=" << m << " k=" << k << " n=" << n << " ta=" << ta
              << " tb=" << tb << " at " << i;
      }
}

TEST_P(KernelTest, SoftmaxMatchesReference) {
  const int64_t shapes[][2] = {{1, 1}, {2, 4}, {37, 1000}, {0, 5}, {3, 0}};
  for (auto [rows, cols] : shapes) {
    std::vector<float> in = randomVector(rows * cols, 3);
    for (float &x : in)
      x *= 30.f; // Large logits: the max subtraction matters.
    std::vector<float> got(rows * cols), want(rows * cols);
    tfc_cpu_softmax_f32(runtime, in.data(), got.data(), rows, cols);
    tfc::reference::softmax(in.data(), want.data(), rows, cols);
    for (int64_t i = 0; i < rows * cols; ++i)
      ASSERT_NEAR(got[i], want[i], 1e-6f) << rows << "x" << cols << " at " << i;
  }
  // Rows holding +inf or NaN: the special positions are NaN. (TensorFlow's
  // oneDNN kernel gives [0, nan] and [nan, 0] for these rows, where this
  // kernel gives NaN throughout; matching it belongs to the op-level tests
  // against TensorFlow.)
  float special[] = {1.f, INFINITY, NAN, 0.f};
  float out[4];
  tfc_cpu_softmax_f32(runtime, special, out, 2, 2);
  EXPECT_TRUE(std::isnan(out[1]));
  EXPECT_TRUE(std::isnan(out[2]));
}

INSTANTIATE_TEST_SUITE_P(Threads, KernelTest, ::testing::Values(1, 2));

TEST(RuntimeTest, ArenasAreAligned) {
  for (int64_t alignment : {16, 64, 4096}) {
    void *arena = tfc_arena_alloc(1000, alignment);
    ASSERT_NE(arena, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(arena) % alignment, 0u);
    tfc_arena_free(arena);
  }
  EXPECT_EQ(tfc_arena_alloc(64, 3), nullptr);
  void *empty = tfc_arena_alloc(0, 64);
  EXPECT_NE(empty, nullptr);
  tfc_arena_free(empty);
  tfc_runtime *runtime = tfc_runtime_create(0);
  EXPECT_GE(tfc_runtime_threads(runtime), 1);
  tfc_runtime_destroy(runtime);
}

} // namespace
