//===- VectorMath.h - float32 exp, tanh, erf, erfc that vectorize -*- C++ -*-===//
//
// The kernels' float32 exp, tanh, erf and erfc: the method and the
// coefficients of the generated loops' (include/tfc/Support/
// MathPolynomials.h, lib/Transforms/Codegen/MathApproximations.cpp), as
// inline C++ without branches or calls, so that a loop over them
// vectorizes where std::exp's per-element call would keep it scalar.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_KERNELS_CPU_VECTORMATH_H
#define TFC_RUNTIME_KERNELS_CPU_VECTORMATH_H

#include "tfc/Support/MathPolynomials.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace tfc::vector_math {

namespace detail {
using namespace tfc::math_polynomials;

template <size_t N> inline float horner(const float (&c)[N], float v) {
  float acc = c[N - 1];
  for (size_t i = N - 1; i-- > 0;)
    acc = acc * v + c[i];
  return acc;
}

inline float bitsToFloat(int32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

inline float roundToEven(float x) {
  // Adding and subtracting 1.5 * 2^23 rounds |x| < 2^22 to an integer, to
  // even on ties, in the current (nearest) rounding mode.
  const float shifter = 12582912.0f;
  return (x + shifter) - shifter;
}

/// exp(x) for x within [kExpLow, kExpHigh] (or NaN).
inline float expClamped(float x) {
  float k = roundToEven(x * kLog2E);
  float r = x - k * kLn2High;
  r = r - k * kLn2Low;
  float p = 1.0f + r + r * r * horner(kExpTail, r);
  // 2^k as two normal factors: k in [-150, 129].
  int32_t ki = int32_t(k);
  int32_t half = ki >> 1;
  float scale1 = bitsToFloat((half + 127) << 23);
  float scale2 = bitsToFloat((ki - half + 127) << 23);
  return p * scale1 * scale2;
}

/// erfc(a) for a >= 0 (or NaN).
inline float erfcNonNegative(float a) {
  a = a < kErfcZero ? a : kErfcZero; // NaN stays NaN: caller selects.
  // a^2 = high + low exactly (Veltkamp's split, Dekker's product).
  float split = a * 4097.0f;
  float aHigh = split - (split - a);
  float aLow = a - aHigh;
  float high = a * a;
  float low = ((aHigh * aHigh - high) + 2.0f * aHigh * aLow) + aLow * aLow;
  float e = expClamped(-high) * (1.0f - low);
  float t = 1.0f / (1.0f + 0.5f * a);
  bool near = a < kErfcSplit;
  float p = near ? horner(kErfcNear, t - kErfcNearCenter)
                 : horner(kErfcFar, t - kErfcFarCenter);
  return e * t * p;
}
} // namespace detail

inline float exp(float x) {
  using namespace detail;
  float clamped = x < kExpLow ? kExpLow : (x > kExpHigh ? kExpHigh : x);
  float y = expClamped(clamped);
  return x != x ? x : y;
}

inline float tanh(float x) {
  using namespace detail;
  float a = x < 0 ? -x : x;
  float x2 = x * x;
  // x + x^3 p(x^2) is +0 at x = -0: the sign goes back on.
  float small = std::copysign(x + x * x2 * horner(kTanhOdd, x2), x);
  float e = exp(2.0f * a);
  float large = 1.0f - 2.0f / (e + 1.0f);
  large = x < 0 ? -large : large;
  return a < kTanhSmall ? small : (x != x ? x : large);
}

/// 1 / (1 + exp(-x)), as exp(x) / (1 + exp(x)) below 0 so that exp never
/// overflows: sigmoid(-100) is a subnormal, not 0.
inline float sigmoid(float x) {
  float e = exp(x < 0 ? x : -x);
  float s = 1.0f / (1.0f + e);
  return x < 0 ? e * s : s;
}

inline float erfc(float x) {
  using namespace detail;
  float a = x < 0 ? -x : x;
  float x2 = x * x;
  float fromErf = 1.0f - x * horner(kErfOdd, x2);
  float tail = erfcNonNegative(a);
  tail = x < 0 ? 2.0f - tail : tail;
  return a < kErfSmall ? fromErf : (x != x ? x : tail);
}

inline float erf(float x) {
  using namespace detail;
  float a = x < 0 ? -x : x;
  float x2 = x * x;
  float small = x * horner(kErfOdd, x2);
  float large = 1.0f - erfcNonNegative(a);
  large = x < 0 ? -large : large;
  return a < kErfSmall ? small : (x != x ? x : large);
}

} // namespace tfc::vector_math

#endif // TFC_RUNTIME_KERNELS_CPU_VECTORMATH_H
