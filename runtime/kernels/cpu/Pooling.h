//===- Pooling.h - one output row of 2-D max or average pooling -*- C++ -*-===//
//
// The pooling kernel and the batch norm kernel that pools its own output
// (a max pooling the compiler folded into it) compute output rows the same
// way: here.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_KERNELS_CPU_POOLING_H
#define TFC_RUNTIME_KERNELS_CPU_POOLING_H

#include "NativeVector.h"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace tfc {

/// The geometry of a 2-D pooling over NHWC tensors; padding explicit
/// (top/left), padded positions skipped by max pooling and not counted by
/// average pooling, unless `zeroPadding`: then they are zeros to max
/// pooling (a Pad of zeros the compiler folded into it).
struct PoolGeometry {
  int64_t h, w, c, kh, kw, oh, ow, strideH, strideW, padTop, padLeft;
  bool zeroPadding = false;
};

/// The window of `rows` x `columns` positions at `corner` (rows
/// `rowStride` floats apart, positions `c` apart) combined for kVectors
/// vectors of channels into `dst`, averaged by `scale` or not. Each
/// vector's sum (or maximum) is a chain of dependent adds; several vectors
/// at once make independent chains whose adds overlap in the pipeline,
/// where a single one waits out each add's latency (a 3x3 average pooling
/// of NASNet's 168 channels took half the time with four).
/// With kTail, one vector of the first `tailLanes` channels only (the
/// channels' last, partial vector), loaded and stored under a mask.
template <int kVectors, bool kTail = false, class Combine>
inline void poolWindow(Combine combine, float identity, bool average,
                       float scale, const float *corner, int64_t rows,
                       int64_t columns, int64_t rowStride, int64_t c,
                       float *__restrict dst, int64_t tailLanes = 0) {
  static_assert(!kTail || kVectors == 1, "a tail is one partial vector");
  auto load = [&](const float *p) {
    if constexpr (kTail)
      return loadNativeFirst(p, tailLanes);
    else
      return loadNative(p);
  };
  NativeFloats acc[kVectors];
  for (int v = 0; v < kVectors; ++v)
    acc[v] = splatNative(identity);
  for (int64_t iy = 0; iy < rows; ++iy)
    for (int64_t ix = 0; ix < columns; ++ix) {
      const float *position = corner + iy * rowStride + ix * c;
      for (int v = 0; v < kVectors; ++v)
        acc[v] = combine(acc[v], load(position + v * kNativeLanes));
    }
  for (int v = 0; v < kVectors; ++v) {
    NativeFloats result = average ? acc[v] * scale : acc[v];
    if constexpr (kTail)
      storeNativeFirst(dst, result, tailLanes);
    else
      storeNative(dst + v * kNativeLanes, result);
  }
}

