//===- OneDnnConv.cpp - convolutions through oneDNN -----------------------===//
//
// Conv2D and depthwise Conv2D (a grouped convolution, one group per input
// channel) run as oneDNN primitives on the NHWC tensors as they are, with
// their epilogue (bias, residual add, ReLU, ReLU6 or hard swish) applied
// by the primitive as it writes (a bias argument, a binary and an eltwise
// post-op). Each
// call site passes its constant tfc_conv2d_params, whose address keys a
// cache holding the primitive and, for a constant filter, the filter
// reordered once into the layout the primitive prefers (blocked for the
// target's vector width); a filter computed at run time is reordered at
// every call. Where oneDNN cannot make a primitive, the Eigen kernels of
// Conv.cpp compute the result.
//
// Swish (x * sigmoid(x), EfficientNet's activation) is not a post-op:
// oneDNN's swish post-op added more to EfficientNetB0's convolutions than
// a separate pass over their outputs cost (on AVX-512, 65 ms a step at
// batch 32 against 49). Such a pass over a whole batch's output (tens of
// MB) reads and writes it in memory; most of its time is the sigmoid's
// arithmetic (on AVX2, 0.57-0.64 ns an element on two threads over data
// in the cache, 0.63 over EfficientNetB0's outputs in memory), the rest
// is waiting on memory. So the primitive runs on groups of images whose
// output fits a quarter of the last-level cache (8 MiB), and swish runs on
// each group's output right after, while it is cached: EfficientNetB0's
// step took 3-7% less at batch 1 and 32.
//
// A strided 1x1 convolution reads only every stride-th pixel: those are
// gathered first and the primitive is a stride-1 one. oneDNN 2.6's 1x1
// kernels take a stride only on some shapes (on AVX2 they took ResNet-50's,
// whose sides are even, and not Xception's, whose sides are odd); it chose
// its general direct kernel for the others, at a third of the speed
// (Xception's shortcut convolutions, 19 x 19 to 10 x 10: 54 GFLOP/s
// against 175 for the 1x1 kernel).
//
// An output that is a window of a wider concatenation's (a DenseNet
// layer's new channels, tfc-plan-memory) has its pixels further apart
// than its channels: Winograd's transform writes them there as it writes
// any output; oneDNN and the Eigen kernels write a dense copy first.
//
//===----------------------------------------------------------------------===//

#include "Epilogue.h"
#include "NativeVector.h"
#include "OneDnn.h"
#include "Parallel.h"
#include "Runtime.h"
#include "VectorMath.h"
#include "Winograd.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <memory>
#include <omp.h>
#include <vector>

