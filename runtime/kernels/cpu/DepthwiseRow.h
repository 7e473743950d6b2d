//===- DepthwiseRow.h - one output row of a depthwise window ----*- C++ -*-===//
//
// The depthwise convolution (multiplier 1, dilation 1) of the kernels that
// compute one next to a 1x1 convolution without writing the tensor
// between them: an expansion and the depthwise after it
// (PointwiseDepthwise.cpp), a depthwise convolution and the 1x1 after it
// (DepthwisePointwise.cpp). Both keep the input rows a window reaches in
// their cache, each row's pixels in whole vectors of channels (the last
// padded with zeros), so the loop over the channels has no tail; and both
// want one output row at a time, written in order.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_KERNELS_CPU_DEPTHWISEROW_H
#define TFC_RUNTIME_KERNELS_CPU_DEPTHWISEROW_H

#include "NativeVector.h"
#include "VectorMath.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tfc {

/// `values` ([rows][count], or zeros where null) with each row padded with
/// zeros to `channels` floats: a depthwise filter or bias laid out for
/// depthwiseRow (`channels` whole vectors).
inline std::vector<float> paddedRows(const float *values, int64_t rows,
                                     int64_t count, int64_t channels) {
  std::vector<float> out(rows * channels, 0.f);
  if (values)
    for (int64_t r = 0; r < rows; ++r)
      std::copy_n(values + r * count, count, out.data() + r * channels);
  return out;
}

/// A depthwise window and its filter, laid out for depthwiseRow: `taps`
/// is [kh * kw][channels] and `bias` [channels] (zeros where the
/// convolution has none), `channels` the padded count (whole vectors).
struct DepthwiseWindow {
  int64_t kh, kw, w, ow, strideW, padLeft;
  int64_t channels;
  const float *taps;
  const float *bias;
  int64_t activation; // enum tfc_activation
};

/// The output pixels depthwiseRow computes at once.
constexpr int kDepthwisePixels = 8;

/// One output row of the window over input rows (`rows[i]` is the window's
/// row i: `w` pixels of (last - first) vectors of channels each, or null
/// where it is padding), for channel vectors [first, last) of the window's:
/// dst[x * dstStride + (v - first) * kNativeLanes...]. KH, KW and S (the
/// horizontal stride) are the window's when known at compile time (each
/// input is then loaded once for all the outputs of a block that read
/// it), 0 for any.
template <int KH, int KW, int S>
void depthwiseRow(const float *const *rows, const DepthwiseWindow &d,
                  int64_t first, int64_t last, float *dst, int64_t dstStride) {
  const int64_t kh = KH ? KH : d.kh, kw = KW ? KW : d.kw;
  auto store = [&](float *at, NativeFloats value) {
    storeNative(at, vector_math::activation(value, d.activation));
  };
  const int64_t stride = (last - first) * kNativeLanes;
  // Pixel by pixel, all the slice's channels of one pixel (or block of
  // pixels) before the next: the output is written in order.
  for (int64_t x = 0; x < d.ow;) {
    int64_t left = x * d.strideW - d.padLeft;
    // Blocks of kDepthwisePixels outputs whose windows lie inside the
    // row: independent sums, so that the multiply-adds of one pixel's
    // taps do not wait on each other.
    if (x + kDepthwisePixels <= d.ow && left >= 0 &&
        left + (kDepthwisePixels - 1) * d.strideW + kw <= d.w) {
      for (int64_t v = first; v < last; ++v) {
        int64_t ch = v * kNativeLanes, at = (v - first) * kNativeLanes;
        const float *taps = d.taps + ch;
        NativeFloats acc[kDepthwisePixels];
        NativeFloats bias = loadNative(d.bias + ch);
        for (int u = 0; u < kDepthwisePixels; ++u)
          acc[u] = bias;
        for (int64_t i = 0; i < kh; ++i) {
          if (!rows[i])
            continue;
          const float *row = rows[i] + at + left * stride;
          const float *rowTaps = taps + i * kw * d.channels;
          if constexpr (S > 0) {
            // Each input pixel loaded once, for every output whose window
            // holds it (the conditions fold away, unrolled).
            NativeFloats t[KW];
            for (int j = 0; j < KW; ++j)
              t[j] = loadNative(rowTaps + j * d.channels);
            constexpr int span = (kDepthwisePixels - 1) * S + KW;
#pragma GCC unroll 64
            for (int in = 0; in < span; ++in) {
              NativeFloats value = loadNative(row + in * stride);
#pragma GCC unroll 16
              for (int u = 0; u < kDepthwisePixels; ++u)
                if (in - u * S >= 0 && in - u * S < KW)
                  acc[u] += value * t[in - u * S];
            }
          } else {
            for (int64_t j = 0; j < kw; ++j) {
              NativeFloats t = loadNative(rowTaps + j * d.channels);
              for (int u = 0; u < kDepthwisePixels; ++u)
                acc[u] += loadNative(row + (u * d.strideW + j) * stride) * t;
            }
          }
        }
        for (int u = 0; u < kDepthwisePixels; ++u)
          store(dst + (x + u) * dstStride + at, acc[u]);
      }
      x += kDepthwisePixels;
      continue;
    }
    // The others one by one, tap by tap, skipping the padding.
    for (int64_t v = first; v < last; ++v) {
      int64_t ch = v * kNativeLanes, at = (v - first) * kNativeLanes;
      const float *taps = d.taps + ch;
      NativeFloats acc = loadNative(d.bias + ch);
      for (int64_t i = 0; i < kh; ++i) {
        if (!rows[i])
          continue;
        const float *row = rows[i] + at;
        for (int64_t j = 0; j < kw; ++j)
          if (left + j >= 0 && left + j < d.w)
            acc += loadNative(row + (left + j) * stride) *
                   loadNative(taps + (i * kw + j) * d.channels);
      }
      store(dst + x * dstStride + at, acc);
    }
    ++x;
  }
}

using DepthwiseRowFunction = void (*)(const float *const *,
                                      const DepthwiseWindow &, int64_t,
                                      int64_t, float *, int64_t);

/// depthwiseRow for the window's size and stride: 3x3 and 5x5 at strides 1
/// and 2 unrolled, any other through the general loop.
inline DepthwiseRowFunction depthwiseRowFor(int64_t kh, int64_t kw,
                                            int64_t strideW) {
  if (kh == 3 && kw == 3)
    return strideW == 1   ? depthwiseRow<3, 3, 1>
           : strideW == 2 ? depthwiseRow<3, 3, 2>
                          : depthwiseRow<3, 3, 0>;
  if (kh == 5 && kw == 5)
    return strideW == 1   ? depthwiseRow<5, 5, 1>
           : strideW == 2 ? depthwiseRow<5, 5, 2>
                          : depthwiseRow<5, 5, 0>;
  return depthwiseRow<0, 0, 0>;
}

} // namespace tfc

#endif // TFC_RUNTIME_KERNELS_CPU_DEPTHWISEROW_H
