//===- Winograd.h - 3x3 convolutions by Winograd's F(4x4, 3x3) ---*- C++ -*-===//
//
// Stride-1, undilated 3x3 convolutions (NHWC, TensorFlow's [3, 3, c, k]
// filters) and their two gradients in Winograd's minimal filtering
// algorithm F(4x4, 3x3) (Lavin and Gray, "Fast Algorithms for
// Convolutional Neural Networks", 2016): each 4x4 tile of the output is
// A^T [(G g G^T) . (B^T d B)] A of the 6x6 input tile d around it, so
// that per tile the products are 36 per (input, output) channel pair
// instead of 144; those products are 36 matrix products over the
// channels, one per point of the transformed tile.
//
// The input gradient is the forward convolution of the output gradient
// with the filter turned 180 degrees and its channels swapped. The filter
// gradient is F(3x3, 4x4) with the same matrices in other roles: the
// identity behind F(4, 3), sum over x of A[x][i] G[x][j] B^T[x][l] =
// [l == i + j], is symmetric in A and G, so each 3x3 filter gradient is
// G^T [(A dy A^T) . (B^T d B)] G summed over the tiles, with dy a 4x4 tile
// of the output gradient.
//
// Transforms work on one register's vector of channels at a time (16 with
// AVX-512, 8 otherwise), so both channel counts must be multiples of it. Each is exact algebra; in float the results differ
// from a direct convolution by a few units in the last place times the
// transforms' gain (about 1e-6 relative on unit-scale data).
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_KERNELS_CPU_WINOGRAD_H
#define TFC_RUNTIME_KERNELS_CPU_WINOGRAD_H

#include "tfc/Runtime/tfc_runtime.h"

#include <cstdint>

namespace tfc::winograd {

/// A convolution's geometry: input [n, h, w, c], filter [3, 3, c, k],
/// output [n, oh, ow, k], stride 1, with `padTop`/`padLeft` implicit zeros
/// before the input (the output size says how many after).
struct Geometry {
  int64_t n, h, w, c, k, oh, ow, padTop, padLeft;
};

/// Whether the algorithm applies: 3x3, stride 1, no dilation, channel
/// counts multiples of the vector width.
bool applies(int64_t kh, int64_t kw, int64_t strideH, int64_t strideW,
             int64_t dilationH, int64_t dilationW, int64_t c, int64_t k);

/// Whether it pays, with AVX-512, for a convolution of this geometry:
/// enough tiles to repay transforming the filter at each call, and a
/// transformed filter (36 c x k matrices) that stays in the cache while
/// the tiles go by; elsewhere oneDNN's direct convolution is faster.
bool paysWithAvx512(const Geometry &g);

/// Whether it pays with AVX2 (eight-channel vectors): enough tiles to
/// repay reading the transformed filter, four times the filter's size.
bool paysWithAvx2(const Geometry &g);

/// Whether it pays here, as the kernels' dispatch asks: by the rule above
/// of the kernels' ISA level; never in the baseline (SSE) kernels, whose
/// products would spill the panel's accumulators.
bool pays(const Geometry &g);

/// The floats of a [3, 3, c, k] filter transformed for `forward` (36
/// [c, k] matrices, G g G^T at each point of the tile).
int64_t transformedFilterSize(int64_t c, int64_t k);

/// Transforms a [3, 3, c, k] filter into `transformed`
/// (transformedFilterSize floats). A constant filter is transformed once,
/// by its call site, and the result kept.
void transformFilter(tfc_runtime *runtime, const float *filter, int64_t c,
                     int64_t k, float *transformed);

/// transformFilter into a buffer of the calling thread, kept for its next
/// call (a step makes the same calls; a fresh buffer would fault its pages
/// in each time): for a filter that is not a constant. Valid until the
/// thread's next call.
const float *transformFilterForCall(tfc_runtime *runtime, const float *filter,
                                    int64_t c, int64_t k);

/// out = activation(conv(in, filter) + bias + residual), the filter given
/// transformed; bias ([k]) and residual (the output's shape, possibly
/// `out` itself) may be null; activation 0 none, 1 ReLU, 2 ReLU6.
void forward(tfc_runtime *runtime, const Geometry &g, const float *in,
             const float *transformedFilter, const float *bias,
             const float *residual, int activation, float *out);

/// The input gradient ([n, h, w, c]) from the output gradient.
void backwardData(tfc_runtime *runtime, const Geometry &g,
                  const float *filter, const float *gradient, float *out);

/// The filter gradient ([3, 3, c, k]) from the input and the output
/// gradient, summed in a fixed order (the same for any thread count).
void backwardFilter(tfc_runtime *runtime, const Geometry &g, const float *in,
                    const float *gradient, float *out);

} // namespace tfc::winograd

#endif // TFC_RUNTIME_KERNELS_CPU_WINOGRAD_H
