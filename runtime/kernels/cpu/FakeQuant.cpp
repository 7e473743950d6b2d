//===- FakeQuant.cpp - quantization-aware training's fake quantization ----===//
//
// FakeQuantWithMinMax{Args,Vars,VarsPerChannel} round float32 values to the
// 2^num_bits levels of [min, max] and back, as TensorFlow's kernels do:
// the range is first nudged so that 0 is exactly a level, then values are
// clamped to it. Their gradients pass the incoming gradient where the
// input was inside the nudged range, and (Vars) sum the rest into the
// gradients of min and max. Per channel, the channels are the last
// dimension.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <cmath>
#include <cstdint>

namespace {

struct Nudged {
  float min, max, scale, inverseScale;
};

/// TensorFlow's Nudge: the range moved so that its zero point is a whole
/// level in [quantMin, quantMax].
Nudged nudge(float min, float max, int64_t numBits, bool narrowRange) {
  const float quantMin = narrowRange ? 1.0f : 0.0f;
  const float quantMax = float((int64_t(1) << numBits) - 1);
  Nudged n;
  n.scale = (max - min) / (quantMax - quantMin);
  n.inverseScale = (quantMax - quantMin) / (max - min);
  const float zeroFromMin = quantMin - min / n.scale;
  const float zero = zeroFromMin < quantMin   ? quantMin
                     : zeroFromMin > quantMax ? quantMax
                                              : std::round(zeroFromMin);
  n.min = (quantMin - zero) * n.scale;
  n.max = (quantMax - zero) * n.scale;
  return n;
}

/// The range of channel c: the attributes', or the tensors'.
Nudged rangeOf(const float *min, const float *max,
               const tfc_fake_quant_params *params, int64_t c) {
  return min ? nudge(min[c], max[c], params->num_bits, params->narrow_range != 0)
             : nudge(float(params->min), float(params->max), params->num_bits,
                     params->narrow_range != 0);
}

} // namespace

extern "C" void tfc_cpu_fake_quant_f32(tfc_runtime *, const float *in,
                                       float *out, const float *min,
                                       const float *max,
                                       const tfc_fake_quant_params *params,
                                       int64_t count, int64_t channels) {
  for (int64_t c = 0; c < channels; ++c) {
    const Nudged n = rangeOf(min, max, params, c);
    const float quantZero = std::floor(-n.min * n.inverseScale + 0.5f);
    for (int64_t i = c; i < count; i += channels) {
      const float clamped = std::fmax(std::fmin(in[i], n.max), n.min);
      out[i] = (std::floor((clamped - n.min) * n.inverseScale + 0.5f) -
                quantZero) * n.scale;
    }
  }
}

extern "C" void tfc_cpu_fake_quant_grad_f32(
    tfc_runtime *, const float *gradients, const float *in, float *backprop,
    float *backprop_min, float *backprop_max, const float *min,
    const float *max, const tfc_fake_quant_params *params, int64_t count,
    int64_t channels) {
  for (int64_t c = 0; c < channels; ++c) {
    const Nudged n = rangeOf(min, max, params, c);
    float below = 0, above = 0;
    for (int64_t i = c; i < count; i += channels) {
      const bool inside = in[i] >= n.min && in[i] <= n.max;
      backprop[i] = inside ? gradients[i] : 0.0f;
      if (in[i] < n.min)
        below += gradients[i];
      else if (in[i] > n.max)
        above += gradients[i];
    }
    if (backprop_min) {
      backprop_min[c] = below;
      backprop_max[c] = above;
    }
  }
}
