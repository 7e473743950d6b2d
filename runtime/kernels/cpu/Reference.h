//===- Reference.h - simple reference kernels -------------------*- C++ -*-===//
//
// The obvious loops, used only by tests to check the optimized kernels.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_KERNELS_CPU_REFERENCE_H
#define TFC_RUNTIME_KERNELS_CPU_REFERENCE_H

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace tfc::reference {

inline void matmul(const float *a, const float *b, float *c, int64_t m,
                   int64_t k, int64_t n, bool transposeA, bool transposeB) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < k; ++p)
        sum += double(transposeA ? a[p * m + i] : a[i * k + p]) *
               double(transposeB ? b[j * k + p] : b[p * n + j]);
      c[i * n + j] = float(sum);
    }
}

inline void softmax(const float *in, float *out, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    double max = -INFINITY, sum = 0;
    for (int64_t c = 0; c < cols; ++c)
      max = std::max(max, double(in[r * cols + c]));
    for (int64_t c = 0; c < cols; ++c)
      sum += std::exp(double(in[r * cols + c]) - max);
    for (int64_t c = 0; c < cols; ++c)
      out[r * cols + c] = float(std::exp(double(in[r * cols + c]) - max) / sum);
  }
}

} // namespace tfc::reference

#endif // TFC_RUNTIME_KERNELS_CPU_REFERENCE_H
