//===- BatchNorm.cpp - FusedBatchNorm in training mode and its gradient ---===//
//
// The input is [rows, channels] (NHWC with rows = n*h*w). Statistics are
// per channel, summed in double over blocks of rows in parallel (blocks
// combined in order, so a result does not depend on the thread count),
// then normalized in parallel. The formulas are TensorFlow's CPU kernels':
// the batch variance is biased for normalizing and for the saved
// statistics, and Bessel-corrected for the running variance output.
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
//===----------------------------------------------------------------------===//

#include "Parallel.h"
#include "Pooling.h"
#include "Runtime.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace {

/// Rows per block of the statistics: enough work per task, and a fixed
/// split so that sums come out the same for any thread count.
constexpr int64_t kRowsPerBlock = 256;

/// Two per-channel sums over all rows, in double: accumulate(row, first,
/// second) adds a row's terms into first[0..channels) and
/// second[0..channels).
template <typename Accumulate>
void channelSums(tfc_runtime *runtime, int64_t rows, int64_t channels,
                 Accumulate accumulate, std::vector<double> &first,
                 std::vector<double> &second) {
  int64_t blocks = (rows + kRowsPerBlock - 1) / kRowsPerBlock;
  std::vector<double> partial(2 * blocks * channels, 0.0);
  auto sumBlocks = [&](Eigen::Index firstBlock, Eigen::Index lastBlock) {
    for (Eigen::Index block = firstBlock; block < lastBlock; ++block) {
      double *sums = partial.data() + 2 * block * channels;
      int64_t end = std::min(rows, (block + 1) * kRowsPerBlock);
      for (int64_t r = block * kRowsPerBlock; r < end; ++r)
        accumulate(r, sums, sums + channels);
    }
  };
  double perBlock = double(kRowsPerBlock * channels);
  tfc::parallelFor(runtime, blocks, Eigen::TensorOpCost(4 * perBlock, 16.0 * channels, 4 * perBlock), sumBlocks);
  first.assign(channels, 0.0);
  second.assign(channels, 0.0);
  for (int64_t block = 0; block < blocks; ++block) {
    const double *sums = partial.data() + 2 * block * channels;
    for (int64_t ch = 0; ch < channels; ++ch) {
      first[ch] += sums[ch];
      second[ch] += sums[channels + ch];
    }
  }
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
  std::vector<double> totals(channels, 0.0);
  for (int64_t block = 0; block < blocks; ++block)
    for (int64_t ch = 0; ch < channels; ++ch)
      totals[ch] += partial[block * channels + ch];
  return totals;
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
  // shift near the mean, sum(d)^2/n stays small beside sum(d^2) and the
  // difference keeps its precision in double.
  std::vector<double> shift(channels, 0.0);
  if (rows > 0)
    for (int64_t ch = 0; ch < channels; ++ch)
      shift[ch] = x[ch];
  std::vector<double> sums, squares;
  channelSums(
      runtime, rows, channels,
      [&](int64_t r, double *__restrict sum, double *__restrict square) {
        const float *__restrict row = x + r * channels;
        const double *__restrict s = shift.data();
        for (int64_t ch = 0; ch < channels; ++ch) {
          double d = double(row[ch]) - s[ch];
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
  std::vector<float> inverse(channels);
  for (int64_t ch = 0; ch < channels; ++ch)
    inverse[ch] = 1.f / std::sqrt(variance[ch] + epsilon);
  // The sums of the gradient, and of gradient * (x - mean), per channel.
  std::vector<double> gradientSums, crossSums;
  channelSums(
      runtime, rows, channels,
      [&](int64_t r, double *__restrict sum, double *__restrict cross) {
        const float *__restrict g = gradient + r * channels;
        const float *__restrict in = x + r * channels;
        const float *__restrict m = mean;
        for (int64_t ch = 0; ch < channels; ++ch) {
          sum[ch] += g[ch];
          cross[ch] += double(g[ch]) * (double(in[ch]) - double(m[ch]));
        }
      },
      gradientSums, crossSums);
  // xGradient = coefficient * (g - gradientMean - centered * inverse^2 *
  // crossMean) in training (the batch statistics depend on x too: their
  // share of the gradient is its mean and its projection on the centered
  // input), coefficient * g otherwise (the statistics were constants of
  // the forward pass). As g * P + centered * Q + R per channel.
  std::vector<float> p(channels), q(channels), r(channels);
  for (int64_t ch = 0; ch < channels; ++ch) {
    offsetGradient[ch] = float(gradientSums[ch]);
    scaleGradient[ch] = float(crossSums[ch] * inverse[ch]);
    float coefficient = scale[ch] * inverse[ch];
    p[ch] = coefficient;
    if (training && rows > 0) {
      float gradientMean = float(gradientSums[ch] / double(rows));
      float crossMean = float(crossSums[ch] / double(rows));
      q[ch] = -coefficient * inverse[ch] * inverse[ch] * crossMean;
      r[ch] = -coefficient * gradientMean;
    } else {
      q[ch] = 0.f;
      r[ch] = 0.f;
    }
  }
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
