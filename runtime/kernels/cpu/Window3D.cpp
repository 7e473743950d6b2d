//===- Window3D.cpp - 3-D convolutions and pooling through oneDNN ---------===//
//
// Conv3D, MaxPool3D and AvgPool3D on NDHWC tensors as oneDNN primitives,
// made at a call site's first call and cached by the address of its
// constant tfc_window3d_params, their arguments bound once per thread
// (OneDnn.h's CallArguments); the filter, [kd, kh, kw, c, out_c] as
// TensorFlow lays it out, is oneDNN's dhwio and is reordered into the
// primitive's preferred layout at each call (3-D models are rare, and
// their filters may be computed). The padding after each dimension follows
// from the sizes, as TensorFlow derives it.
//
// Conv3D's gradients are oneDNN's backward data and backward weights
// primitives, made from the forward one they invert; the filter gradient
// is computed in the primitive's layout and reordered into TensorFlow's.
// The pooling gradients are oneDNN's backward pooling; max pooling's finds
// each window's maximum (the first, on ties) by running the forward
// pooling for its workspace.
//
//===----------------------------------------------------------------------===//

#include "OneDnn.h"
#include "Runtime.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <memory>
#include <omp.h>

namespace {

using dnnl::memory;
using Tag = memory::format_tag;
using Params = tfc_window3d_params;

struct Geometry {
  memory::dims src, dst, kernel, strides, padBefore, padAfter;
};

Geometry geometryOf(const Params &p, int64_t outChannels) {
  using tfc::onednn::paddingAfter;
  return {{p.n, p.c, p.d, p.h, p.w},
          {p.n, outChannels, p.od, p.oh, p.ow},
          {p.kd, p.kh, p.kw},
          {p.stride_d, p.stride_h, p.stride_w},
          {p.pad_front, p.pad_top, p.pad_left},
          {paddingAfter(p.d, p.od, p.kd, p.stride_d, 1, p.pad_front),
           paddingAfter(p.h, p.oh, p.kh, p.stride_h, 1, p.pad_top),
           paddingAfter(p.w, p.ow, p.kw, p.stride_w, 1, p.pad_left)}};
}

/// A 3-D convolution's tensors as TensorFlow lays them out (NDHWC, the
/// filter dhwio), and its filter in the layout a primitive prefers.
struct ConvTensors {
  memory::desc src, dst, userWeights, anyWeights;
};

ConvTensors convTensors(const Params &p, const Geometry &g) {
  memory::dims weights = {p.out_c, p.c, p.kd, p.kh, p.kw};
  return {memory::desc(g.src, memory::data_type::f32, Tag::ndhwc),
          memory::desc(g.dst, memory::data_type::f32, Tag::ndhwc),
          memory::desc(weights, memory::data_type::f32, Tag::dhwio),
          memory::desc(weights, memory::data_type::f32, Tag::any)};
}

struct Conv3D {
  dnnl::convolution_forward conv;
  memory::desc src, dst, weights, userWeights, scratchpad;
};

struct Pool3D {
  dnnl::pooling_forward pool;
  memory::desc src, dst, scratchpad;
};

std::unique_ptr<Conv3D> makeConv(const Params &p) {
  Geometry g = geometryOf(p, p.out_c);
  ConvTensors t = convTensors(p, g);
  auto result = std::make_unique<Conv3D>();
  result->src = t.src;
  result->dst = t.dst;
  result->userWeights = t.userWeights;
  dnnl::convolution_forward::desc desc(
      dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
      t.src, t.anyWeights, t.dst, g.strides, g.padBefore, g.padAfter);
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  dnnl::convolution_forward::primitive_desc pd(desc, attr,
                                               tfc::onednn::engine());
  result->conv = dnnl::convolution_forward(pd);
  result->weights = pd.weights_desc();
  result->scratchpad = pd.scratchpad_desc();
  return result;
}

/// The input gradient's (filterGradient false) or the filter gradient's
/// primitive.
std::unique_ptr<tfc::onednn::ConvGradient> makeBackprop(const Params &p,
                                                        bool filterGradient) {
  Geometry g = geometryOf(p, p.out_c);
  ConvTensors t = convTensors(p, g);
  auto result = std::make_unique<tfc::onednn::ConvGradient>();
  result->filterGradient = filterGradient;
  result->image = t.src;
  result->gradient = t.dst;
  result->userWeights = t.userWeights;
  const memory::desc &anyWeights = t.anyWeights;
  auto algorithm = dnnl::algorithm::convolution_direct;
  dnnl::engine &engine = tfc::onednn::engine();
  dnnl::convolution_forward::primitive_desc forward(
      dnnl::convolution_forward::desc(dnnl::prop_kind::forward_training,
                                      algorithm, result->image, anyWeights,
                                      result->gradient, g.strides, g.padBefore,
                                      g.padAfter),
      engine);
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  if (filterGradient) {
    dnnl::convolution_backward_weights::primitive_desc pd(
        dnnl::convolution_backward_weights::desc(
            algorithm, result->image, anyWeights, result->gradient, g.strides,
            g.padBefore, g.padAfter),
        attr, engine, forward);
    result->primitive = dnnl::convolution_backward_weights(pd);
    result->weights = pd.diff_weights_desc();
    result->scratchpad = pd.scratchpad_desc();
  } else {
    dnnl::convolution_backward_data::primitive_desc pd(
        dnnl::convolution_backward_data::desc(
            algorithm, result->image, anyWeights, result->gradient, g.strides,
            g.padBefore, g.padAfter),
        attr, engine, forward);
    result->primitive = dnnl::convolution_backward_data(pd);
    result->weights = pd.weights_desc();
    result->scratchpad = pd.scratchpad_desc();
  }
  return result;
}

struct Pool3DBackprop {
  dnnl::pooling_forward forward;
  dnnl::pooling_backward backward;
  memory::desc src, dst, workspace, forwardScratchpad, scratchpad;
};

std::unique_ptr<Pool3DBackprop> makePoolBackprop(const Params &p, bool average) {
  Geometry g = geometryOf(p, p.c);
  auto result = std::make_unique<Pool3DBackprop>();
  result->src = memory::desc(g.src, memory::data_type::f32, Tag::ndhwc);
  result->dst = memory::desc(g.dst, memory::data_type::f32, Tag::ndhwc);
  auto algorithm = average ? dnnl::algorithm::pooling_avg_exclude_padding
                           : dnnl::algorithm::pooling_max;
  dnnl::engine &engine = tfc::onednn::engine();
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  dnnl::pooling_forward::primitive_desc forward(
      dnnl::pooling_forward::desc(dnnl::prop_kind::forward_training, algorithm,
                                  result->src, result->dst, g.strides, g.kernel,
                                  g.padBefore, g.padAfter),
      attr, engine);
  dnnl::pooling_backward::primitive_desc backward(
      dnnl::pooling_backward::desc(algorithm, result->src, result->dst,
                                   g.strides, g.kernel, g.padBefore, g.padAfter),
      attr, engine, forward);
  result->forward = dnnl::pooling_forward(forward);
  result->backward = dnnl::pooling_backward(backward);
  result->workspace = forward.workspace_desc();
  result->forwardScratchpad = forward.scratchpad_desc();
  result->scratchpad = backward.scratchpad_desc();
  return result;
}

std::unique_ptr<Pool3D> makePool(const Params &p, bool average) {
  Geometry g = geometryOf(p, p.c);
  auto result = std::make_unique<Pool3D>();
  result->src = memory::desc(g.src, memory::data_type::f32, Tag::ndhwc);
  result->dst = memory::desc(g.dst, memory::data_type::f32, Tag::ndhwc);
  dnnl::pooling_forward::desc desc(
      dnnl::prop_kind::forward_inference,
      average ? dnnl::algorithm::pooling_avg_exclude_padding
              : dnnl::algorithm::pooling_max,
      result->src, result->dst, g.strides, g.kernel, g.padBefore, g.padAfter);
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  dnnl::pooling_forward::primitive_desc pd(desc, attr, tfc::onednn::engine());
  result->pool = dnnl::pooling_forward(pd);
  result->scratchpad = pd.scratchpad_desc();
  return result;
}

} // namespace

