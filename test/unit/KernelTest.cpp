//===- KernelTest.cpp - CPU kernels against the reference kernels ---------===//

#include "tfc/Runtime/tfc_runtime.h"

#include "../../runtime/kernels/cpu/Attention.h"
#include "../../runtime/kernels/cpu/FewChannelConv.h"
#include "../../runtime/kernels/cpu/Reference.h"
#include "../../runtime/kernels/cpu/Winograd.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <thread>
#include <array>
#include <atomic>
#include <complex>
#include <cstring>
#include <functional>
#include <memory>
#include <cmath>
#include <random>
#include <string>
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

/// An epilogue's activation (enum tfc_activation) of one value, written
/// out here rather than taken from the kernels' vector math under test.
float activate(float v, int64_t kind) {
  switch (kind) {
  case TFC_ACTIVATION_RELU:
    return std::max(v, 0.f);
  case TFC_ACTIVATION_RELU6:
    return std::min(std::max(v, 0.f), 6.f);
  case TFC_ACTIVATION_SWISH:
    return v / (1.f + std::exp(-v));
  case TFC_ACTIVATION_HARD_SWISH:
    return v * (std::min(std::max(v + 3.f, 0.f), 6.f) / 6.f);
  case TFC_ACTIVATION_GELU:
    return float(0.5 * v * std::erfc(-v / std::sqrt(2.0)));
  default:
    return v;
  }
}

tfc_runtime *runtimeWithThreads(int32_t threads) {
  tfc_runtime_options options = {};
  options.threads = threads;
  return tfc_runtime_create(&options);
}

class KernelTest : public ::testing::TestWithParam<int> {
protected:
  void SetUp() override { runtime = runtimeWithThreads(GetParam()); }
  void TearDown() override {
    tfc_runtime_destroy(runtime);
    if (three)
      tfc_runtime_destroy(three);
  }
  /// The fixture's runtime and, with two threads, one of three too: its
  /// threads' shares of a loop end elsewhere, and on two cores a thread
  /// done early takes over chunks of another's share (Parallel.h), which
  /// a kernel that carries rows from one chunk of a thread to its next
  /// must notice.
  std::vector<tfc_runtime *> runtimesWithThree() {
    if (GetParam() != 2)
      return {runtime};
    if (!three)
      three = runtimeWithThreads(3);
    return {runtime, three};
  }
  tfc_runtime *runtime = nullptr;
  tfc_runtime *three = nullptr;
};

TEST_P(KernelTest, MatMulMatchesReference) {
  // Shapes around the tile sizes, degenerate ones, and each transpose;
  // each of the kernel's routes: tiny products and matrix-vector products
  // of a small matrix (Eigen), matrix-vector products of a larger one
  // (sgemm with two threads, one row or one column), two rows and more
  // (sgemm); B's rows a multiple of 2 KiB apart under 32 rows of A
  // (read in place) and from 32 (copied with longer rows; transposed, its
  // rows are k long).
  const int64_t shapes[][3] = {{1, 1, 1},       {1, 784, 10},  {7, 13, 5},
                               {16, 32, 16},    {2, 64, 200},  {1, 784, 256},
                               {300, 300, 1},   {1, 512, 512}, {4, 512, 512},
                               {64, 64, 64},    {33, 129, 65}, {0, 4, 3},
                               {3, 0, 4},       {20, 1024, 1024},
                               {24, 48, 2048},  {40, 96, 512},
                               {36, 512, 64}};
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

// Tests LRN against its definition computed directly (each window summed
// anew, in double, and raised with pow), for betas with and without the
// kernel's special forms and windows wider than the row.
TEST_P(KernelTest, LocalResponseNormMatchesDefinition) {
  struct Case {
    int64_t rows, depth, radius;
    double bias, alpha, beta;
  } cases[] = {{37, 16, 5, 1.0, 1.0, 0.5},  {5, 64, 2, 2.0, 1e-4, 0.75},
               {3, 7, 1, 1.0, 0.5, 1.0},    {4, 3, 8, 0.5, 0.1, 2.0},
               {2, 1, 2, 1.0, 1.0, 0.5},    {3, 9, 0, 1.0, 3.0, 0.25},
               {0, 4, 2, 1.0, 1.0, 0.5}};
  for (const Case &c : cases) {
    std::vector<float> in = randomVector(c.rows * c.depth, 11);
    for (float &x : in)
      x *= 3.f;
    std::vector<float> got(in.size());
    tfc_lrn_params params = {c.rows, c.depth, c.radius, c.bias, c.alpha, c.beta};
    tfc_cpu_lrn_f32(runtime, in.data(), got.data(), &params);
    for (int64_t r = 0; r < c.rows; ++r)
      for (int64_t d = 0; d < c.depth; ++d) {
        double sum = 0;
        for (int64_t k = std::max<int64_t>(0, d - c.radius);
             k <= std::min(c.depth - 1, d + c.radius); ++k)
          sum += double(in[r * c.depth + k]) * in[r * c.depth + k];
        double want =
            in[r * c.depth + d] / std::pow(c.bias + c.alpha * sum, c.beta);
        ASSERT_NEAR(got[r * c.depth + d], want, 1e-6 + 1e-6 * std::abs(want))
            << "depth " << c.depth << " radius " << c.radius << " beta "
            << c.beta << " at " << r << "," << d;
      }
  }
}

/// The discrete Fourier transform by its definition, in double: X[k] =
/// sum over n of x[n] e^(-+2 pi i k.n / N) on a [d0, d1, d2] array (each
/// dimension of N points), divided by the points when inverse.
std::vector<std::complex<double>>
dft3(const std::vector<std::complex<double>> &x, const int64_t dims[3],
     bool inverse) {
  std::vector<std::complex<double>> out(x.size());
  double sign = inverse ? 1 : -1, points = double(dims[0] * dims[1] * dims[2]);
  for (int64_t k0 = 0; k0 < dims[0]; ++k0)
    for (int64_t k1 = 0; k1 < dims[1]; ++k1)
      for (int64_t k2 = 0; k2 < dims[2]; ++k2) {
        std::complex<double> sum = 0;
        for (int64_t n0 = 0; n0 < dims[0]; ++n0)
          for (int64_t n1 = 0; n1 < dims[1]; ++n1)
            for (int64_t n2 = 0; n2 < dims[2]; ++n2) {
              double phase = double(k0 * n0) / dims[0] +
                             double(k1 * n1) / dims[1] + double(k2 * n2) / dims[2];
              sum += x[(n0 * dims[1] + n1) * dims[2] + n2] *
                     std::polar(1.0, sign * 2 * M_PI * phase);
            }
        out[(k0 * dims[1] + k1) * dims[2] + k2] = inverse ? sum / points : sum;
      }
  return out;
}

TEST_P(KernelTest, FourierTransformsMatchDefinition) {
  // Complex transforms of 1 to 3 dimensions (prime, odd, even lengths),
  // forward and inverse, on a batch of 2.
  const int64_t shapes[][3] = {{1, 1, 7}, {1, 4, 6}, {3, 5, 2}, {1, 1, 1}};
  for (const auto &dims : shapes)
    for (int64_t kind : {0, 1}) {
      int64_t size = dims[0] * dims[1] * dims[2], batch = 2;
      std::vector<float> parts = randomVector(2 * size * batch, 12);
      std::vector<std::complex<float>> got(size * batch);
      tfc_fourier_params params = {batch, kind, TFC_COMPLEX64,
                                   {dims[0], dims[1], dims[2]},
                                   {dims[0], dims[1], dims[2]},
                                   {dims[0], dims[1], dims[2]}};
      tfc_cpu_fourier(runtime, parts.data(), got.data(), &params);
      for (int64_t b = 0; b < batch; ++b) {
        std::vector<std::complex<double>> x(size);
        for (int64_t i = 0; i < size; ++i)
          x[i] = {parts[2 * (b * size + i)], parts[2 * (b * size + i) + 1]};
        std::vector<std::complex<double>> want = dft3(x, dims, kind == 1);
        for (int64_t i = 0; i < size; ++i)
          ASSERT_LT(std::abs(std::complex<double>(got[b * size + i]) - want[i]),
                    1e-5 * (1 + std::abs(want[i])))
              << "kind " << kind << " dims " << dims[0] << "x" << dims[1]
              << "x" << dims[2] << " at " << b << "," << i;
      }
    }
}

TEST_P(KernelTest, RealFourierTransformsCropPadAndKeepHalf) {
  // RFFT of 5 real points padded to 8 (and cropped to 3): the first
  // half + 1 points of the padded signal's DFT. IRFFT of a [2, 3] half
  // spectrum to [2, 4] points: the real part of the inverse DFT of the
  // Hermitian spectrum the half stands for (imaginary parts at 0 and at
  // the Nyquist point dropped).
  std::vector<float> signal = randomVector(5, 13);
  for (int64_t length : {8, 3}) {
    int64_t kept = length / 2 + 1;
    std::vector<std::complex<float>> got(kept);
    tfc_fourier_params params = {1, 2, TFC_COMPLEX64, {1, 1, 5}, {1, 1, kept},
                                 {1, 1, length}};
    tfc_cpu_fourier(runtime, signal.data(), got.data(), &params);
    std::vector<std::complex<double>> x(length);
    for (int64_t i = 0; i < std::min<int64_t>(length, 5); ++i)
      x[i] = signal[i];
    int64_t dims[3] = {1, 1, length};
    std::vector<std::complex<double>> want = dft3(x, dims, false);
    for (int64_t k = 0; k < kept; ++k)
      EXPECT_LT(std::abs(std::complex<double>(got[k]) - want[k]), 1e-5)
          << "length " << length << " at " << k;
  }
  std::vector<float> half = randomVector(2 * 2 * 3, 14);
  std::vector<float> got(2 * 4);
  tfc_fourier_params params = {1, 3, TFC_COMPLEX64, {1, 2, 3}, {1, 2, 4},
                               {1, 2, 4}};
  tfc_cpu_fourier(runtime, half.data(), got.data(), &params);
  std::vector<std::complex<double>> full(2 * 4);
  auto at = [&](int64_t r, int64_t c) {
    return std::complex<double>(half[2 * (r * 3 + c)], half[2 * (r * 3 + c) + 1]);
  };
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t c = 0; c < 4; ++c)
      full[r * 4 + c] = c < 3 ? at(r, c) : std::conj(at((2 - r) % 2, 4 - c));
  // The Hermitian completion of a half whose bins 0 and 2 are not real:
  // its inverse's real part is the transform of the completion with those
  // bins' imaginary parts dropped, which is Hermitian.
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t c : {0, 2}) {
      std::complex<double> &bin = full[r * 4 + c];
      std::complex<double> &mirror = full[((2 - r) % 2) * 4 + c];
      double re = (bin.real() + mirror.real()) / 2, im = (bin.imag() - mirror.imag()) / 2;
      bin = {re, im};
      mirror = {re, -im};
    }
  int64_t dims[3] = {1, 2, 4};
  std::vector<std::complex<double>> want = dft3(full, dims, true);
  for (int64_t i = 0; i < 8; ++i) {
    EXPECT_NEAR(want[i].imag(), 0.0, 1e-9) << "not Hermitian at " << i;
    EXPECT_NEAR(got[i], want[i].real(), 1e-5) << "at " << i;
  }
}

TEST_P(KernelTest, StridedMatMulCoversBatchBroadcastAndTranspose) {
  // C[2,3][m=4,n=5] = A[2,3][4,6] x B[6,5] broadcast over the batch, with
  // A transposed in memory ([2,3,6,4]).
  const int64_t m = 4, n = 5, k = 6;
  std::vector<float> a = randomVector(2 * 3 * k * m, 9), b = randomVector(k * n, 10);
  std::vector<float> got(2 * 3 * m * n), want(m * n);
  const int64_t descriptor[] = {2, 2, 3,           // batch rank 2: [2, 3]
                                3 * k * m, k * m,  // A batch strides
                                0, 0,              // B broadcast
                                3 * m * n, m * n,  // C batch strides
                                m, n, k,
                                1, m,              // A: m stride 1, k stride m
                                n, 1,              // B: row-major
                                n, 1};             // C: row-major
  tfc_cpu_strided_matmul_f32(runtime, a.data(), b.data(), got.data(), descriptor);
  for (int64_t batch = 0; batch < 6; ++batch) {
    tfc::reference::matmul(a.data() + batch * k * m, b.data(), want.data(), m,
                           k, n, /*transposeA=*/true, false);
    for (int64_t i = 0; i < m * n; ++i)
      ASSERT_NEAR(got[batch * m * n + i], want[i], 1e-5f) << batch << " " << i;
  }
}

TEST_P(KernelTest, StridedMatMulOfBatchesThatAreRowsIsOneProduct) {
  // C[2,3][m=5,n=7] = A[2,3][5,9] x B broadcast, A and C dense: the batches
  // are more rows of one product (batchesAreRows). B row-major, then
  // stored transposed ([n, k]).
  const int64_t m = 5, n = 7, k = 9;
  std::vector<float> a = randomVector(6 * m * k, 15), b = randomVector(k * n, 16);
  for (bool transposeB : {false, true}) {
    std::vector<float> got(6 * m * n, -7.f), want(6 * m * n);
    const int64_t descriptor[] = {2, 2, 3,
                                  3 * m * k, m * k, // A batch strides
                                  0, 0,             // B broadcast
                                  3 * m * n, m * n, // C batch strides
                                  m, n, k,
                                  k, 1,                                  // A
                                  transposeB ? 1 : n, transposeB ? k : 1, // B
                                  n, 1};                                 // C
    tfc_cpu_strided_matmul_f32(runtime, a.data(), b.data(), got.data(), descriptor);
    tfc::reference::matmul(a.data(), b.data(), want.data(), 6 * m, k, n, false,
                           transposeB);
    for (int64_t i = 0; i < 6 * m * n; ++i)
      ASSERT_NEAR(got[i], want[i], 1e-4f) << transposeB << " " << i;
  }
}

TEST_P(KernelTest, StridedMatMulOfOneLargeProductWithGappedOperands) {
  // One product large enough to be split across threads: A is the left
  // half of a [m, 2k] matrix, B is stored transposed ([n, k]), C is the left
  // half of a [m, 2n] matrix whose right half must stay untouched.
  const int64_t m = 128, n = 96, k = 128;
  std::vector<float> a = randomVector(m * 2 * k, 11), b = randomVector(n * k, 12);
  std::vector<float> got(m * 2 * n, -7.f), want(m * n), denseA(m * k);
  const int64_t descriptor[] = {0, m, n, k, 2 * k, 1, 1, k, 2 * n, 1};
  tfc_cpu_strided_matmul_f32(runtime, a.data(), b.data(), got.data(), descriptor);
  for (int64_t r = 0; r < m; ++r)
    for (int64_t q = 0; q < k; ++q)
      denseA[r * k + q] = a[r * 2 * k + q];
  tfc::reference::matmul(denseA.data(), b.data(), want.data(), m, k, n, false,
                         /*transposeB=*/true);
  for (int64_t r = 0; r < m; ++r)
    for (int64_t q = 0; q < n; ++q) {
      ASSERT_NEAR(got[r * 2 * n + q], want[r * n + q], 1e-4f) << r << " " << q;
      ASSERT_EQ(got[r * 2 * n + n + q], -7.f) << r << " " << q;
    }
}

