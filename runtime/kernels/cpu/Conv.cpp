//===- Conv.cpp - convolutions and pooling on the CPU (NHWC) --------------===//
//
// Conv2D as im2col + the MatMul kernel (a 1x1, stride-1, unpadded
// convolution is a plain matrix product on the input as it is); depthwise
// convolution and pooling as direct loops, parallel over output rows.
// Padding arrives explicit (top/left; the compiler resolves SAME as
// TensorFlow does); padded input positions count as zeros for convolutions,
// are skipped by max pooling, and are not counted by average pooling.
// Tested against the reference kernels in Reference.h.
//
//===----------------------------------------------------------------------===//

#include "NativeVector.h"
#include "Parallel.h"
#include "Pooling.h"
#include "Runtime.h"
#include "Vector16.h"
#include "VectorMath.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

extern "C" void tfc_cpu_conv2d_f32(
    tfc_runtime *runtime, const float *in, const float *filter, float *out,
    int64_t n, int64_t h, int64_t w, int64_t c, int64_t kh, int64_t kw,
    int64_t oc, int64_t oh, int64_t ow, int64_t strideH, int64_t strideW,
    int64_t dilationH, int64_t dilationW, int64_t padTop, int64_t padLeft) {
  int64_t patch = kh * kw * c;
  if (kh == 1 && kw == 1 && strideH == 1 && strideW == 1 && padTop == 0 &&
      padLeft == 0 && oh == h && ow == w) {
    tfc_cpu_matmul_f32(runtime, in, filter, out, n * h * w, c, oc, 0, 0);
    return;
  }
  // One batch element at a time keeps the patch matrix small.
  std::vector<float> patches(static_cast<size_t>(oh * ow * patch));
  for (int64_t b = 0; b < n; ++b) {
    const float *image = in + b * h * w * c;
    auto fillRows = [&](Eigen::Index first, Eigen::Index last) {
      for (Eigen::Index row = first; row < last; ++row) {
        int64_t y = row / ow, x = row % ow;
        float *dst = patches.data() + row * patch;
        for (int64_t i = 0; i < kh; ++i) {
          int64_t iy = y * strideH + i * dilationH - padTop;
          for (int64_t j = 0; j < kw; ++j, dst += c) {
            int64_t ix = x * strideW + j * dilationW - padLeft;
            if (iy < 0 || iy >= h || ix < 0 || ix >= w)
              std::fill(dst, dst + c, 0.f);
            else
              std::copy_n(image + (iy * w + ix) * c, c, dst);
          }
        }
      }
    };
    tfc::parallelFor(runtime, oh * ow, Eigen::TensorOpCost(4.0 * patch, 4.0 * patch, patch),
                                fillRows);
    tfc_cpu_matmul_f32(runtime, patches.data(), filter, out + b * oh * ow * oc,
                       oh * ow, patch, oc, 0, 0);
  }
}

extern "C" void tfc_cpu_depthwise_conv2d_f32(
    tfc_runtime *runtime, const float *in, const float *filter, float *out,
    int64_t n, int64_t h, int64_t w, int64_t c, int64_t kh, int64_t kw,
    int64_t multiplier, int64_t oh, int64_t ow, int64_t strideH,
    int64_t strideW, int64_t dilationH, int64_t dilationW, int64_t padTop,
    int64_t padLeft) {
  int64_t oc = c * multiplier;
  auto rows = [&](Eigen::Index first, Eigen::Index last) {
    std::vector<float> acc(oc);
    for (Eigen::Index r = first; r < last; ++r) {
      int64_t b = r / oh, y = r % oh;
      for (int64_t x = 0; x < ow; ++x) {
        std::fill(acc.begin(), acc.end(), 0.f);
        for (int64_t i = 0; i < kh; ++i) {
          int64_t iy = y * strideH + i * dilationH - padTop;
          if (iy < 0 || iy >= h)
            continue;
          for (int64_t j = 0; j < kw; ++j) {
            int64_t ix = x * strideW + j * dilationW - padLeft;
            if (ix < 0 || ix >= w)
              continue;
            const float *px = in + ((b * h + iy) * w + ix) * c;
            const float *pf = filter + (i * kw + j) * oc;
            for (int64_t ch = 0; ch < c; ++ch)
              for (int64_t m = 0; m < multiplier; ++m)
                acc[ch * multiplier + m] += px[ch] * pf[ch * multiplier + m];
          }
        }
        std::copy(acc.begin(), acc.end(), out + ((b * oh + y) * ow + x) * oc);
      }
    }
  };
  tfc::parallelFor(runtime, n * oh, Eigen::TensorOpCost(8.0 * ow * oc, 4.0 * ow * oc, 2.0 * kh * kw * ow * oc), rows);
}

