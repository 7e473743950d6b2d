//===- FewChannelConv.cpp - filter gradients of convolutions of images ----===//
//
// A network's first convolution reads the image itself: one to three
// channels (grayscale, RGB). oneDNN's backward-weights kernels block the
// input channels by the vector width, so such a filter gradient runs at a
// fraction of their rate (bench/train.py's CNN: 3x3x3x32 at batch 64 on
// 32x32 images, 1.2 ms, 94 GFLOP/s). Here each of the filter's kh x kw x c
// taps keeps a vector of output channels in a register for a whole image:
// for each output pixel, each tap's input value, broadcast, times the
// pixel's gradient vector, adds into the tap's register. 3x3 taps on three
// channels are 27 registers at 512 bits; with 16 registers (AVX2) the taps
// go a filter row at a time, one pass over the image's pixels each. Each
// image is copied with its padding written out as zeros first (a few KB),
// so that no window needs a bounds check.
//
// Images are the blocks of the sums: each image's in float, in registers;
// the images' added in order in double, so the gradient does not depend on
// the thread count.
//
//===----------------------------------------------------------------------===//

#include "FewChannelConv.h"

#include "NativeVector.h"
#include "Parallel.h"
#include "Runtime.h"

#include <algorithm>
#include <vector>

namespace tfc::fewchannels {

namespace {

using Params = tfc_conv2d_backprop_params;

/// Filter rows whose taps one pass over an image keeps in registers.
#ifdef __AVX512F__
constexpr int kRowsPerPass = 3;
#else
constexpr int kRowsPerPass = 1;
#endif

/// An image with its padding written out as zeros: every window of the
/// convolution lies inside it.
struct PaddedImage {
  int64_t h, w;
  std::vector<float> values;
};

/// `image` ([p.h, p.w, C]) padded to cover every window.
template <int KH, int KW, int C>
void pad(const Params &p, const float *image, PaddedImage &padded) {
  padded.h = (p.oh - 1) * p.stride_h + KH;
  padded.w = (p.ow - 1) * p.stride_w + KW;
  padded.values.assign(padded.h * padded.w * C, 0.f);
  for (int64_t y = 0; y < padded.h; ++y) {
    int64_t iy = y - p.pad_top;
    if (iy < 0 || iy >= p.h)
      continue;
    int64_t x0 = std::max<int64_t>(p.pad_left, 0);
    int64_t x1 = std::min<int64_t>(padded.w, p.w + p.pad_left);
    if (x0 < x1)
      std::copy_n(image + (iy * p.w + x0 - p.pad_left) * C, (x1 - x0) * C,
                  padded.values.data() + (y * padded.w + x0) * C);
  }
}

/// One image's filter gradient for the taps of filter rows [ky0, ky0 + R)
/// and the output channels [k0, k0 + kNativeLanes), into `sums` ([kh, kw,
/// c, out_c]).
template <int R, int KW, int C>
void passOverImage(const Params &p, const PaddedImage &image,
                   const float *gradient, int64_t ky0, int64_t k0,
                   float *sums) {
  constexpr int kTaps = R * KW * C;
  NativeFloats acc[kTaps];
#pragma GCC unroll 32
  for (int t = 0; t < kTaps; ++t)
    acc[t] = NativeFloats{};
  const float *values = image.values.data();
  for (int64_t oy = 0; oy < p.oh; ++oy) {
    const float *row = values + (oy * p.stride_h + ky0) * image.w * C;
    const float *g = gradient + oy * p.ow * p.out_c + k0;
    for (int64_t ox = 0; ox < p.ow; ++ox) {
      const float *corner = row + ox * p.stride_w * C;
      NativeFloats gradientLanes = loadNative(g + ox * p.out_c);
#pragma GCC unroll 32
      for (int t = 0; t < kTaps; ++t) {
        int ky = t / (KW * C), kx = t / C % KW, ci = t % C;
        acc[t] += splatNative(corner[(ky * image.w + kx) * C + ci]) *
                  gradientLanes;
      }
    }
  }
#pragma GCC unroll 32
  for (int t = 0; t < kTaps; ++t)
    storeNative(sums + (ky0 * KW * C + t) * p.out_c + k0, acc[t]);
}

/// One image's filter gradient into `sums` ([kh, kw, c, out_c]).
template <int KH, int KW, int C>
void imageGradientOf(const Params &p, const float *image,
                     const float *gradient, float *sums) {
  constexpr int R = KH < kRowsPerPass ? KH : kRowsPerPass;
  static_assert(KH % R == 0, "passes cover the filter's rows");
  thread_local PaddedImage padded;
  pad<KH, KW, C>(p, image, padded);
  for (int64_t k0 = 0; k0 < p.out_c; k0 += kNativeLanes)
    for (int64_t ky0 = 0; ky0 < KH; ky0 += R)
      passOverImage<R, KW, C>(p, padded, gradient, ky0, k0, sums);
}

} // namespace

bool appliesToFilterGradient(const tfc_conv2d_backprop_params &p) {
  return !p.depthwise && p.filter_gradient && p.kh == 3 && p.kw == 3 &&
         p.dilation_h == 1 && p.dilation_w == 1 && p.c >= 1 && p.c <= 3 &&
         p.out_c % kNativeLanes == 0 && p.n > 0;
}

void imageFilterGradient(const tfc_conv2d_backprop_params &p,
                         const float *image, const float *gradient,
                         float *sums) {
  switch (p.c) {
  case 1:
    return imageGradientOf<3, 3, 1>(p, image, gradient, sums);
  case 2:
    return imageGradientOf<3, 3, 2>(p, image, gradient, sums);
  default:
    return imageGradientOf<3, 3, 3>(p, image, gradient, sums);
  }
}

void addImageGradients(const tfc_conv2d_backprop_params &p,
                       const float *partial, float *out) {
  int64_t filterSize = p.kh * p.kw * p.c * p.out_c;
  std::vector<double> total(filterSize, 0.0);
  for (int64_t b = 0; b < p.n; ++b)
    for (int64_t i = 0; i < filterSize; ++i)
      total[i] += partial[b * filterSize + i];
  for (int64_t i = 0; i < filterSize; ++i)
    out[i] = float(total[i]);
}

void filterGradient(tfc_runtime *runtime,
                    const tfc_conv2d_backprop_params &p, const float *input,
                    const float *gradient, float *out) {
  int64_t filterSize = p.kh * p.kw * p.c * p.out_c;
  std::vector<float> partial(p.n * filterSize);
  double perImage = double(p.oh * p.ow * p.kh * p.kw * p.c * p.out_c);
  tfc::parallelFor(
      runtime, p.n,
      Eigen::TensorOpCost(4.0 * p.oh * p.ow * p.out_c, 4.0 * filterSize,
                          perImage / kNativeLanes),
      [&](int64_t first, int64_t last) {
        for (int64_t b = first; b < last; ++b)
          imageFilterGradient(p, input + b * p.h * p.w * p.c,
                              gradient + b * p.oh * p.ow * p.out_c,
                              partial.data() + b * filterSize);
      });
  addImageGradients(p, partial.data(), out);
}

} // namespace tfc::fewchannels