TEST_P(KernelTest, AttentionEqualsItsProductsAndSoftmax) {
  // Keras' multi-head attention layout: Q [b, t, heads, h], K and V
  // [b, s, heads, h], scores [b, heads, t, s], context [b, t, heads, h].
  // 70 rows (two blocks of the kernel, a last one of 6: with AVX-512,
  // eight rows of heads this narrow at a time, then four and two), 37 keys
  // (not a multiple of a vector), with a scale and without. Heads 20 wide
  // (not whole vectors: the context goes through the kernel's buffer) and
  // 32 wide (whole vectors: written in place where the rule says so),
  // their rows interleaved, read and written in place and copied.
  const int64_t b = 2, t = 70, s = 37, heads = 3;
  for (int64_t h : {20, 32}) {
    std::vector<float> q = randomVector(b * t * heads * h, 21),
                       k = randomVector(b * s * heads * h, 22),
                       v = randomVector(b * s * heads * h, 23);
    // clang-format off
    const int64_t scores[] = {2, b, heads,
                              t * heads * h, h,     // Q's batch strides
                              s * heads * h, h,     // K's
                              heads * t * s, t * s, // the scores'
                              t, s, h,
                              heads * h, 1,         // Q: rows, depth
                              1, heads * h,         // K: depth, keys
                              s, 1};                // scores: rows, keys
    const int64_t context[] = {2, b, heads,
                               heads * t * s, t * s, // the scores'
                               s * heads * h, h,     // V's
                               t * heads * h, h,     // the context's
                               t, h, s,
                               s, 1,                 // scores: rows, keys
                               heads * h, 1,         // V: keys, width
                               heads * h, 1};        // context: rows, width
    // clang-format on
    for (float scale : {0.25f, 1.f}) {
      std::vector<float> logits(b * heads * t * s), weights(b * heads * t * s);
      std::vector<float> want(b * t * heads * h), got(want.size(), 42.f);
      tfc_cpu_strided_matmul_f32(runtime, q.data(), k.data(), logits.data(),
                                 scores);
      for (float &x : logits)
        x *= scale;
      tfc_cpu_softmax_f32(runtime, logits.data(), weights.data(), b * heads * t,
                          s);
      tfc_cpu_strided_matmul_f32(runtime, weights.data(), v.data(), want.data(),
                                 context);
      for (bool inPlace : {false, true}) {
        std::fill(got.begin(), got.end(), 42.f);
        tfc::attention::run(runtime, q.data(), k.data(), v.data(),
                            scale == 1.f ? nullptr : &scale, got.data(), scores,
                            context, inPlace);
        for (size_t i = 0; i < want.size(); ++i)
          ASSERT_NEAR(got[i], want[i], 1e-5f)
              << "h " << h << " scale " << scale << " in place " << inPlace
              << " at " << i;
      }
    }
  }
  const int64_t h = 20; // the depth of Q and K below
  // BatchMatMul's layout (scores = Q Kᵀ by adj_y, [b, t, s]; V [b, s, w]):
  // each batch's operands dense. The context's rows fill whole vectors
  // here, so the kernel writes them in place (the 20-wide heads above
  // go through its buffer).
  const int64_t w = 32;
  std::vector<float> q2 = randomVector(b * t * h, 24), k2 = randomVector(b * s * h, 25),
                     v2 = randomVector(b * s * w, 26);
  const int64_t bmmScores[] = {1, b, t * h, s * h, t * s, t, s, h, h, 1, 1, h, s, 1};
  const int64_t bmmContext[] = {1, b, t * s, s * w, t * w, t, w, s, s, 1, w, 1, w, 1};
  std::vector<float> logits2(b * t * s), weights2(b * t * s), want2(b * t * w),
      got2(want2.size(), 42.f);
  tfc_cpu_strided_matmul_f32(runtime, q2.data(), k2.data(), logits2.data(), bmmScores);
  tfc_cpu_softmax_f32(runtime, logits2.data(), weights2.data(), b * t, s);
  tfc_cpu_strided_matmul_f32(runtime, weights2.data(), v2.data(), want2.data(), bmmContext);
  tfc_cpu_attention_f32(runtime, q2.data(), k2.data(), v2.data(), nullptr,
                        got2.data(), bmmScores, bmmContext);
  for (size_t i = 0; i < want2.size(); ++i)
    ASSERT_NEAR(got2[i], want2[i], 1e-5f) << "BatchMatMul layout at " << i;
  // The same with Q and V stored transposed ([b, h, t] and [b, w, s], by
  // adj_x and a transposed V): rows copied with strides, a float at a time
  // (Q's, which are read in place above).
  std::vector<float> q3(q2.size()), v3(v2.size()), got3(want2.size(), 42.f);
  for (int64_t i = 0; i < b; ++i) {
    for (int64_t r = 0; r < t; ++r)
      for (int64_t d = 0; d < h; ++d)
        q3[(i * h + d) * t + r] = q2[(i * t + r) * h + d];
    for (int64_t key = 0; key < s; ++key)
      for (int64_t col = 0; col < w; ++col)
        v3[(i * w + col) * s + key] = v2[(i * s + key) * w + col];
  }
  const int64_t stridedScores[] = {1, b, t * h, s * h, t * s, t, s, h, 1, t, 1, h, s, 1};
  const int64_t stridedContext[] = {1, b, t * s, s * w, t * w, t, w, s, s, 1, 1, s, w, 1};
  tfc_cpu_attention_f32(runtime, q3.data(), k2.data(), v3.data(), nullptr,
                        got3.data(), stridedScores, stridedContext);
  for (size_t i = 0; i < want2.size(); ++i)
    ASSERT_NEAR(got3[i], want2[i], 1e-5f) << "transposed Q and V at " << i;
  // No keys: each row's context is an empty sum.
  const int64_t noKeys[] = {0, 3, 0, 2, 2, 1, 1, 2, 0, 1};
  const int64_t emptyContext[] = {0, 3, 2, 0, 0, 1, 2, 1, 2, 1};
  std::vector<float> zeros(3 * 2, 42.f);
  tfc_cpu_attention_f32(runtime, q2.data(), k2.data(), v2.data(), nullptr,
                        zeros.data(), noKeys, emptyContext);
  for (float x : zeros)
    ASSERT_EQ(x, 0.f);
}

/// Output size of a window, and the top/left padding, as TensorFlow
/// computes them for SAME and VALID.
std::pair<int64_t, int64_t> window(bool same, int64_t in, int64_t k,
                                   int64_t stride, int64_t dilation) {
  int64_t effective = (k - 1) * dilation + 1;
  if (!same)
    return {(in - effective) / stride + 1, 0};
  int64_t out = (in + stride - 1) / stride;
  int64_t total = std::max<int64_t>(0, (out - 1) * stride + effective - in);
  return {out, total / 2};
}

/// A strided 1x1 convolution with explicit padding after the image: its
/// last output row and column read only padding (bias alone), so it is
/// not one whose pixels can be gathered (OneDnnConv.cpp).
/// A concatenation row by row: each output row is the pieces' rows in
/// order, whole vectors, partial ones and pieces of fewer floats than a
/// vector alike; nothing past the output is written.
TEST_P(KernelTest, ConcatRowsCopiesEachPiecesRows) {
  const int64_t rows = 37;
  const std::vector<int64_t> widths = {44, 3, 17, 16, 1, 40};
  std::vector<std::vector<float>> pieces;
  std::vector<const float *> pointers;
  int64_t width = 0;
  for (size_t i = 0; i < widths.size(); ++i) {
    pieces.push_back(randomVector(rows * widths[i], 40 + unsigned(i)));
    pointers.push_back(pieces.back().data());
    width += widths[i];
  }
  std::vector<float> out(rows * width + 3, 7.f);
  tfc_cpu_concat_rows_f32(runtime, pointers.data(), widths.data(), out.data(),
                          int64_t(widths.size()), rows, width);
  for (int64_t r = 0; r < rows; ++r) {
    int64_t at = r * width;
    for (size_t i = 0; i < widths.size(); ++i)
      for (int64_t j = 0; j < widths[i]; ++j, ++at)
        ASSERT_EQ(out[at], pieces[i][r * widths[i] + j])
            << "row " << r << " piece " << i << " float " << j;
  }
  for (int64_t k = 0; k < 3; ++k)
    EXPECT_EQ(out[rows * width + k], 7.f) << "written past the output";
}

/// A concatenation planned in place: a null piece is already in its part
/// of the output and stays as it is; the output's rows are a part of
/// wider rows (a window of a wider concatenation), and the floats between
/// them stay as they are too.
TEST_P(KernelTest, ConcatRowsSkipsPiecesInPlaceAndStridesRows) {
  const int64_t rows = 29, stride = 70;
  const std::vector<int64_t> widths = {40, 17, 3};
  std::vector<std::vector<float>> pieces;
  std::vector<const float *> pointers;
  for (size_t i = 0; i < widths.size(); ++i) {
    pieces.push_back(randomVector(rows * widths[i], 60 + unsigned(i)));
    pointers.push_back(i == 0 ? nullptr : pieces.back().data());
  }
  std::vector<float> out = randomVector(rows * stride, 63);
  const std::vector<float> before = out;
  tfc_cpu_concat_rows_f32(runtime, pointers.data(), widths.data(), out.data(),
                          int64_t(widths.size()), rows, stride);
  for (int64_t r = 0; r < rows; ++r) {
    int64_t at = r * stride;
    for (size_t i = 0; i < widths.size(); ++i)
      for (int64_t j = 0; j < widths[i]; ++j, ++at)
        ASSERT_EQ(out[at], i == 0 ? before[at] : pieces[i][r * widths[i] + j])
            << "row " << r << " piece " << i << " float " << j;
    for (; at < (r + 1) * stride; ++at)
      ASSERT_EQ(out[at], before[at]) << "written between rows at " << at;
  }
}

TEST_P(KernelTest, StridedPointwiseConvolutionWithPaddingAfter) {
  const int64_t n = 1, h = 5, w = 5, c = 3, oc = 4, oh = 4, ow = 4;
  std::vector<float> in = randomVector(n * h * w * c, 13);
  std::vector<float> filter = randomVector(c * oc, 14);
  std::vector<float> bias = randomVector(oc, 15);
  std::vector<float> got(n * oh * ow * oc), want(got.size());
  static tfc_conv2d_params params = {n, h, w, c, 1, 1, oc, oh, ow, 2, 2,
                                     1, 1, 0, 0, 0, 1, 0, 1, 0};
  tfc_cpu_conv2d_dnnl_f32(runtime, in.data(), filter.data(), bias.data(),
                          nullptr, got.data(), &params);
  tfc::reference::conv2d(in.data(), filter.data(), want.data(), n, h, w, c, 1,
                         1, oc, oh, ow, 2, 2, 1, 1, 0, 0);
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(got[i], want[i] + bias[i % oc], 1e-5f) << "at " << i;
}

TEST_P(KernelTest, ConvolutionsMatchReference) {
  struct Case {
    int64_t n, h, w, c, kh, kw, oc, stride, dilation;
    bool same;
  };
  const Case cases[] = {{1, 5, 5, 3, 3, 3, 4, 1, 1, true},
                        {2, 8, 7, 4, 3, 3, 8, 2, 1, true},
                        {1, 9, 9, 2, 3, 3, 5, 1, 2, false},
                        {2, 6, 6, 8, 1, 1, 16, 1, 1, false}, // Plain GEMM.
                        {1, 4, 4, 3, 5, 5, 2, 1, 1, true},   // Kernel > input.
                        {1, 7, 5, 2, 2, 3, 3, 3, 1, false},
                        // 1x1 convolutions (oneDNN's 1x1 kernels):
                        // strided (its pixels gathered first), output
                        // channels no multiple of 16, few pixels and many
                        // channels.
                        {2, 7, 7, 8, 1, 1, 40, 2, 1, true},
                        {1, 10, 11, 8, 1, 1, 12, 3, 1, false},
                        {3, 12, 12, 5, 1, 1, 37, 1, 1, false},
                        {1, 3, 3, 16, 1, 1, 100, 1, 1, false}};
  // Parameters outlive the calls: the kernel caches by address, as each
  // call site of a program has its own constant parameters.
  static std::vector<std::unique_ptr<tfc_conv2d_params>> tables;
  auto convTable = [&](tfc_conv2d_params values) {
    tables.push_back(std::make_unique<tfc_conv2d_params>(values));
    return tables.back().get();
  };
  for (const Case &t : cases) {
    auto [oh, pt] = window(t.same, t.h, t.kh, t.stride, t.dilation);
    auto [ow, pl] = window(t.same, t.w, t.kw, t.stride, t.dilation);
    std::vector<float> in = randomVector(t.n * t.h * t.w * t.c, 5);
    std::vector<float> filter = randomVector(t.kh * t.kw * t.c * t.oc, 6);
    std::vector<float> got(t.n * oh * ow * t.oc), want(got.size());
    tfc_cpu_conv2d_f32(runtime, in.data(), filter.data(), got.data(), t.n, t.h,
                       t.w, t.c, t.kh, t.kw, t.oc, oh, ow, t.stride, t.stride,
                       t.dilation, t.dilation, pt, pl);
    tfc::reference::conv2d(in.data(), filter.data(), want.data(), t.n, t.h, t.w,
                           t.c, t.kh, t.kw, t.oc, oh, ow, t.stride, t.stride,
                           t.dilation, t.dilation, pt, pl);
    for (size_t i = 0; i < got.size(); ++i)
      ASSERT_NEAR(got[i], want[i], 1e-5f) << "conv case h=" << t.h << " at " << i;

    // The same through oneDNN, with the filter constant and not, and with
    // each epilogue: bias, residual, ReLU / ReLU6 / swish / hard swish.
    std::vector<float> bias = randomVector(t.oc, 11);
    std::vector<float> residual = randomVector(got.size(), 12);
    for (int64_t constant : {0, 1})
      for (int64_t epilogue : {0, 1, 2, 3, 4, 5}) {
        // None; bias and ReLU; bias, residual and ReLU6; the residual
        // already in the output (accumulated in place) and ReLU; bias,
        // residual and swish; bias, residual and hard swish.
        bool hasBias = epilogue >= 1, hasResidual = epilogue >= 2;
        bool inPlace = epilogue == 3;
        int64_t activation = epilogue == 3   ? TFC_ACTIVATION_RELU
                             : epilogue == 4 ? TFC_ACTIVATION_SWISH
                             : epilogue == 5 ? TFC_ACTIVATION_HARD_SWISH
                                             : epilogue; // NONE, RELU, RELU6
        std::vector<float> dnnl(got.size());
        if (inPlace)
          dnnl = residual;
        tfc_cpu_conv2d_dnnl_f32(
            runtime, in.data(), filter.data(), hasBias ? bias.data() : nullptr,
            inPlace ? dnnl.data() : hasResidual ? residual.data() : nullptr,
            dnnl.data(),
            convTable({t.n, t.h, t.w, t.c, t.kh, t.kw, t.oc, oh, ow, t.stride,
                       t.stride, t.dilation, t.dilation, pt, pl, 0, constant,
                       activation, hasBias, inPlace ? 2 : hasResidual}));
        for (size_t i = 0; i < dnnl.size(); ++i) {
          float v = want[i] + (hasBias ? bias[i % t.oc] : 0.f) +
                    (hasResidual ? residual[i] : 0.f);
          ASSERT_NEAR(dnnl[i], activate(v, activation), 1e-4f)
              << "oneDNN conv h=" << t.h << " epilogue " << epilogue << " at " << i;
        }
      }

    // Depthwise with a multiplier of 2 on the same geometry.
    int64_t mult = 2;
    std::vector<float> dfilter = randomVector(t.kh * t.kw * t.c * mult, 7);
    std::vector<float> dgot(t.n * oh * ow * t.c * mult), dwant(dgot.size());
    tfc_cpu_depthwise_conv2d_f32(runtime, in.data(), dfilter.data(), dgot.data(),
                                 t.n, t.h, t.w, t.c, t.kh, t.kw, mult, oh, ow,
                                 t.stride, t.stride, t.dilation, t.dilation, pt, pl);
    tfc::reference::conv2d(in.data(), dfilter.data(), dwant.data(), t.n, t.h,
                           t.w, t.c, t.kh, t.kw, t.c * mult, oh, ow, t.stride,
                           t.stride, t.dilation, t.dilation, pt, pl, mult);
    for (size_t i = 0; i < dgot.size(); ++i)
      ASSERT_NEAR(dgot[i], dwant[i], 1e-5f) << "depthwise h=" << t.h << " at " << i;
    // Through oneDNN, without an epilogue, with swish and hard swish.
    for (int64_t activation : {TFC_ACTIVATION_NONE, TFC_ACTIVATION_SWISH,
                               TFC_ACTIVATION_HARD_SWISH}) {
      std::vector<float> ddnnl(dgot.size());
      tfc_cpu_conv2d_dnnl_f32(runtime, in.data(), dfilter.data(), nullptr, nullptr,
                              ddnnl.data(),
                              convTable({t.n, t.h, t.w, t.c, t.kh, t.kw, mult, oh,
                                         ow, t.stride, t.stride, t.dilation,
                                         t.dilation, pt, pl, 1, 1, activation, 0, 0}));
      for (size_t i = 0; i < ddnnl.size(); ++i) {
        ASSERT_NEAR(ddnnl[i], activate(dwant[i], activation), 1e-4f)
            << "oneDNN depthwise h=" << t.h << " activation " << activation << " at " << i;
      }
    }

    // Pooling with the same window (no dilation).
    if (t.dilation == 1)
      for (bool max : {true, false}) {
        std::vector<float> pgot(t.n * oh * ow * t.c), pwant(pgot.size());
        tfc_cpu_pool2d_f32(runtime, max ? 0 : 1, in.data(), pgot.data(), t.n,
                           t.h, t.w, t.c, t.kh, t.kw, oh, ow, t.stride,
                           t.stride, pt, pl);
        tfc::reference::pool2d(max, in.data(), pwant.data(), t.n, t.h, t.w,
                               t.c, t.kh, t.kw, oh, ow, t.stride, t.stride, pt, pl);
        for (size_t i = 0; i < pgot.size(); ++i)
          ASSERT_NEAR(pgot[i], pwant[i], 1e-6f) << (max ? "max" : "avg") << " at " << i;
      }
    // Max pooling whose padding is zeros (kind 2, a folded Pad): the
    // reference's max pooling, unpadded, of the input copied into zeros.
    if (t.dilation == 1) {
      int64_t ph = std::max((oh - 1) * t.stride + t.kh, t.h + pt);
      int64_t pw = std::max((ow - 1) * t.stride + t.kw, t.w + pl);
      std::vector<float> padded(t.n * ph * pw * t.c, 0.f);
      for (int64_t b = 0; b < t.n; ++b)
        for (int64_t y = 0; y < t.h; ++y)
          std::copy_n(in.data() + ((b * t.h + y) * t.w) * t.c, t.w * t.c,
                      padded.data() + ((b * ph + y + pt) * pw + pl) * t.c);
      std::vector<float> zgot(t.n * oh * ow * t.c), zwant(zgot.size());
      tfc_cpu_pool2d_f32(runtime, 2, in.data(), zgot.data(), t.n, t.h, t.w,
                         t.c, t.kh, t.kw, oh, ow, t.stride, t.stride, pt, pl);
      tfc::reference::pool2d(true, padded.data(), zwant.data(), t.n, ph, pw,
                             t.c, t.kh, t.kw, oh, ow, t.stride, t.stride, 0, 0);
      for (size_t i = 0; i < zgot.size(); ++i)
        ASSERT_EQ(zgot[i], zwant[i]) << "max over zero padding at " << i;
    }
  }
}

