//===- Epilogue.h - an epilogue in plain loops -------------------*- C++ -*-===//
//
// A convolution's or a dense layer's epilogue (a bias per channel, a
// residual, an activation) applied to its output after the product, where
// oneDNN's primitive did not apply it: the fallbacks of
// tfc_cpu_conv2d_dnnl_f32 and tfc_cpu_dense_f32. The output is rows of
// `channels` values (NHWC pixels, a product's rows), vectorized along
// them, the rows split over the runtime's threads.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_KERNELS_CPU_EPILOGUE_H
#define TFC_RUNTIME_KERNELS_CPU_EPILOGUE_H

#include "NativeVector.h"
#include "Parallel.h"
#include "VectorMath.h"

#include <cstdint>

namespace tfc {

/// out = activation(out + bias + residual) over `rows` x `channels`
/// floats; bias ([channels]) and residual (out's shape, not `out` itself)
/// may be null; `activation` is an enum tfc_activation.
inline void applyEpilogue(tfc_runtime *runtime, float *out, int64_t rows,
                          int64_t channels, const float *bias,
                          const float *residual, int64_t activation) {
  auto range = [&](int64_t first, int64_t last) {
    for (int64_t row = first; row < last; ++row) {
      float *y = out + row * channels;
      const float *r = residual ? residual + row * channels : nullptr;
      int64_t j = 0;
      for (; j + kNativeLanes <= channels; j += kNativeLanes) {
        NativeFloats v = loadNative(y + j);
        if (bias)
          v = v + loadNative(bias + j);
        if (r)
          v = v + loadNative(r + j);
        storeNative(y + j, vector_math::activation(v, activation));
      }
      for (; j < channels; ++j) {
        float v = y[j] + (bias ? bias[j] : 0.f) + (r ? r[j] : 0.f);
        y[j] = vector_math::activation(v, activation);
      }
    }
  };
  double cycles = activation == TFC_ACTIVATION_NONE ? 0.0 : 30.0 * channels;
  parallelFor(runtime, rows,
              Eigen::TensorOpCost(8.0 * channels, 4.0 * channels, cycles),
              range);
}

} // namespace tfc

#endif // TFC_RUNTIME_KERNELS_CPU_EPILOGUE_H
