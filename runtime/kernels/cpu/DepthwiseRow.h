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
#include <type_traits>
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
/// Where `paddedRows`, each input row has the window's horizontal padding
/// in memory, zeros: padLeft pixels before pixel 0 and marginRight(...)
/// after pixel w - 1, so that no window needs a bounds check.
struct DepthwiseWindow {
  int64_t kh, kw, w, ow, strideW, padLeft;
  int64_t channels;
  const float *taps;
  const float *bias;
  int64_t activation; // enum tfc_activation
  bool paddedRows = false;
};

/// The zero pixels a padded row needs after its last pixel: as far as the
/// last window reaches.
inline int64_t marginRight(int64_t w, int64_t ow, int64_t kw,
                           int64_t strideW, int64_t padLeft) {
  return std::max<int64_t>(0, (ow - 1) * strideW - padLeft + kw - w);
}

/// The output pixels depthwiseRow computes at once.
constexpr int kDepthwisePixels = 8;

namespace detail {
/// The input vector at `p`, through a ReLU where ReluInput.
template <bool ReluInput>
inline __attribute__((always_inline)) NativeFloats loadInput(const float *p) {
  NativeFloats v = loadNative(p);
  if constexpr (ReluInput)
    v = vector_math::activation(v, TFC_ACTIVATION_RELU);
  return v;
}

/// Output pixels [x, x + Pixels) of the row, whose windows read no pixel
/// outside the rows' memory (inside the row, or in a padded row's zeros):
/// independent sums, so that the multiply-adds of one pixel's taps do not
/// wait on each other.
template <int Pixels, int KH, int KW, int S, bool ReluInput>
inline __attribute__((always_inline)) void
depthwiseBlock(const float *const *rows, const DepthwiseWindow &d,
               int64_t first, int64_t last, float *dst, int64_t dstStride,
               int64_t x) {
  const int64_t kh = KH ? KH : d.kh, kw = KW ? KW : d.kw;
  const int64_t stride = (last - first) * kNativeLanes;
  int64_t left = x * d.strideW - d.padLeft;
  for (int64_t v = first; v < last; ++v) {
    int64_t ch = v * kNativeLanes, at = (v - first) * kNativeLanes;
    const float *taps = d.taps + ch;
    NativeFloats acc[Pixels];
    NativeFloats bias = loadNative(d.bias + ch);
    for (int u = 0; u < Pixels; ++u)
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
        constexpr int span = (Pixels - 1) * S + KW;
#pragma GCC unroll 64
        for (int in = 0; in < span; ++in) {
          NativeFloats value = loadInput<ReluInput>(row + in * stride);
#pragma GCC unroll 16
          for (int u = 0; u < Pixels; ++u)
            if (in - u * S >= 0 && in - u * S < KW)
              acc[u] += value * t[in - u * S];
        }
      } else {
        for (int64_t j = 0; j < kw; ++j) {
          NativeFloats t = loadNative(rowTaps + j * d.channels);
          for (int u = 0; u < Pixels; ++u)
            acc[u] +=
                loadInput<ReluInput>(row + (u * d.strideW + j) * stride) * t;
        }
      }
    }
    for (int u = 0; u < Pixels; ++u)
      storeNative(dst + (x + u) * dstStride + at,
                  vector_math::activation(acc[u], d.activation));
  }
}
} // namespace detail