/// The convolution gradients are the adjoints of the convolution: for any
/// x, W and output gradient dy, sum(dy * conv(x, W)) equals
/// sum(x * backprop_input(W, dy)) and sum(W * backprop_filter(x, dy)).
/// Checked with the reference convolution for oneDNN's primitives and the
/// direct loops, which must also agree with each other; dilated geometries
/// too, which TensorFlow's CPU kernels (and so the op cases) do not cover.
TEST_P(KernelTest, ConvolutionGradientsAreAdjoints) {
  struct Case {
    int64_t n, h, w, c, kh, kw, oc, stride, dilation, multiplier;
    bool same;
  };
  const Case cases[] = {{2, 8, 7, 4, 3, 3, 8, 2, 1, 0, true},
                        {1, 9, 9, 2, 3, 3, 5, 1, 2, 0, false},
                        {2, 6, 6, 8, 1, 1, 16, 1, 1, 0, false},
                        {1, 7, 5, 2, 2, 3, 3, 3, 1, 0, false},
                        {2, 6, 5, 4, 3, 3, 0, 2, 1, 2, true}, // Depthwise.
                        {1, 8, 8, 3, 3, 3, 0, 1, 2, 1, true}};
  static std::vector<std::unique_ptr<tfc_conv2d_backprop_params>> tables;
  auto dot = [](const std::vector<float> &a, const std::vector<float> &b) {
    double sum = 0;
    for (size_t i = 0; i < a.size(); ++i)
      sum += double(a[i]) * double(b[i]);
    return sum;
  };
  for (const Case &t : cases) {
    auto [oh, pt] = window(t.same, t.h, t.kh, t.stride, t.dilation);
    auto [ow, pl] = window(t.same, t.w, t.kw, t.stride, t.dilation);
    bool depthwise = t.multiplier > 0;
    int64_t oc = depthwise ? t.c * t.multiplier : t.oc;
    int64_t filterColumns = depthwise ? t.multiplier : t.oc;
    std::vector<float> x = randomVector(t.n * t.h * t.w * t.c, 21);
    std::vector<float> filter = randomVector(t.kh * t.kw * t.c * filterColumns, 22);
    std::vector<float> dy = randomVector(t.n * oh * ow * oc, 23);
    std::vector<float> y(dy.size());
    tfc::reference::conv2d(x.data(), filter.data(), y.data(), t.n, t.h, t.w,
                           t.c, t.kh, t.kw, oc, oh, ow, t.stride, t.stride,
                           t.dilation, t.dilation, pt, pl, t.multiplier);
    double forward = dot(dy, y);
    std::vector<float> results[2][2]; // [direct][filter gradient]
    for (int direct : {0, 1})
      for (int filterGradient : {0, 1}) {
        tables.push_back(std::make_unique<tfc_conv2d_backprop_params>(
            tfc_conv2d_backprop_params{t.n, t.h, t.w, t.c, t.kh, t.kw,
                                       filterColumns, oh, ow, t.stride,
                                       t.stride, t.dilation, t.dilation, pt,
                                       pl, depthwise ? 1 : 0, filterGradient}));
        std::vector<float> &out = results[direct][filterGradient];
        out.assign(filterGradient ? filter.size() : x.size(), 42.f);
        auto *kernel = direct ? tfc_cpu_conv2d_backprop_direct_f32
                              : tfc_cpu_conv2d_backprop_f32;
        kernel(runtime, filterGradient ? x.data() : filter.data(), dy.data(),
               out.data(), tables.back().get());
        double adjoint = dot(filterGradient ? filter : x, out);
        EXPECT_NEAR(adjoint, forward, 1e-4 * (1 + std::abs(forward)))
            << "h=" << t.h << " direct=" << direct
            << " filter gradient=" << filterGradient;
      }
    for (int filterGradient : {0, 1})
      for (size_t i = 0; i < results[0][filterGradient].size(); ++i)
        ASSERT_NEAR(results[0][filterGradient][i], results[1][filterGradient][i],
                    1e-4f)
            << "h=" << t.h << " filter gradient=" << filterGradient << " at " << i;
  }
}

/// The dense kernel against the reference product and epilogue: every
/// activation, with and without a bias, with a residual read from its
/// buffer and accumulated in place, B transposed or not; on products
/// small enough for tfc_cpu_matmul_f32 and a loop, a matrix-vector
/// product, and larger ones (oneDNN's primitive, where it has a brgemm
/// kernel). Each call site (its parameters' address) is called twice with
/// other inputs, biases and residuals, and keeps its weights.
TEST_P(KernelTest, DenseLayersMatchReference) {
  const int64_t shapes[][3] = {{2, 8, 4}, {1, 784, 256}, {64, 96, 80},
                               {130, 256, 200}};
  // The call sites' parameters live as long as the kernel's cache of them.
  static std::vector<std::unique_ptr<tfc_dense_params>> sites;
  unsigned seed = 100;
  for (auto [m, k, n] : shapes)
    for (int64_t transposeB = 0; transposeB < 2; ++transposeB)
      for (int64_t activation = TFC_ACTIVATION_NONE;
           activation <= TFC_ACTIVATION_GELU; ++activation)
        for (int64_t residual = 0; residual < 3; ++residual) {
          int64_t hasBias = (activation + residual) % 2 == 0;
          sites.push_back(std::make_unique<tfc_dense_params>(tfc_dense_params{
              m, k, n, transposeB, activation, hasBias, residual}));
          const tfc_dense_params *params = sites.back().get();
          std::vector<float> weights = randomVector(k * n, ++seed);
          for (int call = 0; call < 2; ++call) {
            std::vector<float> a = randomVector(m * k, ++seed);
            std::vector<float> bias = randomVector(n, ++seed);
            std::vector<float> added = randomVector(m * n, ++seed);
            std::vector<float> want(m * n);
            tfc::reference::matmul(a.data(), weights.data(), want.data(), m, k,
                                   n, 0, int(transposeB));
            for (int64_t i = 0; i < m * n; ++i)
              want[i] = activate(want[i] + (hasBias ? bias[i % n] : 0.f) +
                                     (residual ? added[i] : 0.f),
                                 activation);
            // In place (2), the output holds the residual when called.
            std::vector<float> got = residual == 2 ? added
                                                   : std::vector<float>(m * n, 42.f);
            tfc_cpu_dense_f32(runtime, a.data(), weights.data(),
                              hasBias ? bias.data() : nullptr,
                              residual == 2   ? got.data()
                              : residual == 1 ? added.data()
                                              : nullptr,
                              got.data(), params);
            for (int64_t i = 0; i < m * n; ++i)
              ASSERT_NEAR(got[i], want[i],
                          1e-5f * (1 + std::sqrt(float(k))) * (1 + std::abs(want[i])))
                  << "m=" << m << " k=" << k << " n=" << n
                  << " transpose_b=" << transposeB << " activation=" << activation
                  << " residual=" << residual << " bias=" << hasBias
                  << " call " << call << " at " << i;
          }
        }
}

/// An expansion and its depthwise convolution (PointwiseDepthwise.cpp)
/// against the two reference convolutions: expanded channels in whole
/// vectors and not (20, 72: padded), 3x3 and 5x5 windows (their own
/// loops) and 7x1 (the general loop), strides 1 and 2, SAME padding
/// and a ZeroPadding2D's (1 before, 2 after), one image (in slices of
/// channels, or bands of rows when tall) and several, expansions small
/// enough to be expanded whole and larger ones (a ring of rows), each
/// activation, biases or none; two calls per site, with other inputs and
/// biases.
TEST_P(KernelTest, PointwiseDepthwiseMatchesReference) {
  struct Shape {
    int64_t n, h, w, c, expanded, kh, kw, stride, padTop, padLeft, padAfter;
  };
  const Shape shapes[] = {
      {1, 9, 11, 8, 32, 3, 3, 1, 1, 1, 1},   {3, 12, 10, 6, 20, 3, 3, 2, 0, 0, 1},
      {2, 16, 16, 24, 144, 5, 5, 2, 1, 1, 2}, {1, 14, 14, 40, 72, 5, 5, 1, 2, 2, 2},
      {2, 10, 7, 5, 48, 7, 1, 1, 3, 0, 3},    {1, 5, 6, 16, 64, 3, 3, 2, 1, 1, 1},
      // Expansions past the whole-image share (128K floats): through the
      // ring of rows; whole images, and one image in bands of rows.
      {2, 40, 40, 8, 96, 3, 3, 2, 1, 1, 1},   {1, 64, 40, 8, 64, 3, 3, 1, 1, 1, 1}};
  static std::vector<std::unique_ptr<tfc_pointwise_depthwise_params>> sites;
  unsigned seed = 300;
  for (const Shape &s : shapes)
    for (int64_t activation = TFC_ACTIVATION_NONE;
         activation <= TFC_ACTIVATION_HARD_SWISH; ++activation) {
      int64_t oh = (s.h + s.padTop + s.padAfter - s.kh) / s.stride + 1;
      int64_t padRight = s.kw == 1 ? 0 : s.padAfter;
      int64_t ow = (s.w + s.padLeft + padRight - s.kw) / s.stride + 1;
      int64_t pointwiseBias = activation % 2, depthwiseBias = activation != 2;
      // The depthwise's activation differs from the expansion's.
      int64_t depthwiseActivation = (activation + 2) % 5;
      sites.push_back(std::make_unique<tfc_pointwise_depthwise_params>(
          tfc_pointwise_depthwise_params{
              s.n, s.h, s.w, s.c, s.expanded, s.kh, s.kw, oh, ow, s.stride,
              s.stride, s.padTop, s.padLeft, pointwiseBias, activation,
              depthwiseBias, depthwiseActivation}));
      const tfc_pointwise_depthwise_params *params = sites.back().get();
      std::vector<float> pointwise = randomVector(s.c * s.expanded, ++seed);
      std::vector<float> depthwise =
          randomVector(s.kh * s.kw * s.expanded, ++seed);
      for (int call = 0; call < 2; ++call) {
        // The biases may change between calls (they may be fed).
        std::vector<float> bias1 = randomVector(s.expanded, ++seed);
        std::vector<float> bias2 = randomVector(s.expanded, ++seed);
        std::vector<float> in = randomVector(s.n * s.h * s.w * s.c, ++seed);
        std::vector<float> expanded(s.n * s.h * s.w * s.expanded);
        tfc::reference::conv2d(in.data(), pointwise.data(), expanded.data(),
                               s.n, s.h, s.w, s.c, 1, 1, s.expanded, s.h, s.w,
                               1, 1, 1, 1, 0, 0);
        for (size_t i = 0; i < expanded.size(); ++i)
          expanded[i] = activate(
              expanded[i] + (pointwiseBias ? bias1[i % s.expanded] : 0.f),
              activation);
        std::vector<float> want(s.n * oh * ow * s.expanded);
        tfc::reference::conv2d(expanded.data(), depthwise.data(), want.data(),
                               s.n, s.h, s.w, s.expanded, s.kh, s.kw,
                               s.expanded, oh, ow, s.stride, s.stride, 1, 1,
                               s.padTop, s.padLeft, /*multiplier=*/1);
        for (size_t i = 0; i < want.size(); ++i)
          want[i] = activate(
              want[i] + (depthwiseBias ? bias2[i % s.expanded] : 0.f),
              depthwiseActivation);
        std::vector<float> got(want.size(), 42.f);
        tfc_cpu_pointwise_depthwise_f32(
            runtime, in.data(), pointwise.data(),
            pointwiseBias ? bias1.data() : nullptr, depthwise.data(),
            depthwiseBias ? bias2.data() : nullptr, got.data(), params);
        for (size_t i = 0; i < want.size(); ++i)
          ASSERT_NEAR(got[i], want[i],
                      2e-5f * (1 + std::sqrt(float(s.c * s.kh * s.kw))) *
                          (1 + std::abs(want[i])))
              << "n=" << s.n << " h=" << s.h << " w=" << s.w << " c=" << s.c
              << " expanded=" << s.expanded << " window " << s.kh << "x"
              << s.kw << " stride " << s.stride << " activations "
              << activation << "," << depthwiseActivation << " call " << call
              << " at " << i;
      }
    }
}