extern "C" void tfc_cpu_conv3d_f32(tfc_runtime *runtime, const float *in,
                                   const float *filter, float *out,
                                   const tfc_window3d_params *params) {
  static tfc::onednn::PrimitiveCache<Conv3D> cache;
  Conv3D *prim = cache.lookup(params, [&] { return makeConv(*params); });
  if (!prim)
    tfc_fail(runtime, "Conv3D: oneDNN has no kernel for this convolution");
  omp_set_num_threads(runtime->threads);
  dnnl::stream &stream = tfc::onednn::stream();
  tfc::onednn::CallArguments &bound = tfc::onednn::argumentsOf(
      prim, [&](tfc::onednn::CallArguments &made) {
        made.addUnbound(DNNL_ARG_SRC, prim->src);
        made.addUnbound(DNNL_ARG_DST, prim->dst);
        made.addScratchpad(prim->scratchpad);
        made.addWeights(DNNL_ARG_WEIGHTS, prim->userWeights, prim->weights,
                        /*written=*/false);
      });
  bound.bindWeights(stream, filter);
  bound.bind(DNNL_ARG_SRC, in);
  bound.bind(DNNL_ARG_DST, out);
  bound.bindScratchpad();
  prim->conv.execute(stream, bound.all());
  stream.wait();
}

