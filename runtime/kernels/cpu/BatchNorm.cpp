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
// while the image is in the cache. Where windows tile the image, the
// training kernel can record those bytes itself as it pools y (each
// maximum's position, and whether it is positive, which ReluGrad's mask
// needs): then y itself is neither written nor read back, only the
// bytes, a sixteenth of its size.
//
// A network's first convolution (an image of one to three channels) may
// have its filter gradient folded into its batch norm's gradient
// (tfc-fuse-elementwise): each image's share of it is made from the
// image's x gradient as soon as that is written, from the cache, and
// where nothing else reads x's gradient it is written to a buffer of one
// image only: a CNN's batch of 64 neither writes its 8 MB to memory nor
// reads them back (FewChannelConv.h; the same sums in the same order as
// the two kernels apart).
//
//===----------------------------------------------------------------------===//

#include "FewChannelConv.h"
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

/// A window's record per lane, one byte each (a window has at most 127
/// positions where it is recorded; see recordOf).
typedef int8_t NativeBytes __attribute__((vector_size(tfc::kNativeLanes)));

/// The first maximum of one max pooling window of `y` (the one
/// TensorFlow's gradient picks on ties) for the channels [c0, c0 + lanes),
/// lane by lane: its value, its position in the window (row-major) and,
/// with kWithX, x at that position.
struct WindowMaximum {
  tfc::NativeFloats value, x;
  tfc::NativeInts position;
};
template <bool kWithX, bool kTail>
inline WindowMaximum windowMaximum(WindowLanes<kTail> io, const float *y,
                                   const float *x, int64_t w, int64_t c,
                                   const tfc::PoolWindow &window, int64_t c0) {
  int64_t first = (window.y0 * w + window.x0) * c + c0;
  WindowMaximum best{io.load(y + first), {}, {}};
  if constexpr (kWithX)
    best.x = io.load(x + first);
  int32_t position = 0;
  for (int64_t iy = window.y0; iy < window.y1; ++iy)
    for (int64_t ix = window.x0; ix < window.x1; ++ix, ++position) {
      int64_t at = (iy * w + ix) * c + c0;
      tfc::NativeFloats v = io.load(y + at);
      tfc::NativeInts greater = v > best.value;
      best.value = greater ? v : best.value;
      if constexpr (kWithX)
        best.x = greater ? io.load(x + at) : best.x;
      best.position = greater ? tfc::NativeInts{} + position : best.position;
    }
  return best;
}

/// Stores the first `lanes` (a vector's, unless kTail) of `values` as
/// bytes, and loads them back. GCC converts a vector of bytes to ints (and
/// back) lane by lane through general registers; AVX-512 and AVX2 have an
/// instruction for it.
template <bool kTail>
inline void storeBytes(WindowLanes<kTail> io, tfc::NativeInts values,
                       int8_t *to) {
#if defined(__AVX512F__)
  __mmask16 lanes = kTail ? __mmask16((1u << io.lanes) - 1) : __mmask16(0xffff);
  _mm512_mask_cvtepi32_storeu_epi8(to, lanes, __m512i(values));
#else
  NativeBytes bytes = __builtin_convertvector(values, NativeBytes);
  std::memcpy(to, &bytes, kTail ? io.lanes : tfc::kNativeLanes);
#endif
}
template <bool kTail>
inline tfc::NativeInts loadBytes(WindowLanes<kTail> io, const int8_t *from) {
#if defined(__AVX512F__)
  __mmask16 lanes = kTail ? __mmask16((1u << io.lanes) - 1) : __mmask16(0xffff);
  return tfc::NativeInts(
      _mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(lanes, from)));
#elif defined(__AVX2__)
  int64_t bytes = 0;
  std::memcpy(&bytes, from, kTail ? io.lanes : tfc::kNativeLanes);
  return tfc::NativeInts(_mm256_cvtepi8_epi32(_mm_cvtsi64_si128(bytes)));
#else
  NativeBytes bytes = {};
  std::memcpy(&bytes, from, kTail ? io.lanes : tfc::kNativeLanes);
  return __builtin_convertvector(bytes, tfc::NativeInts);
#endif
}