/// A depthwise convolution and the 1x1 after it (DepthwisePointwise.cpp)
/// against the two reference convolutions: channels in whole vectors (the
/// input's rows read in place, windows at the edges checked tap by tap,
/// a ReLU before the depthwise applied as they are read; ReLU6 copies
/// them) and not (44, NASNet's: copies with the padding in memory), 3x3, 5x5
/// and 7x7 windows and 3x1 (the general loop), strides 1 and 2, rows of 3
/// to 40 output pixels,
/// SAME padding and none, one image (bands of rows, one per thread) and
/// several, images in one band and in several with a shorter last one
/// (two products); the input's activation, the depthwise's bias and
/// activation, the 1x1's bias, residual (none, read, in place) and
/// activation varied; two calls per site, with other inputs and biases.
TEST_P(KernelTest, DepthwisePointwiseMatchesReference) {
  struct Shape {
    int64_t n, h, w, c, outC, kh, kw, stride, padTop, padLeft, padAfter;
  };
  const Shape shapes[] = {
      {1, 9, 11, 16, 24, 3, 3, 1, 1, 1, 1},  {3, 12, 10, 44, 40, 3, 3, 2, 0, 0, 1},
      {2, 16, 16, 32, 64, 5, 5, 2, 1, 1, 2}, {1, 14, 14, 44, 44, 7, 7, 1, 3, 3, 3},
      {2, 10, 7, 20, 8, 3, 1, 1, 1, 0, 1},   {2, 19, 19, 200, 96, 3, 3, 1, 1, 1, 1},
      // Rows of fewer than 4 and 8 output pixels (padded rows' short
      // blocks), a 7x7 window at stride 2 (a NASNet reduction's).
      {2, 6, 6, 24, 20, 5, 5, 2, 2, 2, 2},   {1, 14, 14, 44, 88, 7, 7, 2, 2, 2, 3},
      // Past one band (64K floats): several bands, the last one shorter.
      {2, 40, 40, 64, 48, 3, 3, 1, 1, 1, 1}, {1, 45, 30, 72, 40, 3, 3, 1, 1, 1, 1}};
  static std::vector<std::unique_ptr<tfc_depthwise_pointwise_params>> sites;
  unsigned seed = 700;
  int variant = 0;
  for (const Shape &s : shapes)
    for (int64_t residual = 0; residual < 3; ++residual)
      for (int64_t inputActivation :
           {TFC_ACTIVATION_NONE, TFC_ACTIVATION_RELU, TFC_ACTIVATION_RELU6}) {
        ++variant;
        int64_t oh = (s.h + s.padTop + s.padAfter - s.kh) / s.stride + 1;
        int64_t padRight = s.kw == 1 ? 0 : s.padAfter;
        int64_t ow = (s.w + s.padLeft + padRight - s.kw) / s.stride + 1;
        int64_t depthwiseBias = variant % 2, pointwiseBias = variant % 3 != 0;
        int64_t depthwiseActivation = variant % 4 == 0 ? TFC_ACTIVATION_RELU6
                                                       : TFC_ACTIVATION_NONE;
        int64_t pointwiseActivation = variant % 5;
        sites.push_back(std::make_unique<tfc_depthwise_pointwise_params>(
            tfc_depthwise_pointwise_params{
                s.n, s.h, s.w, s.c, s.kh, s.kw, oh, ow, s.stride, s.stride,
                s.padTop, s.padLeft, inputActivation, depthwiseBias,
                depthwiseActivation, s.outC, pointwiseBias,
                pointwiseActivation, residual}));
        const tfc_depthwise_pointwise_params *params = sites.back().get();
        std::vector<float> depthwise = randomVector(s.kh * s.kw * s.c, ++seed);
        std::vector<float> pointwise = randomVector(s.c * s.outC, ++seed);
        for (int call = 0; call < 2; ++call) {
          std::vector<float> bias1 = randomVector(s.c, ++seed);
          std::vector<float> bias2 = randomVector(s.outC, ++seed);
          std::vector<float> in = randomVector(s.n * s.h * s.w * s.c, ++seed);
          std::vector<float> added = randomVector(s.n * oh * ow * s.outC, ++seed);
          std::vector<float> activated(in.size());
          for (size_t i = 0; i < in.size(); ++i)
            activated[i] = activate(in[i], inputActivation);
          std::vector<float> middle(s.n * oh * ow * s.c);
          tfc::reference::conv2d(activated.data(), depthwise.data(),
                                 middle.data(), s.n, s.h, s.w, s.c, s.kh, s.kw,
                                 s.c, oh, ow, s.stride, s.stride, 1, 1,
                                 s.padTop, s.padLeft, /*multiplier=*/1);
          for (size_t i = 0; i < middle.size(); ++i)
            middle[i] = activate(
                middle[i] + (depthwiseBias ? bias1[i % s.c] : 0.f),
                depthwiseActivation);
          std::vector<float> want(added.size());
          tfc::reference::conv2d(middle.data(), pointwise.data(), want.data(),
                                 s.n, oh, ow, s.c, 1, 1, s.outC, oh, ow, 1, 1,
                                 1, 1, 0, 0);
          for (size_t i = 0; i < want.size(); ++i)
            want[i] = activate(want[i] +
                                   (pointwiseBias ? bias2[i % s.outC] : 0.f) +
                                   (residual ? added[i] : 0.f),
                               pointwiseActivation);
          // In place (2), the output holds the residual when called.
          std::vector<float> got =
              residual == 2 ? added : std::vector<float>(want.size(), 42.f);
          tfc_cpu_depthwise_pointwise_f32(
              runtime, in.data(), depthwise.data(),
              depthwiseBias ? bias1.data() : nullptr, pointwise.data(),
              pointwiseBias ? bias2.data() : nullptr,
              residual == 2   ? got.data()
              : residual == 1 ? added.data()
                              : nullptr,
              got.data(), params);
          float scale = 2e-5f * (1 + std::sqrt(float(s.c * s.kh * s.kw)));
          for (size_t i = 0; i < want.size(); ++i)
            ASSERT_NEAR(got[i], want[i], scale * (1 + std::abs(want[i])))
                << "n=" << s.n << " h=" << s.h << " w=" << s.w << " c=" << s.c
                << " out_c=" << s.outC << " window " << s.kh << "x" << s.kw
                << " stride " << s.stride << " input activation "
                << inputActivation << " residual " << residual << " call "
                << call << " at " << i;
        }
      }
}

/// A separable convolution and the max pooling of its output in one call
/// (Xception's blocks): against the reference group, then the reference
/// pooling. Shapes with one band and with many (64K floats of depthwise
/// output a band), channels in whole vectors and not (the input copied
/// into the kernel's rows), SAME (3x3 at stride 2, the windows' rows
/// shared between bands) and VALID (2x2) poolings, images of odd and even
/// size; two calls per site.
TEST_P(KernelTest, DepthwisePointwiseWithMaxPoolMatchesReference) {
  struct Shape {
    int64_t n, h, w, c, outC, poolK, poolStride, poolPadTop, poolPadLeft;
    int64_t poolOh, poolOw;
  };
  const Shape shapes[] = {
      {1, 9, 11, 16, 24, 3, 2, 1, 1, 5, 6},    // SAME on 9 x 11: pads 1, 1
      {2, 40, 40, 64, 48, 3, 2, 0, 0, 20, 20}, // SAME on 40: pads 0, 1
      {1, 45, 30, 72, 40, 2, 2, 0, 0, 22, 15}, // VALID
      {2, 19, 19, 200, 96, 3, 2, 1, 1, 10, 10},
      {1, 147, 20, 64, 32, 3, 2, 1, 1, 74, 10}};
  static std::vector<std::unique_ptr<tfc_depthwise_pointwise_params>> sites;
  unsigned seed = 900;
  for (tfc_runtime *threads : runtimesWithThree())
    for (const Shape &s : shapes)
      for (int64_t inputActivation :
           {TFC_ACTIVATION_NONE, TFC_ACTIVATION_RELU}) {
        int64_t oh = s.h, ow = s.w; // 3x3 depthwise, stride 1, padded 1
        tfc_depthwise_pointwise_params params = {s.n,
                                                 s.h,
                                                 s.w,
                                                 s.c,
                                                 3,
                                                 3,
                                                 oh,
                                                 ow,
                                                 1,
                                                 1,
                                                 1,
                                                 1,
                                                 inputActivation,
                                                 /*depthwise_bias=*/0,
                                                 TFC_ACTIVATION_NONE,
                                                 s.outC,
                                                 /*pointwise_bias=*/1,
                                                 TFC_ACTIVATION_NONE,
                                                 /*residual=*/0};
        params.pool_kh = params.pool_kw = s.poolK;
        params.pool_stride_h = params.pool_stride_w = s.poolStride;
        params.pool_pad_top = s.poolPadTop;
        params.pool_pad_left = s.poolPadLeft;
        params.pool_oh = s.poolOh;
        params.pool_ow = s.poolOw;
        sites.push_back(
            std::make_unique<tfc_depthwise_pointwise_params>(params));
        std::vector<float> depthwise = randomVector(9 * s.c, ++seed);
        std::vector<float> pointwise = randomVector(s.c * s.outC, ++seed);
        for (int call = 0; call < 2; ++call) {
          std::vector<float> bias = randomVector(s.outC, ++seed);
          // The kernel applies the input's activation as it reads.
          std::vector<float> in = randomVector(s.n * s.h * s.w * s.c, ++seed);
          std::vector<float> activated(in.size());
          for (size_t i = 0; i < in.size(); ++i)
            activated[i] = activate(in[i], inputActivation);
          std::vector<float> middle(s.n * oh * ow * s.c);
          tfc::reference::conv2d(activated.data(), depthwise.data(),
                                 middle.data(), s.n, s.h, s.w, s.c, 3, 3, s.c,
                                 oh, ow, 1, 1, 1, 1, 1, 1, /*multiplier=*/1);
          std::vector<float> unpooled(s.n * oh * ow * s.outC);
          tfc::reference::conv2d(middle.data(), pointwise.data(),
                                 unpooled.data(), s.n, oh, ow, s.c, 1, 1,
                                 s.outC, oh, ow, 1, 1, 1, 1, 0, 0);
          for (size_t i = 0; i < unpooled.size(); ++i)
            unpooled[i] += bias[i % s.outC];
          std::vector<float> want(s.n * s.poolOh * s.poolOw * s.outC);
          tfc::reference::pool2d(true, unpooled.data(), want.data(), s.n, oh,
                                 ow, s.outC, s.poolK, s.poolK, s.poolOh,
                                 s.poolOw, s.poolStride, s.poolStride,
                                 s.poolPadTop, s.poolPadLeft);
          std::vector<float> got(want.size(), 42.f);
          tfc_cpu_depthwise_pointwise_f32(
              threads, in.data(), depthwise.data(), nullptr, pointwise.data(),
              bias.data(), nullptr, got.data(), sites.back().get());
          float scale = 2e-5f * (1 + std::sqrt(float(s.c * 9)));
          for (size_t i = 0; i < want.size(); ++i)
            ASSERT_NEAR(got[i], want[i], scale * (1 + std::abs(want[i])))
                << "n=" << s.n << " h=" << s.h << " w=" << s.w << " c=" << s.c
                << " out_c=" << s.outC << " pool " << s.poolK << "/"
                << s.poolStride << " input activation " << inputActivation
                << " threads " << (threads == runtime ? GetParam() : 3)
                << " call " << call << " at " << i;
        }
      }
}

/// Two separable convolutions in one call, the second reading the first's
/// output (DepthwisePointwise.cpp's pairs): against the reference groups
/// one after the other. The first's rows are made as the second's bands
/// ask for them, so shapes have one band and many, images one and two
/// (rows at the threads' boundaries made twice), the first at stride 1
/// and 2, its output channels in whole vectors (read in place) and not
/// (copied), the second pooled and not, with a residual and without, the
/// first's input ReLU'd and its output ReLU'd or not; two calls per site.
TEST_P(KernelTest, SeparablePairMatchesReference) {
  struct Shape {
    int64_t n, h, w, c, middle, outC, stride;
    bool pool;
  };
  const Shape shapes[] = {
      {1, 9, 11, 16, 32, 24, 1, false},  {2, 40, 40, 32, 64, 48, 1, false},
      {1, 45, 30, 24, 20, 40, 1, false}, {2, 20, 19, 16, 48, 32, 2, false},
      {1, 40, 40, 64, 64, 48, 1, true},  {2, 19, 19, 16, 40, 32, 1, true},
      {1, 147, 20, 32, 64, 32, 1, true}};
  static std::vector<std::unique_ptr<tfc_depthwise_pointwise_params>> sites;
  unsigned seed = 1100;
  int variant = 0;
  // A separable group, as the reference computes it: `in` activated,
  // the depthwise convolution (3x3, SAME) and its bias, then the 1x1 and
  // its bias, residual and activation.
  auto group =
      [](const std::vector<float> &in, const tfc_depthwise_pointwise_params &p,
         const std::vector<float> &depthwise,
         const std::vector<float> &depthwiseBias,
         const std::vector<float> &pointwise,
         const std::vector<float> &pointwiseBias, const float *residual) {
        std::vector<float> activated(in.size());
        for (size_t i = 0; i < in.size(); ++i)
          activated[i] = activate(in[i], p.input_activation);
        std::vector<float> middle(p.n * p.oh * p.ow * p.c);
        tfc::reference::conv2d(activated.data(), depthwise.data(),
                               middle.data(), p.n, p.h, p.w, p.c, 3, 3, p.c,
                               p.oh, p.ow, p.stride_h, p.stride_w, 1, 1,
                               p.pad_top, p.pad_left, /*multiplier=*/1);
        for (size_t i = 0; i < middle.size(); ++i)
          middle[i] += depthwiseBias[i % p.c];
        std::vector<float> out(p.n * p.oh * p.ow * p.out_c);
        tfc::reference::conv2d(middle.data(), pointwise.data(), out.data(), p.n,
                               p.oh, p.ow, p.c, 1, 1, p.out_c, p.oh, p.ow, 1, 1,
                               1, 1, 0, 0);
        for (size_t i = 0; i < out.size(); ++i)
          out[i] = activate(out[i] + pointwiseBias[i % p.out_c] +
                                (residual ? residual[i] : 0.f),
                            p.pointwise_activation);
        return out;
      };
  for (tfc_runtime *threads : runtimesWithThree())
    for (const Shape &s : shapes)
      for (int64_t residual = 0; residual < (s.pool ? 1 : 2); ++residual) {
        ++variant;
        // 3x3 windows, SAME: at stride 2 the padding before is 0 on even
        // sizes (TensorFlow's), 1 on odd ones.
        int64_t oh1 = (s.h + s.stride - 1) / s.stride;
        int64_t ow1 = (s.w + s.stride - 1) / s.stride;
        int64_t padTop = s.stride == 1 ? 1 : (s.h % 2 ? 1 : 0);
        int64_t padLeft = s.stride == 1 ? 1 : (s.w % 2 ? 1 : 0);
        tfc_depthwise_pointwise_params first = {
            s.n,
            s.h,
            s.w,
            s.c,
            3,
            3,
            oh1,
            ow1,
            s.stride,
            s.stride,
            padTop,
            padLeft,
            variant % 2 ? TFC_ACTIVATION_RELU : TFC_ACTIVATION_NONE,
            /*depthwise_bias=*/1,
            TFC_ACTIVATION_NONE,
            s.middle,
            /*pointwise_bias=*/1,
            variant % 3 ? TFC_ACTIVATION_RELU : TFC_ACTIVATION_NONE,
            /*residual=*/0};
        tfc_depthwise_pointwise_params second = {s.n,
                                                 oh1,
                                                 ow1,
                                                 s.middle,
                                                 3,
                                                 3,
                                                 oh1,
                                                 ow1,
                                                 1,
                                                 1,
                                                 1,
                                                 1,
                                                 TFC_ACTIVATION_NONE,
                                                 /*depthwise_bias=*/1,
                                                 TFC_ACTIVATION_NONE,
                                                 s.outC,
                                                 /*pointwise_bias=*/1,
                                                 TFC_ACTIVATION_NONE,
                                                 residual};
        if (s.pool) { // 3x3 at stride 2, SAME
          second.pool_kh = second.pool_kw = 3;
          second.pool_stride_h = second.pool_stride_w = 2;
          second.pool_pad_top = oh1 % 2 ? 1 : 0;
          second.pool_pad_left = ow1 % 2 ? 1 : 0;
          second.pool_oh = (oh1 + 1) / 2;
          second.pool_ow = (ow1 + 1) / 2;
        }
        sites.push_back(
            std::make_unique<tfc_depthwise_pointwise_params>(first));
        const tfc_depthwise_pointwise_params *firstSite = sites.back().get();
        sites.push_back(
            std::make_unique<tfc_depthwise_pointwise_params>(second));
        const tfc_depthwise_pointwise_params *secondSite = sites.back().get();
        std::vector<float> depthwise1 = randomVector(9 * s.c, ++seed);
        std::vector<float> pointwise1 = randomVector(s.c * s.middle, ++seed);
        std::vector<float> depthwise2 = randomVector(9 * s.middle, ++seed);
        std::vector<float> pointwise2 = randomVector(s.middle * s.outC, ++seed);
        for (int call = 0; call < 2; ++call) {
          std::vector<float> bias1 = randomVector(s.c, ++seed);
          std::vector<float> bias2 = randomVector(s.middle, ++seed);
          std::vector<float> bias3 = randomVector(s.middle, ++seed);
          std::vector<float> bias4 = randomVector(s.outC, ++seed);
          std::vector<float> in = randomVector(s.n * s.h * s.w * s.c, ++seed);
          std::vector<float> added =
              randomVector(s.n * oh1 * ow1 * s.outC, ++seed);
          std::vector<float> middle =
              group(in, first, depthwise1, bias1, pointwise1, bias2, nullptr);
          std::vector<float> want =
              group(middle, second, depthwise2, bias3, pointwise2, bias4,
                    residual ? added.data() : nullptr);
          if (s.pool) {
            std::vector<float> pooled(s.n * second.pool_oh * second.pool_ow *
                                      s.outC);
            tfc::reference::pool2d(true, want.data(), pooled.data(), s.n, oh1,
                                   ow1, s.outC, 3, 3, second.pool_oh,
                                   second.pool_ow, 2, 2, second.pool_pad_top,
                                   second.pool_pad_left);
            want = std::move(pooled);
          }
          std::vector<float> got(want.size(), 42.f);
          tfc_cpu_separable_pair_f32(
              threads, in.data(), depthwise1.data(), bias1.data(),
              pointwise1.data(), bias2.data(), depthwise2.data(), bias3.data(),
              pointwise2.data(), bias4.data(),
              residual ? added.data() : nullptr, got.data(), firstSite,
              secondSite);
          // Two groups' rounding, the first's carried through the second.
          float scale = 2e-5f * (1 + std::sqrt(float(s.c * 9))) *
                        (1 + std::sqrt(float(s.middle * 9)));
          for (size_t i = 0; i < want.size(); ++i)
            ASSERT_NEAR(got[i], want[i], scale * (1 + std::abs(want[i])))
                << "n=" << s.n << " h=" << s.h << " w=" << s.w << " c=" << s.c
                << " middle=" << s.middle << " out_c=" << s.outC << " stride "
                << s.stride << " pool " << s.pool << " residual " << residual
                << " threads " << (threads == runtime ? GetParam() : 3)
                << " call " << call << " at " << i;
        }
      }
}