/// Output row `y` of image `image` ([h, w, c]) into `row` ([ow, c]): the
/// maximum of each window, or its average. A window's positions are
/// combined four vectors of channels at a time, in registers: the channel
/// counts of CNNs are small, and a loop over them per window position
/// costs more in overhead than in arithmetic.
inline void poolRow(bool max, const PoolGeometry &g, const float *image,
                    int64_t y, float *row) {
  int64_t y0 = std::max<int64_t>(y * g.strideH - g.padTop, 0);
  int64_t y1 = std::min<int64_t>(y * g.strideH - g.padTop + g.kh, g.h);
  int64_t c = g.c;
  auto combine = [max](auto a, auto b) {
    if (max)
      return a < b ? b : a;
    return a + b;
  };
  constexpr int64_t kBlock = 4 * kNativeLanes;
  int64_t rows = std::max<int64_t>(y1 - y0, 0);
  for (int64_t x = 0; x < g.ow; ++x) {
    float *__restrict dst = row + x * c;
    int64_t x0 = std::max<int64_t>(x * g.strideW - g.padLeft, 0);
    int64_t x1 = std::min<int64_t>(x * g.strideW - g.padLeft + g.kw, g.w);
    int64_t columns = std::max<int64_t>(x1 - x0, 0);
    int64_t count = rows * columns;
    // A window that reaches into zero padding starts its maximum at zero.
    bool seesZeros = g.zeroPadding && count < g.kh * g.kw;
    float identity = !max || seesZeros ? 0.f
                                       : -std::numeric_limits<float>::infinity();
    float scale = max || count == 0 ? 1.f : 1.f / float(count);
    const float *corner = image + (y0 * g.w + x0) * c;
    int64_t ch = 0;
    for (; ch + kBlock <= c; ch += kBlock)
      poolWindow<4>(combine, identity, !max, scale, corner + ch, rows, columns,
                    g.w * c, c, dst + ch);
    for (; ch + kNativeLanes <= c; ch += kNativeLanes)
      poolWindow<1>(combine, identity, !max, scale, corner + ch, rows, columns,
                    g.w * c, c, dst + ch);
    // The last channels, fewer than a vector (NASNet's 11, 44 and 88):
    // one masked vector, where a scalar loop over them took most of the
    // time of a 3x3 average pooling of 44 channels.
    if (ch < c)
      poolWindow<1, true>(combine, identity, !max, scale, corner + ch, rows,
                          columns, g.w * c, c, dst + ch, c - ch);
  }
}

/// A window's max pooling gradient for channels [c0, c0 + kNativeLanes), in
/// native vectors (GCC splits a comparison of sixteen lanes element by
/// element on AVX2, which made this kernel a fifth of the CNN's training
/// step there):
/// the whole gradient goes to the window's maximum, the first one in
/// row-major order on ties (as TensorFlow's kernel picks it). The maximum's
/// position is found by vector selects; then every position of the window
/// takes the gradient where it is that position (selects again, no
/// scatter). With kStore, the window owns its positions and stores instead
/// of adding. With kRelu, the gradient goes only where the maximum is
/// positive: the ReluGrad of a ReLU's output that was pooled, applied on
/// the way.
template <bool kStore, bool kRelu>
inline void maxPoolWindowGradLanes(const float *image, const float *g,
                                   float *grad, int64_t w, int64_t c,
                                   int64_t y0, int64_t y1, int64_t x0,
                                   int64_t x1, int64_t c0) {
  NativeFloats best = loadNative(image + (y0 * w + x0) * c + c0);
  NativeInts argmax = {};
  int32_t position = 0;
  for (int64_t iy = y0; iy < y1; ++iy)
    for (int64_t ix = x0; ix < x1; ++ix, ++position) {
      NativeFloats v = loadNative(image + (iy * w + ix) * c + c0);
      NativeInts greater = v > best;
      best = greater ? v : best;
      argmax = greater ? NativeInts{} + position : argmax;
    }
  NativeFloats gradient = loadNative(g + c0), zero = {};
  if (kRelu)
    gradient = best > 0.f ? gradient : zero;
  position = 0;
  for (int64_t iy = y0; iy < y1; ++iy)
    for (int64_t ix = x0; ix < x1; ++ix, ++position) {
      float *dst = grad + (iy * w + ix) * c + c0;
      NativeFloats share = argmax == position ? gradient : zero;
      storeNative(dst, kStore ? share : loadNative(dst) + share);
    }
}

/// The same for one channel.
template <bool kStore, bool kRelu>
inline void maxPoolWindowGrad1(const float *image, const float *g,
                               float *grad, int64_t w, int64_t c, int64_t y0,
                               int64_t y1, int64_t x0, int64_t x1,
                               int64_t ch) {
  float best = image[(y0 * w + x0) * c + ch];
  int64_t at = (y0 * w + x0) * c + ch;
  for (int64_t iy = y0; iy < y1; ++iy)
    for (int64_t ix = x0; ix < x1; ++ix) {
      int64_t i = (iy * w + ix) * c + ch;
      if (image[i] > best) {
        best = image[i];
        at = i;
      }
    }
  if (kStore)
    for (int64_t iy = y0; iy < y1; ++iy)
      for (int64_t ix = x0; ix < x1; ++ix)
        grad[(iy * w + ix) * c + ch] = 0.f;
  if (!kRelu || best > 0.f)
    grad[at] += g[ch];
}

