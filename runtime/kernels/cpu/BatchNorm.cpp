//===- BatchNorm.cpp - FusedBatchNorm in training mode and its gradient ---===//
//
// The input is [rows, channels] (NHWC with rows = n*h*w). Statistics are
// per channel, summed in float over blocks of rows in parallel (blocks
// combined in order in double, so a result does not depend on the thread
// count), then normalized in parallel. The formulas are TensorFlow's CPU
// kernels': the batch variance is biased for normalizing and for the
// saved statistics, and Bessel-corrected for the running variance output.
//
// Both kernels read their input once for the statistics and once to
// write the result: these tensors are far larger than the caches, so
// memory traffic is their cost. Inner loops run over the channels of a
// row with per-channel coefficients computed beforehand, which the
// compiler vectorizes.
//
// Two of the compiler's fusions save a pass over such a tensor each: the
// training kernel may also max-pool y as it writes it (a MaxPool of y
// folded in), image by image while the image is in cache; the gradient
// kernel may also sum x's gradient over the rows as it writes it (the
// BiasAddGrad of a bias added just before the batch norm), in the same
// fixed blocks as the statistics.
//
// A third fusion takes the max pooling's gradient (and the ReLU's) into
// the batch norm's, for the classic block conv -> batch norm -> ReLU ->
// max pooling: the pooled gradient is four times smaller than y's
// gradient, which is never written. Its sums are taken window by window
// (each window's gradient goes to one position: its maximum). Where the
// windows tile the image (2x2 at stride 2), that pass records each
// window's maximum per channel in a byte, and x's gradient is written
// window by window from those, reading x but not y; otherwise image by
// image, the pooling's gradient scattered into it and turned into x's
// while the image is in the cache.
//
//===----------------------------------------------------------------------===//

#include "Parallel.h"
#include "Pooling.h"
#include "Runtime.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace {

/// Rows per block of the statistics: enough work per task, and a fixed
/// split so that sums come out the same for any thread count.
constexpr int64_t kRowsPerBlock = 256;

/// The per-channel totals of `blocks` blocks' float sums, block b's sum
/// for channel ch at partial[b * stride + offset + ch], added in block
/// order in double: the same totals for any thread count.
std::vector<double> totalOfBlocks(const std::vector<float> &partial,
                                  int64_t blocks, int64_t stride,
                                  int64_t offset, int64_t channels) {
  std::vector<double> totals(channels, 0.0);
  for (int64_t block = 0; block < blocks; ++block)
    for (int64_t ch = 0; ch < channels; ++ch)
      totals[ch] += partial[block * stride + offset + ch];
  return totals;
}

/// Two per-channel sums over all rows: accumulate(row, first, second) adds
/// a row's terms into first[0..channels) and second[0..channels), float
/// sums of one block of kRowsPerBlock rows; the blocks' sums are combined
/// in order in double. Float keeps the pass at memory's speed (in double
/// its conversions made it compute-bound, half as fast); a block's 256
/// terms lose little in float.
template <typename Accumulate>
void channelSums(tfc_runtime *runtime, int64_t rows, int64_t channels,
                 Accumulate accumulate, std::vector<double> &first,
                 std::vector<double> &second) {
  int64_t blocks = (rows + kRowsPerBlock - 1) / kRowsPerBlock;
  std::vector<float> partial(2 * blocks * channels, 0.f);
  auto sumBlocks = [&](Eigen::Index firstBlock, Eigen::Index lastBlock) {
    for (Eigen::Index block = firstBlock; block < lastBlock; ++block) {
      float *sums = partial.data() + 2 * block * channels;
      int64_t end = std::min(rows, (block + 1) * kRowsPerBlock);
      for (int64_t r = block * kRowsPerBlock; r < end; ++r)
        accumulate(r, sums, sums + channels);
    }
  };
  double perBlock = double(kRowsPerBlock * channels);
  tfc::parallelFor(runtime, blocks, Eigen::TensorOpCost(4 * perBlock, 8.0 * channels, 2 * perBlock), sumBlocks);
  first = totalOfBlocks(partial, blocks, 2 * channels, 0, channels);
  second = totalOfBlocks(partial, blocks, 2 * channels, channels, channels);
}

