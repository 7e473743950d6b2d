//===- Softmax.cpp - softmax over rows on the CPU -------------------------===//
//
// Per row: subtract the maximum (for range), exponentiate, and scale by the
// inverse of the sum, as TensorFlow's CPU kernel does; LogSoftmax
// subtracts the log of that sum instead. Rows are split over the runtime's
// threads. Each pass over a row goes eight floats at a time: exp is
// VectorMath.h's, and the sum and maximum keep one partial per lane (the
// maximum through reduceLanes, as the reductions' kernel).
//
//===----------------------------------------------------------------------===//

#include "Parallel.h"
#include "Runtime.h"
#include "VectorMath.h"

#include <algorithm>
#include <cmath>

namespace {
using tfc::vector_math::Floats8;
using tfc::vector_math::kLanes8;

float maxOf(const float *x, int64_t n) {
  return tfc::vector_math::reduceLanes<Floats8>(x, n, -INFINITY,
                                                tfc::vector_math::Max());
}

/// Writes exp(x - shift) to y (when y is not null) and returns its sum.
float expShiftedSum(const float *x, float *y, int64_t n, float shift) {
  Floats8 partial = tfc::vector_math::splat8(0.f);
  int64_t c = 0;
  for (; c + kLanes8 <= n; c += kLanes8) {
    Floats8 e = tfc::vector_math::exp(tfc::vector_math::load8(x + c) - shift);
    if (y)
      tfc::vector_math::store8(y + c, e);
    partial += e;
  }
  float sum = 0.f;
  for (int64_t l = 0; l < kLanes8; ++l)
    sum += partial[l];
  for (; c < n; ++c) {
    float e = tfc::vector_math::exp(x[c] - shift);
    if (y)
      y[c] = e;
    sum += e;
  }
  return sum;
}
} // namespace

extern "C" void tfc_cpu_softmax_f32(tfc_runtime *runtime, const float *in,
                                    float *out, int64_t rows, int64_t cols) {
  auto rowRange = [=](Eigen::Index first, Eigen::Index last) {
    for (Eigen::Index r = first; r < last; ++r) {
      const float *x = in + r * cols;
      float *y = out + r * cols;
      float inverse = 1.f / expShiftedSum(x, y, cols, maxOf(x, cols));
      for (int64_t c = 0; c < cols; ++c)
        y[c] *= inverse;
    }
  };
  // Cost per row: about 3 passes over its columns.
  tfc::parallelFor(runtime, rows, Eigen::TensorOpCost(8.0 * cols, 4.0 * cols, 20.0 * cols),
                              rowRange);
}

extern "C" void tfc_cpu_log_softmax_f32(tfc_runtime *runtime, const float *in,
                                        float *out, int64_t rows,
                                        int64_t cols) {
  auto rowRange = [=](Eigen::Index first, Eigen::Index last) {
    for (Eigen::Index r = first; r < last; ++r) {
      const float *x = in + r * cols;
      float *y = out + r * cols;
      float max = maxOf(x, cols);
      float shift = max + std::log(expShiftedSum(x, nullptr, cols, max));
      for (int64_t c = 0; c < cols; ++c)
        y[c] = x[c] - shift;
    }
  };
  tfc::parallelFor(runtime, rows, Eigen::TensorOpCost(8.0 * cols, 4.0 * cols, 20.0 * cols),
                              rowRange);
}