extern "C" void tfc_cpu_pool2d_f32(tfc_runtime *runtime, int32_t kind,
                                   const float *in, float *out, int64_t n,
                                   int64_t h, int64_t w, int64_t c, int64_t kh,
                                   int64_t kw, int64_t oh, int64_t ow,
                                   int64_t strideH, int64_t strideW,
                                   int64_t padTop, int64_t padLeft) {
  tfc::PoolGeometry geometry{h,  w,       c,       kh,     kw,      oh,
                             ow, strideH, strideW, padTop, padLeft, kind == 2};
  auto rows = [&](Eigen::Index first, Eigen::Index last) {
    for (Eigen::Index r = first; r < last; ++r) {
      int64_t b = r / oh, y = r % oh;
      tfc::poolRow(kind != 1, geometry, in + b * h * w * c, y,
                   out + (b * oh + y) * ow * c);
    }
  };
  tfc::parallelFor(runtime, n * oh, Eigen::TensorOpCost(4.0 * ow * c * kh * kw, 4.0 * ow * c, ow * c * kh * kw), rows);
}

namespace {

/// The reductions' operation on two partial results.
inline float combine(int32_t kind, float a, float v) {
  return kind == 2   ? std::max(a, v)
         : kind == 3 ? std::min(a, v)
         : kind == 4 ? a * v
                     : a + v;
}

inline float identityOf(int32_t kind) {
  return kind == 2   ? -std::numeric_limits<float>::infinity()
         : kind == 3 ? std::numeric_limits<float>::infinity()
         : kind == 4 ? 1.f
                     : 0.f;
}

/// src[0] op ... op src[n - 1] for contiguous src (VectorMath.h's
/// reduceLanes).
float reduceContiguous(int32_t kind, const float *src, int64_t n) {
  using namespace tfc::vector_math;
  float identity = identityOf(kind);
  switch (kind) {
  case 2:
    return reduceLanes<Floats8>(src, n, identity, Max());
  case 3:
    return reduceLanes<Floats8>(src, n, identity, Min());
  case 4:
    return reduceLanes<tfc::Floats16>(src, n, identity,
                                      [](auto a, auto b) { return a * b; });
  default:
    return reduceLanes<tfc::Floats16>(src, n, identity,
                                      [](auto a, auto b) { return a + b; });
  }
}

/// dst[i] = src[0][i] op ... op src[rows - 1][i] for i in [0, inner).
void reduceRows(int32_t kind, const float *src, int64_t rows, int64_t inner,
                float *dst) {
  if (inner == 1) {
    dst[0] = reduceContiguous(kind, src, rows);
    return;
  }
  std::fill(dst, dst + inner, identityOf(kind));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t i = 0; i < inner; ++i)
      dst[i] = combine(kind, dst[i], src[r * inner + i]);
}

/// The rows of one chunk of a long reduction: about 64K elements, fixed by
/// the shape alone, so that results do not depend on the thread count.
int64_t chunkRowsFor(int64_t inner) {
  constexpr int64_t kChunkElements = int64_t(1) << 16;
  return std::max<int64_t>(1, kChunkElements / std::max<int64_t>(inner, 1));
}

/// dst[0, inner) divided by the count of a reduction of `reduced` rows
/// (a mean; none for no rows, as the sum is then the identity).
void divideByCount(float *dst, int64_t inner, int64_t reduced) {
  if (reduced > 0)
    for (int64_t i = 0; i < inner; ++i)
      dst[i] /= float(reduced);
}

} // namespace