/// Calls body(row) for every row, in parallel.
template <typename Body>
void forEachRow(tfc_runtime *runtime, int64_t rows, int64_t channels,
                Body body) {
  auto range = [&](Eigen::Index first, Eigen::Index last) {
    for (Eigen::Index r = first; r < last; ++r)
      body(r);
  };
  tfc::parallelFor(runtime, rows, Eigen::TensorOpCost(8.0 * channels, 4.0 * channels, 3.0 * channels), range);
}

/// Calls body(row, sums) for every row, in parallel, where body adds the
/// row's terms into sums[0..channels); returns the per-channel totals
/// (blocks of kRowsPerBlock rows summed in float, then combined in order
/// in double, as channelSums combines its blocks).
template <typename Body>
std::vector<double> forEachRowSummed(tfc_runtime *runtime, int64_t rows,
                                     int64_t channels, Body body) {
  int64_t blocks = (rows + kRowsPerBlock - 1) / kRowsPerBlock;
  std::vector<float> partial(blocks * channels, 0.f);
  auto range = [&](Eigen::Index firstBlock, Eigen::Index lastBlock) {
    for (Eigen::Index block = firstBlock; block < lastBlock; ++block) {
      int64_t end = std::min(rows, (block + 1) * kRowsPerBlock);
      for (int64_t r = block * kRowsPerBlock; r < end; ++r)
        body(r, partial.data() + block * channels);
    }
  };
  double perBlock = double(kRowsPerBlock * channels);
  tfc::parallelFor(runtime, blocks, Eigen::TensorOpCost(8 * perBlock, 4 * perBlock, 5 * perBlock), range);
  return totalOfBlocks(partial, blocks, channels, 0, channels);
}

/// x's gradient as g * p + (x - mean) * q + r per channel, from the sums
/// over the rows of the output gradient g and of g * (x - mean).
struct GradientCoefficients {
  std::vector<float> p, q, r;
};

/// The coefficients, and the scale's and offset's gradients. In training,
/// x's gradient is coefficient * (g - gradientMean - centered * inverse^2 *
/// crossMean) (the batch statistics depend on x too: their share of the
/// gradient is its mean and its projection on the centered input);
/// otherwise coefficient * g (the statistics were constants of the
/// forward pass).
GradientCoefficients gradientCoefficients(
    const std::vector<double> &gradientSums,
    const std::vector<double> &crossSums, const float *scale,
    const float *variance, float epsilon, int64_t rows, int64_t channels,
    bool training, float *scaleGradient, float *offsetGradient) {
  GradientCoefficients k{std::vector<float>(channels),
                         std::vector<float>(channels, 0.f),
                         std::vector<float>(channels, 0.f)};
  for (int64_t ch = 0; ch < channels; ++ch) {
    float inverse = 1.f / std::sqrt(variance[ch] + epsilon);
    offsetGradient[ch] = float(gradientSums[ch]);
    scaleGradient[ch] = float(crossSums[ch] * inverse);
    float coefficient = scale[ch] * inverse;
    k.p[ch] = coefficient;
    if (training && rows > 0) {
      float gradientMean = float(gradientSums[ch] / double(rows));
      float crossMean = float(crossSums[ch] / double(rows));
      k.q[ch] = -coefficient * inverse * inverse * crossMean;
      k.r[ch] = -coefficient * gradientMean;
    }
  }
  return k;
}

/// Loads and stores of the channels [c0, c0 + lanes) of a max pooling
/// window's positions: whole native vectors, or with kTail a last, partial
/// one.
template <bool kTail> struct WindowLanes {
  int64_t lanes;
  tfc::NativeFloats load(const float *p) const {
    if constexpr (kTail)
      return tfc::loadNativeFirst(p, lanes);
    else
      return tfc::loadNative(p);
  }
  void store(float *p, tfc::NativeFloats v) const {
    if constexpr (kTail)
      tfc::storeNativeFirst(p, v, lanes);
    else
      tfc::storeNative(p, v);
  }
};

/// A window position per lane, one byte each (a window has at most 127
/// positions where it is recorded); -1 where the gradient goes nowhere.
typedef int8_t NativeBytes __attribute__((vector_size(tfc::kNativeLanes)));

