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
  auto result = std::make_unique<Conv3D>();
  memory::dims weights = {p.out_c, p.c, p.kd, p.kh, p.kw};
  result->src = memory::desc(g.src, memory::data_type::f32, Tag::ndhwc);
  result->dst = memory::desc(g.dst, memory::data_type::f32, Tag::ndhwc);
  result->userWeights = memory::desc(weights, memory::data_type::f32, Tag::dhwio);
  dnnl::convolution_forward::desc desc(
      dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
      result->src, memory::desc(weights, memory::data_type::f32, Tag::any),
      result->dst, g.strides, g.padBefore, g.padAfter);
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  dnnl::convolution_forward::primitive_desc pd(desc, attr,
                                               tfc::onednn::engine());
  result->conv = dnnl::convolution_forward(pd);
  result->weights = pd.weights_desc();
  result->scratchpad = pd.scratchpad_desc();
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
  dnnl::stream stream(engine);
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
  dnnl::stream stream(engine);
  prim->pool.execute(
      stream, {{DNNL_ARG_SRC, memory(prim->src, engine, const_cast<float *>(in))},
               {DNNL_ARG_DST, memory(prim->dst, engine, out)},
               {DNNL_ARG_SCRATCHPAD, tfc::onednn::scratchpad(prim->scratchpad)}});
  stream.wait();
}
