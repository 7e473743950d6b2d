//===- Winograd.cpp - convolutions by Winograd's minimal filtering --------===//
//
// See Winograd.h for the algorithms. An algorithm is a transform along
// each axis of the tile (F(4, 3), F(4, 5), F(4, 7), or the identity along
// an axis the filter does not span); the work is the same for all: blocks
// of output
// tiles, each block's transformed input and products small enough to stay
// in the core's cache. Transform the block's input tiles (V, points x tiles
// x channels), multiply each point's [tiles, c] by the transformed
// filter's [c, k] (U, computed once per call), transform back and apply the
// epilogue as the output is written. Blocks run in parallel.
//
// The filter gradient's products reduce over tiles instead, into 36
// [c, k] sums per group of tiles; the groups are fixed by the shape (not
// by the thread count) and added in order, so the result is deterministic.
//
// Transforms and products work on vectors of channels one register wide
// (NativeVector.h): 16 with AVX-512, 8 with AVX2. The products' panels
// hold as many accumulators as the registers allow (4 tiles x 64 channels
// in AVX-512's 32 registers, or 12 x 32 for products of 32 channels or
// fewer; 6 tiles x 16 channels in AVX2's 16).
//
//===----------------------------------------------------------------------===//

#include "Winograd.h"
#include "NativeVector.h"
#include "Parallel.h"
#include "Processor.h"
#include "RegisterTile.h"
#include "Runtime.h"
#include "VectorMath.h"

#include <algorithm>
#include <array>
#include <type_traits>
#include <unistd.h>
#include <utility>
#include <vector>

namespace tfc::winograd {
namespace {

using Vec = NativeFloats;
constexpr int64_t kLanes = kNativeLanes;

//===----------------------------------------------------------------------===//
// Transforms along one axis
//===----------------------------------------------------------------------===//

/// F(4, 3) on the points 0, 1, -1, 2, -2 and infinity, with the common
/// terms of Lavin and Gray's matrices computed once.
struct F4x3 {
  static constexpr int kTaps = 3, kOutputs = 4, kPoints = 6;

  /// B^T: six input values to six transformed ones.
  static void input(const Vec d[6], Vec r[6]) {
    r[0] = 4.f * d[0] - 5.f * d[2] + d[4];
    r[1] = -4.f * (d[1] + d[2]) + d[3] + d[4];
    r[2] = 4.f * (d[1] - d[2]) - d[3] + d[4];
    r[3] = 2.f * (d[3] - d[1]) - d[2] + d[4];
    r[4] = 2.f * (d[1] - d[3]) - d[2] + d[4];
    r[5] = 4.f * d[1] - 5.f * d[3] + d[5];
  }

  /// G: three filter taps to six transformed ones.
  static void filter(const Vec g[3], Vec u[6]) {
    u[0] = 0.25f * g[0];
    u[1] = (-1.f / 6.f) * (g[0] + g[1] + g[2]);
    u[2] = (-1.f / 6.f) * (g[0] - g[1] + g[2]);
    u[3] = (1.f / 24.f) * g[0] + (1.f / 12.f) * g[1] + (1.f / 6.f) * g[2];
    u[4] = (1.f / 24.f) * g[0] - (1.f / 12.f) * g[1] + (1.f / 6.f) * g[2];
    u[5] = g[2];
  }

  /// A^T: six products to four outputs.
  static void output(const Vec m[6], Vec o[4]) {
    Vec sum12 = m[1] + m[2], difference12 = m[1] - m[2];
    Vec sum34 = m[3] + m[4], difference34 = m[3] - m[4];
    o[0] = m[0] + sum12 + sum34;
    o[1] = difference12 + 2.f * difference34;
    o[2] = sum12 + 4.f * sum34;
    o[3] = difference12 + 8.f * difference34 + m[5];
  }

  /// A (the filter gradient's): four output-gradient values to six
  /// transformed ones.
  static void gradient(const Vec y[4], Vec r[6]) {
    Vec even = y[0] + y[2], odd = y[1] + y[3];
    Vec even4 = y[0] + 4.f * y[2], odd8 = 2.f * y[1] + 8.f * y[3];
    r[0] = y[0];
    r[1] = even + odd;
    r[2] = even - odd;
    r[3] = even4 + odd8;
    r[4] = even4 - odd8;
    r[5] = y[3];
  }