/// Swish after a convolution whose images' outputs pass the kernel's 8 MiB
/// group (OneDnnConv.cpp): the primitive runs on two images at a time
/// (3 MiB each), swish after each pair; with a residual read at each
/// pair's offset.
TEST_P(KernelTest, SwishConvolutionInGroupsOfImages) {
  const int64_t n = 4, h = 64, w = 64, c = 8, oc = 192;
  std::vector<float> in = randomVector(n * h * w * c, 16);
  std::vector<float> filter = randomVector(c * oc, 17);
  std::vector<float> bias = randomVector(oc, 18);
  std::vector<float> residual = randomVector(n * h * w * oc, 19);
  std::vector<float> got(residual.size()), want(got.size());
  static tfc_conv2d_params params = {n, h, w, c, 1, 1, oc, h, w, 1, 1,
                                     1, 1, 0, 0, 0, 1, 3, 1, 1};
  tfc_cpu_conv2d_dnnl_f32(runtime, in.data(), filter.data(), bias.data(),
                          residual.data(), got.data(), &params);
  tfc::reference::conv2d(in.data(), filter.data(), want.data(), n, h, w, c, 1,
                         1, oc, h, w, 1, 1, 1, 1, 0, 0);
  for (size_t i = 0; i < got.size(); ++i) {
    float v = want[i] + bias[i % oc] + residual[i];
    ASSERT_NEAR(got[i], v / (1.f + std::exp(-v)), 1e-4f) << "at " << i;
  }
}

/// A convolution whose output is a window of a wider concatenation's
/// (out_pixel_stride): each pixel's channels land at their place, in
/// Winograd's transform (3x3, 32 -> 16 channels, 64 tiles) and through a
/// dense copy (oneDNN's 1x1, 12 channels); the floats around the window
/// stay as they are.
TEST_P(KernelTest, ConvolutionWritesAWindowOfAWiderOutput) {
  const int64_t n = 4, h = 16, w = 16, stride = 40, first = 8;
  static tfc_conv2d_params winograd = {n, h, w, 32, 3, 3, 16, h, w, 1,     1,
                                       1, 1, 1, 1,  0, 0, 0,  0, 0, stride};
  static tfc_conv2d_params pointwise = {n, h, w, 8, 1, 1, 12, h, w, 1,     1,
                                        1, 1, 0, 0, 0, 0, 0,  0, 0, stride};
  for (const tfc_conv2d_params *params : {&winograd, &pointwise}) {
    const tfc_conv2d_params &p = *params;
    std::vector<float> in = randomVector(n * h * w * p.c, 70);
    std::vector<float> filter = randomVector(p.kh * p.kw * p.c * p.out_c, 71);
    std::vector<float> want(n * h * w * p.out_c);
    tfc::reference::conv2d(in.data(), filter.data(), want.data(), n, h, w, p.c,
                           p.kh, p.kw, p.out_c, h, w, 1, 1, 1, 1, p.pad_top,
                           p.pad_left);
    std::vector<float> out = randomVector(n * h * w * stride, 72);
    const std::vector<float> before = out;
    tfc_cpu_conv2d_dnnl_f32(runtime, in.data(), filter.data(), nullptr, nullptr,
                            out.data() + first, params);
    for (int64_t pixel = 0; pixel < n * h * w; ++pixel)
      for (int64_t j = 0; j < stride; ++j) {
        int64_t k = j - first;
        if (k >= 0 && k < p.out_c)
          ASSERT_NEAR(out[pixel * stride + j], want[pixel * p.out_c + k], 1e-3f)
              << p.kh << "x" << p.kw << " pixel " << pixel << " channel " << k;
        else
          ASSERT_EQ(out[pixel * stride + j], before[pixel * stride + j])
              << p.kh << "x" << p.kw << " written outside the window at pixel "
              << pixel << " float " << j;
      }
  }
}

/// A oneDNN call site keeps its arguments' memory objects between calls
/// (one set per thread) and points them at each call's buffers: calls
/// after the first, with other inputs, filters (computed at run time, so
/// reordered at each call), biases, residuals (read by a binary add) and
/// outputs, get their own results, also from two threads calling the site
/// at once.
TEST_P(KernelTest, ConvolutionCallSiteTakesEachCallsBuffers) {
  // 3x3, stride 2, SAME (top and left padding 1): oneDNN's direct kernel,
  // whose preferred filter layout is blocked, so a run-time filter is
  // reordered.
  const int64_t n = 2, h = 9, w = 9, c = 8, oc = 24, oh = 5, ow = 5;
  static tfc_conv2d_params params = {n, h, w, c, 3, 3, oc, oh, ow, 2, 2, 1, 1, 1, 1,
                                     0, 0, TFC_ACTIVATION_RELU6, 1, 1};
  struct Call {
    std::vector<float> in, filter, bias, residual, want;
  };
  auto makeCall = [&](unsigned seed) {
    Call call{randomVector(n * h * w * c, seed), randomVector(9 * c * oc, seed + 1),
              randomVector(oc, seed + 2), randomVector(n * oh * ow * oc, seed + 3),
              std::vector<float>(n * oh * ow * oc)};
    tfc::reference::conv2d(call.in.data(), call.filter.data(), call.want.data(), n, h,
                           w, c, 3, 3, oc, oh, ow, 2, 2, 1, 1, 1, 1);
    for (size_t i = 0; i < call.want.size(); ++i)
      call.want[i] = activate(call.want[i] + call.bias[i % oc] + call.residual[i],
                              TFC_ACTIVATION_RELU6);
    return call;
  };
  // Whether a call of the site computes `call`'s result.
  auto matches = [&](const Call &call) {
    std::vector<float> got(call.want.size());
    tfc_cpu_conv2d_dnnl_f32(runtime, call.in.data(), call.filter.data(),
                            call.bias.data(), call.residual.data(), got.data(),
                            &params);
    for (size_t i = 0; i < got.size(); ++i)
      if (std::abs(got[i] - call.want[i]) > 1e-4f)
        return false;
    return true;
  };
  // All alive at once, so that no call's buffers reuse another's addresses.
  const Call sequential[3] = {makeCall(20), makeCall(30), makeCall(40)};
  for (int i = 0; i < 3; ++i)
    EXPECT_TRUE(matches(sequential[i])) << "call " << i;
  // Two threads, each its own data, 20 calls each at once.
  const Call perThread[2] = {makeCall(50), makeCall(60)};
  std::atomic<int> ready{0}, wrong{0};
  auto calls = [&](int thread) {
    ready.fetch_add(1);
    while (ready.load() < 2) {
    }
    for (int i = 0; i < 20; ++i)
      if (!matches(perThread[thread]))
        wrong.fetch_add(1);
  };
  std::thread other(calls, 1);
  calls(0);
  other.join();
  EXPECT_EQ(wrong.load(), 0);
}

/// The other oneDNN call sites (the convolution gradients, the 3-D
/// convolution and pooling and their gradients) keep their arguments too
/// (OneDnn.h's CallArguments): a site's calls after the first, with other
/// buffers, give what a new site's first call gives on the same data
/// (the path the op cases check against TensorFlow), also from two
/// threads calling the site at once. The 3x3 stride-2 filters are
/// oneDNN's (not Winograd's), in its blocked layouts: the filter is
/// reordered before each call, and the filter gradient after.
TEST_P(KernelTest, OneDnnCallSitesTakeEachCallsBuffers) {
  struct Site {
    const char *name;
    size_t aSize, bSize, outSize;
    /// A new call site: its params, alive until the process ends (the
    /// caches key on their address).
    std::function<const void *()> make;
    std::function<void(const void *params, const float *a, const float *b,
                       float *out)>
        call;
  };
  static std::vector<std::unique_ptr<tfc_conv2d_backprop_params>> tables2d;
  static std::vector<std::unique_ptr<tfc_window3d_params>> tables3d;
  // 2-D: 2 x 9 x 9 x 8 to 16 channels at 5 x 5.
  auto conv2d = [](int64_t filterGradient) {
    return [filterGradient]() -> const void * {
      tables2d.push_back(std::make_unique<tfc_conv2d_backprop_params>(
          tfc_conv2d_backprop_params{2, 9, 9, 8, 3, 3, 16, 5, 5, 2, 2, 1, 1,
                                     1, 1, 0, filterGradient}));
      return tables2d.back().get();
    };
  };
  // 3-D: 2 x 5 x 6 x 6 x 4 to 8 channels (or pooled) at 3 x 3 x 3.
  auto window3d = [](int64_t outChannels) {
    return [outChannels]() -> const void * {
      tables3d.push_back(std::make_unique<tfc_window3d_params>(
          tfc_window3d_params{2, 5, 6, 6, 4, 3, 3, 3, outChannels, 3, 3, 3,
                              2, 2, 2, 1, 1, 1}));
      return tables3d.back().get();
    };
  };
  auto as2d = [](const void *p) {
    return static_cast<const tfc_conv2d_backprop_params *>(p);
  };
  auto as3d = [](const void *p) {
    return static_cast<const tfc_window3d_params *>(p);
  };
  const size_t x2 = 2 * 9 * 9 * 8, w2 = 3 * 3 * 8 * 16, y2 = 2 * 5 * 5 * 16;
  const size_t x3 = 2 * 5 * 6 * 6 * 4, w3 = 27 * 4 * 8, y3 = 2 * 27 * 8,
               pooled = 2 * 27 * 4;
  const Site sites[] = {
      {"Conv2DBackpropInput", w2, y2, x2, conv2d(0),
       [&](const void *p, const float *a, const float *b, float *out) {
         tfc_cpu_conv2d_backprop_f32(runtime, a, b, out, as2d(p));
       }},
      {"Conv2DBackpropFilter", x2, y2, w2, conv2d(1),
       [&](const void *p, const float *a, const float *b, float *out) {
         tfc_cpu_conv2d_backprop_f32(runtime, a, b, out, as2d(p));
       }},
      {"Conv3D", x3, w3, y3, window3d(8),
       [&](const void *p, const float *a, const float *b, float *out) {
         tfc_cpu_conv3d_f32(runtime, a, b, out, as3d(p));
       }},
      {"Conv3DBackpropInput", w3, y3, x3, window3d(8),
       [&](const void *p, const float *a, const float *b, float *out) {
         tfc_cpu_conv3d_backprop_f32(runtime, 0, a, b, out, as3d(p));
       }},
      {"Conv3DBackpropFilter", x3, y3, w3, window3d(8),
       [&](const void *p, const float *a, const float *b, float *out) {
         tfc_cpu_conv3d_backprop_f32(runtime, 1, a, b, out, as3d(p));
       }},
      {"MaxPool3D", x3, 0, pooled, window3d(4),
       [&](const void *p, const float *a, const float *, float *out) {
         tfc_cpu_pool3d_f32(runtime, 0, a, out, as3d(p));
       }},
      {"MaxPool3DGrad", x3, pooled, x3, window3d(4),
       [&](const void *p, const float *a, const float *b, float *out) {
         tfc_cpu_pool3d_backprop_f32(runtime, 0, a, b, out, as3d(p));
       }},
      {"AvgPool3DGrad", 0, pooled, x3, window3d(4),
       [&](const void *p, const float *, const float *b, float *out) {
         tfc_cpu_pool3d_backprop_f32(runtime, 1, nullptr, b, out, as3d(p));
       }},
  };
  struct Data {
    std::vector<float> a, b, want;
  };
  for (const Site &site : sites) {
    // Each data set's result from a new call site; all alive at once, so
    // that no call's buffers reuse another's addresses.
    std::vector<Data> data;
    for (unsigned seed : {70u, 80u, 90u, 100u, 110u}) {
      Data d{randomVector(site.aSize, seed), randomVector(site.bSize, seed + 1),
             std::vector<float>(site.outSize)};
      site.call(site.make(), d.a.data(), d.b.data(), d.want.data());
      data.push_back(std::move(d));
    }
    const void *shared = site.make();
    auto matches = [&](const Data &d) {
      std::vector<float> got(site.outSize, 42.f);
      site.call(shared, d.a.data(), d.b.data(), got.data());
      for (size_t i = 0; i < got.size(); ++i)
        if (std::abs(got[i] - d.want[i]) > 1e-5f * (1.f + std::abs(d.want[i])))
          return false;
      return true;
    };
    for (int i = 0; i < 3; ++i)
      EXPECT_TRUE(matches(data[i])) << site.name << ", call " << i;
    // Two threads, each its own data, 10 calls each at once.
    std::atomic<int> ready{0}, wrong{0};
    auto calls = [&](int thread) {
      ready.fetch_add(1);
      while (ready.load() < 2) {
      }
      for (int i = 0; i < 10; ++i)
        if (!matches(data[3 + thread]))
          wrong.fetch_add(1);
    };
    std::thread other(calls, 1);
    calls(0);
    other.join();
    EXPECT_EQ(wrong.load(), 0) << site.name;
  }
}

