//===- Concat.cpp - a concatenation, row by row
//----------------------------===//
//
// ConcatV2 of float32 pieces along an axis other than the first: each
// output row (the dimensions before the axis) is the pieces' rows one
// after another. The generated code copied one piece at a time over the
// whole output, each pass writing a narrow strip of every row (NASNet's
// cells concatenate six pieces of 44 channels, 176 bytes in rows of
// 1056): every pass then read and wrote again the cache lines the strips
// share, and the copies ran at about 17 GB/s where the machine copies at
// 25-30. Here each thread fills whole output rows in order, a piece's
// part in whole vectors and a masked last one.
//
// A concatenation planned in place (tfc-plan-memory) finds some pieces
// already in their part of its output, a null piece here, and may itself
// be a part of a wider concatenation's output: its rows are then further
// apart than their width.
//
//===----------------------------------------------------------------------===//

#include "NativeVector.h"
#include "Parallel.h"
#include "Runtime.h"

namespace {

/// Copies n floats, n of any size, in vectors and a masked last one.
inline void copyFloats(const float *__restrict src, float *__restrict dst,
                       int64_t n) {
  int64_t i = 0;
  for (; i + tfc::kNativeLanes <= n; i += tfc::kNativeLanes)
    tfc::storeNative(dst + i, tfc::loadNative(src + i));
  if (i < n)
    tfc::storeNativeFirst(dst + i, tfc::loadNativeFirst(src + i, n - i),
                          n - i);
}

} // namespace

extern "C" void tfc_cpu_concat_rows_f32(tfc_runtime *runtime,
                                        const float *const *pieces,
                                        const int64_t *widths, float *out,
                                        int64_t count, int64_t rows,
                                        int64_t out_stride) {
  auto range = [&](int64_t first, int64_t last) {
    for (int64_t r = first; r < last; ++r) {
      float *dst = out + r * out_stride;
      for (int64_t i = 0; i < count; ++i) {
        if (pieces[i])
          copyFloats(pieces[i] + r * widths[i], dst, widths[i]);
        dst += widths[i];
      }
    }
  };
  int64_t copied = 0;
  for (int64_t i = 0; i < count; ++i)
    copied += pieces[i] ? widths[i] : 0;
  double bytes = 4.0 * double(copied);
  tfc::parallelFor(runtime, rows, Eigen::TensorOpCost(bytes, bytes, 0.0),
                   range);
}
