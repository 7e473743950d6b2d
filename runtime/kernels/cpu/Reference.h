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

/// NHWC convolution; depthwise when `multiplier` > 0 (filter
/// [kh,kw,c,multiplier]), else a full one (filter [kh,kw,c,oc]).
inline void conv2d(const float *in, const float *filter, float *out,
                   int64_t n, int64_t h, int64_t w, int64_t c, int64_t kh,
                   int64_t kw, int64_t oc, int64_t oh, int64_t ow, int64_t sh,
                   int64_t sw, int64_t dh, int64_t dw, int64_t pt, int64_t pl,
                   int64_t multiplier = 0) {
  for (int64_t b = 0; b < n; ++b)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t x = 0; x < ow; ++x)
        for (int64_t o = 0; o < oc; ++o) {
          double sum = 0;
          for (int64_t i = 0; i < kh; ++i)
            for (int64_t j = 0; j < kw; ++j) {
              int64_t iy = y * sh + i * dh - pt, ix = x * sw + j * dw - pl;
              if (iy < 0 || iy >= h || ix < 0 || ix >= w)
                continue;
              if (multiplier > 0) {
                int64_t ch = o / multiplier;
                sum += double(in[((b * h + iy) * w + ix) * c + ch]) *
                       double(filter[((i * kw + j) * c + ch) * multiplier + o % multiplier]);
              } else {
                for (int64_t ch = 0; ch < c; ++ch)
                  sum += double(in[((b * h + iy) * w + ix) * c + ch]) *
                         double(filter[((i * kw + j) * c + ch) * oc + o]);
              }
            }
          out[((b * oh + y) * ow + x) * oc + o] = float(sum);
        }
}

inline void pool2d(bool max, const float *in, float *out, int64_t n,
                   int64_t h, int64_t w, int64_t c, int64_t kh, int64_t kw,
                   int64_t oh, int64_t ow, int64_t sh, int64_t sw, int64_t pt,
                   int64_t pl) {
  for (int64_t b = 0; b < n; ++b)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t x = 0; x < ow; ++x)
        for (int64_t ch = 0; ch < c; ++ch) {
          double acc = max ? -INFINITY : 0;
          int64_t count = 0;
          for (int64_t i = 0; i < kh; ++i)
            for (int64_t j = 0; j < kw; ++j) {
              int64_t iy = y * sh + i - pt, ix = x * sw + j - pl;
              if (iy < 0 || iy >= h || ix < 0 || ix >= w)
                continue;
              double v = in[((b * h + iy) * w + ix) * c + ch];
              acc = max ? std::max(acc, v) : acc + v;
              ++count;
            }
          out[((b * oh + y) * ow + x) * c + ch] =
              float(max ? acc : (count ? acc / count : 0));
        }
}

} // namespace tfc::reference

#endif // TFC_RUNTIME_KERNELS_CPU_REFERENCE_H