/// Adds one max pooling window's share of the gradient's sums for the
/// channels [c0, c0 + lanes): the window's gradient `g` goes to its first
/// maximum of `y` (with `relu`, only where that maximum is positive, as
/// ReluGrad masks it), so it adds to `sums` and, times x - mean at that
/// maximum, to `crosses`. x at the maximum is selected along with it,
/// lane by lane. Unless `positions` is null, the maximum's position in the
/// window goes there (-1 where the ReLU drops the gradient).
template <bool kTail>
inline void addWindowSums(WindowLanes<kTail> io, bool relu, const float *y,
                          const float *x, const float *g, const float *mean,
                          int64_t w, int64_t c, const tfc::PoolWindow &window,
                          int64_t c0, float *sums, float *crosses,
                          int8_t *positions) {
  int64_t first = (window.y0 * w + window.x0) * c + c0;
  tfc::NativeFloats best = io.load(y + first), xAtBest = io.load(x + first);
  tfc::NativeInts argmax = {};
  int32_t position = 0;
  for (int64_t iy = window.y0; iy < window.y1; ++iy)
    for (int64_t ix = window.x0; ix < window.x1; ++ix, ++position) {
      int64_t at = (iy * w + ix) * c + c0;
      tfc::NativeFloats v = io.load(y + at);
      tfc::NativeInts greater = v > best;
      best = greater ? v : best;
      xAtBest = greater ? io.load(x + at) : xAtBest;
      argmax = greater ? tfc::NativeInts{} + position : argmax;
    }
  tfc::NativeFloats gradient = io.load(g + c0), zero = {};
  if (relu) {
    tfc::NativeInts positive = best > 0.f;
    gradient = positive ? gradient : zero;
    argmax = positive ? argmax : tfc::NativeInts{} - 1;
  }
  io.store(sums + c0, io.load(sums + c0) + gradient);
  io.store(crosses + c0,
           io.load(crosses + c0) + gradient * (xAtBest - io.load(mean + c0)));
  if (positions) {
    NativeBytes bytes = __builtin_convertvector(argmax, NativeBytes);
    std::memcpy(positions + c0, &bytes, kTail ? io.lanes : tfc::kNativeLanes);
  }
}

/// x's gradient at the positions of one window that owns them (windows
/// that tile the image), channels [c0, c0 + lanes): `p`, `q`, `r` times
/// the window's gradient where its maximum was (`positions`, from
/// addWindowSums), x - mean, and one. Adds what it writes to `sums` if
/// not null.
template <bool kTail>
inline void writeWindowGradient(WindowLanes<kTail> io, const float *x,
                                const float *g, const int8_t *positions,
                                const float *mean, const float *p,
                                const float *q, const float *r, int64_t w,
                                int64_t c, const tfc::PoolWindow &window,
                                int64_t c0, float *out, float *sums) {
  NativeBytes bytes = {};
  std::memcpy(&bytes, positions + c0, kTail ? io.lanes : tfc::kNativeLanes);
  tfc::NativeInts argmax = __builtin_convertvector(bytes, tfc::NativeInts);
  tfc::NativeFloats gradient = io.load(g + c0), zero = {};
  tfc::NativeFloats vm = io.load(mean + c0), vp = io.load(p + c0),
                    vq = io.load(q + c0), vr = io.load(r + c0), total = {};
  int32_t position = 0;
  for (int64_t iy = window.y0; iy < window.y1; ++iy)
    for (int64_t ix = window.x0; ix < window.x1; ++ix, ++position) {
      int64_t at = (iy * w + ix) * c + c0;
      tfc::NativeFloats share = argmax == position ? gradient : zero;
      tfc::NativeFloats v = share * vp + (io.load(x + at) - vm) * vq + vr;
      io.store(out + at, v);
      total += v;
    }
  if (sums)
    io.store(sums + c0, io.load(sums + c0) + total);
}

} // namespace