extern "C" void tfc_cpu_reduce_f32(tfc_runtime *runtime, int32_t kind,
                                   const float *in, float *out, int64_t outer,
                                   int64_t reduced, int64_t inner) {
  // kind: 0 sum, 1 mean, 2 max, 3 min, 4 prod. Accumulate in float. Long
  // reductions (a bias gradient sums every row of an activation into one
  // vector) go in chunks of about 64K elements, reduced in parallel and
  // then combined in order; the chunks depend on the shape only, so the
  // result does not depend on the thread count.
  int64_t chunkRows = chunkRowsFor(inner);
  int64_t chunks = (reduced + chunkRows - 1) / chunkRows;
  auto finish = [&](float *dst) {
    if (kind == 1)
      divideByCount(dst, inner, reduced);
  };
  if (chunks <= 1) {
    auto rows = [&](Eigen::Index first, Eigen::Index last) {
      for (Eigen::Index o = first; o < last; ++o) {
        reduceRows(kind, in + o * reduced * inner, reduced, inner, out + o * inner);
        finish(out + o * inner);
      }
    };
    tfc::parallelFor(runtime, outer, Eigen::TensorOpCost(4.0 * reduced * inner, 4.0 * inner, reduced * inner), rows);
    return;
  }
  std::vector<float> partial(outer * chunks * inner);
  auto parts = [&](Eigen::Index first, Eigen::Index last) {
    for (Eigen::Index part = first; part < last; ++part) {
      int64_t o = part / chunks, r0 = part % chunks * chunkRows;
      reduceRows(kind, in + (o * reduced + r0) * inner,
                 std::min(chunkRows, reduced - r0), inner,
                 partial.data() + part * inner);
    }
  };
  double perPart = double(chunkRows * inner);
  tfc::parallelFor(runtime, outer * chunks, Eigen::TensorOpCost(4.0 * perPart, 4.0 * inner, perPart), parts);
  for (int64_t o = 0; o < outer; ++o) {
    reduceRows(kind, partial.data() + o * chunks * inner, chunks, inner, out + o * inner);
    finish(out + o * inner);
  }
}

namespace {

/// The sum of (src[i] - mean)² over contiguous src[0, n), in two native
/// vectors of partial sums.
float sumSquaredDeviations(const float *src, int64_t n, float mean) {
  constexpr int64_t width = tfc::kNativeLanes;
  tfc::NativeFloats center = tfc::splatNative(mean), low = {}, high = {};
  int64_t i = 0;
  for (; i + 2 * width <= n; i += 2 * width) {
    tfc::NativeFloats first = tfc::loadNative(src + i) - center;
    tfc::NativeFloats second = tfc::loadNative(src + i + width) - center;
    low += first * first;
    high += second * second;
  }
  low += high;
  float sum = 0.f;
  for (int64_t l = 0; l < width; ++l)
    sum += low[l];
  for (; i < n; ++i)
    sum += (src[i] - mean) * (src[i] - mean);
  return sum;
}

/// dst[i] = the sum of (src[r][i] - mean[i])² over r in [0, rows), for i
/// in [0, inner).
void sumSquaredDeviationRows(const float *src, int64_t rows, int64_t inner,
                             const float *mean, float *dst) {
  if (inner == 1) {
    dst[0] = sumSquaredDeviations(src, rows, mean[0]);
    return;
  }
  std::fill(dst, dst + inner, 0.f);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t i = 0; i < inner; ++i) {
      float deviation = src[r * inner + i] - mean[i];
      dst[i] += deviation * deviation;
    }
}

} // namespace