template <bool kStore, bool kRelu>
void maxPoolWindowGrad(const float *image, const float *g, float *grad,
                       int64_t w, int64_t c, int64_t y0, int64_t y1,
                       int64_t x0, int64_t x1) {
  // Whole vectors of channels, then the rest one at a time.
  int64_t c0 = 0;
  for (; c0 + kNativeLanes <= c; c0 += kNativeLanes)
    maxPoolWindowGradLanes<kStore, kRelu>(image, g, grad, w, c, y0, y1, x0,
                                          x1, c0);
  for (; c0 < c; ++c0)
    maxPoolWindowGrad1<kStore, kRelu>(image, g, grad, w, c, y0, y1, x0, x1, c0);
}

/// One window of a max pooling gradient, the variant picked at run time.
inline void maxPoolWindowGrad(bool store, bool relu, const float *image,
                              const float *g, float *grad, int64_t w,
                              int64_t c, int64_t y0, int64_t y1, int64_t x0,
                              int64_t x1) {
  if (store && relu)
    maxPoolWindowGrad<true, true>(image, g, grad, w, c, y0, y1, x0, x1);
  else if (store)
    maxPoolWindowGrad<true, false>(image, g, grad, w, c, y0, y1, x0, x1);
  else if (relu)
    maxPoolWindowGrad<false, true>(image, g, grad, w, c, y0, y1, x0, x1);
  else
    maxPoolWindowGrad<false, false>(image, g, grad, w, c, y0, y1, x0, x1);
}

/// Whether the windows tile the image exactly (2x2 windows at stride 2 on
/// an even image, say): each window owns its positions, so a gradient can
/// be stored there instead of added, without clearing the image first.
inline bool windowsTile(const PoolGeometry &g) {
  return g.strideH == g.kh && g.strideW == g.kw && g.padTop == 0 &&
         g.padLeft == 0 && g.oh * g.kh == g.h && g.ow * g.kw == g.w;
}

/// The window of output position (y, x), clipped to the image: rows
/// [y0, y1), columns [x0, x1); empty when it lies in the padding.
struct PoolWindow {
  int64_t y0, y1, x0, x1;
  bool empty() const { return y0 >= y1 || x0 >= x1; }
};
inline PoolWindow windowAt(const PoolGeometry &g, int64_t y, int64_t x) {
  return {std::max<int64_t>(y * g.strideH - g.padTop, 0),
          std::min<int64_t>(y * g.strideH - g.padTop + g.kh, g.h),
          std::max<int64_t>(x * g.strideW - g.padLeft, 0),
          std::min<int64_t>(x * g.strideW - g.padLeft + g.kw, g.w)};
}

/// One image's max pooling gradient: `grad` ([h, w, c]) gets each window's
/// gradient (`gradient`, [oh, ow, c]) at the window's first maximum of
/// `image`, masked by the maximum's sign with `relu` (see
/// maxPoolWindowGradLanes).
inline void maxPoolImageGrad(const PoolGeometry &g, bool relu,
                             const float *image, const float *gradient,
                             float *grad) {
  bool tiles = windowsTile(g);
  if (!tiles)
    std::fill(grad, grad + g.h * g.w * g.c, 0.f);
  for (int64_t y = 0; y < g.oh; ++y)
    for (int64_t x = 0; x < g.ow; ++x) {
      PoolWindow win = windowAt(g, y, x);
      if (!win.empty())
        maxPoolWindowGrad(tiles, relu, image, gradient + (y * g.ow + x) * g.c,
                          grad, g.w, g.c, win.y0, win.y1, win.x0, win.x1);
    }
}

} // namespace tfc

#endif // TFC_RUNTIME_KERNELS_CPU_POOLING_H