/// Winograd's algorithms against the reference convolution: F(4x4, 3x3)
/// and F(2x2, 3x3), F(4x4, 5x5), and F(4, 3) and F(4, 7) along either axis
/// (1x3, 3x1, 1x7 and 7x1 filters), on shapes whose output is not a whole number of tiles, SAME,
/// VALID and uneven explicit padding, with each epilogue; the 3x3
/// gradients against the direct loops. Tolerances are relative to the sum
/// of the magnitudes of each result's terms (the transforms lose a few bits
/// on top of the direct sums' rounding).
TEST_P(KernelTest, WinogradMatchesReference) {
  struct Case {
    int64_t n, h, w, c, k, kh, kw, padTop, padLeft, padBottom, padRight;
  };
  // (F(4x4, 3x3) takes a 3x3 filter from 12 of its tiles, F(2x2, 3x3)
  // below: the first six cases have 12 or more.)
  const Case cases[] = {{2, 16, 16, 32, 64, 3, 3, 1, 1, 1, 1}, // SAME, whole tiles.
                        {2, 9, 7, 16, 16, 3, 3, 1, 1, 1, 1},   // SAME, part tiles.
                        {2, 10, 11, 16, 32, 3, 3, 0, 0, 0, 0}, // VALID.
                        {2, 6, 9, 48, 16, 3, 3, 2, 0, 1, 2},   // Explicit.
                        // 144 tiles in 5 blocks.
                        {4, 24, 24, 16, 32, 3, 3, 1, 1, 1, 1},
                        // 1600 tiles: the filter gradient sums them in
                        // three groups (533, 533, 534), then adds the
                        // groups up.
                        {25, 32, 32, 16, 16, 3, 3, 1, 1, 1, 1},
                        // One block of tiles, its 40 output channels split
                        // between the threads (16 + 24: a part panel; the
                        // filter gradient's parts 16 + 24 on AVX2).
                        {3, 8, 8, 24, 40, 3, 3, 1, 1, 1, 1},
                        // Too few 4x4 tiles (4, 2): F(2x2, 3x3), SAME and
                        // VALID.
                        {1, 7, 7, 32, 48, 3, 3, 1, 1, 1, 1},
                        {2, 6, 5, 16, 16, 3, 3, 0, 0, 0, 0},
                        // InceptionV3's factorized convolutions (SAME),
                        // at 17 x 17: rows of 4 outputs and a part tile.
                        {1, 17, 17, 32, 48, 1, 7, 0, 3, 0, 3},
                        {2, 17, 17, 16, 32, 7, 1, 3, 0, 3, 0},
                        {1, 8, 8, 48, 32, 1, 3, 0, 1, 0, 1},
                        {1, 8, 8, 32, 16, 3, 1, 1, 0, 1, 0},
                        // VALID and uneven padding along the filter's axis;
                        // many blocks (uneven in number) of tiles.
                        {3, 30, 21, 16, 16, 1, 7, 0, 0, 0, 0},
                        {1, 13, 5, 16, 24, 7, 1, 4, 0, 1, 0},
                        {4, 40, 9, 16, 16, 3, 1, 0, 0, 2, 0},
                        // F(4x4, 5x5): InceptionV3's (SAME at 35 x 35),
                        // VALID, uneven padding.
                        {1, 35, 35, 48, 64, 5, 5, 2, 2, 2, 2},
                        {2, 12, 13, 16, 24, 5, 5, 0, 0, 0, 0},
                        {1, 9, 10, 32, 16, 5, 5, 3, 1, 0, 4},
                        // Input channels ending in a part vector (20: 4
                        // lanes of the last with AVX2 and AVX-512; 40: 8
                        // with AVX-512), read masked and padded with
                        // zeros: 3x3 (F(4x4) and F(2x2)), 1x7, 5x5.
                        {2, 10, 9, 20, 16, 3, 3, 1, 1, 1, 1},
                        {1, 12, 12, 40, 32, 3, 3, 1, 1, 1, 1},
                        {1, 5, 6, 20, 32, 3, 3, 1, 1, 1, 1},
                        {1, 17, 17, 20, 32, 1, 7, 0, 3, 0, 3},
                        {2, 12, 13, 40, 16, 5, 5, 0, 0, 0, 0}};
  EXPECT_FALSE(tfc::winograd::applies(3, 3, 2, 2, 1, 1, 16, 16));
  EXPECT_FALSE(tfc::winograd::applies(3, 3, 1, 1, 2, 2, 16, 16));
  EXPECT_FALSE(tfc::winograd::applies(3, 3, 1, 1, 1, 1, 3, 32));
  EXPECT_FALSE(tfc::winograd::applies(1, 5, 1, 1, 1, 1, 16, 16));
  EXPECT_FALSE(tfc::winograd::applies(5, 5, 2, 2, 1, 1, 16, 16));
  EXPECT_FALSE(tfc::winograd::applies(7, 7, 1, 1, 1, 1, 16, 16));
  EXPECT_FALSE(tfc::winograd::applies(1, 7, 1, 2, 1, 1, 16, 16));
  EXPECT_TRUE(tfc::winograd::applies(7, 1, 1, 1, 1, 1, 16, 16));
  // Input channels: a part vector after a whole one or more (not fewer
  // than one vector); output channels: whole vectors only.
  EXPECT_TRUE(tfc::winograd::applies(3, 3, 1, 1, 1, 1, 20, 16));
  EXPECT_FALSE(tfc::winograd::applies(3, 3, 1, 1, 1, 1, 16, 20));
  // Only F(4x4, 3x3) computes gradients.
  EXPECT_TRUE(tfc::winograd::appliesToGradients(3, 3, 1, 1, 1, 1, 16, 16));
  EXPECT_FALSE(tfc::winograd::appliesToGradients(5, 5, 1, 1, 1, 1, 16, 16));
  EXPECT_FALSE(tfc::winograd::appliesToGradients(1, 3, 1, 1, 1, 1, 16, 16));
  EXPECT_FALSE(tfc::winograd::appliesToGradients(7, 1, 1, 1, 1, 1, 16, 16));
  EXPECT_FALSE(tfc::winograd::appliesToGradients(3, 3, 1, 1, 1, 1, 20, 16));
  // Too few tiles (3x2) to repay the filter's transform; too many
  // channels for the transformed filter (36 MiB) to stay in a 32 MiB
  // cache, not in a 480 MiB one.
  constexpr int64_t kMiB = int64_t(1) << 20;
  EXPECT_FALSE(tfc::winograd::paysWithAvx512({1, 9, 7, 16, 16, 9, 7, 1, 1, 3, 3}, 480 * kMiB));
  EXPECT_FALSE(tfc::winograd::paysWithAvx512({64, 16, 16, 512, 512, 16, 16, 1, 1, 3, 3},
                                             32 * kMiB));
  EXPECT_TRUE(tfc::winograd::paysWithAvx512({64, 16, 16, 512, 512, 16, 16, 1, 1, 3, 3},
                                            480 * kMiB));
  EXPECT_TRUE(tfc::winograd::paysWithAvx512({64, 16, 16, 32, 64, 16, 16, 1, 1, 3, 3}, 0));
  // 16 tiles (a 14 x 14 image at batch 1) pay with 256 x 256 channels
  // (ResNet's), not with 128 x 32 (DenseNet's), on AMD's processors
  // (fewTiles); on Intel's they do not pay.
  EXPECT_TRUE(tfc::winograd::paysWithAvx512({1, 14, 14, 256, 256, 14, 14, 1, 1, 3, 3}, 0,
                                            /*fewTiles=*/true));
  EXPECT_FALSE(tfc::winograd::paysWithAvx512({1, 14, 14, 256, 256, 14, 14, 1, 1, 3, 3},
                                             480 * kMiB, /*fewTiles=*/false));
  EXPECT_FALSE(tfc::winograd::paysWithAvx512({1, 14, 14, 128, 32, 14, 14, 1, 1, 3, 3},
                                             480 * kMiB, /*fewTiles=*/true));
  // 32 tiles pay on either.
  EXPECT_TRUE(tfc::winograd::paysWithAvx512({2, 14, 14, 256, 256, 14, 14, 1, 1, 3, 3}, 0,
                                            /*fewTiles=*/false));
  // Too few tiles (1) to repay reading the transformed filter, even of
  // F(2x2, 3x3) (4); at 7 x 7 F(2x2, 3x3)'s 16 tiles pay with many
  // channels (F(4x4, 3x3) would have 4, and the gradients' are not
  // chosen), not with few.
  EXPECT_FALSE(tfc::winograd::paysWithAvx2({1, 4, 4, 512, 512, 4, 4, 1, 1, 3, 3}));
  EXPECT_TRUE(tfc::winograd::paysWithAvx2({1, 7, 7, 512, 512, 7, 7, 1, 1, 3, 3}));
  EXPECT_FALSE(tfc::winograd::paysWithAvx2({1, 7, 7, 128, 32, 7, 7, 1, 1, 3, 3}));
  EXPECT_TRUE(tfc::winograd::paysWithAvx2({1, 14, 14, 256, 256, 14, 14, 1, 1, 3, 3}));
  EXPECT_TRUE(tfc::winograd::paysWithAvx2({32, 7, 7, 512, 512, 7, 7, 1, 1, 3, 3}));
#ifndef TFC_KERNEL_TESTS_ISA
  // (The baseline ISA's kernels: neither pays there.)
  EXPECT_FALSE(tfc::winograd::gradientsPay({1, 7, 7, 512, 512, 7, 7, 1, 1, 3, 3}));
#endif
  // The other algorithms: on AVX2 from 12 tiles (InceptionV3's 1x7 at 17
  // x 17 has 85 tiles of 1 x 4, at 4 x 4 it would have 4); on AVX-512
  // from 128 (a batch of images), and where the 512-bit FMAs run at half
  // rate a 5x5 filter's from 64 (InceptionV3's at 35 x 35: 81).
  EXPECT_TRUE(tfc::winograd::paysWithAvx2({1, 17, 17, 192, 192, 17, 17, 0, 3, 1, 7}));
  EXPECT_FALSE(tfc::winograd::paysWithAvx2({1, 4, 4, 192, 192, 4, 4, 0, 3, 1, 7}));
  EXPECT_TRUE(tfc::winograd::paysWithAvx2({1, 35, 35, 48, 64, 35, 35, 2, 2, 5, 5}));
  for (bool halfRate : {false, true}) {
    EXPECT_FALSE(tfc::winograd::paysWithAvx512(
        {1, 17, 17, 192, 192, 17, 17, 0, 3, 1, 7}, 32 * kMiB, true, halfRate));
    EXPECT_TRUE(tfc::winograd::paysWithAvx512(
        {2, 17, 17, 192, 192, 17, 17, 0, 3, 1, 7}, 32 * kMiB, true, halfRate));
    EXPECT_EQ(
        tfc::winograd::paysWithAvx512({1, 35, 35, 48, 64, 35, 35, 2, 2, 5, 5},
                                      32 * kMiB, true, halfRate),
        halfRate);
    EXPECT_FALSE(tfc::winograd::paysWithAvx512(
        {1, 28, 28, 48, 64, 28, 28, 2, 2, 5, 5}, 32 * kMiB, true, halfRate));
  }
  // The kernels built for the baseline ISA always choose oneDNN's direct
  // convolutions; those for AVX2 and AVX-512 Winograd's on many tiles of
  // few channels (above).
#ifdef TFC_KERNEL_TESTS_ISA
  EXPECT_TRUE(tfc::winograd::pays({64, 16, 16, 32, 64, 16, 16, 1, 1, 3, 3}));
#else
  EXPECT_FALSE(tfc::winograd::pays({64, 16, 16, 32, 64, 16, 16, 1, 1, 3, 3}));
#endif
  for (const Case &t : cases) {
    int64_t oh = t.h + t.padTop + t.padBottom - t.kh + 1;
    int64_t ow = t.w + t.padLeft + t.padRight - t.kw + 1;
    std::string shape = std::to_string(t.kh) + "x" + std::to_string(t.kw) +
                        " h=" + std::to_string(t.h);
    bool applies = tfc::winograd::applies(t.kh, t.kw, 1, 1, 1, 1, t.c, t.k);
#ifdef TFC_KERNEL_TESTS_ISA
    // Channels in whole vectors of the build's width only (AVX-512's 16
    // floats): the cases written for 8 that are not are left out.
    if (!applies)
      continue;
#endif
    ASSERT_TRUE(applies) << shape;
    tfc::winograd::Geometry g{t.n,  t.h,       t.w,  t.c,  t.k, oh,
                              ow,   t.padTop,  t.padLeft, t.kh, t.kw};
    std::vector<float> x = randomVector(t.n * t.h * t.w * t.c, 31);
    std::vector<float> filter = randomVector(t.kh * t.kw * t.c * t.k, 32);
    std::vector<float> bias = randomVector(t.k, 33);
    std::vector<float> dy = randomVector(t.n * oh * ow * t.k, 34);
    std::vector<float> want(dy.size()), magnitude(dy.size());
    tfc::reference::conv2d(x.data(), filter.data(), want.data(), t.n, t.h, t.w,
                           t.c, t.kh, t.kw, t.k, oh, ow, 1, 1, 1, 1, t.padTop,
                           t.padLeft);
    std::vector<float> absX(x.size()), absFilter(filter.size());
    for (size_t i = 0; i < x.size(); ++i)
      absX[i] = std::abs(x[i]);
    for (size_t i = 0; i < filter.size(); ++i)
      absFilter[i] = std::abs(filter[i]);
    tfc::reference::conv2d(absX.data(), absFilter.data(), magnitude.data(), t.n,
                           t.h, t.w, t.c, t.kh, t.kw, t.k, oh, ow, 1, 1, 1, 1,
                           t.padTop, t.padLeft);
    for (int activation : {TFC_ACTIVATION_NONE, TFC_ACTIVATION_RELU, TFC_ACTIVATION_RELU6,
                           TFC_ACTIVATION_SWISH, TFC_ACTIVATION_HARD_SWISH}) {
      // The residual planned in place: the output holds it beforehand.
      std::vector<float> residual = dy, got = dy;
      std::vector<float> transformed(tfc::winograd::transformedFilterSize(g));
      tfc::winograd::transformFilter(runtime, g, filter.data(),
                                     transformed.data());
      tfc::winograd::forward(runtime, g, x.data(), transformed.data(),
                             bias.data(), got.data(), activation, got.data());
      for (size_t i = 0; i < got.size(); ++i) {
        float v = activate(want[i] + bias[i % t.k] + residual[i], activation);
        ASSERT_NEAR(got[i], v, 1e-5f * (1 + magnitude[i]))
            << "forward " << shape << " activation " << activation << " at " << i;
      }
    }
    if (!tfc::winograd::appliesToGradients(t.kh, t.kw, 1, 1, 1, 1, t.c, t.k))
      continue;
    // The gradients, against the direct loops of the backprop kernels.
    for (int filterGradient : {0, 1}) {
      tfc_conv2d_backprop_params table{t.n, t.h, t.w, t.c, 3, 3, t.k, oh, ow,
                                       1, 1, 1, 1, t.padTop, t.padLeft, 0,
                                       filterGradient};
      const float *operand = filterGradient ? x.data() : filter.data();
      std::vector<float> direct(filterGradient ? filter.size() : x.size());
      std::vector<float> got(direct.size(), 42.f);
      tfc_cpu_conv2d_backprop_direct_f32(runtime, operand, dy.data(),
                                         direct.data(), &table);
      if (filterGradient)
        tfc::winograd::backwardFilter(runtime, g, x.data(), dy.data(), got.data());
      else
        tfc::winograd::backwardData(runtime, g, filter.data(), dy.data(), got.data());
      // Each result sums over at most this many products of terms in [-1, 1].
      float terms = filterGradient ? float(t.n * oh * ow) : float(9 * t.k);
      for (size_t i = 0; i < got.size(); ++i)
        ASSERT_NEAR(got[i], direct[i], 2e-6f * terms)
            << shape << " filter gradient=" << filterGradient << " at " << i;
    }
  }
}

/// Winograd's filter gradient bit for bit the same whatever the threads:
/// its groups of tiles are fixed by the shape, and threads past them split
/// the output channels, whose sums each part makes in the same order.
TEST(WinogradTest, FilterGradientDoesNotDependOnTheThreads) {
  // 1600 tiles in three groups; 32 tiles in one.
  const int64_t shapes[][5] = {{25, 32, 32, 16, 32}, {2, 16, 16, 32, 64}};
  for (const auto &shape : shapes) {
    auto [n, h, w, c, k] = shape;
    if (!tfc::winograd::appliesToGradients(3, 3, 1, 1, 1, 1, c, k))
      continue;
    tfc::winograd::Geometry g{n, h, w, c, k, h, w, 1, 1, 3, 3};
    std::vector<float> x = randomVector(n * h * w * c, 41);
    std::vector<float> dy = randomVector(n * h * w * k, 42);
    std::vector<float> first;
    for (int threads : {1, 2, 4, 7}) {
      tfc_runtime *runtime = runtimeWithThreads(threads);
      std::vector<float> got(9 * c * k);
      tfc::winograd::backwardFilter(runtime, g, x.data(), dy.data(), got.data());
      tfc_runtime_destroy(runtime);
      if (first.empty())
        first = got;
      else
        ASSERT_EQ(0, std::memcmp(first.data(), got.data(), got.size() * sizeof(float)))
            << n << "x" << h << "x" << w << "x" << c << " -> " << k << " with "
            << threads << " threads";
    }
  }
}

/// The filter gradient of a 3x3 convolution of few input channels (a
/// network's first layer; a register per filter tap) against the direct
/// loops: one to three channels, SAME and VALID, strides 1 and 2, images
/// whose border pixels are most of them.
TEST_P(KernelTest, FilterGradientsOfFewChannelsMatchDirectLoops) {
  struct Case {
    int64_t n, h, w, c, oc, stride, padTop, padLeft, oh, ow;
  };
  const Case cases[] = {{3, 9, 7, 3, 32, 1, 1, 1, 9, 7},
                        {2, 8, 8, 1, 16, 2, 0, 0, 3, 3},
                        {2, 6, 10, 2, 48, 1, 0, 0, 4, 8},
                        {1, 5, 6, 3, 16, 2, 1, 0, 3, 3}};
  for (const Case &t : cases) {
    tfc_conv2d_backprop_params table{t.n, t.h, t.w, t.c, 3, 3, t.oc, t.oh,
                                     t.ow, t.stride, t.stride, 1, 1, t.padTop,
                                     t.padLeft, 0, 1};
    ASSERT_TRUE(tfc::fewchannels::appliesToFilterGradient(table));
    std::vector<float> x = randomVector(t.n * t.h * t.w * t.c, 31);
    std::vector<float> dy = randomVector(t.n * t.oh * t.ow * t.oc, 32);
    std::vector<float> want(9 * t.c * t.oc), got(want.size(), 42.f);
    tfc_cpu_conv2d_backprop_direct_f32(runtime, x.data(), dy.data(),
                                       want.data(), &table);
    tfc_cpu_conv2d_backprop_f32(runtime, x.data(), dy.data(), got.data(),
                                &table);
    // Each result sums at most this many products of terms in [-1, 1].
    float terms = float(t.n * t.oh * t.ow);
    for (size_t i = 0; i < got.size(); ++i)
      ASSERT_NEAR(got[i], want[i], 2e-6f * terms)
          << "c " << t.c << " stride " << t.stride << " at " << i;
  }
}