/// Where each window's maximum is, as the forward pass records it for the
/// gradient (see tfc_runtime.h) and the gradient's first pass records it
/// for its second: the position p where the maximum is positive, -1 - p
/// where it is not.
inline tfc::NativeInts recordOf(const WindowMaximum &best) {
  tfc::NativeInts positive = best.value > 0.f;
  return positive ? best.position : -1 - best.position;
}

/// Where a window's gradient goes from its record: the maximum's position,
/// or -1 (nowhere) where `relu` drops it (a maximum that is not positive).
inline tfc::NativeInts gradientPosition(tfc::NativeInts record, bool relu) {
  tfc::NativeInts positive = record >= 0;
  return positive ? record : relu ? tfc::NativeInts{} - 1 : -1 - record;
}

/// Adds a window's gradient `gradient` (zero in lanes it does not reach)
/// to `sums`, and times x - mean at its maximum to `crosses`, for the
/// channels [c0, c0 + lanes).
template <bool kTail>
inline void addWindowShare(WindowLanes<kTail> io, tfc::NativeFloats gradient,
                           tfc::NativeFloats xAtMaximum, const float *mean,
                           int64_t c0, float *sums, float *crosses) {
  io.store(sums + c0, io.load(sums + c0) + gradient);
  io.store(crosses + c0, io.load(crosses + c0) +
                             gradient * (xAtMaximum - io.load(mean + c0)));
}

/// Adds one max pooling window's share of the gradient's sums for the
/// channels [c0, c0 + lanes): the window's gradient `g` goes to its first
/// maximum of `y` (with `relu`, only where that maximum is positive, as
/// ReluGrad masks it), so it adds to `sums` and, times x - mean at that
/// maximum, to `crosses`. Unless `positions` is null, the window's record
/// (recordOf) goes there.
template <bool kTail>
inline void addWindowSums(WindowLanes<kTail> io, bool relu, const float *y,
                          const float *x, const float *g, const float *mean,
                          int64_t w, int64_t c, const tfc::PoolWindow &window,
                          int64_t c0, float *sums, float *crosses,
                          int8_t *positions) {
  WindowMaximum best = windowMaximum<true>(io, y, x, w, c, window, c0);
  tfc::NativeFloats gradient = io.load(g + c0), zero = {};
  if (relu) {
    tfc::NativeInts positive = best.value > 0.f;
    gradient = positive ? gradient : zero;
  }
  addWindowShare(io, gradient, best.x, mean, c0, sums, crosses);
  if (positions)
    storeBytes(io, recordOf(best), positions + c0);
}

/// addWindowSums from the window's record (recordOf) in `positions`,
/// which the forward pass wrote instead of y: x at each lane's maximum is
/// selected from the window's positions.
template <bool kTail>
inline void addRecordedWindowSums(WindowLanes<kTail> io, bool relu,
                                  const int8_t *positions, const float *x,
                                  const float *g, const float *mean, int64_t w,
                                  int64_t c, const tfc::PoolWindow &window,
                                  int64_t c0, float *sums, float *crosses) {
  tfc::NativeInts argmax =
      gradientPosition(loadBytes(io, positions + c0), relu);
  tfc::NativeFloats xAtBest = {};
  int32_t position = 0;
  for (int64_t iy = window.y0; iy < window.y1; ++iy)
    for (int64_t ix = window.x0; ix < window.x1; ++ix, ++position)
      xAtBest =
          argmax == position ? io.load(x + (iy * w + ix) * c + c0) : xAtBest;
  tfc::NativeFloats gradient = io.load(g + c0), zero = {};
  gradient = argmax >= 0 ? gradient : zero;
  addWindowShare(io, gradient, xAtBest, mean, c0, sums, crosses);
}

/// The forward pass's record of one window's maxima of y for the channels
/// [c0, c0 + lanes) (recordOf).
template <bool kTail>
inline void recordWindowMaxima(WindowLanes<kTail> io, const float *y, int64_t w,
                               int64_t c, const tfc::PoolWindow &window,
                               int64_t c0, int8_t *positions) {
  WindowMaximum best = windowMaximum<false>(io, y, nullptr, w, c, window, c0);
  storeBytes(io, recordOf(best), positions + c0);
}