  /// G^T (the filter gradient's): six sums to three taps.
  static void filterGradient(const Vec m[6], Vec r[3]) {
    Vec sum12 = m[1] + m[2], sum34 = m[3] + m[4];
    r[0] = 0.25f * m[0] - (1.f / 6.f) * sum12 + (1.f / 24.f) * sum34;
    r[1] = (1.f / 6.f) * (m[2] - m[1]) + (1.f / 12.f) * (m[3] - m[4]);
    r[2] = (1.f / 6.f) * (sum34 - sum12) + m[5];
  }
};

/// The matrices of F(m, r) on m + r - 2 finite points and infinity, in
/// Lavin and Gray's convention: A^T evaluates a polynomial at the points
/// (row i holds each point to the power i; infinity's column picks the
/// leading coefficient), G evaluates the filter's polynomial there divided
/// by the point's Lagrange denominator (the product of its differences to
/// the other finite points), and B^T is what makes A^T [(G g) . (B^T d)]
/// the correlation, y[i] = sum over k of g[k] d[i + k].
template <int kM, int kR> struct Interpolation {
  static constexpr int kOutputs = kM, kTaps = kR, kPoints = kM + kR - 1;
  double input[kPoints][kPoints] = {};  // B^T
  double filter[kPoints][kR] = {};      // G
  double output[kM][kPoints] = {};      // A^T
};

constexpr double power(double x, int n) {
  double result = 1;
  for (int i = 0; i < n; ++i)
    result *= x;
  return result;
}

constexpr double magnitude(double x) { return x < 0 ? -x : x; }

/// F(m, r)'s matrices from its finite points, computed when the kernels
/// are compiled. Correlation needs sum over points j of A^T[i][j] G[j][k]
/// B^T[j][l] = [l == i + k]. With A^T and G as above, A^T[i][j] G[j][k] is
/// p_j^(i + k) / denominator_j (infinity's: [i + k == m + r - 2]), a
/// function C[s][j] of s = i + k alone, so the identity is C B^T = I over
/// s and l in [0, m + r - 1): B^T is C's inverse (C is a Vandermonde
/// matrix, scaled, with infinity's column: invertible for distinct
/// points), here by Gauss-Jordan elimination.
template <int kM, int kR>
constexpr Interpolation<kM, kR>
interpolate(const double (&points)[kM + kR - 2]) {
  constexpr int n = kM + kR - 1, finite = n - 1;
  Interpolation<kM, kR> t;
  double denominator[finite] = {};
  for (int j = 0; j < finite; ++j) {
    denominator[j] = 1;
    for (int l = 0; l < finite; ++l)
      if (l != j)
        denominator[j] *= points[j] - points[l];
  }
  for (int i = 0; i < kM; ++i) {
    for (int j = 0; j < finite; ++j)
      t.output[i][j] = power(points[j], i);
    t.output[i][finite] = i == kM - 1;
  }
  for (int j = 0; j < finite; ++j)
    for (int k = 0; k < kR; ++k)
      t.filter[j][k] = power(points[j], k) / denominator[j];
  t.filter[finite][kR - 1] = 1;
  // [C | I], reduced to [I | C^-1].
  double c[n][2 * n] = {};
  for (int s = 0; s < n; ++s) {
    for (int j = 0; j < finite; ++j)
      c[s][j] = power(points[j], s) / denominator[j];
    c[s][finite] = s == n - 1;
    c[s][n + s] = 1;
  }
  for (int column = 0; column < n; ++column) {
    int pivot = column;
    for (int row = column + 1; row < n; ++row)
      if (magnitude(c[row][column]) > magnitude(c[pivot][column]))
        pivot = row;
    for (int q = 0; q < 2 * n; ++q) {
      double swapped = c[column][q];
      c[column][q] = c[pivot][q];
      c[pivot][q] = swapped;
    }
    double scale = c[column][column];
    for (int q = 0; q < 2 * n; ++q)
      c[column][q] /= scale;
    for (int row = 0; row < n; ++row) {
      double factor = c[row][column];
      if (row != column && factor != 0)
        for (int q = 0; q < 2 * n; ++q)
          c[row][q] -= factor * c[column][q];
    }
  }
  // B^T's entries are small rationals; rounding in the elimination must not
  // turn a zero into a term the transform computes.
  for (int j = 0; j < n; ++j)
    for (int l = 0; l < n; ++l)
      t.input[j][l] = magnitude(c[j][n + l]) < 1e-9 ? 0 : c[j][n + l];
  return t;
}

constexpr double kF2x3Points[] = {0, 1, -1};
constexpr Interpolation<2, 3> kF2x3 = interpolate<2, 3>(kF2x3Points);
constexpr double kF4x5Points[] = {0, 1, -1, 2, -2, 0.5, -0.5};
constexpr Interpolation<4, 5> kF4x5 = interpolate<4, 5>(kF4x5Points);
constexpr double kF4x7Points[] = {0, 1, -1, 2, -2, 0.5, -0.5, 1.5, -1.5};
constexpr Interpolation<4, 7> kF4x7 = interpolate<4, 7>(kF4x7Points);

enum class Stage { Input, Filter, Output };

template <const auto &kT, Stage kStage>
constexpr double coefficient(int row, int column) {
  if constexpr (kStage == Stage::Input)
    return kT.input[row][column];
  else if constexpr (kStage == Stage::Filter)
    return kT.filter[row][column];
  else
    return kT.output[row][column];
}

/// sum += M[row][column] x[column] for a coefficient known when compiling:
/// nothing where it is zero.
template <const auto &kT, Stage kStage, int kRow, int kColumn>
inline void accumulate(Vec &sum, const Vec *x) {
  constexpr double c = coefficient<kT, kStage>(kRow, kColumn);
  if constexpr (c != 0)
    sum += float(c) * x[kColumn];
}

template <const auto &kT, Stage kStage, int kRow, int... kColumn>
inline Vec rowTimes(const Vec *x, std::integer_sequence<int, kColumn...>) {
  Vec sum{};
  (accumulate<kT, kStage, kRow, kColumn>(sum, x), ...);
  return sum;
}

/// y = M x, M one of an Interpolation's matrices.
template <const auto &kT, Stage kStage, int kColumns, int... kRow>
inline void matrixTimes(const Vec *x, Vec *y,
                        std::integer_sequence<int, kRow...>) {
  ((y[kRow] = rowTimes<kT, kStage, kRow>(
        x, std::make_integer_sequence<int, kColumns>())),
   ...);
}

/// F(m, r) by the matrices of an Interpolation, each product unrolled and
/// its zero terms left out.
template <const auto &kT> struct Interpolated {
  using Matrices = std::decay_t<decltype(kT)>;
  static constexpr int kTaps = Matrices::kTaps, kOutputs = Matrices::kOutputs,
                       kPoints = Matrices::kPoints;
  static void input(const Vec *d, Vec *r) {
    matrixTimes<kT, Stage::Input, kPoints>(
        d, r, std::make_integer_sequence<int, kPoints>());
  }
  static void filter(const Vec *g, Vec *u) {
    matrixTimes<kT, Stage::Filter, kTaps>(
        g, u, std::make_integer_sequence<int, kPoints>());
  }
  static void output(const Vec *m, Vec *o) {
    matrixTimes<kT, Stage::Output, kPoints>(
        m, o, std::make_integer_sequence<int, kOutputs>());
  }
};

using F2x3 = Interpolated<kF2x3>;
using F4x5 = Interpolated<kF4x5>;
using F4x7 = Interpolated<kF4x7>;

/// An axis the filter does not span (one tap): each transform is the
/// identity.
struct Unit {
  static constexpr int kTaps = 1, kOutputs = 1, kPoints = 1;
  static void input(const Vec *d, Vec *r) { r[0] = d[0]; }
  static void filter(const Vec *g, Vec *u) { u[0] = g[0]; }
  static void output(const Vec *m, Vec *o) { o[0] = m[0]; }
};

/// An algorithm: `Down`'s transforms down the tile's columns (along the
/// height), `Across`'s along its rows (the width).
template <class Down, class Across> struct Algorithm {
  using Rows = Down;
  using Columns = Across;
  /// The output tile, the input window around it, the filter.
  static constexpr int kTileH = Down::kOutputs, kTileW = Across::kOutputs;
  static constexpr int kWindowH = Down::kPoints, kWindowW = Across::kPoints;
  static constexpr int kFilterH = Down::kTaps, kFilterW = Across::kTaps;
  static constexpr int kPoints = kWindowH * kWindowW;
  /// Output tiles per block: F(4x4, 3x3)'s 32 (with 32 input and 64
  /// output channels the block's V and products take 440 KiB), and as
  /// many tile points in the others.
  static constexpr int64_t kTilesPerBlock = 32 * 36 / kPoints;
};

using Square3x3 = Algorithm<F4x3, F4x3>;
using SmallSquare3x3 = Algorithm<F2x3, F2x3>;
using Square5x5 = Algorithm<F4x5, F4x5>;
using Row3 = Algorithm<Unit, F4x3>;    // 1 x 3
using Column3 = Algorithm<F4x3, Unit>; // 3 x 1
using Row7 = Algorithm<Unit, F4x7>;    // 1 x 7
using Column7 = Algorithm<F4x7, Unit>; // 7 x 1

//===----------------------------------------------------------------------===//
// Tiles
//===----------------------------------------------------------------------===//

/// The distance between two points' [tiles, channels] matrices in a block:
/// one vector more than the matrix, so that the points of a tile are not
/// all a power of two apart (they would share one set of the L1 cache and
/// evict each other).
template <class A> inline int64_t pointStride(int64_t channels) {
  return A::kTilesPerBlock * channels + kLanes;
}

/// A separable 2D transform: `down` (kInH values to kOutH) down the columns
/// of a kInH x kInW tile, then `across` (kInW values to kOutW) along the
/// rows. The tile comes from load(i, j) and goes to store(i, j, value) as
/// it is made, so that only the intermediate tile lives in memory (the two
/// whole tiles with it would not fit the registers, and every step would
/// spill).
template <int kInH, int kInW, int kOutH, int kOutW, typename Load,
          typename Down, typename Across, typename Store>
inline void transform2d(Load load, Down down, Across across, Store store) {
  Vec t[kOutH][kInW];
  for (int j = 0; j < kInW; ++j) {
    Vec column[kInH], r[kOutH];
    for (int i = 0; i < kInH; ++i)
      column[i] = load(i, j);
    down(column, r);
    for (int i = 0; i < kOutH; ++i)
      t[i][j] = r[i];
  }
  for (int i = 0; i < kOutH; ++i) {
    Vec r[kOutW];
    across(t[i], r);
    for (int j = 0; j < kOutW; ++j)
      store(i, j, r[j]);
  }
}

/// Positions along one axis of a tile's window that starts at `first`:
/// each one's offset (`stride` apart), clamped into [0, size) so that every
/// load stays in the tensor, and a lane mask that is all ones inside and
/// zero outside (where the window reads padding's zeros).
template <int kCount>
struct WindowAxis {
  int64_t offset[kCount];
  int32_t mask[kCount];
  WindowAxis(int64_t first, int64_t size, int64_t stride) {
    for (int i = 0; i < kCount; ++i) {
      int64_t at = first + i;
      bool inside = at >= 0 && at < size;
      offset[i] = std::clamp<int64_t>(at, 0, size - 1) * stride;
      mask[i] = inside ? -1 : 0;
    }
  }
};

/// `value` where `mask` is all ones, zero where it is zero (without a
/// branch: a bitwise and).
inline Vec masked(Vec value, int32_t mask) {
  return Vec(NativeInts(value) & mask);
}

/// A load that is zero where `mask` is.
inline Vec maskedLoad(const float *p, int32_t mask) {
  return masked(loadNative(p), mask);
}

/// The depth of the forward products (the transformed input's channels
/// and the transformed filter's rows): the input channels rounded up to
/// whole vectors. The rounding's channels are zeros in both, so they add
/// nothing to the sums. (EfficientNetV2's 3x3 convolutions take 24, 40
/// and 56 channels, whole vectors with AVX2 and not with AVX-512.)
inline int64_t paddedDepth(int64_t c) { return roundUpToVectors(c); }

/// Where an output tile lies: its image and its top-left output position.
struct TileOrigin {
  int64_t image, y, x;
};

/// The output's tiles, and the blocks they go in.
template <class A> struct Tiling {
  int64_t rows, columns, tiles;
  explicit Tiling(const Geometry &g)
      : rows((g.oh + A::kTileH - 1) / A::kTileH),
        columns((g.ow + A::kTileW - 1) / A::kTileW),
        tiles(g.n * rows * columns) {}
  /// Blocks of up to kTilesPerBlock tiles. Past one block a thread, their
  /// number is rounded up to a multiple of the threads and their tiles
  /// shared evenly, so that no thread ends alone on a last block (three
  /// full blocks on two threads take as long as four: one thread makes
  /// two).
  int64_t blocks(int64_t threads) const {
    int64_t blocks = (tiles + A::kTilesPerBlock - 1) / A::kTilesPerBlock;
    if (blocks > threads)
      blocks = std::min(tiles, (blocks + threads - 1) / threads * threads);
    return blocks;
  }
  /// The first tile of block `block` of `blocks`.
  int64_t firstTile(int64_t block, int64_t blocks) const {
    return tiles * block / blocks;
  }
  TileOrigin origin(int64_t tile) const {
    int64_t perImage = rows * columns, inImage = tile % perImage;
    return {tile / perImage, inImage / columns * A::kTileH,
            inImage % columns * A::kTileW};
  }
};

/// The fewest tiles for which an algorithm pays with AVX2 (see
/// paysWithAvx2).
constexpr int64_t kFewestTilesAvx2 = 12;

/// Calls f with the algorithm that computes convolution g (one `applies`
/// accepts). A 3x3 filter is F(4x4, 3x3)'s, or F(2x2, 3x3)'s on images too
/// small for kFewestTilesAvx2 of F(4x4, 3x3)'s tiles (7 x 7 and 8 x 8 at
/// batch 1: 4 tiles, 16 of F(2x2, 3x3)'s).
template <typename F> void withAlgorithm(const Geometry &g, F f) {
  if (g.kh == 1 && g.kw == 3)
    f(Row3{});
  else if (g.kh == 3 && g.kw == 1)
    f(Column3{});
  else if (g.kh == 1 && g.kw == 7)
    f(Row7{});
  else if (g.kh == 7 && g.kw == 1)
    f(Column7{});
  else if (g.kh == 5 && g.kw == 5)
    f(Square5x5{});
  else if (Tiling<Square3x3>(g).tiles < kFewestTilesAvx2)
    f(SmallSquare3x3{});
  else
    f(Square3x3{});
}

/// The input window of output tile `at`, channels [c0, c0 + kLanes),
/// transformed: point p goes to v + p * pointStride. Positions outside the
/// image are the padding's zeros. kLast: c0 is the last vector of channels
/// and not a whole one (channels past g.c are zeros, and not read).
template <class A, bool kLast = false>
void transformInputTile(const Geometry &g, const float *in, TileOrigin at,
                        int64_t c0, float *v, int64_t pointStride) {
  const float *image = in + at.image * g.h * g.w * g.c + c0;
  WindowAxis<A::kWindowH> rows(at.y - g.padTop, g.h, g.w * g.c);
  WindowAxis<A::kWindowW> columns(at.x - g.padLeft, g.w, g.c);
  transform2d<A::kWindowH, A::kWindowW, A::kWindowH, A::kWindowW>(
      [&](int i, int j) {
        const float *pixel = image + rows.offset[i] + columns.offset[j];
        Vec value = kLast ? loadNativeFirst(pixel, g.c - c0) : loadNative(pixel);
        return masked(value, rows.mask[i] & columns.mask[j]);
      },
      A::Rows::input, A::Columns::input,
      [&](int i, int j, Vec value) {
        storeNative(v + (i * A::kWindowW + j) * pointStride, value);
      });
}

/// Asks for the window of `height` x `width` positions at (firstY, firstX)
/// (all channels) to be brought into the cache: the tiles' loads jump
/// between rows of the image, which the hardware's prefetchers do not
/// follow, and the transforms otherwise wait on them.
void prefetchWindow(const float *image, int64_t imageHeight,
                    int64_t imageWidth, int64_t channels, int64_t firstY,
                    int64_t firstX, int64_t height, int64_t width) {
  int64_t x0 = std::max<int64_t>(firstX, 0);
  int64_t x1 = std::min<int64_t>(firstX + width, imageWidth);
  if (x0 >= x1)
    return;
  for (int64_t y = std::max<int64_t>(firstY, 0);
       y < std::min<int64_t>(firstY + height, imageHeight); ++y) {
    const char *begin = reinterpret_cast<const char *>(image + (y * imageWidth + x0) * channels);
    const char *end = reinterpret_cast<const char *>(image + (y * imageWidth + x1) * channels);
    for (const char *line = begin; line < end; line += 64)
      __builtin_prefetch(line);
  }
}

/// prefetchWindow for the input window of output tile `at`.
template <class A>
void prefetchInputTile(const Geometry &g, const float *in, TileOrigin at) {
  prefetchWindow(in + at.image * g.h * g.w * g.c, g.h, g.w, g.c,
                 at.y - g.padTop, at.x - g.padLeft, A::kWindowH,
                 A::kWindowW);
}

/// Asks for the cache lines output tile `at` writes, channels [k0, k1),
/// ahead of the writes: an output that is a window of a wider one has its
/// pixels' lines far apart, each write a miss otherwise.
template <class A>
void prefetchOutputTile(const Geometry &g, TileOrigin at, int64_t k0,
                        int64_t k1, float *out) {
  for (int64_t i = 0; i < A::kTileH && at.y + i < g.oh; ++i)
    for (int64_t j = 0; j < A::kTileW && at.x + j < g.ow; ++j) {
      float *pixel = out + ((at.image * g.oh + at.y + i) * g.ow + at.x + j) *
                               g.outStride();
      for (int64_t k = k0; k < k1; k += 64 / int64_t(sizeof(float)))
        __builtin_prefetch(pixel + k, 1, 3);
    }
}

//===----------------------------------------------------------------------===//
// Products
//===----------------------------------------------------------------------===//

/// out[r][j] (+)= sum over d of A(r, d) * b[d][j] for a panel of kRows rows
/// and kVectors vectors of columns, A(r, d) = a[r * rowStride + d *
/// depthStride]. The accumulators stay in registers across the depth.
template <int kRows, int kVectors>
void panel(const float *a, int64_t rowStride, int64_t depthStride,
           const float *b, int64_t ldb, int64_t depth, float *out,
           int64_t ldo, bool accumulate) {
  tfc::registerTile<kRows, kVectors>(
      a, rowStride, depthStride, b, ldb, kLanes, depth,
      [&](int r, int j) {
        return accumulate ? loadNative(out + r * ldo + j * kLanes) : Vec{};
      },
      [&](int r, int j, Vec sum) { storeNative(out + r * ldo + j * kLanes, sum); });
}

using Panel = void (*)(const float *, int64_t, int64_t, const float *, int64_t,
                       int64_t, float *, int64_t, bool);

/// panel<rows, vectors> for every shape up to kRows x kVectors, at index
/// (rows - 1) * kVectors + vectors - 1, for the edges of a product.
template <int kRows, int kVectors, size_t... kIndex>
constexpr std::array<Panel, sizeof...(kIndex)>
makePanels(std::index_sequence<kIndex...>) {
  return {&panel<int(kIndex / kVectors) + 1, int(kIndex % kVectors) + 1>...};
}

/// A family of panels, rows (tiles, or input channels in the filter
/// gradient) by vectors of output channels: the full shape holds as many
/// accumulators as fit the registers beside one row of B and a broadcast
/// of A; the smaller ones take the product's edges.
template <int kRows, int kVectors> struct Panels {
  static constexpr int kMaxRows = kRows, kMaxVectors = kVectors;
  static constexpr int64_t kColumns = kVectors * kLanes;
  static constexpr std::array<Panel, kRows * kVectors> kTable =
      makePanels<kRows, kVectors>(std::make_index_sequence<kRows * kVectors>());
};

/// Wide panels for products of more than two vectors of columns. Narrow
/// ones for two or fewer: a wide panel there would run at half its
/// accumulators (4 x 2 with AVX-512: 8 accumulators, six loads for eight
/// FMAs); twelve rows of two vectors keep 24 in the registers and load
/// 14 values for 24 FMAs. (A convolution's input gradient into 32
/// channels, bench/train.py's CNN, is such a product.) AVX2's panel is
/// already two vectors wide, so both families are the same there.
#ifdef __AVX512F__
using WidePanels = Panels<4, 4>;
using NarrowPanels = Panels<12, 2>;
#else
using WidePanels = Panels<6, 2>;
using NarrowPanels = WidePanels;
#endif

/// f(family) with the panels for a product of `columns` columns.
template <class F> decltype(auto) withPanels(int64_t columns, F f) {
  if (columns <= NarrowPanels::kColumns)
    return f(NarrowPanels{});
  return f(WidePanels{});
}

/// The width of the panels a product of `columns` columns is made in (and
/// its B packed in).
int64_t panelColumns(int64_t columns) {
  return withPanels(columns, [](auto family) { return decltype(family)::kColumns; });
}

/// Where B's panels of `columns` columns (panelColumns) are: the panel of
/// columns [j0, j0 + columns) at b + j0 / columns * panelStride, its rows
/// ldb apart.
struct PanelLayout {
  int64_t ldb, panelStride;
  /// B as a plain row-major matrix of `ld` floats a row.
  static PanelLayout rowMajor(int64_t ld, int64_t columns) { return {ld, columns}; }
  /// B packed panel after panel, each of `depth` rows of `columns` (the
  /// last one padded): a panel's rows are one contiguous stream, which
  /// the hardware prefetches, where a row-major B of many columns has
  /// them a whole row apart.
  static PanelLayout packed(int64_t depth, int64_t columns) {
    return {columns, depth * columns};
  }
};

/// out[rows, columns] (+)= A[rows, depth] * B[depth, columns], columns a
/// multiple of kLanes, in the panels of family P (see `panel` for A's
/// strides, PanelLayout for B's, which must be laid out for P::kColumns).
template <class P>
void multiply(P, const float *a, int64_t rowStride, int64_t depthStride,
              int64_t rows, const float *b, PanelLayout layout, int64_t depth,
              int64_t columns, float *out, int64_t ldo, bool accumulate) {
  for (int64_t j0 = 0; j0 < columns; j0 += P::kColumns) {
    int64_t vectors = std::min<int64_t>(P::kMaxVectors, (columns - j0) / kLanes);
    const float *panelB = b + j0 / P::kColumns * layout.panelStride;
    for (int64_t r0 = 0; r0 < rows; r0 += P::kMaxRows) {
      int64_t panelRows = std::min<int64_t>(P::kMaxRows, rows - r0);
      P::kTable[(panelRows - 1) * P::kMaxVectors + vectors - 1](
          a + r0 * rowStride, rowStride, depthStride, panelB, layout.ldb,
          depth, out + r0 * ldo + j0, ldo, accumulate);
    }
  }
}

/// Output channels rounded up to whole panels: the transformed filter's
/// packed width.
int64_t paddedColumns(int64_t k) {
  int64_t columns = panelColumns(k);
  return (k + columns - 1) / columns * columns;
}

/// Output tile `at`'s products for channels [k0, k0 + kLanes) (point p at
/// m + p * pointStride) transformed back, with the epilogue, into `out`.
template <class A>
void writeOutputTile(const Geometry &g, const float *m, int64_t pointStride,
                     TileOrigin at, int64_t k0, const float *bias,
                     const float *residual, int activation, float *out) {
  Vec o[A::kTileH][A::kTileW];
  transform2d<A::kWindowH, A::kWindowW, A::kTileH, A::kTileW>(
      [&](int i, int j) {
        return loadNative(m + (i * A::kWindowW + j) * pointStride);
      },
      A::Rows::output, A::Columns::output,
      [&](int i, int j, Vec value) { o[i][j] = value; });
  Vec biasValues = bias ? loadNative(bias + k0) : Vec{};
  for (int64_t i = 0; i < A::kTileH && at.y + i < g.oh; ++i)
    for (int64_t j = 0; j < A::kTileW && at.x + j < g.ow; ++j) {
      int64_t pixel = (at.image * g.oh + at.y + i) * g.ow + at.x + j;
      Vec v = o[i][j] + biasValues;
      if (residual)
        v += loadNative(residual + pixel * g.k + k0);
      storeNative(out + pixel * g.outStride() + k0,
                  vector_math::activation(v, activation));
    }
}

/// The filter transformed, each point's [paddedDepth(c), k] matrix packed
/// for `multiply` (rows past c zeros).
template <class A>
void transformFilterWith(tfc_runtime *runtime, const float *filter, int64_t c,
                         int64_t k, float *transformed) {
  int64_t depth = paddedDepth(c);
  int64_t pointSize = depth * paddedColumns(k), columns = panelColumns(k);
  auto channels = [&](Eigen::Index first, Eigen::Index last) {
    for (Eigen::Index ci = first; ci < last; ++ci)
      for (int64_t k0 = 0; k0 < k; k0 += kLanes) {
        transform2d<A::kFilterH, A::kFilterW, A::kWindowH, A::kWindowW>(
            [&](int i, int j) {
              return ci < c ? loadNative(filter + ((i * A::kFilterW + j) * c + ci) * k + k0)
                            : Vec{};
            },
            A::Rows::filter, A::Columns::filter,
            [&](int i, int j, Vec value) {
              // Point (i, j)'s [c, k] matrix, packed for `multiply`.
              storeNative(transformed + (i * A::kWindowW + j) * pointSize +
                              k0 / columns * depth * columns + ci * columns +
                              k0 % columns,
                          value);
            });
      }
  };
  double perChannel = double(A::kPoints) * k;
  tfc::parallelFor(runtime, depth,
                   Eigen::TensorOpCost(A::kFilterH * A::kFilterW * 4.0 * k,
                                       4.0 * perChannel, 2.0 * perChannel),
                   channels);
}

template <class A>
void forwardWith(tfc_runtime *runtime, const Geometry &g, const float *in,
                 const float *u, const float *bias, const float *residual,
                 int activation, float *out) {
  Tiling<A> tiling(g);
  int64_t blocks = tiling.blocks(runtime->threads);
  // With fewer blocks than threads (a small image at batch 1), each
  // block's output channels are split in parts, whole panels each, so
  // that every thread has products to make; each part transforms its
  // block's input again, which is small beside its products (c values
  // per tile, against c times its share of k).
  int64_t columns = panelColumns(g.k);
  int64_t panels = paddedColumns(g.k) / columns;
  int64_t parts = std::clamp<int64_t>((runtime->threads + blocks - 1) / blocks, 1, panels);
  // Each tile's transformed input is a row of `depth` channels, the last
  // vector's lanes past g.c zeros.
  int64_t depth = paddedDepth(g.c), wholeVectors = g.c / kLanes * kLanes;
  auto run = [&](Eigen::Index first, Eigen::Index last) {
    thread_local std::vector<float> v, m;
    int64_t vStride = pointStride<A>(depth), mStride = pointStride<A>(g.k);
    v.resize(A::kPoints * vStride);
    m.resize(A::kPoints * mStride);
    for (Eigen::Index item = first; item < last; ++item) {
      int64_t block = item / parts, part = item % parts;
      int64_t k0 = panels * part / parts * columns;
      int64_t k1 = std::min(g.k, panels * (part + 1) / parts * columns);
      int64_t tile0 = tiling.firstTile(block, blocks);
      int64_t count = tiling.firstTile(block + 1, blocks) - tile0;
      for (int64_t t = 0; t < count; ++t) {
        if (tile0 + t + 1 < tiling.tiles)
          prefetchInputTile<A>(g, in, tiling.origin(tile0 + t + 1));
        TileOrigin at = tiling.origin(tile0 + t);
        for (int64_t c0 = 0; c0 < wholeVectors; c0 += kLanes)
          transformInputTile<A>(g, in, at, c0, v.data() + t * depth + c0,
                                vStride);
        if (wholeVectors < g.c)
          transformInputTile<A, true>(g, in, at, wholeVectors,
                                      v.data() + t * depth + wholeVectors,
                                      vStride);
      }
      withPanels(g.k, [&](auto family) {
        for (int64_t p = 0; p < A::kPoints; ++p)
          multiply(family, v.data() + p * vStride, depth, 1, count,
                   u + p * depth * paddedColumns(g.k) + k0 * depth,
                   PanelLayout::packed(depth, columns), depth, k1 - k0,
                   m.data() + p * mStride + k0, g.k, false);
      });
      for (int64_t t = 0; t < count; ++t) {
        if (g.outPixelStride && t + 2 < count)
          prefetchOutputTile<A>(g, tiling.origin(tile0 + t + 2), k0, k1, out);
        for (int64_t kv = k0; kv < k1; kv += kLanes)
          writeOutputTile<A>(g, m.data() + t * g.k + kv, mStride,
                             tiling.origin(tile0 + t), kv, bias, residual,
                             activation, out);
      }
    }
  };
  double perItem = double(tiling.tiles) / blocks * A::kPoints * g.c * g.k / parts;
  tfc::parallelFor(runtime, blocks * parts,
                   Eigen::TensorOpCost(4.0 * perItem * parts / g.k,
                                       4.0 * perItem / g.c, 2 * perItem),
                   run);
}

} // namespace

bool applies(int64_t kh, int64_t kw, int64_t strideH, int64_t strideW,
             int64_t dilationH, int64_t dilationW, int64_t c, int64_t k) {
  bool shape = (kh == kw && (kh == 3 || kh == 5)) ||
               (kh == 1 && (kw == 3 || kw == 7)) ||
               (kw == 1 && (kh == 3 || kh == 7));
  // Input channels past the last whole vector are read with a masked
  // load and padded (paddedDepth); fewer than one vector would more than
  // double the products. The output is written in whole vectors.
  return shape && strideH == 1 && strideW == 1 && dilationH == 1 &&
         dilationW == 1 && c >= kLanes && k > 0 && k % kLanes == 0;
}

bool appliesToGradients(int64_t kh, int64_t kw, int64_t strideH,
                        int64_t strideW, int64_t dilationH, int64_t dilationW,
                        int64_t c, int64_t k) {
  // Both gradients transform tensors of both channel counts (the input
  // gradient is a forward convolution into c channels), in whole vectors.
  return kh == 3 && kw == 3 && c % kLanes == 0 &&
         applies(kh, kw, strideH, strideW, dilationH, dilationW, c, k);
}

int64_t lastLevelCacheBytes() {
  static const int64_t bytes = std::max<long>(sysconf(_SC_LEVEL3_CACHE_SIZE), 0);
  return bytes;
}

bool fewTilesPay() { return processor::isAmd(); }

bool halfRateWideFmas() { return processor::isZen4(); }

bool paysWithAvx512(const Geometry &g, int64_t cacheBytes, bool fewTiles,
                    bool halfRate) {
  // Measured on AVX-512 with one thread (the AMD machine): 32 tiles or
  // more beat oneDNN at up to 256 x 256 channels; 16 tiles of 256 x 256
  // (a 14x14 image) about tie; with 512 x 512 channels the transformed
  // filter (36 MiB) streams from memory for every block of tiles, and
  // direct convolution wins. Where the last-level cache holds the
  // transformed filter twice over (the Intel machine's, 480 MiB), the
  // blocks read it from there: 512 x 512 channels on 28 x 28 images took
  // 7.9 ms against oneDNN's 11.1 at batch 1 (49 tiles), 219 against 360 at
  // batch 32, and VGG16's step at batch 1 7% less. Where the FMAs are
  // 512 bits wide (the AMD Zen 5 machine), 16 tiles of 256 x 256
  // channels (a 14 x 14 image at batch 1) pay too: ResNet-152's step at
  // batch 1 took 5% less, ResNet-50's 2%; 16 tiles of 128 x 32 (DenseNet)
  // lost 3%. On an Intel Xeon of 512-bit FMAs too (Sapphire Rapids'
  // flags, 2 MiB of L2 a core), the same 16 tiles lost: ResNet-101's step
  // at batch 1 took 9% more (50.3 ms against 46.3), ResNet-152's 12%
  // (77.4 against 68.9). With 16 tiles the transform's 36 products have
  // 16 rows each, and each call streams the whole transformed filter (9
  // MiB for 256 x 256 channels) from the last-level cache for them; AMD's
  // cache (a CCX's, beside its cores) seems to feed a core faster than
  // the mesh of Intel's server processors does. One machine of each was
  // measured: the rule follows the vendor (fewTiles).
  if (g.kh == 3 && g.kw == 3) {
    int64_t tiles = Tiling<Square3x3>(g).tiles;
    return (tiles >= 32 ||
            (fewTiles && tiles >= 16 && g.c * g.k >= 256 * 256)) &&
           (g.c * g.k <= 256 * 256 ||
            2 * transformedFilterSize(g) * int64_t(sizeof(float)) <=
                cacheBytes);
  }
  // The others, measured on the Intel AVX-512 machine (two threads, the
  // filter transformed once; docs/benchmarks.md) against oneDNN's brgemm
  // convolutions, which ran them at 300-330 GFLOP/s: InceptionV3's at
  // batch 32 (thousands of tiles) took 0.56-0.85 of oneDNN's time (its
  // 5x5 ones 0.42). At batch 1 (81-85 tiles on 35 x 35 and 17 x 17
  // images, 16 on 8 x 8) one call repeated gained on some shapes and lost
  // on others (192 x 192 channels: 1.07-1.2 of oneDNN's time), and the
  // model's step, where each transformed filter is read from memory once,
  // gained nothing: oneDNN keeps those. Where the 512-bit FMAs run at half
  // rate (the AMD Zen 4 machine, two threads), the 5x5 filters, whose
  // F(4x4, 5x5) takes 64 multiplications for 400, pay at batch 1 too:
  // InceptionV3's three 35 x 35 ones (48 to 64 channels, 81 tiles) took
  // 0.30-0.33 ms each against 0.86 in its step (traced). Its 1x7 and 7x1
  // ones on 17 x 17 (85 tiles, 28 multiplications for 10) gained 0.05-0.1
  // ms each and the step nothing, and InceptionResNetV2's (the same
  // filters, and 1x3 and 3x1 on 8 x 8) nothing either.
  int64_t tiles = 0;
  withAlgorithm(g, [&](auto algorithm) {
    tiles = Tiling<decltype(algorithm)>(g).tiles;
  });
  if (halfRate && g.kh == 5 && g.kw == 5)
    return tiles >= 64;
  return tiles >= 128;
}

bool paysWithAvx2(const Geometry &g) {
  // Measured on a 2-core AMD EPYC (16 MiB of L3, about 12 GB/s from
  // memory) with two threads, the filter transformed once and packed:
  // 16 tiles or more ran 1.5-3x as fast as oneDNN's direct AVX2 kernels
  // on every shape tried, 512 x 512 channels included; with fewer, the
  // transformed filter (four times the filter's bytes) is read from
  // memory for too few products: 8 tiles of 512 x 512 tied, 4 lost.
  // (A convolution of a model reads its transformed filter once a step,
  // from memory: a benchmark that repeats one call reads it from the L3
  // and shows 256 x 256 channels winning at 4 tiles, which a model's
  // step does not.) A 3x3 filter on a 7 x 7 or 8 x 8 image goes to
  // F(2x2, 3x3) instead (16 tiles at batch 1; 16 products for 4 outputs
  // instead of 36, a transformed filter 16/9 of the filter's size), with
  // many channels, where oneDNN's direct kernels are slow on so few
  // pixels: inside the step, ResNet-50's three 7 x 7 x 512 convolutions at
  // batch 1 took 5.66 and 4.95 ms against 7.61 and 5.70 (the step's
  // noise moved the whole step more), InceptionV3's two 8 x 8 x 448 ones
  // 1.73 and 1.26 ms against 2.22 and 1.67. DenseNet121's 7 x 7
  // convolutions (128 to 32 channels) gained nothing.
  int64_t tiles = 0;
  bool smallTiles = false;
  withAlgorithm(g, [&](auto algorithm) {
    using A = decltype(algorithm);
    tiles = Tiling<A>(g).tiles;
    smallTiles = std::is_same_v<A, SmallSquare3x3>;
  });
  return tiles >= kFewestTilesAvx2 && (!smallTiles || g.c * g.k >= 256 * 256);
}

bool pays(const Geometry &g) {
#if defined(__AVX512F__)
  return paysWithAvx512(g);
#elif defined(__AVX2__)
  return paysWithAvx2(g);
#else
  (void)g;
  return false;
#endif
}

bool gradientsPay(const Geometry &g) {
#if defined(__AVX512F__)
  return paysWithAvx512(g);
#elif defined(__AVX2__)
  return Tiling<Square3x3>(g).tiles >= kFewestTilesAvx2;
#else
  (void)g;
  return false;
#endif
}

int64_t transformedFilterSize(const Geometry &g) {
  int64_t points = 0;
  withAlgorithm(g, [&](auto algorithm) {
    points = decltype(algorithm)::kPoints;
  });
  return points * paddedDepth(g.c) * paddedColumns(g.k);
}

void transformFilter(tfc_runtime *runtime, const Geometry &g,
                     const float *filter, float *transformed) {
  withAlgorithm(g, [&](auto algorithm) {
    transformFilterWith<decltype(algorithm)>(runtime, filter, g.c, g.k,
                                             transformed);
  });
}

const float *transformFilterForCall(tfc_runtime *runtime, const Geometry &g,
                                    const float *filter) {
  thread_local std::vector<float> transformed;
  transformed.resize(transformedFilterSize(g));
  transformFilter(runtime, g, filter, transformed.data());
  return transformed.data();
}

void forward(tfc_runtime *runtime, const Geometry &g, const float *in,
             const float *transformedFilter, const float *bias,
             const float *residual, int activation, float *out) {
  withAlgorithm(g, [&](auto algorithm) {
    forwardWith<decltype(algorithm)>(runtime, g, in, transformedFilter, bias,
                                     residual, activation, out);
  });
}

void backwardData(tfc_runtime *runtime, const Geometry &g,
                  const float *filter, const float *gradient, float *out) {
  // dx[y] = sum over r of dy[y - r + padTop] w[r]: a forward convolution
  // of dy by the filter turned 180 degrees (tap r' = 2 - r), channels
  // swapped, with 2 - padTop zeros before.
  std::vector<float> turned(9 * g.c * g.k);
  for (int64_t tap = 0; tap < 9; ++tap)
    for (int64_t ci = 0; ci < g.c; ++ci)
      for (int64_t ko = 0; ko < g.k; ++ko)
        turned[((8 - tap) * g.k + ko) * g.c + ci] = filter[(tap * g.c + ci) * g.k + ko];
  Geometry transposed{g.n, g.oh, g.ow, g.k, g.c, g.h, g.w, 2 - g.padTop, 2 - g.padLeft, 3, 3};
  forward(runtime, transposed, gradient,
          transformFilterForCall(runtime, transposed, turned.data()), nullptr,
          nullptr, 0, out);
}

void backwardFilter(tfc_runtime *runtime, const Geometry &g, const float *in,
                    const float *gradient, float *out) {
  using A = Square3x3;
  constexpr int kTile = A::kTileH, kSide = A::kWindowH;
  constexpr int64_t kPoints = A::kPoints, kTilesPerBlock = A::kTilesPerBlock;
  Tiling<A> tiling(g);
  int64_t sumsPerGroup = kPoints * g.c * g.k;
  // Groups of tiles, each summing into sums of its own that are added at
  // the end: their number is fixed by the shape (one group a
  // kTilesPerGroup tiles, up to 16, fewer where their sums would pass 64
  // MiB), never by the threads, so that the result does not depend on
  // them. A group's sums (36 c x k floats) are written back and read
  // again to be added; with fewer than kTilesPerGroup tiles its products
  // would not repay that traffic. (bench/train.py's CNN, 32 -> 64
  // channels on 16 x 16 images at batch 64, 1024 tiles: 16 groups of 64
  // tiles took its two filter gradients 2.57 ms a step, 2 groups 2.29,
  // bench/trace_compare.py on the AVX2 machine.)
  constexpr int64_t kTilesPerGroup = 512;
  int64_t byMemory = std::max<int64_t>(1, (int64_t(16) << 20) / sumsPerGroup);
  int64_t groups = std::clamp<int64_t>(
      std::min(tiling.tiles / kTilesPerGroup, byMemory), 1, 16);
  // Threads beyond the groups split each group's output channels in
  // parts of whole vectors, each part transforming the group's input
  // again: a part's sums are its own columns, added in the same order
  // however many parts there are.
  int64_t vectors = g.k / kLanes; // k is whole vectors (appliesToGradients).
  int64_t parts = std::clamp<int64_t>((runtime->threads + groups - 1) / groups, 1, vectors);
  // Every group's first block stores its sums, so the buffer needs no
  // clearing; it is kept for the next call (a training step makes the
  // same call every step). (The lambdas below run on other threads: they
  // use the pointer, not the calling thread's thread_local.)
  thread_local std::vector<float> sumsBuffer;
  sumsBuffer.resize(groups * sumsPerGroup);
  float *sums = sumsBuffer.data();
  auto run = [&](Eigen::Index first, Eigen::Index last) {
    thread_local std::vector<float> v, dy;
    int64_t vStride = pointStride<A>(g.c), dyStride = pointStride<A>(g.k);
    v.resize(kPoints * vStride);
    dy.resize(kPoints * dyStride);
    for (Eigen::Index item = first; item < last; ++item) {
      int64_t group = item / parts, part = item % parts;
      int64_t k0 = vectors * part / parts * kLanes;
      int64_t k1 = vectors * (part + 1) / parts * kLanes;
      float *groupSums = sums + group * sumsPerGroup;
      int64_t begin = tiling.tiles * group / groups;
      int64_t end = tiling.tiles * (group + 1) / groups;
      for (int64_t tile0 = begin; tile0 < end; tile0 += kTilesPerBlock) {
        int64_t count = std::min(kTilesPerBlock, end - tile0);
        for (int64_t t = 0; t < count; ++t) {
          TileOrigin at = tiling.origin(tile0 + t);
          if (tile0 + t + 1 < end) {
            TileOrigin next = tiling.origin(tile0 + t + 1);
            prefetchInputTile<A>(g, in, next);
            prefetchWindow(gradient + next.image * g.oh * g.ow * g.k, g.oh,
                           g.ow, g.k, next.y, next.x, kTile, kTile);
          }
          for (int64_t c0 = 0; c0 < g.c; c0 += kLanes)
            transformInputTile<A>(g, in, at, c0, v.data() + t * g.c + c0,
                                     vStride);
          // The tile of dy, zeros past the output's edge, transformed.
          const float *image = gradient + at.image * g.oh * g.ow * g.k;
          WindowAxis<kTile> rows(at.y, g.oh, g.ow * g.k);
          WindowAxis<kTile> columns(at.x, g.ow, g.k);
          for (int64_t kv = k0; kv < k1; kv += kLanes)
            transform2d<kTile, kTile, kSide, kSide>(
                [&](int i, int j) {
                  return maskedLoad(image + rows.offset[i] + columns.offset[j] + kv,
                                    rows.mask[i] & columns.mask[j]);
                },
                F4x3::gradient, F4x3::gradient,
                [&](int i, int j, Vec value) {
                  storeNative(dy.data() + (i * kSide + j) * dyStride + t * g.k + kv, value);
                });
        }
        // sums[p][c][k0:k1] += sum over the block's tiles of v[p][t][c] dy[p][t][k0:k1].
        withPanels(k1 - k0, [&](auto family) {
          auto layout = PanelLayout::rowMajor(g.k, decltype(family)::kColumns);
          for (int64_t p = 0; p < kPoints; ++p)
            multiply(family, v.data() + p * vStride, 1, g.c, g.c,
                     dy.data() + p * dyStride + k0, layout, count, k1 - k0,
                     groupSums + p * g.c * g.k + k0, g.k, tile0 != begin);
        });
      }
    }
  };
  double perItem = double(tiling.tiles) / groups * kPoints * g.c * g.k / parts;
  tfc::parallelFor(runtime, groups * parts,
                   Eigen::TensorOpCost(4.0 * perItem * parts / g.k,
                                       4.0 * sumsPerGroup / parts, 2 * perItem),
                   run);
  // The groups' sums added into the first group's, in group order (so a
  // result does not depend on the threads), as contiguous streams split
  // over the threads. Added where the transform below reads them, 16
  // loads 36 x c x k floats apart for each vector, they missed the
  // caches: bench/train.py's CNN (32 -> 64 channels, batch 64) spent
  // 3.8% of its samples there (perf); its two filter gradients took 4.25
  // and 4.40 ms a step after this against 4.36 and 4.95
  // (bench/trace_compare.py, two runs).
  if (groups > 1) {
    int64_t sumVectors = sumsPerGroup / kLanes;
    tfc::parallelFor(
        runtime, sumVectors,
        Eigen::TensorOpCost(4.0 * kLanes * groups, 4.0 * kLanes, kLanes * groups),
        [&](int64_t first, int64_t last) {
          for (int64_t v = first; v < last; ++v) {
            float *total = sums + v * kLanes;
            Vec sum = loadNative(total);
            for (int64_t group = 1; group < groups; ++group)
              sum += loadNative(total + group * sumsPerGroup);
            storeNative(total, sum);
          }
        });
  }
  // Each (c, k) pair's 36 sums back to its 3x3 taps.
  auto channels = [&](Eigen::Index first, Eigen::Index last) {
    for (Eigen::Index ci = first; ci < last; ++ci)
      for (int64_t k0 = 0; k0 < g.k; k0 += kLanes) {
        transform2d<kSide, kSide, 3, 3>(
            [&](int i, int j) {
              return loadNative(sums + ((i * kSide + j) * g.c + ci) * g.k + k0);
            },
            F4x3::filterGradient, F4x3::filterGradient,
            [&](int i, int j, Vec value) {
              storeNative(out + ((i * 3 + j) * g.c + ci) * g.k + k0, value);
            });
      }
  };
  tfc::parallelFor(runtime, g.c, Eigen::TensorOpCost(36.0 * g.k, 9.0 * g.k, 96.0 * g.k), channels);
}

} // namespace tfc::winograd