namespace {

using dnnl::memory;
using Tag = memory::format_tag;

using ConvParams = tfc_conv2d_params;

/// The output's channels: out_c, or c times the multiplier (depthwise).
int64_t outputChannels(const ConvParams &p) {
  return p.depthwise ? p.c * p.out_c : p.out_c;
}

/// The bytes of output one primitive call writes at most when swish
/// follows (see the file comment): a quarter of a 32 MiB last-level cache.
constexpr int64_t kSwishGroupBytes = int64_t(8) << 20;

/// The images each primitive call takes: all of them, or with swish the
/// most that divide the batch and whose output fits kSwishGroupBytes (one
/// at least).
int64_t imagesPerCall(const ConvParams &p) {
  if (p.activation != TFC_ACTIVATION_SWISH)
    return p.n;
  int64_t imageBytes = p.oh * p.ow * outputChannels(p) * int64_t(sizeof(float));
  int64_t images = p.n;
  while (images > 1 && (p.n % images != 0 || images * imageBytes > kSwishGroupBytes))
    --images;
  return images;
}

/// x * sigmoid(x) over `count` floats in place, on all threads.
void swishInPlace(tfc_runtime *runtime, float *data, int64_t count) {
  constexpr int64_t kLanes = tfc::kNativeLanes;
  auto range = [&](int64_t first, int64_t last) {
    int64_t i = first;
    for (; i + kLanes <= last; i += kLanes) {
      tfc::storeNative(data + i, tfc::vector_math::activation(tfc::loadNative(data + i), TFC_ACTIVATION_SWISH));
    }
    for (; i < last; ++i)
      data[i] = tfc::vector_math::activation(data[i], TFC_ACTIVATION_SWISH);
  };
  // Whole vectors per part, so that only the last part has a tail.
  int64_t vectors = (count + kLanes - 1) / kLanes;
  tfc::parallelFor(runtime, vectors, Eigen::TensorOpCost(4.0 * kLanes, 4.0 * kLanes, 30.0 * kLanes),
                   [&](int64_t first, int64_t last) {
                     range(first * kLanes, std::min(last * kLanes, count));
                   });
}

struct ConvPrimitive {
  dnnl::convolution_forward conv;
  memory::desc src, weights, dst, userWeights, scratchpad, bias;
  /// The filter in the primitive's layout (constant filters only).
  std::unique_ptr<memory> constantWeights;
};

/// Whether the convolution reads every stride-th pixel of its input and
/// nothing between (a strided 1x1 filter without padding: explicit
/// padding after the image would add outputs that read only zeros).
bool subsamples(const ConvParams &p) {
  return !p.depthwise && p.kh == 1 && p.kw == 1 &&
         (p.stride_h > 1 || p.stride_w > 1) && p.pad_top == 0 &&
         p.pad_left == 0 && (p.oh - 1) * p.stride_h < p.h &&
         (p.ow - 1) * p.stride_w < p.w;
}

/// The convolution of the pixels a subsampling one reads, gathered into
/// an image of the output's height and width.
ConvParams unitStride(const ConvParams &p) {
  ConvParams q = p;
  q.h = p.oh;
  q.w = p.ow;
  q.stride_h = q.stride_w = 1;
  return q;
}

/// Copies the pixels a subsampling convolution reads into `gathered`
/// (n x oh x ow x c).
void gatherStridedPixels(tfc_runtime *runtime, const ConvParams &p,
                         const float *in, float *gathered) {
  int64_t rowFloats = p.ow * p.c;
  auto rows = [&](int64_t first, int64_t last) {
    for (int64_t row = first; row < last; ++row) {
      int64_t image = row / p.oh, y = row % p.oh;
      const float *source = in + ((image * p.h + y * p.stride_h) * p.w) * p.c;
      float *target = gathered + row * rowFloats;
      for (int64_t x = 0; x < p.ow; ++x)
        std::copy_n(source + x * p.stride_w * p.c, p.c, target + x * p.c);
    }
  };
  tfc::parallelFor(runtime, p.n * p.oh,
                   Eigen::TensorOpCost(4.0 * rowFloats, 4.0 * rowFloats, 0),
                   rows);
}

/// The primitive of a call site (null if oneDNN cannot make one); a
/// constant filter is reordered into the primitive's layout here, once.
std::unique_ptr<ConvPrimitive> makeConv(const ConvParams &given,
                                        const float *filter) {
  ConvParams p = subsamples(given) ? unitStride(given) : given;
  p.n = imagesPerCall(given);
  dnnl::engine &engine = tfc::onednn::engine();
  auto result = std::make_unique<ConvPrimitive>();
  memory::dims src = {p.n, p.c, p.h, p.w};
  memory::dims dst = {p.n, outputChannels(p), p.oh, p.ow};
  memory::dims weights;
  if (p.depthwise) {
    // TensorFlow's [kh, kw, c, multiplier] is oneDNN's (g, o, i, h, w)
    // with g = c, o = multiplier, i = 1, laid out h, w, i, g, o.
    weights = {p.c, p.out_c, 1, p.kh, p.kw};
    result->userWeights = memory::desc(weights, memory::data_type::f32, Tag::hwigo);
  } else {
    weights = {p.out_c, p.c, p.kh, p.kw};
    result->userWeights = memory::desc(weights, memory::data_type::f32, Tag::hwio);
  }
  result->src = memory::desc(src, memory::data_type::f32, Tag::nhwc);
  result->dst = memory::desc(dst, memory::data_type::f32, Tag::nhwc);
  memory::desc anyWeights(weights, memory::data_type::f32, Tag::any);
  auto [strides, dilations, padBefore, padAfter] = tfc::onednn::convGeometry(p);
  auto kind = dnnl::prop_kind::forward_inference;
  auto algorithm = dnnl::algorithm::convolution_direct;
  if (p.has_bias)
    result->bias = memory::desc({outputChannels(p)}, memory::data_type::f32, Tag::x);
  auto desc = p.has_bias
                  ? dnnl::convolution_forward::desc(
                        kind, algorithm, result->src, anyWeights, result->bias,
                        result->dst, strides, dilations, padBefore, padAfter)
                  : dnnl::convolution_forward::desc(
                        kind, algorithm, result->src, anyWeights, result->dst,
                        strides, dilations, padBefore, padAfter);
  // The scratchpad is the caller's (see tfc_cpu_conv2d_dnnl_f32), so
  // that contexts of one model may run the primitive concurrently.
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  // The epilogue after the bias (swish follows each call instead; see
  // the file comment).
  dnnl::post_ops epilogue = tfc::onednn::epiloguePostOps(
      p.residual, result->dst,
      p.activation == TFC_ACTIVATION_SWISH ? TFC_ACTIVATION_NONE : p.activation);
  attr.set_post_ops(epilogue);
  dnnl::convolution_forward::primitive_desc pd(desc, attr, engine);
  result->conv = dnnl::convolution_forward(pd);
  result->scratchpad = pd.scratchpad_desc();
  result->weights = pd.weights_desc();
  if (p.filter_constant && result->weights != result->userWeights) {
    memory user(result->userWeights, engine, const_cast<float *>(filter));
    result->constantWeights = std::make_unique<memory>(result->weights, engine);
    dnnl::stream &stream = tfc::onednn::stream();
    dnnl::reorder(user, *result->constantWeights).execute(stream, user,
                                                          *result->constantWeights);
    stream.wait();
  }
  return result;
}

using tfc::onednn::kResidualArgument;

/// The calling thread's arguments of a call site (OneDnn.h).
tfc::onednn::CallArguments &argumentsOf(const ConvPrimitive &prim,
                                        const ConvParams &p) {
  return tfc::onednn::argumentsOf(&prim, [&](tfc::onednn::CallArguments &bound) {
    bound.addUnbound(DNNL_ARG_SRC, prim.src);
    bound.addUnbound(DNNL_ARG_DST, prim.dst);
    bound.addScratchpad(prim.scratchpad);
    if (prim.constantWeights)
      bound.add(DNNL_ARG_WEIGHTS, *prim.constantWeights);
    else
      bound.addWeights(DNNL_ARG_WEIGHTS, prim.userWeights, prim.weights,
                       /*written=*/false);
    if (p.has_bias)
      bound.addUnbound(DNNL_ARG_BIAS, prim.bias);
    if (p.residual == 1)
      bound.addUnbound(kResidualArgument, prim.dst);
  });
}

} // namespace

