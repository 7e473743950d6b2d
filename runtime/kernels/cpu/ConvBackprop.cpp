//===- ConvBackprop.cpp - gradients of convolutions (NHWC) ----------------===//
//
// Conv2DBackpropInput/Filter and their depthwise forms: oneDNN's backward
// data and backward weights primitives on the NHWC tensors as they are,
// cached per call site like the forward ones (the address of the call
// site's constant tfc_conv2d_backprop_params keys the cache), with their
// arguments bound once per thread (OneDnn.h's CallArguments). The filter
// (backward data) is reordered into the primitive's preferred layout at
// each call, and the filter gradient (backward weights) is computed in the
// primitive's layout and reordered into TensorFlow's [kh, kw, c, oc]
// after: both change every step. Where oneDNN cannot make a primitive,
// direct loops compute the result.
//
//===----------------------------------------------------------------------===//

#include "FewChannelConv.h"
#include "OneDnn.h"
#include "Parallel.h"
#include "Runtime.h"
#include "Winograd.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <memory>
#include <omp.h>
#include <vector>

namespace {

using dnnl::memory;
using Tag = memory::format_tag;

using Params = tfc_conv2d_backprop_params;

/// The output's channels: out_c, or c times the multiplier (depthwise).
int64_t outputChannels(const Params &p) {
  return p.depthwise ? p.c * p.out_c : p.out_c;
}

int64_t filterElements(const Params &p) { return p.kh * p.kw * p.c * p.out_c; }

/// The backward primitive of a call site (null if oneDNN cannot make one).
std::unique_ptr<tfc::onednn::ConvGradient> makeBackprop(const Params &p) {
  dnnl::engine &engine = tfc::onednn::engine();
  auto result = std::make_unique<tfc::onednn::ConvGradient>();
  result->filterGradient = p.filter_gradient != 0;
  memory::dims weights =
      p.depthwise ? memory::dims{p.c, p.out_c, 1, p.kh, p.kw}
                  : memory::dims{p.out_c, p.c, p.kh, p.kw};
  // TensorFlow's filter layouts, as in the forward convolution.
  result->userWeights = memory::desc(weights, memory::data_type::f32,
                                     p.depthwise ? Tag::hwigo : Tag::hwio);
  result->image = memory::desc({p.n, p.c, p.h, p.w}, memory::data_type::f32,
                               Tag::nhwc);
  result->gradient = memory::desc({p.n, outputChannels(p), p.oh, p.ow},
                                  memory::data_type::f32, Tag::nhwc);
  memory::desc anyWeights(weights, memory::data_type::f32, Tag::any);
  auto [strides, dilations, padBefore, padAfter] = tfc::onednn::convGeometry(p);
  auto algorithm = dnnl::algorithm::convolution_direct;
  // The backward primitives are made from the forward one they invert.
  dnnl::convolution_forward::primitive_desc forward(
      dnnl::convolution_forward::desc(
          dnnl::prop_kind::forward_training, algorithm, result->image,
          anyWeights, result->gradient, strides, dilations, padBefore,
          padAfter),
      engine);
  // The scratchpad is the caller's (tfc::onednn::scratchpad).
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  if (p.filter_gradient) {
    dnnl::convolution_backward_weights::primitive_desc pd(
        dnnl::convolution_backward_weights::desc(
            algorithm, result->image, anyWeights, result->gradient, strides,
            dilations, padBefore, padAfter),
        attr, engine, forward);
    result->primitive = dnnl::convolution_backward_weights(pd);
    result->weights = pd.diff_weights_desc();
    result->scratchpad = pd.scratchpad_desc();
  } else {
    dnnl::convolution_backward_data::primitive_desc pd(
        dnnl::convolution_backward_data::desc(
            algorithm, result->image, anyWeights, result->gradient, strides,
            dilations, padBefore, padAfter),
        attr, engine, forward);
    result->primitive = dnnl::convolution_backward_data(pd);
    result->weights = pd.weights_desc();
    result->scratchpad = pd.scratchpad_desc();
  }
  return result;
}

/// The filter tap (i, j) of TensorFlow's layout: [c][oc] for a convolution,
/// [c][multiplier] for a depthwise one.
inline int64_t tap(const Params &p, int64_t i, int64_t j) {
  return (i * p.kw + j) * p.c * p.out_c;
}

/// Each (output position, filter tap) pair whose input position is inside
/// the image: calls visit(b, input offset, output offset, tap offset).
template <typename Visit>
void forEachTap(const Params &p, int64_t b, Visit visit) {
  for (int64_t y = 0; y < p.oh; ++y)
    for (int64_t x = 0; x < p.ow; ++x)
      for (int64_t i = 0; i < p.kh; ++i) {
        int64_t iy = y * p.stride_h + i * p.dilation_h - p.pad_top;
        if (iy < 0 || iy >= p.h)
          continue;
        for (int64_t j = 0; j < p.kw; ++j) {
          int64_t ix = x * p.stride_w + j * p.dilation_w - p.pad_left;
          if (ix < 0 || ix >= p.w)
            continue;
          visit(((b * p.h + iy) * p.w + ix) * p.c,
                ((b * p.oh + y) * p.ow + x) * outputChannels(p), tap(p, i, j));
        }
      }
}

/// The input gradient in direct loops, one batch element per task.
void backpropInputDirect(tfc_runtime *runtime, const Params &p,
                         const float *filter, const float *gradient,
                         float *out) {
  std::fill(out, out + p.n * p.h * p.w * p.c, 0.f);
  int64_t m = p.out_c;
  auto images = [&](Eigen::Index first, Eigen::Index last) {
    for (Eigen::Index b = first; b < last; ++b)
      forEachTap(p, b, [&](int64_t in, int64_t outAt, int64_t at) {
        for (int64_t ci = 0; ci < p.c; ++ci) {
          float sum = 0.f;
          const float *f = filter + at + ci * m;
          const float *g = gradient + outAt + (p.depthwise ? ci * m : 0);
          for (int64_t k = 0; k < m; ++k)
            sum += f[k] * g[k];
          out[in + ci] += sum;
        }
      });
  };
  double perImage = double(p.oh * p.ow * p.kh * p.kw * p.c * m);
  tfc::parallelFor(runtime, p.n, Eigen::TensorOpCost(4 * perImage, 4 * perImage, 2 * perImage), images);
}

/// The filter gradient in direct loops, over the batch in order.
void backpropFilterDirect(const Params &p, const float *input,
                          const float *gradient, float *out) {
  std::fill(out, out + filterElements(p), 0.f);
  int64_t m = p.out_c;
  for (int64_t b = 0; b < p.n; ++b)
    forEachTap(p, b, [&](int64_t in, int64_t outAt, int64_t at) {
      for (int64_t ci = 0; ci < p.c; ++ci) {
        float v = input[in + ci];
        float *f = out + at + ci * m;
        const float *g = gradient + outAt + (p.depthwise ? ci * m : 0);
        for (int64_t k = 0; k < m; ++k)
          f[k] += v * g[k];
      }
    });
}

} // namespace

