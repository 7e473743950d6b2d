/* math-accuracy.c - measures the float32 exp, tanh, sigmoid, erf and erfc
 * of generated code (the library of math-accuracy.pbtxt) in ulps against
 * the C library's double-precision functions, rounded to float32's grid:
 * one ulp is the spacing of float32 values at the exact result (2^-149 in
 * the subnormal range).
 *
 * A step runs with subnormal floats flushed to zero, as TensorFlow's
 * kernels do (tfc/Runtime/Denormals.h): a subnormal input reads as a zero
 * of its sign, and a result below FLT_MIN is that zero. The reference
 * takes the input so, and a zero counts as exact where the exact result
 * is within the bound of the subnormal range.
 *
 *   math-accuracy STRIDE
 *
 * sweeps every STRIDE-th float32 bit pattern (1: all 2^32 of them), then a
 * list of edge values whose results must be exact (zeros and their signs,
 * infinities, NaN, the ends of the ranges). Prints each function's largest
 * error and where; exits 1 when one exceeds its bound below (the accuracy
 * docs/Codegen.md states) or an edge value is wrong.
 */

#include "math_accuracy.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N MATH_ACCURACY_X_ELEMENTS
#define FUNCTIONS 5

static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

static const char *names[FUNCTIONS] = {"exp", "tanh", "sigmoid", "erf", "erfc"};
static double (*const references[FUNCTIONS])(double) = {exp, tanh, sigmoid,
                                                         erf, erfc};
/* The stated accuracy, in ulps. */
static const double bounds[FUNCTIONS] = {1.5, 1.5, 3.5, 3.5, 7.0};

static float in[N], out[FUNCTIONS][N];

static float from_bits(unsigned bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

/* Error of `got` in ulps of float32 at `want`; infinite when the
 * classification (NaN, infinity) differs. */
static double ulps(float got, double want) {
  int exponent;
  if (isnan(want) || isnan(got))
    return isnan(want) && isnan(got) ? 0 : INFINITY;
  if (isinf(got) || fabs(want) > 3.4028234663852886e38)
    return got == (float)want ? 0 : INFINITY;
  frexp(fabs(want), &exponent);
  return fabs((double)got - want) /
         ldexp(1.0, exponent - 24 < -149 ? -149 : exponent - 24);
}

/* The input as a step reads it: a subnormal is a zero of its sign. */
static double read_as(float x) {
  return fpclassify(x) == FP_SUBNORMAL ? copysign(0.0, x) : (double)x;
}

/* The exact result as a step can give it: below FLT_MIN once rounded to
 * float32, a zero of its sign. */
static double flushed(double want) {
  float rounded = (float)want;
  return rounded != 0 && fabsf(rounded) < FLT_MIN ? copysign(0.0, want) : want;
}

/* Error of a step's result in ulps: 0 for a zero where a result within
 * `bound` ulps of the exact one may be subnormal, and so flushed. */
static double step_ulps(float got, double want, double bound) {
  if (got == 0 && fabs(want) < FLT_MIN + bound * ldexp(1.0, -149))
    return 0;
  return ulps(got, want);
}

static int run(math_accuracy_ctx *ctx) {
  return math_accuracy_run(ctx, in, out[0], out[1], out[2], out[3], out[4]);
}

int main(int argc, char **argv) {
  double worst[FUNCTIONS] = {0};
  float worst_at[FUNCTIONS] = {0};
  long long stride, pattern = 0, count = 0;
  math_accuracy_ctx *ctx;
  int f, i, failed = 0;
  if (argc != 2 || (stride = atoll(argv[1])) < 1) {
    fprintf(stderr, "usage: %s STRIDE\n", argv[0]);
    return 2;
  }
  ctx = math_accuracy_create(0, NULL);
  if (!ctx)
    return 1;

  while (pattern < (1LL << 32)) {
    int n = 0;
    for (; n < N && pattern < (1LL << 32); ++n, pattern += stride)
      in[n] = from_bits((unsigned)pattern);
    for (i = n; i < N; ++i)
      in[i] = 0;
    if (run(ctx))
      return 1;
    for (f = 0; f < FUNCTIONS; ++f)
      for (i = 0; i < n; ++i) {
        double error =
            step_ulps(out[f][i], references[f](read_as(in[i])), bounds[f]);
        if (error > worst[f]) {
          worst[f] = error;
          worst_at[f] = in[i];
        }
      }
    count += n;
  }
  printf("%lld inputs\n", count);
  for (f = 0; f < FUNCTIONS; ++f) {
    int ok = worst[f] <= bounds[f];
    printf("%s: %s %g ulps (%.3f at %a)\n", names[f],
           ok ? "within" : "ABOVE", bounds[f], worst[f], worst_at[f]);
    failed |= !ok;
  }

  {
    /* Results that must be exact: the value and, for zeros, the sign. */
    static const float edges[] = {
        0.0f,         -0.0f,        INFINITY,     -INFINITY,   1e-45f,
        -1e-45f,      1e-38f,       88.72283f,    88.72284f,   -87.33655f,
        -103.2789f,   -103.9721f,   -104.0f,      0.5f,        -0.5f,
        0.625f,       2.0f,         -2.0f,        3.92f,       9.0f,
        10.05f,       10.06f,       -10.06f,      20.0f,       -20.0f,
        3.4028235e38f, -3.4028235e38f};
    int edge_count = (int)(sizeof edges / sizeof edges[0]), bad = 0;
    for (i = 0; i < N; ++i)
      in[i] = i < edge_count ? edges[i] : NAN;
    if (run(ctx))
      return 1;
    for (f = 0; f < FUNCTIONS; ++f)
      for (i = 0; i < N; ++i) {
        double want = flushed(references[f](read_as(in[i])));
        float got = out[f][i];
        /* Zeros, infinities, NaN and results of magnitude 1 or 2 exactly;
         * other edge values within the bound. */
        int exact = want == 0 || isinf(want) || isnan(want) ||
                    (float)want == 1.0f || (float)want == -1.0f ||
                    (float)want == 2.0f;
        int wrong =
            exact ? isnan(want) ? !isnan(got)
                                : got != (float)want ||
                                      !signbit(got) != !signbit(want)
                  : step_ulps(got, want, bounds[f]) > bounds[f];
        if (wrong && bad++ < 20) {
          printf("%s(%a) = %a, not %a\n", names[f], in[i], got, (float)want);
        }
      }
    printf("edge values: %s\n", bad ? "WRONG" : "exact");
    failed |= bad;
  }
  math_accuracy_destroy(ctx);
  return failed;
}
