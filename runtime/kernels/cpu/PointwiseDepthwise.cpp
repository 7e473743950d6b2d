//===- PointwiseDepthwise.cpp - an expansion and its depthwise convolution ===//
//
// A 1x1 convolution whose output only a depthwise convolution reads (the
// expansion and depthwise halves of MobileNetV2's and EfficientNet's
// inverted bottlenecks), each with a bias and an activation, computed row
// by row so that the expanded tensor is never written to memory: it is the
// largest tensor of those models (EfficientNetB0's first expansion is 96
// channels on 112 x 112 pixels, 154 MB at batch 32), which oneDNN's 1x1
// kernel writes and its depthwise kernel reads back, both bound by memory
// there.
//
// Each thread takes whole images, or when there are fewer images than
// threads, bands of an image's output rows, or slices of its channels
// (the depthwise convolution keeps channels apart). It keeps the last kh
// rows of its expanded slice in a ring (a few hundred KB at most, in its
// L2 cache): for each output row it expands the input rows the window
// reaches that the ring lacks, a small product ([w, c] by [c, expanded]
// plus bias, then the activation) in register tiles, and then runs the
// depthwise window over the ring's rows, vectorized along the channels.
// A band starts with an empty ring: the rows its first window shares with
// the band before are expanded twice. An image whose expanded slice fits
// a share of the L2 cache is expanded whole first, in one product with
// more rows than one of its own.
//
// Both filters are constants of the program (tfc-fuse-elementwise checks),
// laid out once per call site: the 1x1 filter in columns of one vector of
// channels, and the channels padded to whole vectors, so that no loop has
// a tail of partial vectors but the copy of a slice's output pixels. The
// biases, which may be computed at run time, are padded at each call.
//
//===----------------------------------------------------------------------===//

#include "DepthwiseRow.h"
#include "NativeVector.h"
#include "OneDnn.h"
#include "Parallel.h"
#include "RegisterTile.h"
#include "Runtime.h"
#include "VectorMath.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace {

using Params = tfc_pointwise_depthwise_params;
using tfc::kNativeLanes;
using tfc::loadNative;
using tfc::NativeFloats;
using tfc::storeNative;

// The register tile of the 1x1 product: pixels by vectors of channels.
// AVX-512's 32 registers hold 6 x 4 accumulators, the 4 filter vectors
// and a broadcast pixel value; AVX2's 16 hold 4 x 3 of them.
#ifdef __AVX512F__
constexpr int kTilePixels = 6;
constexpr int kTileVectors = 4;
#else
constexpr int kTilePixels = 4;
constexpr int kTileVectors = 3;
#endif

/// The most floats of expanded rows a thread keeps (its L2 cache's
/// share): an image whose expanded slice fits is expanded whole, in one
/// product per slice; a larger one goes through a ring of kh rows.
constexpr int64_t kWholeImageFloats = int64_t(128) << 10;

/// A call site's filters, laid out for the loops (see the file comment):
/// `vectors` of expanded channels, the last padded with zeros; the 1x1
/// filter as one [c][kNativeLanes] column per vector of channels, and the
/// depthwise filter as [kh * kw][vectors * kNativeLanes].
struct PackedFilters {
  int64_t vectors = 0;
  std::vector<float> pointwise, depthwise;
};

std::unique_ptr<PackedFilters> pack(const Params &p, const float *pointwise,
                                    const float *depthwise) {
  auto packed = std::make_unique<PackedFilters>();
  int64_t e = p.expanded;
  packed->vectors = (e + kNativeLanes - 1) / kNativeLanes;
  packed->pointwise.assign(p.c * packed->vectors * kNativeLanes, 0.f);
  for (int64_t v = 0; v < packed->vectors; ++v)
    for (int64_t k = 0; k < p.c; ++k)
      for (int64_t j = 0; j < kNativeLanes && v * kNativeLanes + j < e; ++j)
        packed->pointwise[(v * p.c + k) * kNativeLanes + j] =
            pointwise[k * e + v * kNativeLanes + j];
  packed->depthwise = tfc::paddedRows(depthwise, p.kh * p.kw, e,
                                       packed->vectors * kNativeLanes);
  return packed;
}

