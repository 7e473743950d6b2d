//===- Reference.h - simple reference kernels -------------------*- C++ -*-===//
//
// The obvious loops, used only by tests to check the optimized kernels.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_KERNELS_CPU_REFERENCE_H
#define TFC_RUNTIME_KERNELS_CPU_REFERENCE_H

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

} // namespace tfc::reference

#endif // TFC_RUNTIME_KERNELS_CPU_REFERENCE_H
