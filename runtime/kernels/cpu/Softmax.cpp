//===- Softmax.cpp - softmax over rows on the CPU -------------------------===//
//
// Per row: subtract the maximum (for range), exponentiate, and scale by the
// inverse of the sum, as TensorFlow's CPU kernel does; LogSoftmax
// subtracts the log of that sum instead. Rows are split over the runtime's
// threads.
//
//===----------------------------------------------------------------------===//

#include "Parallel.h"
#include "Runtime.h"

#include <algorithm>
#include <cmath>

extern "C" void tfc_cpu_softmax_f32(tfc_runtime *runtime, const float *in,
                                    float *out, int64_t rows, int64_t cols) {
  auto rowRange = [=](Eigen::Index first, Eigen::Index last) {
    for (Eigen::Index r = first; r < last; ++r) {
      const float *x = in + r * cols;
      float *y = out + r * cols;
      float max = -INFINITY;
      for (int64_t c = 0; c < cols; ++c)
        max = std::max(max, x[c]);
      float sum = 0.f;
      for (int64_t c = 0; c < cols; ++c) {
        y[c] = std::exp(x[c] - max);
        sum += y[c];
      }
      float inverse = 1.f / sum;
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
      float max = -INFINITY;
      for (int64_t c = 0; c < cols; ++c)
        max = std::max(max, x[c]);
      float sum = 0.f;
      for (int64_t c = 0; c < cols; ++c)
        sum += std::exp(x[c] - max);
      float shift = max + std::log(sum);
      for (int64_t c = 0; c < cols; ++c)
        y[c] = x[c] - shift;
    }
  };
  tfc::parallelFor(runtime, rows, Eigen::TensorOpCost(8.0 * cols, 4.0 * cols, 20.0 * cols),
                              rowRange);
}