extern "C" void tfc_cpu_batch_norm_training_f32(
    tfc_runtime *runtime, const float *x, const float *scale,
    const float *offset, const float *runningMean, const float *runningVariance,
    float *y, float *batchMean, float *batchVariance, float *savedMean,
    float *savedVariance, float *pooled, float epsilon, float averageFactor,
    int64_t rows, int64_t channels, int64_t activation, int64_t images,
    int64_t height, int64_t width, int64_t poolH, int64_t poolW,
    int64_t pooledH, int64_t pooledW, int64_t strideH, int64_t strideW,
    int64_t padTop, int64_t padLeft) {
  // One pass for both moments, shifted by the first row's values: with a
  // shift near the mean (a sample, a few deviations away at most),
  // sum(d)^2/n stays small beside sum(d^2) and the difference keeps its
  // precision.
  std::vector<float> shift(channels, 0.f);
  if (rows > 0)
    for (int64_t ch = 0; ch < channels; ++ch)
      shift[ch] = x[ch];
  std::vector<double> sums, squares;
  channelSums(
      runtime, rows, channels,
      [&](int64_t r, float *__restrict sum, float *__restrict square) {
        const float *__restrict row = x + r * channels;
        const float *__restrict s = shift.data();
        for (int64_t ch = 0; ch < channels; ++ch) {
          float d = row[ch] - s[ch];
          sum[ch] += d;
          square[ch] += d * d;
        }
      },
      sums, squares);
  std::vector<float> mean(channels), variance(channels), factor(channels);
  for (int64_t ch = 0; ch < channels; ++ch) {
    double meanShifted = rows > 0 ? sums[ch] / double(rows) : 0.0;
    double var = rows > 0 ? squares[ch] / double(rows) - meanShifted * meanShifted : 0.0;
    mean[ch] = float(shift[ch] + meanShifted);
    variance[ch] = float(std::max(var, 0.0));
    factor[ch] = scale[ch] / std::sqrt(variance[ch] + epsilon);
  }
  // y, through the activation folded in (none, ReLU or ReLU6); one loop
  // for each, so that each vectorizes.
  auto normalizeRow = [&](auto activate, int64_t r) {
    const float *__restrict in = x + r * channels;
    float *__restrict out = y + r * channels;
    const float *__restrict m = mean.data(), *__restrict f = factor.data();
    for (int64_t ch = 0; ch < channels; ++ch)
      out[ch] = activate((in[ch] - m[ch]) * f[ch] + offset[ch]);
  };
  tfc::PoolGeometry pool{height, width,   channels, poolH,  poolW,  pooledH,
                         pooledW, strideH, strideW,  padTop, padLeft};
  int64_t imageRows = height * width;
  // Image by image when there are images for every thread; else all of y,
  // then the pooling kernel over it.
  bool poolEachImage = pooled && images >= runtime->threads;
  auto normalize = [&](auto activate) {
    if (!poolEachImage) {
      forEachRow(runtime, rows, channels,
                 [&](int64_t r) { normalizeRow(activate, r); });
      return;
    }
    // Each image normalized, then pooled from the cache.
    auto eachImage = [&](Eigen::Index first, Eigen::Index last) {
      for (Eigen::Index b = first; b < last; ++b) {
        for (int64_t r = b * imageRows; r < (b + 1) * imageRows; ++r)
          normalizeRow(activate, r);
        for (int64_t py = 0; py < pooledH; ++py)
          tfc::poolRow(true, pool, y + b * imageRows * channels, py,
                       pooled + (b * pooledH + py) * pooledW * channels);
      }
    };
    double perImage = double(imageRows * channels);
    tfc::parallelFor(runtime, images, Eigen::TensorOpCost(4 * perImage, 5 * perImage, 4 * perImage), eachImage);
  };
  if (activation == TFC_ACTIVATION_RELU)
    normalize([](float v) { return std::max(v, 0.f); });
  else if (activation == TFC_ACTIVATION_RELU6)
    normalize([](float v) { return std::min(std::max(v, 0.f), 6.f); });
  else
    normalize([](float v) { return v; });
  if (pooled && !poolEachImage)
    tfc_cpu_pool2d_f32(runtime, 0, y, pooled, images, height, width, channels,
                       poolH, poolW, pooledH, pooledW, strideH, strideW,
                       padTop, padLeft);
  // The running statistics: the batch's (with the unbiased variance), or
  // an exponential average with the previous ones.
  float besselCorrection = rows > 1 ? float(rows) / float(rows - 1) : 1.f;
  for (int64_t ch = 0; ch < channels; ++ch) {
    float unbiased = variance[ch] * besselCorrection;
    if (averageFactor == 1.f) {
      batchMean[ch] = mean[ch];
      batchVariance[ch] = unbiased;
    } else {
      batchMean[ch] =
          (1.f - averageFactor) * runningMean[ch] + averageFactor * mean[ch];
      batchVariance[ch] = (1.f - averageFactor) * runningVariance[ch] +
                          averageFactor * unbiased;
    }
    if (savedMean)
      savedMean[ch] = mean[ch];
    if (savedVariance)
      savedVariance[ch] = variance[ch];
  }
}

