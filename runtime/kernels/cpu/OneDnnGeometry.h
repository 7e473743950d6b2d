//===- OneDnnGeometry.h - a convolution's geometry for oneDNN ---*- C++ -*-===//
//
// The strides, dilations and paddings of a convolution as oneDNN's
// descriptors take them, from a parameter table of tfc_runtime.h (the
// forward and the backward tables name these fields alike).
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_KERNELS_CPU_ONEDNNGEOMETRY_H
#define TFC_RUNTIME_KERNELS_CPU_ONEDNNGEOMETRY_H

#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <cstdint>

namespace tfc {

struct OneDnnConvGeometry {
  dnnl::memory::dims strides, dilations, padBefore, padAfter;
};

template <typename Params>
OneDnnConvGeometry oneDnnConvGeometry(const Params &p) {
  // oneDNN counts dilation from 0; the bottom/right padding follows from
  // the output size (never negative: a remainder is simply not read).
  auto after = [](int64_t in, int64_t out, int64_t k, int64_t stride,
                  int64_t dilation, int64_t before) {
    return std::max<int64_t>(0, (out - 1) * stride + (k - 1) * dilation + 1 -
                                    in - before);
  };
  return {{p.strideH, p.strideW},
          {p.dilationH - 1, p.dilationW - 1},
          {p.padTop, p.padLeft},
          {after(p.h, p.oh, p.kh, p.strideH, p.dilationH, p.padTop),
           after(p.w, p.ow, p.kw, p.strideW, p.dilationW, p.padLeft)}};
}

} // namespace tfc

#endif // TFC_RUNTIME_KERNELS_CPU_ONEDNNGEOMETRY_H