/// x's gradient at the positions of one window that owns them (windows
/// that tile the image), channels [c0, c0 + lanes): `p`, `q`, `r` times
/// the window's gradient where its maximum was (`positions`, its record;
/// with `relu`, nowhere where the maximum was not positive), x - mean, and
/// one. Adds what it writes to `sums` if not null.
template <bool kTail>
inline void
writeWindowGradient(WindowLanes<kTail> io, bool relu, const float *x,
                    const float *g, const int8_t *positions, const float *mean,
                    const float *p, const float *q, const float *r, int64_t w,
                    int64_t c, const tfc::PoolWindow &window, int64_t c0,
                    float *out, float *sums) {
  tfc::NativeInts argmax =
      gradientPosition(loadBytes(io, positions + c0), relu);
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

/// Calls body(io, c0) over `c` channels: whole vectors, then the tail.
template <typename Body> void forChannels(int64_t c, Body body) {
  int64_t c0 = 0;
  for (; c0 + tfc::kNativeLanes <= c; c0 += tfc::kNativeLanes)
    body(WindowLanes<false>{tfc::kNativeLanes}, c0);
  if (c0 < c)
    body(WindowLanes<true>{c - c0}, c0);
}

/// The forward pass's records of one image's windows (recordWindowMaxima),
/// `image` its y, into `positions` ([pooled_h, pooled_w, c]).
void recordImageMaxima(const tfc::PoolGeometry &g, const float *image,
                       int8_t *positions) {
  for (int64_t py = 0; py < g.oh; ++py)
    for (int64_t px = 0; px < g.ow; ++px) {
      tfc::PoolWindow window = tfc::windowAt(g, py, px);
      int8_t *at = positions + (py * g.ow + px) * g.c;
      forChannels(g.c, [&](auto io, int64_t c0) {
        recordWindowMaxima(io, image, g.w, g.c, window, c0, at);
      });
    }
}

} // namespace

