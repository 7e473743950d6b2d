//===- Winograd.h - convolutions by Winograd's minimal filtering -*- C++ -*-===//
//
// Stride-1, undilated convolutions (NHWC, TensorFlow's [kh, kw, c, k]
// filters) by Winograd's minimal filtering algorithms (Lavin and Gray,
// "Fast Algorithms for Convolutional Neural Networks", 2016). F(m, r)
// computes m outputs of an r-tap filter from the m + r - 1 inputs around
// them with m + r - 1 products instead of m * r: transform the inputs (B^T
// d) and the filter (G g), multiply point by point, transform back (A^T).
// Over many channels the point-by-point products become one matrix product
// over the channels per point of the transformed tile.
//
//  - 3x3 filters: F(4x4, 3x3), F(4, 3) along both axes. Each 4x4 output
//    tile is A^T [(G g G^T) . (B^T d B)] A of the 6x6 input tile d around
//    it: 36 products per (input, output) channel pair instead of 144. On
//    images too small for enough of its tiles (7 x 7 at batch 1),
//    F(2x2, 3x3): 16 products from a 4x4 input tile instead of 36.
//  - 5x5 filters: F(4x4, 5x5), 64 products from an 8x8 input tile instead
//    of 400.
//  - 1 x r and r x 1 filters (r = 3 or 7: InceptionV3's factorized
//    convolutions): F(4, r) along the filter's axis, 4 outputs of a row (or
//    a column) from r + 3 inputs, 6 products instead of 12 (r = 3) and 10
//    instead of 28 (r = 7).
//
// F(4, 3) uses the points 0, 1, -1, 2, -2 and infinity, with Lavin and
// Gray's matrices; F(2, 3) 0, 1, -1 and infinity. F(4, 5) adds +-1/2 to
// F(4, 3)'s, and F(4, 7) +-1/2 and +-3/2; their
// matrices are derived from the points when the kernels are compiled. The
// further the points are from 0 and +-1, the more bits the transforms
// lose: measured in float against double sums over 160 channels (a
// NumPy model of the transforms), along one axis F(4, 3) and F(4, 5) are
// off by up to 2.8e-7 of the output's scale, F(4, 7) by 1.6e-6 with
// +-3/2 (3.3e-6 with +-3, 4.0e-6 with +-4); over 64 channels, F(4x4, 3x3)
// by 5.5e-6 and F(4x4, 5x5) by 7.3e-6.
//
// The input gradient of a 3x3 convolution is the forward convolution of
// the output gradient with the filter turned 180 degrees and its channels
// swapped. The filter gradient is F(3x3, 4x4) with the same matrices in
// other roles: the identity behind F(4, 3), sum over x of A[x][i] G[x][j]
// B^T[x][l] = [l == i + j], is symmetric in A and G, so each 3x3 filter
// gradient is G^T [(A dy A^T) . (B^T d B)] G summed over the tiles, with dy
// a 4x4 tile of the output gradient. The other filters have no gradients
// here (oneDNN's kernels compute them).
//
// Transforms work on one register's vector of channels at a time (16 with
// AVX-512, 8 otherwise). The output channels must be a multiple of it;
// the forward convolution's input channels may end in a part vector, read
// with a masked load and padded with zeros up to a whole one (the
// gradients' must be whole vectors too).
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_KERNELS_CPU_WINOGRAD_H
#define TFC_RUNTIME_KERNELS_CPU_WINOGRAD_H

#include "tfc/Runtime/tfc_runtime.h"

#include <cstdint>