extern "C" void tfc_cpu_batch_norm_grad_f32(
    tfc_runtime *runtime, const float *gradient, const float *x,
    const float *scale, const float *mean, const float *variance,
    float *xGradient, float *scaleGradient, float *offsetGradient,
    float *reserved1, float *reserved2, float *xGradientSum, float epsilon,
    int64_t rows, int64_t channels, int64_t training) {
  // The sums of the gradient, and of gradient * (x - mean), per channel.
  std::vector<double> gradientSums, crossSums;
  channelSums(
      runtime, rows, channels,
      [&](int64_t r, float *__restrict sum, float *__restrict cross) {
        const float *__restrict g = gradient + r * channels;
        const float *__restrict in = x + r * channels;
        const float *__restrict m = mean;
        for (int64_t ch = 0; ch < channels; ++ch) {
          sum[ch] += g[ch];
          cross[ch] += g[ch] * (in[ch] - m[ch]);
        }
      },
      gradientSums, crossSums);
  GradientCoefficients k = gradientCoefficients(
      gradientSums, crossSums, scale, variance, epsilon, rows, channels,
      training, scaleGradient, offsetGradient);
  const std::vector<float> &p = k.p, &q = k.q, &r = k.r;
  auto gradientRow = [&](int64_t row) {
    const float *__restrict g = gradient + row * channels;
    const float *__restrict in = x + row * channels;
    float *__restrict out = xGradient + row * channels;
    const float *__restrict m = mean, *__restrict pp = p.data(),
                            *__restrict qq = q.data(), *__restrict rr = r.data();
    for (int64_t ch = 0; ch < channels; ++ch)
      out[ch] = g[ch] * pp[ch] + (in[ch] - m[ch]) * qq[ch] + rr[ch];
  };
  if (!xGradientSum) {
    forEachRow(runtime, rows, channels, gradientRow);
  } else {
    std::vector<double> sums = forEachRowSummed(
        runtime, rows, channels, [&](int64_t row, float *__restrict sum) {
          gradientRow(row);
          const float *__restrict out = xGradient + row * channels;
          for (int64_t ch = 0; ch < channels; ++ch)
            sum[ch] += out[ch];
        });
    for (int64_t ch = 0; ch < channels; ++ch)
      xGradientSum[ch] = float(sums[ch]);
  }
  // TensorFlow leaves these unspecified; write something definite.
  if (reserved1)
    *reserved1 = 0.f;
  if (reserved2)
    *reserved2 = 0.f;
}

