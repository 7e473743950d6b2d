//===- SpecialFunctions.cpp - special functions of elementwise ops --------===//
//
// The scalar functions that generated elementwise loops call for the ops
// with no math-dialect counterpart: gamma and beta family, zeta, the error
// function's inverse, Bessel functions. TensorFlow's CPU kernels compute
// them with Eigen's special functions (unsupported/Eigen/SpecialFunctions),
// so these call the same ones and agree with TensorFlow on every element.
// Each comes in float (suffix f) and double, the names the code generator
// calls (EmitElementwise.cpp); other float types compute in float.
//
//===----------------------------------------------------------------------===//

#include <unsupported/Eigen/SpecialFunctions>

#include <cmath>
#include <limits>

namespace {

/// TensorFlow's Erfinv: ndtri((x + 1) / 2) / sqrt(2).
template <typename T> T erfinv(T x) {
  return Eigen::numext::ndtri(T(0.5) * x + T(0.5)) * T(M_SQRT1_2);
}

/// Hurwitz's zeta. Where q^-x underflows every term of the series does,
/// and the sum is 0: TensorFlow's Eigen says so, Debian's (3.4) says NaN.
template <typename T> T zeta(T x, T q) {
  if (x > T(1) && q > T(0) && std::pow(q, -x) == T(0))
    return T(0);
  return Eigen::numext::zeta(x, q);
}

/// The n-th derivative of digamma, through zeta as Eigen writes it, but
/// with the zeta above.
template <typename T> T polygamma(T n, T x) {
  if (n != std::floor(n))
    return std::numeric_limits<T>::quiet_NaN();
  if (n == T(0))
    return Eigen::numext::digamma(x);
  T order = n + T(1);
  return std::pow(T(-1), order) * std::exp(std::lgamma(order)) * zeta(order, x);
}

} // namespace

// One C entry point per float type for each function of one, two or three
// scalars.
#define TFC_UNARY(name, expr)                                                  \
  extern "C" float tfc_##name##f(float x) { using T = float; return expr; }   \
  extern "C" double tfc_##name(double x) { using T = double; return expr; }
#define TFC_BINARY(name, expr)                                                 \
  extern "C" float tfc_##name##f(float x, float y) {                           \
    using T = float;                                                           \
    return expr;                                                               \
  }                                                                            \
  extern "C" double tfc_##name(double x, double y) {                           \
    using T = double;                                                          \
    return expr;                                                               \
  }

TFC_UNARY(lgamma, Eigen::numext::lgamma(x))
TFC_UNARY(digamma, Eigen::numext::digamma(x))
TFC_UNARY(ndtri, Eigen::numext::ndtri(x))
TFC_UNARY(erfinv, erfinv<T>(x))
TFC_UNARY(bessel_i0, Eigen::numext::bessel_i0(x))
TFC_UNARY(bessel_i0e, Eigen::numext::bessel_i0e(x))
TFC_UNARY(bessel_i1, Eigen::numext::bessel_i1(x))
TFC_UNARY(bessel_i1e, Eigen::numext::bessel_i1e(x))
TFC_UNARY(bessel_j0, Eigen::numext::bessel_j0(x))
TFC_UNARY(bessel_j1, Eigen::numext::bessel_j1(x))
TFC_UNARY(bessel_k0, Eigen::numext::bessel_k0(x))
TFC_UNARY(bessel_k0e, Eigen::numext::bessel_k0e(x))
TFC_UNARY(bessel_k1, Eigen::numext::bessel_k1(x))
TFC_UNARY(bessel_k1e, Eigen::numext::bessel_k1e(x))
TFC_UNARY(bessel_y0, Eigen::numext::bessel_y0(x))
TFC_UNARY(bessel_y1, Eigen::numext::bessel_y1(x))

// (a, x), (x, q), (n, x) and (alpha, sample), as the ops order them.
TFC_BINARY(igamma, Eigen::numext::igamma(x, y))
TFC_BINARY(igammac, Eigen::numext::igammac(x, y))
TFC_BINARY(igamma_der_a, Eigen::numext::igamma_der_a(x, y))
TFC_BINARY(gamma_sample_der_alpha, Eigen::numext::gamma_sample_der_alpha(x, y))
TFC_BINARY(zeta, zeta<T>(x, y))
TFC_BINARY(polygamma, polygamma<T>(x, y))

extern "C" float tfc_betaincf(float a, float b, float x) {
  return Eigen::numext::betainc(a, b, x);
}
extern "C" double tfc_betainc(double a, double b, double x) {
  return Eigen::numext::betainc(a, b, x);
}