namespace tfc::winograd {

/// A convolution's geometry: input [n, h, w, c], filter [kh, kw, c, k],
/// output [n, oh, ow, k], stride 1, with `padTop`/`padLeft` implicit zeros
/// before the input (the output size says how many after). The forward
/// output's pixels may be `outPixelStride` floats apart instead of k (0):
/// its channels a window of a wider concatenation's.
struct Geometry {
  int64_t n, h, w, c, k, oh, ow, padTop, padLeft, kh, kw;
  int64_t outPixelStride = 0;
  int64_t outStride() const { return outPixelStride ? outPixelStride : k; }
};

/// Whether an algorithm computes this convolution: a 3x3, 5x5, 1x3, 3x1,
/// 1x7 or 7x1 filter, stride 1, no dilation, at least one vector of
/// input channels, output channels a multiple of the vector width.
bool applies(int64_t kh, int64_t kw, int64_t strideH, int64_t strideW,
             int64_t dilationH, int64_t dilationW, int64_t c, int64_t k);

/// Whether it computes this convolution's gradients: `applies`, for a 3x3
/// filter and input channels a multiple of the vector width.
bool appliesToGradients(int64_t kh, int64_t kw, int64_t strideH,
                        int64_t strideW, int64_t dilationH, int64_t dilationW,
                        int64_t c, int64_t k);

/// The last-level cache's bytes, as the C library reports them (0 when it
/// does not).
int64_t lastLevelCacheBytes();

/// Whether 16 tiles of a 3x3 filter with many channels (a 14 x 14 image
/// at batch 1) repay reading the transformed filter on this processor:
/// on AMD's, not on Intel's (see paysWithAvx512).
bool fewTilesPay();

/// Whether this processor's 512-bit FMAs issue at half the rate of its
/// 256-bit ones (AMD's Zen 4, which runs each as two halves), so that a
/// multiplication Winograd's transforms save is worth twice as much
/// against their cost.
bool halfRateWideFmas();

/// Whether it pays, with AVX-512, for a convolution of this geometry on a
/// machine whose last-level cache has `cacheBytes`: enough tiles to repay
/// transforming the filter at each call (and to repay reading the
/// transformed filter; 16 tiles of a 3x3 filter only where `fewTiles`;
/// 64 tiles of a 5x5 filter where `halfRate`, 128 elsewhere), and for 3x3
/// filters a transformed filter (36 c x k matrices) that stays in the
/// cache while the tiles go by; elsewhere oneDNN's direct convolution is
/// faster.
bool paysWithAvx512(const Geometry &g,
                    int64_t cacheBytes = lastLevelCacheBytes(),
                    bool fewTiles = fewTilesPay(),
                    bool halfRate = halfRateWideFmas());

/// Whether it pays with AVX2 (eight-channel vectors): enough tiles to
/// repay reading the transformed filter, four times the filter's size.
bool paysWithAvx2(const Geometry &g);

/// Whether it pays here, as the kernels' dispatch asks: by the rule above
/// of the kernels' ISA level; never in the baseline (SSE) kernels, whose
/// products would spill the panel's accumulators.
bool pays(const Geometry &g);

/// Whether backwardData and backwardFilter pay here: as `pays`, counting
/// F(4x4, 3x3)'s tiles (the gradients have no F(2x2, 3x3)).
bool gradientsPay(const Geometry &g);

/// The floats of convolution g's [kh, kw, c, k] filter transformed for
/// `forward` (a [c, k] matrix per point of the transformed tile of g's
/// algorithm).
int64_t transformedFilterSize(const Geometry &g);

/// Transforms convolution g's filter into `transformed`
/// (transformedFilterSize floats). A constant filter is transformed once,
/// by its call site, and the result kept.
void transformFilter(tfc_runtime *runtime, const Geometry &g,
                     const float *filter, float *transformed);

/// transformFilter into a buffer of the calling thread, kept for its next
/// call (a step makes the same calls; a fresh buffer would fault its pages
/// in each time): for a filter that is not a constant. Valid until the
/// thread's next call.
const float *transformFilterForCall(tfc_runtime *runtime, const Geometry &g,
                                    const float *filter);

/// out = activation(conv(in, filter) + bias + residual), the filter given
/// transformed; bias ([k]) and residual (the output's shape, possibly
/// `out` itself) may be null; `activation` is an enum tfc_activation.
void forward(tfc_runtime *runtime, const Geometry &g, const float *in,
             const float *transformedFilter, const float *bias,
             const float *residual, int activation, float *out);

/// The input gradient ([n, h, w, c]) of a 3x3 convolution from the output
/// gradient.
void backwardData(tfc_runtime *runtime, const Geometry &g,
                  const float *filter, const float *gradient, float *out);

/// The filter gradient ([3, 3, c, k]) of a 3x3 convolution from the input
/// and the output gradient, summed in a fixed order (the same for any
/// thread count).
void backwardFilter(tfc_runtime *runtime, const Geometry &g, const float *in,
                    const float *gradient, float *out);

} // namespace tfc::winograd

#endif // TFC_RUNTIME_KERNELS_CPU_WINOGRAD_H