/// What a call computes with: the site's filters and this call's biases
/// (which may be computed at run time), padded as the filters are.
struct Operands {
  const PackedFilters &f;
  std::vector<float> pointwiseBias, depthwiseBias;
};

/// `Pixels` pixels (rows of `c` inputs at `in`) by `Vectors` columns of
/// the packed 1x1 filter from `columns` on: dst[x][v] = act(in[x] .
/// column v + bias[v]).
template <int Pixels, int Vectors>
inline void pointwiseTile(const float *in, int64_t c, const float *columns,
                          const float *bias, int64_t activation, float *dst,
                          int64_t dstStride) {
  tfc::registerTile<Pixels, Vectors>(
      in, c, 1, columns, kNativeLanes, c * kNativeLanes, c,
      [&](int, int v) { return loadNative(bias + v * kNativeLanes); },
      [&](int x, int v, NativeFloats sum) {
        storeNative(dst + x * dstStride + v * kNativeLanes,
                    tfc::vector_math::activation(sum, activation));
      });
}

template <int Vectors>
void pointwiseColumns(const float *in, int64_t pixels, int64_t c,
                      const float *columns, const float *bias,
                      int64_t activation, float *dst, int64_t dstStride) {
  int64_t x = 0;
  for (; x + kTilePixels <= pixels; x += kTilePixels)
    pointwiseTile<kTilePixels, Vectors>(in + x * c, c, columns, bias,
                                        activation, dst + x * dstStride,
                                        dstStride);
  for (; x < pixels; ++x)
    pointwiseTile<1, Vectors>(in + x * c, c, columns, bias, activation,
                              dst + x * dstStride, dstStride);
}

/// The vectors [first, last) of expanded channels of `pixels` consecutive
/// input pixels: dst[x][0, (last - first) * kNativeLanes).
void expand(const float *in, int64_t pixels, const Params &p,
            const Operands &o, int64_t first, int64_t last, float *dst) {
  const PackedFilters &f = o.f;
  int64_t stride = (last - first) * kNativeLanes;
  for (int64_t v = first; v < last;) {
    int64_t vectors = std::min<int64_t>(kTileVectors, last - v);
    const float *columns = f.pointwise.data() + v * p.c * kNativeLanes;
    const float *bias = o.pointwiseBias.data() + v * kNativeLanes;
    float *out = dst + (v - first) * kNativeLanes;
    auto run = [&](auto columnsOf) {
      columnsOf(in, pixels, p.c, columns, bias, p.pointwise_activation, out,
                stride);
    };
    static_assert(kTileVectors == 3 || kTileVectors == 4);
    switch (vectors) {
    case 1:
      run(pointwiseColumns<1>);
      break;
    case 2:
      run(pointwiseColumns<2>);
      break;
    case 3:
      run(pointwiseColumns<3>);
      break;
    default:
      run(pointwiseColumns<kTileVectors>);
    }
    v += vectors;
  }
}

