//===- CrossEntropy.cpp - softmax cross entropy and its gradient ----------===//
//
// SoftmaxCrossEntropyWithLogits and SparseSoftmaxCrossEntropyWithLogits:
// per row of logits, the loss and its gradient with respect to the logits,
// computed as TensorFlow's CPU kernels do (shift by the row maximum, then
// log of the sum of exponentials). A sparse label outside [0, classes) is
// a runtime error naming the node, as in TensorFlow.
//
//===----------------------------------------------------------------------===//

#include "Parallel.h"
#include "VectorMath.h"
#include "Runtime.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace {

/// Shifts a row by its maximum into `shifted` and returns the sum of the
/// exponentials.
float shiftAndSum(const float *logits, float *shifted, int64_t classes) {
  float max = -INFINITY;
  for (int64_t c = 0; c < classes; ++c)
    max = std::max(max, logits[c]);
  float sum = 0.f;
  for (int64_t c = 0; c < classes; ++c) {
    shifted[c] = logits[c] - max;
    sum += tfc::vector_math::exp(shifted[c]);
  }
  return sum;
}

} // namespace

extern "C" {

void tfc_cpu_softmax_xent_f32(tfc_runtime *runtime, const float *logits,
                              const float *labels, float *loss,
                              float *backprop, int64_t rows, int64_t classes) {
  auto rowRange = [=](Eigen::Index first, Eigen::Index last) {
    for (Eigen::Index r = first; r < last; ++r) {
      const float *x = logits + r * classes, *p = labels + r * classes;
      float *g = backprop + r * classes;
      float sum = shiftAndSum(x, g, classes);
      float logSum = std::log(sum), total = 0.f;
      for (int64_t c = 0; c < classes; ++c) {
        total += p[c] * (logSum - g[c]);
        g[c] = tfc::vector_math::exp(g[c]) / sum - p[c];
      }
      loss[r] = total;
    }
  };
  tfc::parallelFor(runtime, 
      rows, Eigen::TensorOpCost(8.0 * classes, 8.0 * classes, 30.0 * classes),
      rowRange);
}

/// `labels` are int32 (label_bytes 4) or int64 (8).
void tfc_cpu_sparse_softmax_xent_f32(tfc_runtime *runtime, const float *logits,
                                     const void *labels, float *loss,
                                     float *backprop, const char *node,
                                     int64_t rows, int64_t classes,
                                     int64_t label_bytes) {
  auto labelAt = [=](int64_t r) -> int64_t {
    return label_bytes == 8 ? static_cast<const int64_t *>(labels)[r]
                            : static_cast<const int32_t *>(labels)[r];
  };
  for (int64_t r = 0; r < rows; ++r) {
    int64_t label = labelAt(r);
    if (label < 0 || label >= classes)
      tfc_fail(runtime, (std::string("node '") + node + "': label " +
                         std::to_string(label) + " in row " +
                         std::to_string(r) + " is outside [0, " +
                         std::to_string(classes) + ")")
                            .c_str());
  }
  auto rowRange = [=](Eigen::Index first, Eigen::Index last) {
    for (Eigen::Index r = first; r < last; ++r) {
      const float *x = logits + r * classes;
      float *g = backprop + r * classes;
      int64_t label = labelAt(r);
      float sum = shiftAndSum(x, g, classes);
      loss[r] = std::log(sum) - g[label];
      for (int64_t c = 0; c < classes; ++c)
        g[c] = tfc::vector_math::exp(g[c]) / sum - (c == label ? 1.f : 0.f);
    }
  };
  tfc::parallelFor(runtime, 
      rows, Eigen::TensorOpCost(4.0 * classes, 4.0 * classes, 25.0 * classes),
      rowRange);
}

} // extern "C"