extern "C" void tfc_cpu_batch_norm_training_f32(
    tfc_runtime *runtime, const float *x, const float *scale,
    const float *offset, const float *runningMean, const float *runningVariance,
    float *y, float *batchMean, float *batchVariance, float *savedMean,
    float *savedVariance, float *pooled, int8_t *positions, float epsilon,
    float averageFactor, int64_t rows, int64_t channels, int64_t activation,
    int64_t images, int64_t height, int64_t width, int64_t poolH, int64_t poolW,
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
  // for each, so that each vectorizes. Row r of x into `out`.
  auto normalizeRow = [&](auto activate, int64_t r, float *__restrict out) {
    const float *__restrict in = x + r * channels;
    const float *__restrict m = mean.data(), *__restrict f = factor.data();
    for (int64_t ch = 0; ch < channels; ++ch)
      out[ch] = activate((in[ch] - m[ch]) * f[ch] + offset[ch]);
  };
  tfc::PoolGeometry pool{height, width,   channels, poolH,  poolW,  pooledH,
                         pooledW, strideH, strideW,  padTop, padLeft};
  int64_t imageRows = height * width, pooledSize = pooledH * pooledW * channels;
  // Image by image when there are images for every thread, or the maxima
  // are recorded; else all of y, then the pooling kernel over it.
  bool poolEachImage = pooled && (images >= runtime->threads || positions);
  auto normalize = [&](auto activate) {
    if (!poolEachImage) {
      forEachRow(runtime, rows, channels, [&](int64_t r) {
        normalizeRow(activate, r, y + r * channels);
      });
      return;
    }
    // Each image normalized, then pooled from the cache (and its maxima
    // recorded): into y, or where y is not wanted into a buffer of one
    // image that stays in the cache.
    auto eachImage = [&](Eigen::Index first, Eigen::Index last) {
      thread_local std::vector<float> scratch;
      if (!y)
        scratch.resize(size_t(imageRows * channels));
      for (Eigen::Index b = first; b < last; ++b) {
        float *image = y ? y + b * imageRows * channels : scratch.data();
        for (int64_t r = 0; r < imageRows; ++r)
          normalizeRow(activate, b * imageRows + r, image + r * channels);
        for (int64_t py = 0; py < pooledH; ++py)
          tfc::poolRow(true, pool, image, py,
                       pooled + (b * pooledH + py) * pooledW * channels);
        if (positions)
          recordImageMaxima(pool, image, positions + b * pooledSize);
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

namespace {

/// The filter gradient of the convolution whose output the batch norm
/// normalizes, folded into the batch norm's gradient: x's gradient is
/// that convolution's output gradient.
struct FilterGradientFold {
  const float *input; // The convolution's input.
  float *out;         // Its filter's gradient.
  const tfc_conv2d_backprop_params *conv;
  bool xGradientWanted; // Whether anything else reads x's gradient.
};

void gradientOfPooled(
    tfc_runtime *runtime, const float *pooledGradient, const float *y,
    const int8_t *recorded, const float *x, const float *scale,
    const float *mean, const float *variance, float *xGradient,
    float *scaleGradient, float *offsetGradient, float *reserved1,
    float *reserved2, float *xGradientSum, float epsilon, int64_t images,
    int64_t height, int64_t width, int64_t channels, int64_t training,
    int64_t relu, int64_t poolH, int64_t poolW, int64_t pooledH,
    int64_t pooledW, int64_t strideH, int64_t strideW, int64_t padTop,
    int64_t padLeft, const FilterGradientFold *fold) {
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
  // recorded as the sums are taken (unless the forward pass recorded them
  // already), and x's gradient written window by window from it without
  // reading y again; otherwise y's gradient is scattered into x's, image
  // by image, and then turned into it.
  // (The compiler has the forward pass record them only where windows
  // tile: without y, the other way has nothing to scatter from.)
  bool tiles = tfc::windowsTile(pool) && poolH * poolW <= 127;
  std::vector<int8_t> ownRecord(tiles && !recorded ? images * pooledSize : 0);
  const int8_t *positions = recorded ? recorded : ownRecord.data();
  // The sums of the gradient and of gradient * (x - mean), window by window.
  std::vector<float> partial(2 * images * c, 0.f);
  tfc::parallelFor(
      runtime, images, perImage(8.5, 0, 2),
      [&](Eigen::Index first, Eigen::Index last) {
        for (Eigen::Index b = first; b < last; ++b) {
          float *sums = partial.data() + 2 * b * c, *crosses = sums + c;
          const float *yImage = recorded ? nullptr : y + b * imageSize;
          const float *xImage = x + b * imageSize;
          for (int64_t py = 0; py < pooledH; ++py)
            for (int64_t px = 0; px < pooledW; ++px) {
              tfc::PoolWindow window = tfc::windowAt(pool, py, px);
              if (window.empty())
                continue;
              int64_t at = b * pooledSize + (py * pooledW + px) * c;
              forChannels(c, [&](auto io, int64_t c0) {
                if (recorded)
                  addRecordedWindowSums(io, relu, recorded + at, xImage,
                                        pooledGradient + at, mean, width, c,
                                        window, c0, sums, crosses);
                else
                  addWindowSums(io, relu, yImage, xImage, pooledGradient + at,
                                mean, width, c, window, c0, sums, crosses,
                                tiles ? ownRecord.data() + at : nullptr);
              });
            }
        }
      });
  int64_t rows = images * height * width;
  GradientCoefficients k = gradientCoefficients(
      totalOfBlocks(partial, images, 2 * c, 0, c),
      totalOfBlocks(partial, images, 2 * c, c, c), scale, variance, epsilon,
      rows, c, training, scaleGradient, offsetGradient);
  // x's gradient, image by image (and its sum, for a folded BiasAddGrad;
  // and, for a folded filter gradient, the image's share of it while the
  // image's x gradient is in the cache: where nothing else reads x's
  // gradient, it is written to a buffer of one image only).
  bool folded = fold && tfc::fewchannels::appliesToFilterGradient(*fold->conv);
  const tfc_conv2d_backprop_params *conv = fold ? fold->conv : nullptr;
  int64_t filterSize = conv ? conv->kh * conv->kw * conv->c * conv->out_c : 0;
  std::vector<float> filterSums(folded ? images * filterSize : 0);
  std::vector<float> rowSums(xGradientSum ? images * c : 0, 0.f);
  tfc::parallelFor(
      runtime, images, perImage(tiles ? 4.5 : 8.5, 4, 4),
      [&](Eigen::Index first, Eigen::Index last) {
        const float *__restrict m = mean, *__restrict p = k.p.data(),
                                *__restrict q = k.q.data(),
                                *__restrict r = k.r.data();
        thread_local std::vector<float> scratch;
        bool toScratch = folded && !fold->xGradientWanted;
        if (toScratch)
          scratch.resize(imageSize);
        for (Eigen::Index b = first; b < last; ++b) {
          float *out = toScratch ? scratch.data() : xGradient + b * imageSize;
          const float *in = x + b * imageSize;
          float *sum = xGradientSum ? rowSums.data() + b * c : nullptr;
          if (tiles) {
            for (int64_t py = 0; py < pooledH; ++py)
              for (int64_t px = 0; px < pooledW; ++px) {
                tfc::PoolWindow window = tfc::windowAt(pool, py, px);
                int64_t at = b * pooledSize + (py * pooledW + px) * c;
                forChannels(c, [&](auto io, int64_t c0) {
                  writeWindowGradient(io, relu, in, pooledGradient + at,
                                      positions + at, m, p, q, r, width, c,
                                      window, c0, out, sum);
                });
              }
          } else {
            tfc::maxPoolImageGrad(pool, relu, y + b * imageSize,
                                  pooledGradient + b * pooledSize, out);
            for (int64_t at = 0; at < imageSize; at += c)
              for (int64_t ch = 0; ch < c; ++ch)
                out[at + ch] =
                    out[at + ch] * p[ch] + (in[at + ch] - m[ch]) * q[ch] + r[ch];
            if (sum)
              for (int64_t at = 0; at < imageSize; at += c)
                for (int64_t ch = 0; ch < c; ++ch)
                  sum[ch] += out[at + ch];
          }
          if (folded)
            tfc::fewchannels::imageFilterGradient(
                *conv, fold->input + b * conv->h * conv->w * conv->c, out,
                filterSums.data() + b * filterSize);
        }
      });
  if (folded)
    tfc::fewchannels::addImageGradients(*conv, filterSums.data(), fold->out);
  else if (fold)
    tfc_cpu_conv2d_backprop_f32(runtime, fold->input, xGradient, fold->out, conv);
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

} // namespace

extern "C" void tfc_cpu_batch_norm_grad_pooled_f32(
    tfc_runtime *runtime, const float *pooledGradient, const float *y,
    const int8_t *recorded, const float *x, const float *scale,
    const float *mean, const float *variance, float *xGradient,
    float *scaleGradient, float *offsetGradient, float *reserved1,
    float *reserved2, float *xGradientSum, float epsilon, int64_t images,
    int64_t height, int64_t width, int64_t channels, int64_t training,
    int64_t relu, int64_t poolH, int64_t poolW, int64_t pooledH,
    int64_t pooledW, int64_t strideH, int64_t strideW, int64_t padTop,
    int64_t padLeft) {
  gradientOfPooled(runtime, pooledGradient, y, recorded, x, scale, mean,
                   variance, xGradient, scaleGradient, offsetGradient, reserved1,
                   reserved2, xGradientSum, epsilon, images, height, width,
                   channels, training, relu, poolH, poolW, pooledH, pooledW,
                   strideH, strideW, padTop, padLeft, nullptr);
}

extern "C" void tfc_cpu_batch_norm_grad_pooled_filter_f32(
    tfc_runtime *runtime, const float *pooledGradient, const float *y,
    const int8_t *recorded, const float *x, const float *scale,
    const float *mean, const float *variance, float *xGradient,
    float *scaleGradient, float *offsetGradient, float *reserved1,
    float *reserved2, float *xGradientSum, const float *convInput,
    float *filterGradient, const tfc_conv2d_backprop_params *conv,
    float epsilon, int64_t images, int64_t height, int64_t width,
    int64_t channels, int64_t training, int64_t relu, int64_t poolH,
    int64_t poolW, int64_t pooledH, int64_t pooledW, int64_t strideH,
    int64_t strideW, int64_t padTop, int64_t padLeft,
    int64_t xGradientWanted) {
  FilterGradientFold fold{convInput, filterGradient, conv, xGradientWanted != 0};
  gradientOfPooled(runtime, pooledGradient, y, recorded, x, scale, mean,
                   variance, xGradient, scaleGradient, offsetGradient, reserved1,
                   reserved2, xGradientSum, epsilon, images, height, width,
                   channels, training, relu, poolH, poolW, pooledH, pooledW,
                   strideH, strideW, padTop, padLeft, &fold);
}