/// The filter transformed for Winograd's algorithm: a constant filter's
/// once per call site (the transform writes up to four times the filter's
/// size, as much memory traffic as a small image's whole convolution),
/// another one at each call.
static const float *winogradFilter(tfc_runtime *runtime, const ConvParams &p,
                                   const tfc::winograd::Geometry &geometry,
                                   const float *filter) {
  if (!p.filter_constant)
    return tfc::winograd::transformFilterForCall(runtime, geometry, filter);
  static tfc::onednn::PrimitiveCache<std::vector<float>> cache;
  return cache
      .lookup(&p,
              [&] {
                auto transformed = std::make_unique<std::vector<float>>(
                    tfc::winograd::transformedFilterSize(geometry));
                tfc::winograd::transformFilter(runtime, geometry, filter,
                                               transformed->data());
                return transformed;
              })
      ->data();
}

/// The convolution through oneDNN (or Eigen) into a dense `out`.
static void convolveDense(tfc_runtime *runtime, const float *in,
                          const float *filter, const float *bias,
                          const float *residual, float *out,
                          const tfc_conv2d_params *params) {
  const ConvParams &p = *params;
  static tfc::onednn::PrimitiveCache<ConvPrimitive> cache;
  ConvPrimitive *prim =
      cache.lookup(params, [&] { return makeConv(p, filter); });
  if (!prim) {
    // The convolution overwrites a residual planned in place: keep it.
    std::vector<float> saved;
    if (residual == out) {
      saved.assign(out, out + p.n * p.oh * p.ow * outputChannels(p));
      residual = saved.data();
    }
    if (p.depthwise)
      tfc_cpu_depthwise_conv2d_f32(runtime, in, filter, out, p.n, p.h, p.w, p.c,
                                   p.kh, p.kw, p.out_c, p.oh, p.ow, p.stride_h,
                                   p.stride_w, p.dilation_h, p.dilation_w,
                                   p.pad_top, p.pad_left);
    else
      tfc_cpu_conv2d_f32(runtime, in, filter, out, p.n, p.h, p.w, p.c, p.kh,
                         p.kw, p.out_c, p.oh, p.ow, p.stride_h, p.stride_w,
                         p.dilation_h, p.dilation_w, p.pad_top, p.pad_left);
    tfc::applyEpilogue(runtime, out, p.n * p.oh * p.ow, outputChannels(p),
                       bias, residual, p.activation);
    return;
  }
  // oneDNN's threads are OpenMP's: as many as the runtime's.
  omp_set_num_threads(runtime->threads);
  dnnl::stream &stream = tfc::onednn::stream();
  tfc::onednn::CallArguments &bound = argumentsOf(*prim, p);
  if (!prim->constantWeights)
    bound.bindWeights(stream, filter);
  const float *source = in;
  int64_t sourceImage = p.h * p.w * p.c;
  if (subsamples(p)) {
    thread_local std::vector<float> gathered;
    gathered.resize(p.n * p.oh * p.ow * p.c);
    gatherStridedPixels(runtime, p, in, gathered.data());
    source = gathered.data();
    sourceImage = p.oh * p.ow * p.c;
  }
  bound.bindScratchpad();
  if (p.has_bias)
    bound.bind(DNNL_ARG_BIAS, bias);
  // The primitive takes imagesPerCall images a call (all but with swish).
  int64_t images = imagesPerCall(p);
  int64_t outImage = p.oh * p.ow * outputChannels(p);
  for (int64_t first = 0; first < p.n; first += images) {
    float *groupOut = out + first * outImage;
    bound.bind(DNNL_ARG_SRC, source + first * sourceImage);
    bound.bind(DNNL_ARG_DST, groupOut);
    if (p.residual == 1)
      bound.bind(kResidualArgument, residual + first * outImage);
    prim->conv.execute(stream, bound.all());
    stream.wait();
    if (p.activation == TFC_ACTIVATION_SWISH)
      swishInPlace(runtime, groupOut, images * outImage);
  }
}

