//===- MathPolynomials.h - float32 exp, tanh, erf, erfc polynomials -*- C++ -*-===//
//
// The coefficients of the branch-free float32 exp, tanh, erf and erfc that
// generated loops compute (lib/Transforms/Codegen/MathApproximations.cpp)
// and the runtime's kernels use (runtime/kernels/cpu/VectorMath.h), so
// that both compute the same way. A C library call per element keeps a loop
// scalar; these are plain arithmetic and selects, which the loop
// vectorizer turns into SIMD code of the target's width.
//
// Made by scripts/fit_math_polynomials.py (minimax relative error in
// double, then rounded to float32); every polynomial is evaluated by
// Horner's rule, the first coefficient the constant term. Accuracy against
// the C library, in ulps, is measured by test/e2e/math-accuracy.test and
// stated in docs/Codegen.md.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_SUPPORT_MATHPOLYNOMIALS_H
#define TFC_SUPPORT_MATHPOLYNOMIALS_H

namespace tfc::math_polynomials {

// exp(x) = 2^k exp(r), k = round(x / ln2), r = x - k ln2 with ln2 in two
// parts (Cody and Waite): kLn2High has 9 significant bits, so k * kLn2High
// is exact for |k| <= 150 and r keeps its bits.
inline constexpr float kLog2E = 1.44269504088896341f;
inline constexpr float kLn2High = 0.693359375f;
inline constexpr float kLn2Low = -2.12194440e-4f;
// x is clamped to [kExpLow, kExpHigh] first: exp underflows to 0 below
// ln(2^-150) (-103.97) and overflows to infinity above ln(FLT_MAX)
// (88.72), and inside the clamp k stays in [-150, 129], where 2^k is two
// normal scale factors.
inline constexpr float kExpLow = -104.0f;
inline constexpr float kExpHigh = 89.0f;

// exp(r) = 1 + r + r^2 p(r) for |r| <= ln2 / 2.
inline constexpr float kExpTail[] = {
    0.4999999403953552f,  0.1666651964187622f,    0.04166839271783829f,
    0.008368780836462975f, 0.0013814467238262296f,
};

// tanh(x) = x + x^3 p(x^2) for |x| < kTanhSmall; beyond it
// 1 - 2 / (exp(2|x|) + 1), which has no cancellation there.
inline constexpr float kTanhSmall = 0.625f;
inline constexpr float kTanhOdd[] = {
    -0.3333328068256378f, 0.13331441581249237f, -0.05373971536755562f,
    0.0206390880048275f,  -0.005704987328499556f,
};

// erf(x) = x p(x^2) for |x| < kErfSmall; beyond it 1 - erfc(|x|) with the
// sign of x, and erfc(x) = 1 - erf(x) below it.
inline constexpr float kErfSmall = 0.5f;
inline constexpr float kErfOdd[] = {
    1.1283791065216064f,  -0.37612608075141907f, 0.11282823234796524f,
    -0.026757191866636276f, 0.004718002397567034f,
};

// erfc(a) = exp(-a^2) t p(t - center), t = 1 / (1 + a / 2), for a >= 0.5:
// the near piece up to a = 2 (t >= 0.5), the far one beyond. erfc
// underflows float32 above kErfcZero. exp(-a^2) takes a^2 as an exact sum
// of two floats (Dekker's product), since rounding a^2 alone would cost
// a^2 / 2 ulps of the result (45 at a = 9.5).
inline constexpr float kErfcZero = 10.1f;
inline constexpr float kErfcSplit = 2.0f;
inline constexpr float kErfcNearCenter = 0.6499999761581421f;
inline constexpr float kErfcNear[] = {
    0.6268398761749268f,   0.8621459007263184f,   0.5986194610595703f,
    0.02647564746439457f,  -0.2130429446697235f,  -0.005984081421047449f,
    0.10365152359008789f,
};
inline constexpr float kErfcFarCenter = 0.33264464139938354f;
inline constexpr float kErfcFar[] = {
    0.41064342856407166f,  0.5150768756866455f,   0.46266576647758484f,
    0.22463001310825348f,  -0.05667848885059357f, -0.14726348221302032f,
    -0.014508002437651157f,
};

} // namespace tfc::math_polynomials

#endif // TFC_SUPPORT_MATHPOLYNOMIALS_H
