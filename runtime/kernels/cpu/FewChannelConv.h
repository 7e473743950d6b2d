//===- FewChannelConv.h - convolutions of images of few channels -*- C++ -*-===//
//
// The filter gradient of a 3x3 convolution of one to three input channels
// (a network's first layer, on the image), with a register per filter tap:
// see FewChannelConv.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_KERNELS_CPU_FEWCHANNELCONV_H
#define TFC_RUNTIME_KERNELS_CPU_FEWCHANNELCONV_H

#include "tfc/Runtime/tfc_runtime.h"

namespace tfc::fewchannels {

/// Whether filterGradient computes this gradient: a filter gradient, not
/// depthwise, 3x3, undilated, 1-3 input channels, output channels whole
/// native vectors.
bool appliesToFilterGradient(const tfc_conv2d_backprop_params &p);

/// The filter's gradient ([kh, kw, c, out_c]) from the input ([n, h, w, c])
/// and the output's gradient ([n, oh, ow, out_c]): each image's by
/// imageFilterGradient, added by addImageGradients.
void filterGradient(tfc_runtime *runtime, const tfc_conv2d_backprop_params &p,
                    const float *input, const float *gradient, float *out);

/// One image's share of it ([oh, ow, out_c] of the gradient, [h, w, c] of
/// the input) into `sums` ([kh, kw, c, out_c], overwritten): a batch
/// norm's gradient makes its x gradient image by image and hands each
/// image here while it is in the cache (tfc_cpu_batch_norm_grad_pooled_
/// filter_f32).
void imageFilterGradient(const tfc_conv2d_backprop_params &p,
                         const float *image, const float *gradient,
                         float *sums);

/// The images' sums (p.n of them, one after the other) added in order, in
/// double: the same gradient for any thread count.
void addImageGradients(const tfc_conv2d_backprop_params &p,
                       const float *partial, float *out);

} // namespace tfc::fewchannels

#endif // TFC_RUNTIME_KERNELS_CPU_FEWCHANNELCONV_H
