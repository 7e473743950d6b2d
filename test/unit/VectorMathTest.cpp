//===- VectorMathTest.cpp - the kernels' float32 exp, tanh, erf, erfc -----===//
//
// The kernels' VectorMath.h, in its forms (one float, eight, and sixteen
// for exp, the AVX-512 kernels' softmax in attention),
// against the C library's double functions, in ulps of float32 at the
// exact result, over a spread of float32 bit patterns (every sign and
// exponent), every float of a band where an error peaks between the
// spread's patterns, and edge values, within the bounds that generated code
// meets (test/e2e/math-accuracy.test: same method, same polynomials). Built
// twice: for the baseline, and for AVX-512 (tfc-vector-math-tests-AVX512,
// run where the processor has it), whose sixteen-lane forms differ.
//
//===----------------------------------------------------------------------===//

#include "../../runtime/kernels/cpu/VectorMath.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace {

double ulps(float got, double want) {
  if (std::isnan(want) || std::isnan(got))
    return std::isnan(want) && std::isnan(got) ? 0 : INFINITY;
  if (std::isinf(got) || std::fabs(want) > std::numeric_limits<float>::max())
    return got == float(want) ? 0 : INFINITY;
  int exponent;
  std::frexp(std::fabs(want), &exponent);
  return std::fabs(double(got) - want) /
         std::ldexp(1.0, std::max(exponent - 24, -149));
}

/// Every float: the domain of most functions here.
bool everywhere(float) { return true; }

/// Which float32 bit patterns a check covers: every `stride`th from
/// `first` up to `end`.
struct Patterns {
  uint64_t first = 0;
  uint64_t end = uint64_t(1) << 32;
  uint64_t stride = 65537;
};

/// Every float from `low` to `high` (of one sign, low the nearer zero).
Patterns everyFloat(float low, float high) {
  uint32_t lowBits, highBits;
  std::memcpy(&lowBits, &low, sizeof low);
  std::memcpy(&highBits, &high, sizeof high);
  return {lowBits, uint64_t(highBits) + 1, 1};
}

/// The largest error of `approximation` over `patterns` (by default every
/// 65537th bit pattern, every sign and exponent) in `domain`, computed one
/// float at a time and eight at a time (both forms), and sixteen at a time
/// when `Sixteen`.
template <bool Sixteen = false, typename Approximation, typename Reference,
          typename Domain = bool (*)(float)>
void expectWithin(const char *name, Approximation approximation,
                  Reference reference, double bound, Domain domain = everywhere,
                  Patterns patterns = {}) {
  double worst = 0;
  float worstAt = 0;
  tfc::vector_math::Floats8 batch;
  tfc::Floats16 wide;
  int lanes = 0, wideLanes = 0;
  auto check = [&](float x, float got) {
    if (!domain(x))
      return;
    double error = ulps(got, reference(double(x)));
    if (error > worst) {
      worst = error;
      worstAt = x;
    }
  };
  for (uint64_t pattern = patterns.first; pattern < patterns.end;
       pattern += patterns.stride) {
    uint32_t bits = uint32_t(pattern);
    float x;
    std::memcpy(&x, &bits, sizeof x);
    check(x, approximation(x));
    batch[lanes++] = x;
    if (lanes == tfc::vector_math::kLanes8) {
      tfc::vector_math::Floats8 got = approximation(batch);
      for (int l = 0; l < lanes; ++l)
        check(batch[l], got[l]);
      lanes = 0;
    }
    if constexpr (Sixteen) {
      wide[wideLanes++] = x;
      if (wideLanes == tfc::kLanes16) {
        tfc::Floats16 got = approximation(wide);
        for (int l = 0; l < wideLanes; ++l)
          check(wide[l], got[l]);
        wideLanes = 0;
      }
    }
  }
  EXPECT_LE(worst, bound) << name << " at " << worstAt;
}

/// The reference, under a name of its own: called sigmoid, it hid the
/// kernels' from the using-directives below, and EdgeValues tested it.
double referenceSigmoid(double x) { return 1 / (1 + std::exp(-x)); }

/// Where swish is x * sigmoid(x) with sigmoid a normal float (EdgeValues
/// checks below).
bool swishSigmoidNormal(float x) {
  return !(x < tfc::vector_math::kSigmoidSubnormalBelow);
}

TEST(VectorMathTest, WithinStatedUlps) {
  using namespace tfc::vector_math;
  expectWithin</*Sixteen=*/true>("exp", [](auto x) { return exp(x); },
                                 [](double x) { return std::exp(x); }, 1.5);
  expectWithin("tanh", [](auto x) { return tanh(x); },
               [](double x) { return std::tanh(x); }, 1.5);
  expectWithin</*Sixteen=*/true>(
      "sigmoid", [](auto x) { return tfc::vector_math::sigmoid(x); },
      referenceSigmoid, 3.5);
  // Swish's worst over every float where sigmoid is normal is 3.10 ulps,
  // at -16.68 (the sixteen-lane form, checked once over those 2^31
  // floats): exp(-x) is near 2^24 there, and 1 + exp(-x) rounds. The
  // spread of patterns misses that band; every float of [-17, -16] is
  // checked too.
  auto swishForms = [](auto x) { return swish(x); };
  auto referenceSwish = [](double x) { return x * referenceSigmoid(x); };
  expectWithin</*Sixteen=*/true>("swish", swishForms, referenceSwish, 3.5,
                                 swishSigmoidNormal);
  expectWithin</*Sixteen=*/true>("swish", swishForms, referenceSwish, 3.5,
                                 swishSigmoidNormal,
                                 everyFloat(-16.0f, -17.0f));
  expectWithin("erf", [](auto x) { return erf(x); },
               [](double x) { return std::erf(x); }, 3.5);
  expectWithin("erfc", [](auto x) { return erfc(x); },
               [](double x) { return std::erfc(x); }, 7.0);
}