extern "C" void tfc_cpu_conv2d_backprop_f32(tfc_runtime *runtime,
                                            const float *operand,
                                            const float *gradient, float *out,
                                            const tfc_conv2d_backprop_params *params) {
  const Params &p = *params;
  tfc::winograd::Geometry geometry{p.n,  p.h,  p.w,       p.c,
                                   p.out_c, p.oh, p.ow,    p.pad_top,
                                   p.pad_left, p.kh, p.kw};
  if (!p.depthwise &&
      tfc::winograd::appliesToGradients(p.kh, p.kw, p.stride_h, p.stride_w,
                                        p.dilation_h, p.dilation_w, p.c,
                                        p.out_c) &&
      tfc::winograd::gradientsPay(geometry)) {
    if (p.filter_gradient)
      tfc::winograd::backwardFilter(runtime, geometry, operand, gradient, out);
    else
      tfc::winograd::backwardData(runtime, geometry, operand, gradient, out);
    return;
  }
  if (tfc::fewchannels::appliesToFilterGradient(p)) {
    tfc::fewchannels::filterGradient(runtime, p, operand, gradient, out);
    return;
  }
  static tfc::onednn::PrimitiveCache<tfc::onednn::ConvGradient> cache;
  tfc::onednn::ConvGradient *prim =
      cache.lookup(params, [&] { return makeBackprop(p); });
  if (!prim) {
    tfc_cpu_conv2d_backprop_direct_f32(runtime, operand, gradient, out, params);
    return;
  }
  // oneDNN's threads are OpenMP's: as many as the runtime's.
  omp_set_num_threads(runtime->threads);
  prim->run(operand, gradient, out);
}

extern "C" void tfc_cpu_conv2d_backprop_direct_f32(tfc_runtime *runtime,
                                                   const float *operand,
                                                   const float *gradient,
                                                   float *out,
                                                   const tfc_conv2d_backprop_params *params) {
  const Params &p = *params;
  if (p.filter_gradient)
    backpropFilterDirect(p, operand, gradient, out);
  else
    backpropInputDirect(runtime, p, operand, gradient, out);
}