extern "C" void tfc_cpu_moments_f32(tfc_runtime *runtime, const float *in,
                                    float *mean, float *variance, int64_t outer,
                                    int64_t reduced, int64_t inner) {
  // The mean is tfc_cpu_reduce_f32's, to the bit: the same rows in the
  // same order. Where a reduction is short enough to go whole (a layer
  // norm's row), each thread's rows are read from memory once: the
  // squared deviations of a row are summed while it is in the cache.
  int64_t chunkRows = chunkRowsFor(inner);
  int64_t chunks = (reduced + chunkRows - 1) / chunkRows;
  if (chunks <= 1) {
    auto rows = [&](Eigen::Index first, Eigen::Index last) {
      for (Eigen::Index o = first; o < last; ++o) {
        const float *src = in + o * reduced * inner;
        float *m = mean + o * inner, *v = variance + o * inner;
        reduceRows(1, src, reduced, inner, m);
        divideByCount(m, inner, reduced);
        sumSquaredDeviationRows(src, reduced, inner, m, v);
        divideByCount(v, inner, reduced);
      }
    };
    tfc::parallelFor(runtime, outer, Eigen::TensorOpCost(4.0 * reduced * inner, 8.0 * inner, 4.0 * reduced * inner), rows);
    return;
  }
  // A long reduction (moments over a batch's pixels) takes two passes:
  // the mean, then the squared deviations in chunks summed in order, as
  // the mean's.
  tfc_cpu_reduce_f32(runtime, 1, in, mean, outer, reduced, inner);
  std::vector<float> partial(outer * chunks * inner);
  auto parts = [&](Eigen::Index first, Eigen::Index last) {
    for (Eigen::Index part = first; part < last; ++part) {
      int64_t o = part / chunks, r0 = part % chunks * chunkRows;
      sumSquaredDeviationRows(in + (o * reduced + r0) * inner,
                              std::min(chunkRows, reduced - r0), inner,
                              mean + o * inner, partial.data() + part * inner);
    }
  };
  double perPart = double(chunkRows * inner);
  tfc::parallelFor(runtime, outer * chunks, Eigen::TensorOpCost(4.0 * perPart, 4.0 * inner, 3 * perPart), parts);
  for (int64_t o = 0; o < outer; ++o) {
    float *v = variance + o * inner;
    reduceRows(0, partial.data() + o * chunks * inner, chunks, inner, v);
    divideByCount(v, inner, reduced);
  }
}

extern "C" void tfc_cpu_pool2d_grad_f32(tfc_runtime *runtime, int32_t kind,
                                        const float *input,
                                        const float *gradient, float *out,
                                        int64_t n, int64_t h, int64_t w,
                                        int64_t c, int64_t kh, int64_t kw,
                                        int64_t oh, int64_t ow, int64_t strideH,
                                        int64_t strideW, int64_t padTop,
                                        int64_t padLeft) {
  // kind: 0 max, 1 average, 2 max followed by ReluGrad on the pooling's
  // input (the ReLU's output): see maxPoolWindowGradLanes.
  bool max = kind != 1, relu = kind == 2;
  tfc::PoolGeometry geometry{h,  w,       c,       kh,     kw,     oh,
                             ow, strideH, strideW, padTop, padLeft};
  bool tiles = tfc::windowsTile(geometry);
  // Windows may overlap, so each task owns whole images: the gradients it
  // adds never meet another task's.
  auto images = [&](Eigen::Index first, Eigen::Index last) {
    for (Eigen::Index b = first; b < last; ++b) {
      float *grad = out + b * h * w * c;
      if (max) {
        tfc::maxPoolImageGrad(geometry, relu, input + b * h * w * c,
                              gradient + b * oh * ow * c, grad);
        continue;
      }
      if (!tiles)
        std::fill(grad, grad + h * w * c, 0.f);
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t x = 0; x < ow; ++x) {
          const float *__restrict g = gradient + ((b * oh + y) * ow + x) * c;
          tfc::PoolWindow win = tfc::windowAt(geometry, y, x);
          if (win.empty())
            continue;
          // Each input position of the window gets an equal share; padded
          // positions were not counted.
          float share = 1.f / float((win.y1 - win.y0) * (win.x1 - win.x0));
          for (int64_t iy = win.y0; iy < win.y1; ++iy)
            for (int64_t ix = win.x0; ix < win.x1; ++ix) {
              float *__restrict dst = grad + (iy * w + ix) * c;
              if (tiles)
                for (int64_t ch = 0; ch < c; ++ch)
                  dst[ch] = g[ch] * share;
              else
                for (int64_t ch = 0; ch < c; ++ch)
                  dst[ch] += g[ch] * share;
            }
        }
    }
  };
  double perImage = double(oh * ow * kh * kw * c);
  tfc::parallelFor(runtime, n, Eigen::TensorOpCost(4 * perImage, 4 * perImage, 2 * perImage), images);
}