/// exp's last step, p * 2^k, gives the same bits as the two-factor form
/// where the build has its own (AVX-512's vscalefps): for every k exp
/// uses, down to subnormal and up to infinite results, and p over exp's
/// range of [1/sqrt(2), sqrt(2)] and past it.
TEST(VectorMathTest, PowerOfTwoScalingAsTwoFactors) {
  using namespace tfc::vector_math::detail;
  tfc::Floats16 p, k;
  int lanes = 0, checked = 0;
  auto compare = [&] {
    tfc::Floats16 got = scaleByPowerOfTwo(p, k);
    tfc::Floats16 want = scaleByTwoFactors(p, k);
    for (int l = 0; l < lanes; ++l) {
      uint32_t g, w;
      std::memcpy(&g, &got[l], sizeof g);
      std::memcpy(&w, &want[l], sizeof w);
      ASSERT_EQ(g, w) << p[l] << " * 2^" << k[l];
      ++checked;
    }
    lanes = 0;
  };
  for (int exponent = -150; exponent <= 129; ++exponent)
    for (float mantissa = 0.5f; mantissa < 2.0f; mantissa += 0.0009765625f * 1.37f) {
      p[lanes] = mantissa;
      k[lanes] = float(exponent);
      if (++lanes == tfc::kLanes16)
        compare();
    }
  if (lanes)
    compare();
  EXPECT_GT(checked, 280 * 1000);
}

TEST(VectorMathTest, EdgeValues) {
  using namespace tfc::vector_math;
  const float inf = INFINITY;
  EXPECT_EQ(exp(0.0f), 1.0f);
  EXPECT_EQ(exp(-inf), 0.0f);
  EXPECT_EQ(exp(inf), inf);
  EXPECT_EQ(exp(88.72284f), inf); // Just above ln(FLT_MAX).
  EXPECT_EQ(exp(-104.0f), 0.0f);
  EXPECT_GT(exp(-103.0f), 0.0f); // Subnormal, not flushed.
  EXPECT_TRUE(std::isnan(exp(NAN)));
  EXPECT_TRUE(std::signbit(tanh(-0.0f)));
  EXPECT_EQ(tanh(-inf), -1.0f);
  EXPECT_EQ(tanh(20.0f), 1.0f);
  EXPECT_TRUE(std::isnan(tanh(NAN)));
  EXPECT_EQ(sigmoid(inf), 1.0f);
  EXPECT_EQ(sigmoid(-inf), 0.0f);
  EXPECT_GT(sigmoid(-100.0f), 0.0f); // exp(-100) / (1 + exp(-100)).
  EXPECT_TRUE(std::isnan(sigmoid(NAN)));
  EXPECT_TRUE(std::isnan(sigmoid(-NAN)));
  Floats8 nans = sigmoid(splat8(NAN));
  for (int64_t l = 0; l < kLanes8; ++l)
    EXPECT_TRUE(std::isnan(nans[l])) << "lane " << l;
  EXPECT_TRUE(std::isnan(activation(NAN, TFC_ACTIVATION_SWISH)));
  EXPECT_TRUE(std::isnan(swish(-inf))); // -inf * sigmoid(-inf), as TensorFlow.
  EXPECT_EQ(swish(inf), inf);
  // Where sigmoid(x) is subnormal, -0: the product with TensorFlow's
  // flushed sigmoid.
  EXPECT_LT(referenceSigmoid(kSigmoidSubnormalBelow - 0.001), 0x1p-126);
  EXPECT_GT(referenceSigmoid(kSigmoidSubnormalBelow + 0.001), 0x1p-126);
  for (float x = kSigmoidSubnormalBelow - 0.001f; x > -120.0f; x -= 0.37f) {
    EXPECT_EQ(swish(x), 0.0f) << x;
    EXPECT_TRUE(std::signbit(swish(x))) << x;
  }
  EXPECT_TRUE(std::signbit(erf(-0.0f)));
  EXPECT_EQ(erf(-inf), -1.0f);
  EXPECT_EQ(erfc(inf), 0.0f);
  EXPECT_EQ(erfc(-inf), 2.0f);
  EXPECT_EQ(erfc(10.06f), 0.0f);
  EXPECT_GT(erfc(10.0f), 0.0f);
  EXPECT_TRUE(std::isnan(erfc(NAN)));
}

} // namespace