/// One output row of the window over input rows (`rows[i]` is the window's
/// row i: `w` pixels of (last - first) vectors of channels each, or null
/// where it is padding), for channel vectors [first, last) of the window's:
/// dst[x * dstStride + (v - first) * kNativeLanes...]. KH, KW and S (the
/// horizontal stride) are the window's when known at compile time (each
/// input is then loaded once for all the outputs of a block that read
/// it), 0 for any. Where ReluInput, each input value read goes through a
/// ReLU first (the activation before the convolution, applied to rows
/// read in place). Padded rows (d.paddedRows) are computed in blocks of
/// pixels throughout; others in blocks where the windows lie inside the
/// row, and pixel by pixel at its edges, each tap checked.
template <int KH, int KW, int S, bool ReluInput>
void depthwiseRow(const float *const *rows, const DepthwiseWindow &d,
                  int64_t first, int64_t last, float *dst, int64_t dstStride) {
  auto block = [&](auto pixels, int64_t x) {
    detail::depthwiseBlock<decltype(pixels)::value, KH, KW, S, ReluInput>(
        rows, d, first, last, dst, dstStride, x);
  };
  using Eight = std::integral_constant<int, kDepthwisePixels>;
  using Four = std::integral_constant<int, kDepthwisePixels / 2>;
  using One = std::integral_constant<int, 1>;
  if (d.paddedRows) {
    // Every window may read its padding: blocks everywhere, the last one
    // ending at the row's end (pixels it shares with the one before are
    // computed again, the same values written twice).
    int64_t x = 0;
    for (; x + kDepthwisePixels <= d.ow; x += kDepthwisePixels)
      block(Eight(), x);
    if (x == d.ow)
      return;
    if (d.ow >= kDepthwisePixels) {
      block(Eight(), d.ow - kDepthwisePixels);
    } else if (d.ow >= kDepthwisePixels / 2) {
      block(Four(), 0);
      block(Four(), d.ow - kDepthwisePixels / 2);
    } else {
      for (x = 0; x < d.ow; ++x)
        block(One(), x);
    }
    return;
  }
  const int64_t kh = KH ? KH : d.kh, kw = KW ? KW : d.kw;
  const int64_t stride = (last - first) * kNativeLanes;
  // Pixel by pixel, all the slice's channels of one pixel (or block of
  // pixels) before the next: the output is written in order.
  for (int64_t x = 0; x < d.ow;) {
    int64_t left = x * d.strideW - d.padLeft;
    // Blocks of outputs whose windows lie inside the row.
    if (x + kDepthwisePixels <= d.ow && left >= 0 &&
        left + (kDepthwisePixels - 1) * d.strideW + kw <= d.w) {
      block(Eight(), x);
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
            acc += detail::loadInput<ReluInput>(row + (left + j) * stride) *
                   loadNative(taps + (i * kw + j) * d.channels);
      }
      storeNative(dst + x * dstStride + at,
                  vector_math::activation(acc, d.activation));
    }
    ++x;
  }
}

using DepthwiseRowFunction = void (*)(const float *const *,
                                      const DepthwiseWindow &, int64_t,
                                      int64_t, float *, int64_t);

/// depthwiseRow for the window's size and stride: 3x3, 5x5 and 7x7 at
/// strides 1 and 2 unrolled, any other through the general loop; with
/// reluInput, its input through a ReLU.
template <bool ReluInput>
inline DepthwiseRowFunction depthwiseRowFor(int64_t kh, int64_t kw,
                                            int64_t strideW) {
  if (kh == 3 && kw == 3)
    return strideW == 1   ? depthwiseRow<3, 3, 1, ReluInput>
           : strideW == 2 ? depthwiseRow<3, 3, 2, ReluInput>
                          : depthwiseRow<3, 3, 0, ReluInput>;
  if (kh == 5 && kw == 5)
    return strideW == 1   ? depthwiseRow<5, 5, 1, ReluInput>
           : strideW == 2 ? depthwiseRow<5, 5, 2, ReluInput>
                          : depthwiseRow<5, 5, 0, ReluInput>;
  if (kh == 7 && kw == 7)
    return strideW == 1   ? depthwiseRow<7, 7, 1, ReluInput>
           : strideW == 2 ? depthwiseRow<7, 7, 2, ReluInput>
                          : depthwiseRow<7, 7, 0, ReluInput>;
  return depthwiseRow<0, 0, 0, ReluInput>;
}

inline DepthwiseRowFunction depthwiseRowFor(int64_t kh, int64_t kw,
                                            int64_t strideW, bool reluInput) {
  return reluInput ? depthwiseRowFor<true>(kh, kw, strideW)
                   : depthwiseRowFor<false>(kh, kw, strideW);
}

} // namespace tfc

#endif // TFC_RUNTIME_KERNELS_CPU_DEPTHWISEROW_H
