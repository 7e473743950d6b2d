//===- Window3D.cpp - 3-D convolutions and pooling through oneDNN ---------===//
//
// Conv3D, MaxPool3D and AvgPool3D on NDHWC tensors as oneDNN primitives,
// made at a call site's first call and cached by the address of its
// constant tfc_window3d_params; the filter, [kd, kh, kw, c, out_c] as
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
#include <unordered_map>

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

struct Conv3DBackprop {
  dnnl::primitive primitive;
  memory::desc src, dst, weights, userWeights, scratchpad;
};

/// The input gradient's (filterGradient false) or the filter gradient's
/// primitive.
std::unique_ptr<Conv3DBackprop> makeBackprop(const Params &p, bool filterGradient) {
  Geometry g = geometryOf(p, p.out_c);
  ConvTensors t = convTensors(p, g);
  auto result = std::make_unique<Conv3DBackprop>();
  result->src = t.src;
  result->dst = t.dst;
  result->userWeights = t.userWeights;
  const memory::desc &anyWeights = t.anyWeights;
  auto algorithm = dnnl::algorithm::convolution_direct;
  dnnl::engine &engine = tfc::onednn::engine();
  dnnl::convolution_forward::primitive_desc forward(
      dnnl::convolution_forward::desc(dnnl::prop_kind::forward_training,
                                      algorithm, result->src, anyWeights,
                                      result->dst, g.strides, g.padBefore,
                                      g.padAfter),
      engine);
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  if (filterGradient) {
    dnnl::convolution_backward_weights::primitive_desc pd(
        dnnl::convolution_backward_weights::desc(
            algorithm, result->src, anyWeights, result->dst, g.strides,
            g.padBefore, g.padAfter),
        attr, engine, forward);
    result->primitive = dnnl::convolution_backward_weights(pd);
    result->weights = pd.diff_weights_desc();
    result->scratchpad = pd.scratchpad_desc();
  } else {
    dnnl::convolution_backward_data::primitive_desc pd(
        dnnl::convolution_backward_data::desc(
            algorithm, result->src, anyWeights, result->dst, g.strides,
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
  dnnl::engine &engine = tfc::onednn::engine();
  dnnl::stream &stream = tfc::onednn::stream();
  memory user(prim->userWeights, engine, const_cast<float *>(filter));
  memory weights = user;
  if (prim->weights != prim->userWeights) {
    weights = memory(prim->weights, engine);
    dnnl::reorder(user, weights).execute(stream, user, weights);
  }
  prim->conv.execute(
      stream, {{DNNL_ARG_SRC, memory(prim->src, engine, const_cast<float *>(in))},
               {DNNL_ARG_WEIGHTS, weights},
               {DNNL_ARG_DST, memory(prim->dst, engine, out)},
               {DNNL_ARG_SCRATCHPAD, tfc::onednn::scratchpad(prim->scratchpad)}});
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
  dnnl::engine &engine = tfc::onednn::engine();
  dnnl::stream &stream = tfc::onednn::stream();
  prim->pool.execute(
      stream, {{DNNL_ARG_SRC, memory(prim->src, engine, const_cast<float *>(in))},
               {DNNL_ARG_DST, memory(prim->dst, engine, out)},
               {DNNL_ARG_SCRATCHPAD, tfc::onednn::scratchpad(prim->scratchpad)}});
  stream.wait();
}

extern "C" void tfc_cpu_conv3d_backprop_f32(tfc_runtime *runtime,
                                            int32_t filter_gradient,
                                            const float *operand,
                                            const float *gradient, float *out,
                                            const tfc_window3d_params *params) {
  // Keyed by the call site's params; the two kinds never share a site.
  static tfc::onednn::PrimitiveCache<Conv3DBackprop> cache;
  Conv3DBackprop *prim = cache.lookup(
      params, [&] { return makeBackprop(*params, filter_gradient != 0); });
  if (!prim)
    tfc_fail(runtime, "Conv3D gradient: oneDNN has no kernel for this convolution");
  omp_set_num_threads(runtime->threads);
  dnnl::engine &engine = tfc::onednn::engine();
  dnnl::stream &stream = tfc::onednn::stream();
  memory dst(prim->dst, engine, const_cast<float *>(gradient));
  memory scratchpad = tfc::onednn::scratchpad(prim->scratchpad);
  if (filter_gradient) {
    // The gradient in the primitive's layout, then TensorFlow's.
    memory user(prim->userWeights, engine, out);
    memory weights = prim->weights == prim->userWeights
                         ? user
                         : memory(prim->weights, engine);
    prim->primitive.execute(
        stream, {{DNNL_ARG_SRC, memory(prim->src, engine, const_cast<float *>(operand))},
                 {DNNL_ARG_DIFF_DST, dst},
                 {DNNL_ARG_DIFF_WEIGHTS, weights},
                 {DNNL_ARG_SCRATCHPAD, scratchpad}});
    if (prim->weights != prim->userWeights)
      dnnl::reorder(weights, user).execute(stream, weights, user);
  } else {
    memory user(prim->userWeights, engine, const_cast<float *>(operand));
    memory weights = user;
    if (prim->weights != prim->userWeights) {
      weights = memory(prim->weights, engine);
      dnnl::reorder(user, weights).execute(stream, user, weights);
    }
    prim->primitive.execute(
        stream, {{DNNL_ARG_DIFF_SRC, memory(prim->src, engine, out)},
                 {DNNL_ARG_WEIGHTS, weights},
                 {DNNL_ARG_DIFF_DST, dst},
                 {DNNL_ARG_SCRATCHPAD, scratchpad}});
  }
  stream.wait();
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
  dnnl::engine &engine = tfc::onednn::engine();
  dnnl::stream &stream = tfc::onednn::stream();
  std::unordered_map<int, memory> args = {
      {DNNL_ARG_DIFF_DST, memory(prim->dst, engine, const_cast<float *>(gradient))},
      {DNNL_ARG_DIFF_SRC, memory(prim->src, engine, out)}};
  if (kind == 0) {
    // Where each window's maximum is: the forward pooling's workspace.
    memory workspace(prim->workspace, engine);
    memory pooled(prim->dst, engine);
    prim->forward.execute(
        stream, {{DNNL_ARG_SRC, memory(prim->src, engine, const_cast<float *>(in))},
                 {DNNL_ARG_DST, pooled},
                 {DNNL_ARG_WORKSPACE, workspace},
                 {DNNL_ARG_SCRATCHPAD, tfc::onednn::scratchpad(prim->forwardScratchpad)}});
    args.insert({DNNL_ARG_WORKSPACE, workspace});
  }
  args.insert({DNNL_ARG_SCRATCHPAD, tfc::onednn::scratchpad(prim->scratchpad)});
  prim->backward.execute(stream, args);
  stream.wait();
}