TEST_P(KernelTest, ReductionsMatchReference) {
  // A short reduction, and long ones that go in chunks (64K elements each):
  // 5000 rows of 32 in three chunks, 70000 single elements in two.
  const int64_t shapes[][3] = {{3, 5, 7}, {2, 5000, 32}, {1, 70000, 1}};
  tfc_runtime *serial = runtimeWithThreads(1);
  for (auto [outer, reduced, inner] : shapes) {
    std::vector<float> in = randomVector(outer * reduced * inner, 8);
    for (int kind = 0; kind < 5; ++kind) {
      // A product of thousands of values under/overflows: scale them to 1.
      std::vector<float> values = in;
      if (kind == 4 && reduced > 5)
        for (float &v : values)
          v = 1.f + v * 1e-4f;
      std::vector<float> got(outer * inner), once(outer * inner);
      tfc_cpu_reduce_f32(runtime, kind, values.data(), got.data(), outer, reduced, inner);
      tfc_cpu_reduce_f32(serial, kind, values.data(), once.data(), outer, reduced, inner);
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
          double acc = kind == 2 ? -INFINITY : kind == 3 ? INFINITY : kind == 4 ? 1 : 0;
          double magnitude = 0;
          for (int64_t r = 0; r < reduced; ++r) {
            double v = values[(o * reduced + r) * inner + i];
            acc = kind == 2 ? std::max(acc, v) : kind == 3 ? std::min(acc, v)
                  : kind == 4 ? acc * v : acc + v;
            magnitude += std::fabs(v);
          }
          if (kind == 1) {
            acc /= reduced;
            magnitude /= reduced;
          }
          // Float accumulation: about one rounding per term of the sum.
          double tolerance = kind >= 2 && kind <= 3 ? 0 : 1e-7 * magnitude + 1e-6;
          ASSERT_NEAR(got[o * inner + i], acc, tolerance)
              << "kind " << kind << " reduced " << reduced;
          // The chunks are fixed by the shape: the same at any thread count.
          ASSERT_EQ(got[o * inner + i], once[o * inner + i]) << "kind " << kind;
        }
    }
  }
  tfc_runtime_destroy(serial);
}

/// The moments kernel's mean is the Mean kernel's, bit for bit, and its
/// variance the mean of the squared deviations from it (computed here in
/// double), whole or in chunks, at any thread count.
TEST_P(KernelTest, MomentsMatchReference) {
  // A layer norm's rows (with a tail past the vector width), rows of
  // channels, and long reductions in chunks as ReductionsMatchReference's.
  const int64_t shapes[][3] = {
      {6, 37, 1}, {3, 5, 7}, {2, 5000, 32}, {1, 70000, 1}};
  tfc_runtime *serial = runtimeWithThreads(1);
  for (auto [outer, reduced, inner] : shapes) {
    // An offset far from zero: a one-pass sum of squares would lose it.
    std::vector<float> in = randomVector(outer * reduced * inner, 9);
    for (float &v : in)
      v = 100.f + v;
    std::vector<float> mean(outer * inner), variance(outer * inner);
    std::vector<float> wantMean(outer * inner), onceMean(outer * inner),
        onceVariance(outer * inner);
    tfc_cpu_moments_f32(runtime, in.data(), mean.data(), variance.data(),
                        outer, reduced, inner);
    tfc_cpu_moments_f32(serial, in.data(), onceMean.data(),
                        onceVariance.data(), outer, reduced, inner);
    tfc_cpu_reduce_f32(runtime, 1, in.data(), wantMean.data(), outer, reduced,
                       inner);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        int64_t at = o * inner + i;
        ASSERT_EQ(mean[at], wantMean[at]) << "reduced " << reduced;
        double sum = 0;
        for (int64_t r = 0; r < reduced; ++r) {
          double deviation = double(in[(o * reduced + r) * inner + i]) - mean[at];
          sum += deviation * deviation;
        }
        double want = sum / reduced;
        // Float sums of thousands of positive terms (16 lanes a chunk).
        ASSERT_NEAR(variance[at], want, 2e-5 * want + 1e-7)
            << "reduced " << reduced << " inner " << inner;
        ASSERT_EQ(variance[at], onceVariance[at]) << "reduced " << reduced;
      }
  }
  tfc_runtime_destroy(serial);
}

