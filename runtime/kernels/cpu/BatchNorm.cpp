//===- BatchNorm.cpp - FusedBatchNorm in training mode and its gradient ---===//
//
// The input is [rows, channels] (NHWC with rows = n*h*w). Statistics are
// per channel, summed in double over blocks of rows in parallel (blocks
// combined in order, so a result does not depend on the thread count),
// then normalized in parallel. The formulas are TensorFlow's CPU kernels':
// the batch variance is biased for normalizing and for the saved
// statistics, and Bessel-corrected for the running variance output.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace {

/// Rows per block of the statistics: enough work per task, and a fixed
/// split so that sums come out the same for any thread count.
constexpr int64_t kRowsPerBlock = 256;

/// Per-channel sums of term(row, channel) over all rows, in double.
template <typename Term>
std::vector<double> channelSums(tfc_runtime *runtime, int64_t rows,
                                int64_t channels, Term term) {
  int64_t blocks = (rows + kRowsPerBlock - 1) / kRowsPerBlock;
  std::vector<double> partial(blocks * channels, 0.0);
  auto sumBlocks = [&](Eigen::Index first, Eigen::Index last) {
    for (Eigen::Index block = first; block < last; ++block) {
      double *sum = partial.data() + block * channels;
      int64_t end = std::min(rows, (block + 1) * kRowsPerBlock);
      for (int64_t r = block * kRowsPerBlock; r < end; ++r)
        for (int64_t ch = 0; ch < channels; ++ch)
          sum[ch] += term(r, ch);
    }
  };
  double perBlock = double(kRowsPerBlock * channels);
  runtime->device.parallelFor(blocks, Eigen::TensorOpCost(4 * perBlock, 8.0 * channels, 2 * perBlock), sumBlocks);
  std::vector<double> total(channels, 0.0);
  for (int64_t block = 0; block < blocks; ++block)
    for (int64_t ch = 0; ch < channels; ++ch)
      total[ch] += partial[block * channels + ch];
  return total;
}

/// Calls body(row) for every row, in parallel.
template <typename Body>
void forEachRow(tfc_runtime *runtime, int64_t rows, int64_t channels,
                Body body) {
  auto range = [&](Eigen::Index first, Eigen::Index last) {
    for (Eigen::Index r = first; r < last; ++r)
      body(r);
  };
  runtime->device.parallelFor(rows, Eigen::TensorOpCost(8.0 * channels, 4.0 * channels, 3.0 * channels), range);
}

} // namespace

extern "C" void tfc_cpu_batch_norm_training_f32(
    tfc_runtime *runtime, const float *x, const float *scale,
    const float *offset, const float *runningMean, const float *runningVariance,
    float *y, float *batchMean, float *batchVariance, float *savedMean,
    float *savedVariance, float epsilon, float averageFactor, int64_t rows,
    int64_t channels) {
  std::vector<double> sums = channelSums(
      runtime, rows, channels, [&](int64_t r, int64_t ch) { return x[r * channels + ch]; });
  std::vector<float> mean(channels), variance(channels), inverse(channels);
  for (int64_t ch = 0; ch < channels; ++ch)
    mean[ch] = rows > 0 ? float(sums[ch] / double(rows)) : 0.f;
  std::vector<double> squares =
      channelSums(runtime, rows, channels, [&](int64_t r, int64_t ch) {
        double d = double(x[r * channels + ch]) - double(mean[ch]);
        return d * d;
      });
  for (int64_t ch = 0; ch < channels; ++ch) {
    variance[ch] = rows > 0 ? float(squares[ch] / double(rows)) : 0.f;
    inverse[ch] = 1.f / std::sqrt(variance[ch] + epsilon);
  }
  forEachRow(runtime, rows, channels, [&](int64_t r) {
    const float *in = x + r * channels;
    float *out = y + r * channels;
    for (int64_t ch = 0; ch < channels; ++ch)
      out[ch] = (in[ch] - mean[ch]) * (inverse[ch] * scale[ch]) + offset[ch];
  });
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
    float *reserved1, float *reserved2, float epsilon, int64_t rows,
    int64_t channels, int64_t training) {
  std::vector<float> inverse(channels);
  for (int64_t ch = 0; ch < channels; ++ch)
    inverse[ch] = 1.f / std::sqrt(variance[ch] + epsilon);
  std::vector<double> gradientSums =
      channelSums(runtime, rows, channels, [&](int64_t r, int64_t ch) {
        return gradient[r * channels + ch];
      });
  // Sum of gradient * (x - mean) per channel.
  std::vector<double> crossSums =
      channelSums(runtime, rows, channels, [&](int64_t r, int64_t ch) {
        int64_t i = r * channels + ch;
        return double(gradient[i]) * (double(x[i]) - double(mean[ch]));
      });
  std::vector<float> gradientMean(channels), crossMean(channels);
  for (int64_t ch = 0; ch < channels; ++ch) {
    offsetGradient[ch] = float(gradientSums[ch]);
    scaleGradient[ch] = float(crossSums[ch] * inverse[ch]);
    gradientMean[ch] = rows > 0 ? float(gradientSums[ch] / double(rows)) : 0.f;
    crossMean[ch] = rows > 0 ? float(crossSums[ch] / double(rows)) : 0.f;
  }
  forEachRow(runtime, rows, channels, [&](int64_t r) {
    const float *g = gradient + r * channels, *in = x + r * channels;
    float *out = xGradient + r * channels;
    for (int64_t ch = 0; ch < channels; ++ch) {
      float coefficient = scale[ch] * inverse[ch];
      if (!training) {
        // The statistics were constants of the forward pass.
        out[ch] = g[ch] * coefficient;
        continue;
      }
      // The batch statistics depend on x too: their share of the gradient
      // is its mean, and its projection on the centered input.
      float centered = in[ch] - mean[ch];
      out[ch] = coefficient * (g[ch] - gradientMean[ch] -
                               centered * inverse[ch] * inverse[ch] * crossMean[ch]);
    }
  });
  // TensorFlow leaves these unspecified; write something definite.
  if (reserved1)
    *reserved1 = 0.f;
  if (reserved2)
    *reserved2 = 0.f;
}