extern "C" void tfc_cpu_conv2d_dnnl_f32(tfc_runtime *runtime, const float *in,
                                        const float *filter, const float *bias,
                                        const float *residual, float *out,
                                        const tfc_conv2d_params *params) {
  const ConvParams &p = *params;
  tfc::winograd::Geometry geometry{p.n,        p.h,  p.w,  p.c,
                                   p.out_c,    p.oh, p.ow, p.pad_top,
                                   p.pad_left, p.kh, p.kw, p.out_pixel_stride};
  if (!p.depthwise &&
      tfc::winograd::applies(p.kh, p.kw, p.stride_h, p.stride_w, p.dilation_h,
                             p.dilation_w, p.c, p.out_c) &&
      tfc::winograd::pays(geometry)) {
    tfc::winograd::forward(
        runtime, geometry, in, winogradFilter(runtime, p, geometry, filter),
        p.has_bias ? bias : nullptr, p.residual ? residual : nullptr,
        int(p.activation), out);
    return;
  }
  int64_t channels = outputChannels(p);
  if (!p.out_pixel_stride || p.out_pixel_stride == channels) {
    convolveDense(runtime, in, filter, bias, residual, out, params);
    return;
  }
  // A window of a wider output: a dense copy, then each pixel's channels
  // to their place (a concatenation of one piece, its rows pixels).
  thread_local std::vector<float> dense;
  int64_t pixels = p.n * p.oh * p.ow;
  dense.resize(pixels * channels);
  convolveDense(runtime, in, filter, bias, residual, dense.data(), params);
  const float *piece = dense.data();
  tfc_cpu_concat_rows_f32(runtime, &piece, &channels, out, 1, pixels,
                          p.out_pixel_stride);
}