extern "C" void tfc_cpu_batch_norm_grad_pooled_f32(
    tfc_runtime *runtime, const float *pooledGradient, const float *y,
    const float *x, const float *scale, const float *mean,
    const float *variance, float *xGradient, float *scaleGradient,
    float *offsetGradient, float *reserved1, float *reserved2,
    float *xGradientSum, float epsilon, int64_t images, int64_t height,
    int64_t width, int64_t channels, int64_t training, int64_t relu,
    int64_t poolH, int64_t poolW, int64_t pooledH, int64_t pooledW,
    int64_t strideH, int64_t strideW, int64_t padTop, int64_t padLeft) {
  const int64_t c = channels, imageSize = height * width * c,
                pooledSize = pooledH * pooledW * c;
  tfc::PoolGeometry pool{height,  width,   c,       poolH,  poolW,  pooledH,
                         pooledW, strideH, strideW, padTop, padLeft};
  // Images are the blocks of every sum: each image's in float (from its
  // windows, or its rows), the images' combined in order in double, so a
  // result does not depend on the thread count.
  auto perImage = [&](double loads, double stores, double compute) {
    return Eigen::TensorOpCost(loads * imageSize, stores * imageSize,
                               compute * imageSize);
  };
  // Where windows tile the image, each window's maximum per channel is
  // recorded as the sums are taken, and x's gradient written window by
  // window from it without reading y again; otherwise y's gradient is
  // scattered into x's, image by image, and then turned into it.
  bool tiles = tfc::windowsTile(pool) && poolH * poolW <= 127;
  std::vector<int8_t> positions(tiles ? images * pooledSize : 0);
  // Calls body(io, c0) over the channels: whole vectors, then the tail.
  auto forChannels = [&](auto body) {
    int64_t c0 = 0;
    for (; c0 + tfc::kNativeLanes <= c; c0 += tfc::kNativeLanes)
      body(WindowLanes<false>{tfc::kNativeLanes}, c0);
    if (c0 < c)
      body(WindowLanes<true>{c - c0}, c0);
  };
  // The sums of the gradient and of gradient * (x - mean), window by window.
  std::vector<float> partial(2 * images * c, 0.f);
  tfc::parallelFor(
      runtime, images, perImage(8.5, 0, 2),
      [&](Eigen::Index first, Eigen::Index last) {
        for (Eigen::Index b = first; b < last; ++b) {
          float *sums = partial.data() + 2 * b * c, *crosses = sums + c;
          const float *yImage = y + b * imageSize, *xImage = x + b * imageSize;
          for (int64_t py = 0; py < pooledH; ++py)
            for (int64_t px = 0; px < pooledW; ++px) {
              tfc::PoolWindow window = tfc::windowAt(pool, py, px);
              if (window.empty())
                continue;
              int64_t at = b * pooledSize + (py * pooledW + px) * c;
              int8_t *recorded = tiles ? positions.data() + at : nullptr;
              forChannels([&](auto io, int64_t c0) {
                addWindowSums(io, relu, yImage, xImage, pooledGradient + at,
                              mean, width, c, window, c0, sums, crosses,
                              recorded);
              });
            }
        }
      });
  int64_t rows = images * height * width;
  GradientCoefficients k = gradientCoefficients(
      totalOfBlocks(partial, images, 2 * c, 0, c),
      totalOfBlocks(partial, images, 2 * c, c, c), scale, variance, epsilon,
      rows, c, training, scaleGradient, offsetGradient);
  // x's gradient, image by image (and its sum, for a folded BiasAddGrad).
  std::vector<float> rowSums(xGradientSum ? images * c : 0, 0.f);
  tfc::parallelFor(
      runtime, images, perImage(tiles ? 4.5 : 8.5, 4, 4),
      [&](Eigen::Index first, Eigen::Index last) {
        const float *__restrict m = mean, *__restrict p = k.p.data(),
                                *__restrict q = k.q.data(),
                                *__restrict r = k.r.data();
        for (Eigen::Index b = first; b < last; ++b) {
          float *out = xGradient + b * imageSize;
          const float *in = x + b * imageSize;
          float *sum = xGradientSum ? rowSums.data() + b * c : nullptr;
          if (tiles) {
            for (int64_t py = 0; py < pooledH; ++py)
              for (int64_t px = 0; px < pooledW; ++px) {
                tfc::PoolWindow window = tfc::windowAt(pool, py, px);
                int64_t at = b * pooledSize + (py * pooledW + px) * c;
                forChannels([&](auto io, int64_t c0) {
                  writeWindowGradient(io, in, pooledGradient + at,
                                      positions.data() + at, m, p, q, r,
                                      width, c, window, c0, out, sum);
                });
              }
            continue;
          }
          tfc::maxPoolImageGrad(pool, relu, y + b * imageSize,
                                pooledGradient + b * pooledSize, out);
          for (int64_t at = 0; at < imageSize; at += c)
            for (int64_t ch = 0; ch < c; ++ch)
              out[at + ch] =
                  out[at + ch] * p[ch] + (in[at + ch] - m[ch]) * q[ch] + r[ch];
          if (!sum)
            continue;
          for (int64_t at = 0; at < imageSize; at += c)
            for (int64_t ch = 0; ch < c; ++ch)
              sum[ch] += out[at + ch];
        }
      });
  if (xGradientSum) {
    std::vector<double> sums = totalOfBlocks(rowSums, images, c, 0, c);
    for (int64_t ch = 0; ch < c; ++ch)
      xGradientSum[ch] = float(sums[ch]);
  }
  if (reserved1)
    *reserved1 = 0.f;
  if (reserved2)
    *reserved2 = 0.f;
}