extern "C" void tfc_cpu_pool3d_f32(tfc_runtime *runtime, int32_t kind,
                                   const float *in, float *out,
                                   const tfc_window3d_params *params) {
  static tfc::onednn::PrimitiveCache<Pool3D> cache;
  Pool3D *prim = cache.lookup(params, [&] { return makePool(*params, kind == 1); });
  if (!prim)
    tfc_fail(runtime, "Pool3D: oneDNN has no kernel for this pooling");
  omp_set_num_threads(runtime->threads);
  dnnl::stream &stream = tfc::onednn::stream();
  tfc::onednn::CallArguments &bound = tfc::onednn::argumentsOf(
      prim, [&](tfc::onednn::CallArguments &made) {
        made.addUnbound(DNNL_ARG_SRC, prim->src);
        made.addUnbound(DNNL_ARG_DST, prim->dst);
        made.addScratchpad(prim->scratchpad);
      });
  bound.bind(DNNL_ARG_SRC, in);
  bound.bind(DNNL_ARG_DST, out);
  bound.bindScratchpad();
  prim->pool.execute(stream, bound.all());
  stream.wait();
}

extern "C" void tfc_cpu_conv3d_backprop_f32(tfc_runtime *runtime,
                                            int32_t filter_gradient,
                                            const float *operand,
                                            const float *gradient, float *out,
                                            const tfc_window3d_params *params) {
  // Keyed by the call site's params; the two kinds never share a site.
  static tfc::onednn::PrimitiveCache<tfc::onednn::ConvGradient> cache;
  tfc::onednn::ConvGradient *prim = cache.lookup(
      params, [&] { return makeBackprop(*params, filter_gradient != 0); });
  if (!prim)
    tfc_fail(runtime, "Conv3D gradient: oneDNN has no kernel for this convolution");
  omp_set_num_threads(runtime->threads);
  prim->run(operand, gradient, out);
}

extern "C" void tfc_cpu_pool3d_backprop_f32(tfc_runtime *runtime, int32_t kind,
                                            const float *in, const float *gradient,
                                            float *out,
                                            const tfc_window3d_params *params) {
  static tfc::onednn::PrimitiveCache<Pool3DBackprop> cache;
  Pool3DBackprop *prim =
      cache.lookup(params, [&] { return makePoolBackprop(*params, kind == 1); });
  if (!prim)
    tfc_fail(runtime, "Pool3D gradient: oneDNN has no kernel for this pooling");
  omp_set_num_threads(runtime->threads);
  dnnl::stream &stream = tfc::onednn::stream();
  // Max pooling's gradient goes where each window's maximum is: the
  // forward pooling's workspace, a buffer of this thread's that the two
  // primitives' arguments share.
  tfc::onednn::CallArguments *forward = nullptr;
  if (kind == 0) {
    forward = &tfc::onednn::argumentsOf(
        &prim->forward, [&](tfc::onednn::CallArguments &made) {
          made.addUnbound(DNNL_ARG_SRC, prim->src);
          made.addOwned(DNNL_ARG_DST, prim->dst);
          made.addOwned(DNNL_ARG_WORKSPACE, prim->workspace);
          made.addScratchpad(prim->forwardScratchpad);
        });
    forward->bind(DNNL_ARG_SRC, in);
    forward->bindScratchpad();
    prim->forward.execute(stream, forward->all());
  }
  tfc::onednn::CallArguments &backward = tfc::onednn::argumentsOf(
      &prim->backward, [&](tfc::onednn::CallArguments &made) {
        made.addUnbound(DNNL_ARG_DIFF_DST, prim->dst);
        made.addUnbound(DNNL_ARG_DIFF_SRC, prim->src);
        if (forward)
          made.add(DNNL_ARG_WORKSPACE, forward->at(DNNL_ARG_WORKSPACE));
        made.addScratchpad(prim->scratchpad);
      });
  backward.bind(DNNL_ARG_DIFF_DST, gradient);
  backward.bind(DNNL_ARG_DIFF_SRC, out);
  backward.bindScratchpad();
  prim->backward.execute(stream, backward.all());
  stream.wait();
}
