//===- RegisterTile.h - the kernels' register-tiled product -----*- C++ -*-===//
//
// The inner block of the kernels' own small products (Winograd's point
// products, attention's, an expansion's): Rows rows of A by Vectors
// vectors of B's columns, summed over the depth in Rows x Vectors
// accumulators that stay in registers; each step loads one vector of each
// of B's columns and broadcasts one value of each row of A. The kernels
// choose Rows and Vectors so that the accumulators, the column vectors
// and the broadcast fill the registers (AVX-512's 32, AVX2's 16).
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_KERNELS_CPU_REGISTERTILE_H
#define TFC_RUNTIME_KERNELS_CPU_REGISTERTILE_H

#include "NativeVector.h"

#include <cstdint>

namespace tfc {

/// finish(r, j, sum) for each r < Rows, j < Vectors, where sum is start(r,
/// j) plus the sum over d < depth of A(r, d) * B(d, j), A(r, d) =
/// a[r * aRow + d * aDepth] and B(d, j) the vector at b + d * bDepth +
/// j * bVector. start gives the sums' first values (zeros, a bias, what
/// the output holds); finish stores them (with an activation, say).
template <int Rows, int Vectors, typename Start, typename Finish>
inline __attribute__((always_inline)) void
registerTile(const float *a, int64_t aRow, int64_t aDepth, const float *b,
             int64_t bDepth, int64_t bVector, int64_t depth, Start start,
             Finish finish) {
  NativeFloats sums[Rows][Vectors];
  for (int r = 0; r < Rows; ++r)
    for (int j = 0; j < Vectors; ++j)
      sums[r][j] = start(r, j);
  for (int64_t d = 0; d < depth; ++d) {
    NativeFloats columns[Vectors];
    for (int j = 0; j < Vectors; ++j)
      columns[j] = loadNative(b + d * bDepth + j * bVector);
    for (int r = 0; r < Rows; ++r) {
      NativeFloats value = splatNative(a[r * aRow + d * aDepth]);
      for (int j = 0; j < Vectors; ++j)
        sums[r][j] += value * columns[j];
    }
  }
  for (int r = 0; r < Rows; ++r)
    for (int j = 0; j < Vectors; ++j)
      finish(r, j, sums[r][j]);
}

} // namespace tfc

#endif // TFC_RUNTIME_KERNELS_CPU_REGISTERTILE_H
