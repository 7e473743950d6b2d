//===- VectorMath.h - float32 exp, tanh, erf, erfc without calls -*- C++ -*-===//
//
// The kernels' float32 exp, tanh, sigmoid, swish, erf and erfc: the method
// and coefficients of the generated loops' (include/tfc/Support/
// MathPolynomials.h, lib/Transforms/Codegen/MathApproximations.cpp; swish,
// which those compute as x * sigmoid(x), in a form of its own below), as
// inline C++ without branches or calls, for one float or eight at once
// (Floats8: one AVX2 register, two SSE ones). The auto-vectorizer does not
// turn a loop over the scalar form into SIMD code reliably; a kernel's hot
// loop calls the vector form. (Sixteen at once, Vector16.h's width, is
// worse on AVX2: GCC splits its comparisons and selects element by
// element.)
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_KERNELS_CPU_VECTORMATH_H
#define TFC_RUNTIME_KERNELS_CPU_VECTORMATH_H

#include "NativeVector.h"
#include "Vector16.h"
#include "tfc/Runtime/tfc_runtime.h"
#include "tfc/Support/MathPolynomials.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

// Always inlined: a vector passed to a function that is not inlined goes
// through memory.
#define TFC_VECTOR_MATH inline __attribute__((always_inline))

namespace tfc::vector_math {

typedef float Floats8 __attribute__((vector_size(32)));
typedef int32_t Ints8 __attribute__((vector_size(32)));
constexpr int64_t kLanes8 = 8;

/// Eight floats from or to memory at any float's alignment.
TFC_VECTOR_MATH Floats8 load8(const float *p) {
  Floats8 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
TFC_VECTOR_MATH void store8(float *p, Floats8 v) { std::memcpy(p, &v, sizeof v); }
TFC_VECTOR_MATH Floats8 splat8(float x) {
  return Floats8{x, x, x, x, x, x, x, x};
}

/// The larger of two floats, or lane by lane of two vectors, by std::max's
/// rule (the first unless the second is larger).
struct Max {
  template <typename T> T operator()(T a, T b) const { return a < b ? b : a; }
};
struct Min {
  template <typename T> T operator()(T a, T b) const { return b < a ? b : a; }
};

/// src[0] op ... op src[n - 1] for contiguous src, with one partial result
/// per lane of V (one chain of dependent operations each, not one chain of
/// n), combined at the end, as Eigen's vectorized reductions do. Max and
/// Min want Floats8: GCC splits a comparison of sixteen lanes element by
/// element on AVX2. Sixteen lanes are held as native registers (two on
/// AVX2), the same lanes combined in the same order: GCC kept a
/// Floats16 accumulator on AVX2 in memory, stored and reloaded every
/// iteration, which made a Mean over a layer norm's rows of 256 floats
/// run at a third of memory's speed.
template <typename V, typename Op>
TFC_VECTOR_MATH float reduceLanes(const float *src, int64_t n, float identity,
                                  Op op) {
  constexpr int64_t lanes = sizeof(V) / sizeof(float);
  // V, or the native vectors that make it up.
  using Part = std::conditional_t<(lanes > kNativeLanes), NativeFloats, V>;
  constexpr int64_t width = sizeof(Part) / sizeof(float);
  static_assert(lanes == width || lanes == 2 * width);
  Part low, high;
  for (int64_t l = 0; l < width; ++l)
    low[l] = high[l] = identity;
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    Part v;
    std::memcpy(&v, src + i, sizeof v);
    low = op(low, v);
    if constexpr (lanes == 2 * width) {
      std::memcpy(&v, src + i + width, sizeof v);
      high = op(high, v);
    }
  }
  float result = identity;
  for (int64_t l = 0; l < width; ++l)
    result = op(result, low[l]);
  if constexpr (lanes == 2 * width)
    for (int64_t l = 0; l < width; ++l)
      result = op(result, high[l]);
  for (; i < n; ++i)
    result = op(result, src[i]);
  return result;
}

namespace detail {
using namespace tfc::math_polynomials;

// What differs between one float and sixteen.
TFC_VECTOR_MATH float splat(float, float c) { return c; }
TFC_VECTOR_MATH Floats8 splat(Floats8, float c) { return splat8(c); }
TFC_VECTOR_MATH float select(bool c, float a, float b) { return c ? a : b; }
TFC_VECTOR_MATH Floats8 select(Ints8 c, Floats8 a, Floats8 b) { return c ? a : b; }
TFC_VECTOR_MATH int32_t truncate(float x) { return int32_t(x); }
TFC_VECTOR_MATH Ints8 truncate(Floats8 x) { return __builtin_convertvector(x, Ints8); }
TFC_VECTOR_MATH float fromBits(int32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}
TFC_VECTOR_MATH Floats8 fromBits(Ints8 bits) { return reinterpret_cast<Floats8 &>(bits); }
// Sixteen at once (Vector16.h's Floats16), for the AVX-512 build of the
// kernels, where it is one register.
TFC_VECTOR_MATH Floats16 splat(Floats16, float c) { return splat16(c); }
TFC_VECTOR_MATH Floats16 select(Ints16 c, Floats16 a, Floats16 b) { return c ? a : b; }
TFC_VECTOR_MATH Ints16 truncate(Floats16 x) { return __builtin_convertvector(x, Ints16); }
TFC_VECTOR_MATH Floats16 fromBits(Ints16 bits) { return reinterpret_cast<Floats16 &>(bits); }
TFC_VECTOR_MATH float copySign(float magnitude, float sign) {
  return std::copysign(magnitude, sign);
}
TFC_VECTOR_MATH Floats8 copySign(Floats8 magnitude, Floats8 sign) {
  Ints8 m = reinterpret_cast<Ints8 &>(magnitude) & 0x7fffffff;
  Ints8 s = reinterpret_cast<Ints8 &>(sign) & int32_t(0x80000000u);
  Ints8 bits = m | s;
  return reinterpret_cast<Floats8 &>(bits);
}

/// p * 2^k for k an integer in [-150, 129] (held in a float), as two
/// normal factors 2^(k/2) and 2^(k - k/2): the first product is exact, the
/// second rounds once, also where the result is subnormal.
template <typename V> TFC_VECTOR_MATH V scaleByTwoFactors(V p, V k) {
  auto ki = truncate(k);
  auto half = ki >> 1;
  return p * fromBits((half + 127) << 23) * fromBits((ki - half + 127) << 23);
}
template <typename V> TFC_VECTOR_MATH V scaleByPowerOfTwo(V p, V k) {
  return scaleByTwoFactors(p, k);
}
#ifdef __AVX512F__
/// AVX-512's vscalefps computes p * 2^k with one rounding: the same
/// result as the two factors (bit for bit, VectorMathTest checks), in one
/// instruction instead of seven (conversion, shifts, adds, products).
/// Swish's loop over a convolution's output took 0.35 ns an element
/// instead of 0.49 on an Intel AVX-512 core.
TFC_VECTOR_MATH Floats16 scaleByPowerOfTwo(Floats16 p, Floats16 k) {
  __m512 scaled = _mm512_scalef_ps(reinterpret_cast<const __m512 &>(p),
                                   reinterpret_cast<const __m512 &>(k));
  return reinterpret_cast<const Floats16 &>(scaled);
}
#endif

template <typename V, size_t N> TFC_VECTOR_MATH V horner(const float (&c)[N], V v) {
  V acc = splat(v, c[N - 1]);
  for (size_t i = N - 1; i-- > 0;)
    acc = acc * v + c[i];
  return acc;
}

/// exp(x) for x within [kExpLow, kExpHigh] (or NaN: any value).
template <typename V> TFC_VECTOR_MATH V expClamped(V x) {
  // Adding and subtracting 1.5 * 2^23 rounds to an integer, ties to even.
  const float shifter = 12582912.0f;
  V k = (x * kLog2E + shifter) - shifter;
  V r = x - k * kLn2High;
  r = r - k * kLn2Low;
  V p = 1.0f + r + r * r * horner(kExpTail, r);
  return scaleByPowerOfTwo(p, k); // k in [-150, 129]
}

/// exp(x) for x <= 0, or NaN for NaN (every step of expClamped is NaN
/// then): sigmoid's argument, which needs neither exp's upper clamp nor
/// its test for NaN. Swish's loops are sigmoid's arithmetic: those two
/// compares and selects were 4 of the 42 instructions of its AVX2 loop.
template <typename V> TFC_VECTOR_MATH V expNonPositive(V x) {
  return expClamped(select(x < kExpLow, splat(x, kExpLow), x));
}

/// erfc(a) for a >= 0 (or NaN: any value).
template <typename V> TFC_VECTOR_MATH V erfcNonNegative(V a) {
  a = select(a < kErfcZero, a, splat(a, kErfcZero));
  // a^2 = high + low exactly (Veltkamp's split, Dekker's product).
  V split = a * 4097.0f;
  V aHigh = split - (split - a);
  V aLow = a - aHigh;
  V high = a * a;
  V low = ((aHigh * aHigh - high) + 2.0f * aHigh * aLow) + aLow * aLow;
  V e = expClamped(-high) * (1.0f - low);
  V t = 1.0f / (1.0f + 0.5f * a);
  V p = select(a < kErfcSplit, horner(kErfcNear, t - kErfcNearCenter),
               horner(kErfcFar, t - kErfcFarCenter));
  return e * t * p;
}
} // namespace detail

template <typename V> TFC_VECTOR_MATH V exp(V x) {
  using namespace detail;
  V clamped = select(x < kExpLow, splat(x, kExpLow),
                     select(x > kExpHigh, splat(x, kExpHigh), x));
  return select(x != x, x, expClamped(clamped));
}

template <typename V> TFC_VECTOR_MATH V tanh(V x) {
  using namespace detail;
  V a = select(x < 0.0f, -x, x);
  V x2 = x * x;
  // x + x^3 p(x^2) is +0 at x = -0: the sign goes back on.
  V small = copySign(x + x * x2 * horner(kTanhOdd, x2), x);
  V e = exp(2.0f * a);
  V large = 1.0f - 2.0f / (e + 1.0f);
  large = select(x < 0.0f, -large, large);
  return select(a < kTanhSmall, small, select(x != x, x, large));
}

/// 1 / (1 + exp(-x)), as exp(x) / (1 + exp(x)) below 0 so that exp never
/// overflows: sigmoid(-100) is a subnormal, not 0.
template <typename V> TFC_VECTOR_MATH V sigmoid(V x) {
  using namespace detail;
  V e = expNonPositive(select(x < 0.0f, x, -x));
  V s = 1.0f / (1.0f + e);
  return select(x < 0.0f, e * s, s);
}

/// Below this, sigmoid(x) is below 2^-126 (-126 ln 2): TensorFlow's step,
/// which flushes subnormal results to zero, gets 0 for it.
constexpr float kSigmoidSubnormalBelow = -87.336544f;

/// x * sigmoid(x), as x / (1 + exp(-x)): one exp and one division without
/// sigmoid's two branches and their selects. Swish follows most of the
/// EfficientNets' convolutions; this form took 0.27 ns an element on a
/// Zen 4 core where x * sigmoid(x) took 0.33. Below
/// kSigmoidSubnormalBelow, exp(-x) is made infinite and the result -0:
/// TensorFlow's x * sigmoid(x) with its sigmoid flushed to zero (-inf
/// gives NaN, as there).
template <typename V> TFC_VECTOR_MATH V swish(V x) {
  using namespace detail;
  V negated = -x;
  negated = select(
      negated < kExpLow, splat(x, kExpLow),
      select(negated > -kSigmoidSubnormalBelow, splat(x, kExpHigh), negated));
  return x / (1.0f + expClamped(negated));
}

template <typename V> TFC_VECTOR_MATH V erfc(V x) {
  using namespace detail;
  V a = select(x < 0.0f, -x, x);
  V fromErf = 1.0f - x * horner(kErfOdd, x * x);
  V tail = erfcNonNegative(a);
  tail = select(x < 0.0f, 2.0f - tail, tail);
  return select(a < kErfSmall, fromErf, select(x != x, x, tail));
}

template <typename V> TFC_VECTOR_MATH V erf(V x) {
  using namespace detail;
  V a = select(x < 0.0f, -x, x);
  V small = x * horner(kErfOdd, x * x);
  V large = 1.0f - erfcNonNegative(a);
  large = select(x < 0.0f, -large, large);
  return select(a < kErfSmall, small, select(x != x, x, large));
}

/// An epilogue's activation (`kind`, an enum tfc_activation) of one float
/// or of a vector. NaN passes through ReLU and ReLU6, as TensorFlow's let it.
template <typename V> TFC_VECTOR_MATH V activation(V x, int64_t kind) {
  using namespace detail;
  if (kind == TFC_ACTIVATION_RELU || kind == TFC_ACTIVATION_RELU6)
    x = select(x < 0.0f, splat(x, 0.0f), x);
  if (kind == TFC_ACTIVATION_RELU6)
    x = select(x > 6.0f, splat(x, 6.0f), x);
  if (kind == TFC_ACTIVATION_SWISH)
    x = swish(x);
  // x * (relu6(x + 3) / 6), as Keras' TensorFlow graph computes it.
  if (kind == TFC_ACTIVATION_HARD_SWISH)
    x = x * (activation(x + 3.0f, TFC_ACTIVATION_RELU6) / 6.0f);
  // (x * 0.5) * erfc(-x * (1 / sqrt(2))), as Keras' graph computes GELU.
  if (kind == TFC_ACTIVATION_GELU)
    x = (x * 0.5f) * erfc(-x * 0.707106769f);
  return x;
}

} // namespace tfc::vector_math

#undef TFC_VECTOR_MATH

#endif // TFC_RUNTIME_KERNELS_CPU_VECTORMATH_H
