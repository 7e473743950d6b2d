//===- LocalResponseNorm.cpp - TensorFlow's LRN over channels -------------===//
//
// Each row (one pixel's channels) is independent: the sum of squares over
// a window of 2*radius+1 channels slides along the row (one channel in,
// one out), accumulated in double so that the subtractions lose nothing a
// float result would show; the scale is raised to
// -beta with the cheap forms TensorFlow's CPU kernel uses for the common
// betas (1 and 0.5). Rows are split over the runtime's threads.
//
//===----------------------------------------------------------------------===//

#include "Parallel.h"
#include "Runtime.h"

#include <algorithm>
#include <cmath>
#include <vector>

extern "C" void tfc_cpu_lrn_f32(tfc_runtime *runtime, const float *in,
                                float *out, const tfc_lrn_params *params) {
  const int64_t depth = params->depth, radius = params->depth_radius;
  const double bias = params->bias, alpha = params->alpha, beta = params->beta;
  auto rowRange = [=](Eigen::Index first, Eigen::Index last) {
    for (Eigen::Index r = first; r < last; ++r) {
      const float *x = in + r * depth;
      float *y = out + r * depth;
      // The window of channel d is [d - radius, d + radius], clipped.
      double window = 0.0;
      for (int64_t c = 0; c < std::min(depth, radius); ++c)
        window += double(x[c]) * x[c];
      for (int64_t d = 0; d < depth; ++d) {
        if (d + radius < depth)
          window += double(x[d + radius]) * x[d + radius];
        if (d - radius - 1 >= 0)
          window -= double(x[d - radius - 1]) * x[d - radius - 1];
        double scale = bias + alpha * std::max(window, 0.0);
        double factor = beta == 1.0   ? 1.0 / scale
                        : beta == 0.5 ? 1.0 / std::sqrt(scale)
                                      : std::pow(scale, -beta);
        y[d] = float(x[d] * factor);
      }
    }
  };
  // Per row: a read and a write of each channel, and a power per channel.
  tfc::parallelFor(runtime, params->rows,
                   Eigen::TensorOpCost(4.0 * depth, 4.0 * depth, 30.0 * depth),
                   rowRange);
}