/// Image `b`'s output rows [firstRow, lastRow), channel vectors [first,
/// last) (see the file comment).
void part(const float *in, float *out, const Params &p, const Operands &o,
          int64_t b, int64_t firstRow, int64_t lastRow, int64_t first,
          int64_t last) {
  thread_local std::vector<float> expanded, row;
  int64_t width = (last - first) * kNativeLanes;
  int64_t rowFloats = p.w * width;
  // Whole images in one product where they fit; otherwise a ring.
  bool whole = p.h * rowFloats <= kWholeImageFloats;
  int64_t slots = whole ? p.h : p.kh;
  expanded.resize(slots * rowFloats);
  row.resize(p.ow * width);
  tfc::DepthwiseRowFunction depthwise =
      tfc::depthwiseRowFor(p.kh, p.kw, p.stride_w, /*reluInput=*/false);
  const tfc::DepthwiseWindow window{
      p.kh, p.kw, p.w, p.ow, p.stride_w, p.pad_left,
      o.f.vectors * kNativeLanes, o.f.depthwise.data(),
      o.depthwiseBias.data(), p.depthwise_activation};
  std::vector<const float *> rows(p.kh);
  const float *image = in + b * p.h * p.w * p.c;
  int64_t next = 0; // The first input row not expanded yet.
  if (whole) {
    // The rows the band's windows reach.
    int64_t from = std::max<int64_t>(firstRow * p.stride_h - p.pad_top, 0);
    next = std::min((lastRow - 1) * p.stride_h - p.pad_top + p.kh, p.h);
    if (from < next)
      expand(image + from * p.w * p.c, (next - from) * p.w, p, o, first, last,
             expanded.data() + from * rowFloats);
  }
  for (int64_t y = firstRow; y < lastRow; ++y) {
    int64_t top = y * p.stride_h - p.pad_top;
    int64_t from = std::max({top, next, int64_t(0)});
    int64_t to = std::min(top + p.kh, p.h);
    for (int64_t iy = from; iy < to; ++iy)
      expand(image + iy * p.w * p.c, p.w, p, o, first, last,
             expanded.data() + (iy % slots) * rowFloats);
    next = std::max(next, to);
    for (int64_t i = 0; i < p.kh; ++i) {
      int64_t iy = top + i;
      rows[i] = iy >= 0 && iy < p.h
                    ? expanded.data() + (iy % slots) * rowFloats
                    : nullptr;
    }
    // Into the output where the slice's vectors are whole channels there;
    // else through a row of whole vectors whose padding stays out.
    int64_t begin = first * kNativeLanes;
    int64_t count = std::min(last * kNativeLanes, p.expanded) - begin;
    float *dst = out + (b * p.oh + y) * p.ow * p.expanded + begin;
    if (count == width) {
      depthwise(rows.data(), window, first, last, dst, p.expanded);
      continue;
    }
    depthwise(rows.data(), window, first, last, row.data(), width);
    for (int64_t x = 0; x < p.ow; ++x)
      std::memcpy(dst + x * p.expanded, row.data() + x * width,
                  count * sizeof(float));
  }
}

} // namespace

extern "C" void tfc_cpu_pointwise_depthwise_f32(
    tfc_runtime *runtime, const float *in, const float *pointwiseFilter,
    const float *pointwiseBias, const float *depthwiseFilter,
    const float *depthwiseBias, float *out,
    const tfc_pointwise_depthwise_params *params) {
  const Params &p = *params;
  if (p.n == 0 || p.oh == 0 || p.ow == 0 || p.expanded == 0)
    return;
  static tfc::onednn::PrimitiveCache<PackedFilters> cache;
  const PackedFilters &filters = *cache.lookup(
      params, [&] { return pack(p, pointwiseFilter, depthwiseFilter); });
  Operands operands{
      filters,
      tfc::paddedRows(p.pointwise_bias ? pointwiseBias : nullptr, 1,
                      p.expanded, filters.vectors * kNativeLanes),
      tfc::paddedRows(p.depthwise_bias ? depthwiseBias : nullptr, 1,
                      p.expanded, filters.vectors * kNativeLanes)};
  // Whole images when there are enough for the threads. Otherwise each
  // image in parts, one per thread: bands of output rows where they are
  // tall enough that the rows their windows share (expanded twice) are
  // few, else slices of the channels, which share no work but the
  // reading of the input.
  int64_t threads = std::max(runtime->threads, 1);
  int64_t parts = (threads + p.n - 1) / p.n;
  bool inBands = p.oh >= parts * 4 * p.kh;
  int64_t bands = inBands ? parts : 1;
  int64_t slices = inBands ? 1 : std::min(parts, filters.vectors);
  double imageFlops = 2.0 * p.h * p.w * p.c * p.expanded +
                      2.0 * p.oh * p.ow * p.expanded * p.kh * p.kw;
  int64_t perImage = bands * slices;
  tfc::parallelFor(
      runtime, p.n * perImage,
      Eigen::TensorOpCost(4.0 * p.h * p.w * p.c / bands,
                          4.0 * p.oh * p.ow * p.expanded / perImage,
                          imageFlops / 2 / perImage),
      [&](int64_t firstUnit, int64_t lastUnit) {
        for (int64_t unit = firstUnit; unit < lastUnit; ++unit) {
          int64_t b = unit / perImage, band = unit % perImage / slices,
                  slice = unit % slices;
          part(in, out, p, operands, b, p.oh * band / bands,
               p.oh * (band + 1) / bands, filters.vectors * slice / slices,
               filters.vectors * (slice + 1) / slices);
        }
      });
}