/// The batch norm kernels' folded-in work equals the ops they replace: a
/// max pooling computed as y is written (overlapping SAME windows; 1 and
/// 3 images, below and above the thread count, which take the kernel's
/// two paths) is the pooling kernel's on y, bit for bit; the gradient's
/// row sum of x's gradient is the sum of what it wrote.
TEST_P(KernelTest, BatchNormsComputeTheOpsFoldedIntoThem) {
  const int64_t h = 7, w = 6, c = 5, kh = 3, kw = 3, stride = 2;
  const int64_t oh = 4, ow = 3, padTop = 1, padLeft = 0;
  for (int64_t images : {1, 3}) {
    int64_t rows = images * h * w;
    std::vector<float> x = randomVector(rows * c, 11),
                       scale = randomVector(c, 12), offset = randomVector(c, 13);
    std::vector<float> y(rows * c), mean(c), variance(c), savedMean(c),
        savedVariance(c), pooled(images * oh * ow * c, 42.f),
        want(pooled.size());
    for (int64_t activation : {TFC_ACTIVATION_NONE, TFC_ACTIVATION_RELU}) {
      tfc_cpu_batch_norm_training_f32(
          runtime, x.data(), scale.data(), offset.data(), nullptr, nullptr,
          y.data(), mean.data(), variance.data(), savedMean.data(),
          savedVariance.data(), pooled.data(), nullptr, 1e-3f, 1.f, rows, c,
          activation, images, h, w, kh, kw, oh, ow, stride, stride, padTop,
          padLeft);
      std::vector<float> alone(y.size());
      tfc_cpu_batch_norm_training_f32(
          runtime, x.data(), scale.data(), offset.data(), nullptr, nullptr,
          alone.data(), mean.data(), variance.data(), savedMean.data(),
          savedVariance.data(), nullptr, nullptr, 1e-3f, 1.f, rows, c,
          activation, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
      ASSERT_EQ(y, alone) << "images " << images;
      tfc_cpu_pool2d_f32(runtime, 0, y.data(), want.data(), images, h, w, c, kh,
                         kw, oh, ow, stride, stride, padTop, padLeft);
      ASSERT_EQ(pooled, want) << "images " << images << " activation " << activation;
    }
    std::vector<float> gradient = randomVector(rows * c, 14);
    std::vector<float> dx(rows * c), dscale(c), doffset(c), sum(c, 42.f);
    for (int64_t training : {0, 1}) {
      tfc_cpu_batch_norm_grad_f32(runtime, gradient.data(), x.data(),
                                  scale.data(), savedMean.data(),
                                  savedVariance.data(), dx.data(), dscale.data(),
                                  doffset.data(), nullptr, nullptr, sum.data(),
                                  1e-3f, rows, c, training);
      for (int64_t ch = 0; ch < c; ++ch) {
        double total = 0, magnitude = 0;
        for (int64_t r = 0; r < rows; ++r) {
          total += dx[r * c + ch];
          magnitude += std::abs(dx[r * c + ch]);
        }
        ASSERT_NEAR(sum[ch], total, 1e-6 * magnitude + 1e-7)
            << "images " << images << " training " << training << " channel " << ch;
      }
      // In training the batch statistics' share makes the sum vanish: what
      // is left is rounding, far below the gradients' size.
      if (!training)
        ASSERT_GT(std::abs(sum[0]), 1e-3f);
    }
  }
}

/// The batch norm gradient that takes in a max pooling's gradient (and a
/// ReLU's) equals the pooling gradient's kernel followed by the batch norm
/// gradient's: windows that tile the image (2x2 and 3x3, which take the
/// kernel's recorded maxima), and overlapping SAME windows, channels that
/// end in a partial vector (5, 20) in both; y quantized so that
/// windows hold ties and zeros (the first maximum takes the gradient; the
/// ReLU's mask drops non-positive maxima).
TEST_P(KernelTest, BatchNormGradientTakesInMaxPoolingGradient) {
  struct Case {
    int64_t h, w, c, k, stride, oh, ow, padTop, padLeft;
  };
  const Case cases[] = {{8, 8, 32, 2, 2, 4, 4, 0, 0},
                        {6, 6, 20, 2, 2, 3, 3, 0, 0},
                        {6, 9, 5, 3, 3, 2, 3, 0, 0},
                        {7, 6, 5, 3, 2, 4, 3, 1, 0},
                        {9, 9, 20, 3, 2, 5, 5, 1, 1}};
  const int64_t images = 3;
  for (const Case &k : cases) {
    int64_t rows = images * k.h * k.w, size = rows * k.c;
    std::vector<float> x = randomVector(size, 21), y = randomVector(size, 22),
                       pooledGradient =
                           randomVector(images * k.oh * k.ow * k.c, 23),
                       scale = randomVector(k.c, 24), mean = randomVector(k.c, 25),
                       variance = randomVector(k.c, 26);
    // Mostly negative, so that 3x3 windows' maxima are not all positive.
    for (float &v : y)
      v = std::round((v - 0.6f) * 4.f) / 4.f;
    for (float &v : variance)
      v = std::abs(v) + 0.5f;
    for (int64_t relu : {0, 1})
      for (int64_t training : {0, 1}) {
        std::vector<float> dy(size), want(size), wantScale(k.c),
            wantOffset(k.c), wantSum(k.c);
        tfc_cpu_pool2d_grad_f32(runtime, relu ? 2 : 0, y.data(),
                                pooledGradient.data(), dy.data(), images, k.h,
                                k.w, k.c, k.k, k.k, k.oh, k.ow, k.stride,
                                k.stride, k.padTop, k.padLeft);
        tfc_cpu_batch_norm_grad_f32(
            runtime, dy.data(), x.data(), scale.data(), mean.data(),
            variance.data(), want.data(), wantScale.data(), wantOffset.data(),
            nullptr, nullptr, wantSum.data(), 1e-3f, rows, k.c, training);
        std::vector<float> got(size, 42.f), gotScale(k.c), gotOffset(k.c),
            gotSum(k.c);
        float reserved = 42.f;
        tfc_cpu_batch_norm_grad_pooled_f32(
            runtime, pooledGradient.data(), y.data(), nullptr, x.data(),
            scale.data(), mean.data(), variance.data(), got.data(),
            gotScale.data(), gotOffset.data(), &reserved, nullptr,
            gotSum.data(), 1e-3f, images, k.h, k.w, k.c, training, relu, k.k,
            k.k, k.oh, k.ow, k.stride, k.stride, k.padTop, k.padLeft);
        std::string where = "c " + std::to_string(k.c) + " relu " +
                            std::to_string(relu) + " training " +
                            std::to_string(training);
        ASSERT_EQ(reserved, 0.f) << where;
        // The sums run in other blocks and precisions: equal but for
        // rounding, far below the values' size (about 1 here).
        for (int64_t i = 0; i < size; ++i)
          ASSERT_NEAR(got[i], want[i], 1e-5f) << where << " at " << i;
        for (int64_t ch = 0; ch < k.c; ++ch) {
          ASSERT_NEAR(gotScale[ch], wantScale[ch], 1e-4f) << where;
          ASSERT_NEAR(gotOffset[ch], wantOffset[ch], 1e-4f) << where;
          ASSERT_NEAR(gotSum[ch], wantSum[ch], 1e-4f) << where;
        }
        // The ReLU's mask drops gradients: the offset's gradient (the sum
        // of y's) is smaller without the windows whose maximum is not
        // positive, in some channel.
        if (relu) {
          bool dropped = false;
          for (int64_t ch = 0; ch < k.c; ++ch) {
            double all = 0;
            for (int64_t i = ch; i < int64_t(pooledGradient.size()); i += k.c)
              all += pooledGradient[i];
            dropped |= std::abs(all - gotOffset[ch]) > 1e-3;
          }
          ASSERT_TRUE(dropped) << where;
        }
      }
  }
}

/// Where windows tile y, the training kernel can record its pooling
/// windows' maxima instead of writing y: the pooled result and statistics
/// are the same bit for bit; each record names the window's first maximum
/// of y (checked against y written by the same kernel), positive or not;
/// and the pooled gradient's kernel computes from the records what it
/// computes from y, bit for bit, with and without the ReLU's mask. x is
/// quantized so that windows hold ties, and with the ReLU zeros; 1 and 3
/// images; channels that end in a partial vector (5, 20).
TEST_P(KernelTest, BatchNormRecordsPoolingMaximaForItsGradient) {
  struct Case {
    int64_t h, w, c, k;
  };
  const Case cases[] = {{8, 8, 32, 2}, {6, 6, 20, 2}, {6, 9, 5, 3}};
  for (const Case &k : cases)
    for (int64_t images : {1, 3})
      for (int64_t activation : {TFC_ACTIVATION_NONE, TFC_ACTIVATION_RELU}) {
        int64_t rows = images * k.h * k.w, size = rows * k.c;
        int64_t oh = k.h / k.k, ow = k.w / k.k,
                pooledSize = images * oh * ow * k.c;
        std::vector<float> x = randomVector(size, 31),
                           scale = randomVector(k.c, 32),
                           offset = randomVector(k.c, 33);
        for (float &v : x)
          v = std::round(v * 3.f) / 3.f;
        std::string where = "c " + std::to_string(k.c) + " images " +
                            std::to_string(images) + " activation " +
                            std::to_string(activation);
        // y written, then y not written and the maxima recorded.
        std::vector<float> y(size), pooled(pooledSize), mean(k.c),
            variance(k.c), savedMean(k.c), savedVariance(k.c);
        tfc_cpu_batch_norm_training_f32(
            runtime, x.data(), scale.data(), offset.data(), nullptr, nullptr,
            y.data(), mean.data(), variance.data(), savedMean.data(),
            savedVariance.data(), pooled.data(), nullptr, 1e-3f, 1.f, rows, k.c,
            activation, images, k.h, k.w, k.k, k.k, oh, ow, k.k, k.k, 0, 0);
        std::vector<float> pooled2(pooledSize, 42.f), mean2(k.c),
            variance2(k.c), savedMean2(k.c), savedVariance2(k.c);
        std::vector<int8_t> record(pooledSize, 42);
        tfc_cpu_batch_norm_training_f32(
            runtime, x.data(), scale.data(), offset.data(), nullptr, nullptr,
            nullptr, mean2.data(), variance2.data(), savedMean2.data(),
            savedVariance2.data(), pooled2.data(), record.data(), 1e-3f, 1.f,
            rows, k.c, activation, images, k.h, k.w, k.k, k.k, oh, ow, k.k, k.k,
            0, 0);
        ASSERT_EQ(pooled2, pooled) << where;
        ASSERT_EQ(mean2, mean) << where;
        ASSERT_EQ(variance2, variance) << where;
        ASSERT_EQ(savedMean2, savedMean) << where;
        ASSERT_EQ(savedVariance2, savedVariance) << where;
        // Each record: p (positive maximum) or -1 - p, p the position in
        // the window (row-major) of its first maximum.
        int64_t ties = 0, nonPositive = 0;
        for (int64_t b = 0; b < images; ++b)
          for (int64_t py = 0; py < oh; ++py)
            for (int64_t px = 0; px < ow; ++px)
              for (int64_t ch = 0; ch < k.c; ++ch) {
                int64_t at = ((b * oh + py) * ow + px) * k.c + ch;
                int64_t first = -1, count = 0;
                for (int64_t p = 0; p < k.k * k.k; ++p) {
                  int64_t iy = py * k.k + p / k.k, ix = px * k.k + p % k.k;
                  float v = y[((b * k.h + iy) * k.w + ix) * k.c + ch];
                  if (v == pooled[at]) {
                    count++;
                    if (first < 0)
                      first = p;
                  }
                }
                ties += count > 1;
                nonPositive += pooled[at] <= 0.f;
                int64_t want = pooled[at] > 0.f ? first : -1 - first;
                ASSERT_EQ(record[at], want) << where << " at " << at;
              }
        ASSERT_GT(ties, 0) << where;
        ASSERT_GT(nonPositive, 0) << where;
        // The gradient from the records equals the gradient from y.
        std::vector<float> pooledGradient = randomVector(pooledSize, 34);
        for (int64_t relu : {0, 1})
          for (int64_t training : {0, 1}) {
            std::vector<float> want(size), wantScale(k.c), wantOffset(k.c),
                wantSum(k.c);
            tfc_cpu_batch_norm_grad_pooled_f32(
                runtime, pooledGradient.data(), y.data(), nullptr, x.data(),
                scale.data(), savedMean.data(), savedVariance.data(),
                want.data(), wantScale.data(), wantOffset.data(), nullptr,
                nullptr, wantSum.data(), 1e-3f, images, k.h, k.w, k.c, training,
                relu, k.k, k.k, oh, ow, k.k, k.k, 0, 0);
            std::vector<float> got(size, 42.f), gotScale(k.c), gotOffset(k.c),
                gotSum(k.c);
            tfc_cpu_batch_norm_grad_pooled_f32(
                runtime, pooledGradient.data(), nullptr, record.data(),
                x.data(), scale.data(), savedMean.data(), savedVariance.data(),
                got.data(), gotScale.data(), gotOffset.data(), nullptr, nullptr,
                gotSum.data(), 1e-3f, images, k.h, k.w, k.c, training, relu,
                k.k, k.k, oh, ow, k.k, k.k, 0, 0);
            std::string also = where + " relu " + std::to_string(relu) +
                               " training " + std::to_string(training);
            ASSERT_EQ(got, want) << also;
            ASSERT_EQ(gotScale, wantScale) << also;
            ASSERT_EQ(gotOffset, wantOffset) << also;
            ASSERT_EQ(gotSum, wantSum) << also;
          }
      }
}

/// The pooled batch norm gradient with the first convolution's filter
/// gradient folded in equals the two kernels apart, bit for bit: x's
/// gradient (where wanted), the batch norm's gradients, the folded
/// BiasAddGrad's sum and the filter's gradient. A convolution of three
/// channels to 32 (the few-channel kernel's, image by image from the
/// cache), SAME and VALID, with windows that tile y (x's gradient written
/// window by window) and that do not (the pooling's gradient scattered
/// first); and of 16 channels (another kernel's, after the whole x
/// gradient is written).
TEST_P(KernelTest, BatchNormGradientFoldsTheFirstFilterGradient) {
  struct Case {
    int64_t c, pad, window, stride;
  };
  const Case cases[] = {{3, 1, 2, 2}, {3, 0, 2, 2}, {3, 1, 3, 2}, {16, 1, 2, 2}};
  for (const Case &t : cases) {
    const int64_t images = 3, k = 32, oh = 12, ow = 10;
    const int64_t h = oh + 2 - 2 * t.pad, w = ow + 2 - 2 * t.pad;
    const int64_t pooledH = (oh - t.window) / t.stride + 1;
    const int64_t pooledW = (ow - t.window) / t.stride + 1;
    const int64_t size = images * oh * ow * k, pooledSize = images * pooledH * pooledW * k;
    std::vector<float> input = randomVector(images * h * w * t.c, 51);
    std::vector<float> x = randomVector(size, 52), y = randomVector(size, 53);
    std::vector<float> scale = randomVector(k, 54), mean = randomVector(k, 55);
    std::vector<float> variance(k, 0.5f);
    std::vector<float> pooledGradient = randomVector(pooledSize, 56);
    tfc_conv2d_backprop_params conv{images, h, w, t.c, 3, 3, k, oh, ow,
                                    1, 1, 1, 1, t.pad, t.pad, 0, 1};
    std::string where = "c " + std::to_string(t.c) + " pad " + std::to_string(t.pad) +
                        " window " + std::to_string(t.window);
    auto gradient = [&](bool fold, bool wanted, std::vector<float> &xGradient,
                        std::vector<float> &filter, std::vector<float> &rest) {
      float *r = rest.data();
      if (!fold) {
        tfc_cpu_batch_norm_grad_pooled_f32(
            runtime, pooledGradient.data(), y.data(), nullptr, x.data(), scale.data(),
            mean.data(), variance.data(), xGradient.data(), r, r + k, nullptr, nullptr,
            r + 2 * k, 1e-3f, images, oh, ow, k, 1, 1, t.window, t.window, pooledH,
            pooledW, t.stride, t.stride, 0, 0);
        tfc_cpu_conv2d_backprop_f32(runtime, input.data(), xGradient.data(),
                                    filter.data(), &conv);
        return;
      }
      tfc_cpu_batch_norm_grad_pooled_filter_f32(
          runtime, pooledGradient.data(), y.data(), nullptr, x.data(), scale.data(),
          mean.data(), variance.data(), xGradient.data(), r, r + k, nullptr, nullptr,
          r + 2 * k, input.data(), filter.data(), &conv, 1e-3f, images, oh, ow, k, 1,
          1, t.window, t.window, pooledH, pooledW, t.stride, t.stride, 0, 0, wanted);
    };
    std::vector<float> wantX(size), wantFilter(9 * t.c * k), wantRest(3 * k);
    gradient(false, true, wantX, wantFilter, wantRest);
    for (bool wanted : {true, false}) {
      std::vector<float> gotX(size, 42.f), gotFilter(9 * t.c * k, 42.f), gotRest(3 * k);
      gradient(true, wanted, gotX, gotFilter, gotRest);
      ASSERT_EQ(gotFilter, wantFilter) << where << " wanted " << wanted;
      ASSERT_EQ(gotRest, wantRest) << where << " wanted " << wanted;
      if (wanted)
        ASSERT_EQ(gotX, wantX) << where;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Threads, KernelTest, ::testing::Values(1, 2));

// Tests that threads running one random op at once (a queue runner's
// threads, a step's partitions) never draw the same samples: each call
// reserves its stretch of the op's stream under a lock, so the values of
// 2 x 20000 calls made from two threads at once are, as a multiset, those
// of 40000 calls made one after the other.
TEST(RuntimeTest, RandomOpCallsFromTwoThreadsDrawDisjointSamples) {
  std::unique_ptr<tfc_runtime, void (*)(tfc_runtime *)> runtime(
      runtimeWithThreads(1), tfc_runtime_destroy);
  constexpr int kCalls = 20000, kValues = 4;
  auto draw = [&](uint64_t *generator, float *out) {
    tfc_cpu_random(runtime.get(), 0, out, generator, nullptr, nullptr, kValues,
                   0, 7, 11);
  };
  uint64_t serial[4] = {0, 0, 0, 0};
  std::vector<float> want(2 * kCalls * kValues);
  for (int call = 0; call < 2 * kCalls; ++call)
    draw(serial, want.data() + call * kValues);
  uint64_t shared[4] = {0, 0, 0, 0};
  std::vector<float> got(2 * kCalls * kValues);
  // Both threads start their calls together, to overlap as much as they
  // can. A race is a matter of chance: without the lock, this test failed
  // in 5 of 10 runs on a 2-core machine; with it, it cannot.
  std::atomic<int> ready{0};
  auto calls = [&](int thread) {
    ready.fetch_add(1);
    while (ready.load() < 2) {
    }
    for (int call = 0; call < kCalls; ++call)
      draw(shared, got.data() + (thread * kCalls + call) * kValues);
  };
  std::thread other(calls, 1);
  calls(0);
  other.join();
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, want);
  EXPECT_EQ(shared[2], serial[2]);
}

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
  tfc_runtime *runtime = runtimeWithThreads(0);
  EXPECT_GE(tfc_runtime_threads(runtime), 1);
  tfc_runtime_destroy(runtime);
}

TEST(RuntimeTest, ScatterRowsCopiesRowsOfAnyElementType) {
  // TensorScatterUpdate of int32 rows (a loop's accumulator of its
  // counter) and of int64 indices: rows are bytes; the last index wins.
  tfc_runtime *runtime = runtimeWithThreads(1);
  std::vector<int32_t> tensor = {0, 0, 1, 1, 2, 2, 3, 3};
  const std::vector<int32_t> updates = {10, 11, 20, 21, 30, 31};
  const std::vector<int64_t> indices = {3, 0, 3};
  tfc_cpu_scatter_rows(runtime, tensor.data(), indices.data(), updates.data(),
                       "scatter", /*rows=*/4, /*row_bytes=*/8, /*count=*/3,
                       /*index_bytes=*/8);
  EXPECT_EQ(tensor, (std::vector<int32_t>{20, 21, 1, 1, 2, 2, 30, 31}));
  tfc_runtime_destroy(runtime);
}

TEST(RuntimeTest, ScatterAndGatherRowsOfManySlicesOnTwoThreads) {
  // Rows of images (a batch's micro-batches) are copied in slices of
  // their bytes, each thread its own slices of every row: rows of a size
  // no slice divides, duplicate indices (the last one's row wins in every
  // slice) and a gather of the rows back.
  tfc_runtime *runtime = runtimeWithThreads(2);
  const int64_t rows = 5, rowFloats = 70001, count = 4;
  std::vector<float> tensor(rows * rowFloats), updates(count * rowFloats);
  for (size_t i = 0; i < tensor.size(); ++i)
    tensor[i] = -float(i);
  for (size_t i = 0; i < updates.size(); ++i)
    updates[i] = float(i) + 0.5f;
  const std::vector<int32_t> indices = {4, 1, 4, 2};
  std::vector<float> want = tensor;
  for (int64_t i = 0; i < count; ++i)
    std::copy_n(updates.begin() + i * rowFloats, rowFloats,
                want.begin() + indices[i] * rowFloats);
  tfc_cpu_scatter_rows(runtime, tensor.data(), indices.data(), updates.data(),
                       "scatter", rows, rowFloats * 4, count,
                       /*index_bytes=*/4);
  EXPECT_EQ(tensor, want);
  std::vector<float> gathered(count * rowFloats), wantGathered;
  for (int32_t r : indices)
    wantGathered.insert(wantGathered.end(), want.begin() + r * rowFloats,
                        want.begin() + (r + 1) * rowFloats);
  tfc_cpu_gather_rows(runtime, tensor.data(), indices.data(), gathered.data(),
                      "gather", rows, rowFloats * 4, count, /*index_bytes=*/4);
  EXPECT_EQ(gathered, wantGathered);
  tfc_runtime_destroy(runtime);
}

TEST(RuntimeDeathTest, ScatterRowsOutsideTheTensorStopsTheStep) {
  tfc_runtime *runtime = runtimeWithThreads(1);
  std::vector<float> tensor(4);
  const std::vector<float> update = {1, 2};
  const int32_t index = 2;
  EXPECT_EXIT(tfc_cpu_scatter_rows(runtime, tensor.data(), &index, update.data(),
                                   "acc/push", 2, 8, 1, 4),
              ::testing::ExitedWithCode(1),
              "node 'acc/push': indices\\[0\\] = 2 is not in \\[0, 2\\)");
  tfc_runtime_destroy(runtime);
}

TEST(RuntimeTest, StacksPopWhatWasPushedInReverse) {
  // Two stacks of different elements; clearing one leaves the other; a
  // stack keeps working after a clear (the next step's).
  tfc_runtime *runtime = runtimeWithThreads(1);
  tfc_stack_clear(runtime, 0);
  tfc_stack_clear(runtime, 7);
  for (float v : {1.f, 2.f, 3.f}) {
    const float pair[2] = {v, -v};
    tfc_stack_push(runtime, pair, 0, sizeof pair);
  }
  const uint8_t flag = 1;
  tfc_stack_push(runtime, &flag, 7, 1);
  float pair[2];
  tfc_stack_pop(runtime, pair, "pop", 0, sizeof pair);
  EXPECT_EQ(pair[0], 3.f);
  EXPECT_EQ(pair[1], -3.f);
  tfc_stack_pop(runtime, pair, "pop", 0, sizeof pair);
  EXPECT_EQ(pair[0], 2.f);
  uint8_t popped = 0;
  tfc_stack_pop(runtime, &popped, "pop_flag", 7, 1);
  EXPECT_EQ(popped, 1);
  tfc_stack_clear(runtime, 0);
  const float again[2] = {5.f, 6.f};
  tfc_stack_push(runtime, again, 0, sizeof again);
  tfc_stack_pop(runtime, pair, "pop", 0, sizeof pair);
  EXPECT_EQ(pair[1], 6.f);
  tfc_runtime_destroy(runtime);
}

TEST(RuntimeDeathTest, PoppingAnEmptyStackStopsTheStep) {
  tfc_runtime *runtime = runtimeWithThreads(1);
  tfc_stack_clear(runtime, 3);
  float value;
  EXPECT_EXIT(tfc_stack_pop(runtime, &value, "grad/StackPopV2", 3, 4),
              ::testing::ExitedWithCode(1),
              "node 'grad/StackPopV2': pop from an empty stack");
  tfc_runtime_destroy(runtime);
}

TEST(RuntimeTest, TensorArraysAndTheirGradientArrays) {
  tfc_runtime *runtime = runtimeWithThreads(1);
  // A forward array of 3 elements of 2 floats: written, read back.
  tfc_tensor_array_init(runtime, 0, 3, 8, 3);
  const float rows[4] = {1, 2, 3, 4};
  const int32_t at[2] = {2, 0};
  tfc_tensor_array_write(runtime, at, rows, "write", 0, 2, 8, 0);
  float out[6] = {};
  const int32_t all[3] = {0, 1, 2};
  tfc_tensor_array_read(runtime, all, out, "read", 0, 3, 8, 0);
  EXPECT_EQ((std::vector<float>(out, out + 6)),
            (std::vector<float>{3, 4, 0, 0, 1, 2}));
  // Its gradient array: zeros, made once per step (a second request keeps
  // what was written), writes add up.
  tfc_tensor_array_grad(runtime, 5, 0, 8);
  const int32_t twice[2] = {1, 1};
  tfc_tensor_array_write(runtime, twice, rows, "grad_write", 5, 2, 8, 1);
  tfc_tensor_array_grad(runtime, 5, 0, 8);
  const int32_t one = 1;
  tfc_tensor_array_read(runtime, &one, out, "grad_read", 5, 1, 8, 0);
  EXPECT_EQ(out[0], 4.f);
  EXPECT_EQ(out[1], 6.f);
  // Without indices, the first elements in order (a split, a concat).
  const float parts[6] = {7, 8, 9, 10, 11, 12};
  tfc_tensor_array_write(runtime, nullptr, parts, "split", 0, 3, 8, 0);
  float concatenated[6];
  tfc_tensor_array_read(runtime, nullptr, concatenated, "concat", 0, 3, 8, 0);
  EXPECT_EQ((std::vector<float>(concatenated, concatenated + 6)),
            (std::vector<float>(parts, parts + 6)));
  // The next step remakes both.
  tfc_tensor_array_init(runtime, 0, 3, 8, 3);
  tfc_tensor_array_grad(runtime, 5, 0, 8);
  tfc_tensor_array_read(runtime, &one, out, "grad_read", 5, 1, 8, 0);
  EXPECT_EQ(out[0], 0.f);
  tfc_runtime_destroy(runtime);
}

TEST(RuntimeTest, TensorArrayOfDynamicSize) {
  tfc_runtime *runtime = runtimeWithThreads(1);
  // Capacity 4, made empty: writes lengthen it; padding indices read zeros.
  tfc_tensor_array_init(runtime, 0, 4, 4, 0);
  int32_t size = -1;
  tfc_tensor_array_size(runtime, &size, 0);
  EXPECT_EQ(size, 0);
  const float rows[2] = {5, 6};
  const int32_t at[2] = {0, 1};
  tfc_tensor_array_write(runtime, at, rows, "write", 0, 2, 4, 0);
  tfc_tensor_array_size(runtime, &size, 0);
  EXPECT_EQ(size, 2);
  const int32_t padded[3] = {0, 1, -1};
  float out[3] = {1, 1, 1};
  tfc_tensor_array_read(runtime, padded, out, "stack", 0, 3, 4, 1);
  EXPECT_EQ((std::vector<float>(out, out + 3)), (std::vector<float>{5, 6, 0}));
  tfc_runtime_destroy(runtime);
}

TEST(RuntimeDeathTest, TensorArrayIndexOutsideStopsTheStep) {
  tfc_runtime *runtime = runtimeWithThreads(1);
  const int32_t index = 3;
  float value;
  // Outside the array; then inside the capacity of an array of dynamic
  // size, past its length.
  tfc_tensor_array_init(runtime, 0, 3, 4, 3);
  EXPECT_EXIT(tfc_tensor_array_read(runtime, &index, &value, "ta/read", 0, 1, 4, 0),
              ::testing::ExitedWithCode(1),
              "node 'ta/read': index 3 is outside the TensorArray of 3 elements");
  tfc_tensor_array_init(runtime, 0, 4, 4, 2);
  EXPECT_EXIT(tfc_tensor_array_read(runtime, &index, &value, "ta/read", 0, 1, 4, 0),
              ::testing::ExitedWithCode(1),
              "node 'ta/read': Tried to read from index 3 but array size is: 2");
  tfc_runtime_destroy(runtime);
}

} // namespace
