//===- OneDnn.h - what the oneDNN kernels share -----------------*- C++ -*-===//
//
// The engine, the per-thread stream, the per-call-site primitive cache,
// the per-thread scratchpad and a convolution's geometry as oneDNN's
// descriptors take it, for the forward (OneDnnConv.cpp) and backward
// (ConvBackprop.cpp) convolutions.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_KERNELS_CPU_ONEDNN_H
#define TFC_RUNTIME_KERNELS_CPU_ONEDNN_H

#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace tfc::onednn {

inline dnnl::engine &engine() {
  static dnnl::engine cpu(dnnl::engine::kind::cpu, 0);
  return cpu;
}

/// What each call site keeps between calls (its oneDNN primitive, or a
/// constant filter transformed for Winograd's algorithm), keyed by the
/// address of its constant parameters (tfc_runtime.h): made at the call
/// site's first call, null where oneDNN cannot make it (the caller then
/// runs its own loops).
template <typename Primitive> class PrimitiveCache {
public:
  template <typename Make>
  Primitive *lookup(const void *params, Make make) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = entries.find(params);
    if (it != entries.end())
      return it->second.get();
    std::unique_ptr<Primitive> made;
    try {
      made = make();
    } catch (const dnnl::error &) {
      made = nullptr;
    }
    return (entries[params] = std::move(made)).get();
  }

private:
  std::mutex mutex;
  std::unordered_map<const void *, std::unique_ptr<Primitive>> entries;
};

/// The calling thread's stream on the engine, made once: a kernel called
/// thousands of times a second need not make one per call.
inline dnnl::stream &stream() {
  thread_local dnnl::stream threadStream(engine());
  return threadStream;
}

/// The calling thread's scratchpad buffer, grown to `bytes` at least (it
/// may move when it grows). Primitives are made with a user scratchpad so
/// that contexts of one model may run them concurrently.
inline void *scratchpadBuffer(size_t bytes) {
  thread_local std::vector<uint8_t> buffer;
  if (buffer.size() < bytes)
    buffer.resize(bytes);
  return buffer.data();
}

/// The scratchpad memory `desc` asks for, in scratchpadBuffer.
inline dnnl::memory scratchpad(const dnnl::memory::desc &desc) {
  return dnnl::memory(desc, engine(), scratchpadBuffer(desc.get_size()));
}

struct ConvGeometry {
  dnnl::memory::dims strides, dilations, padBefore, padAfter;
};

/// The padding after a dimension, which follows from the output size
/// (never negative: a remainder of the input is simply not read).
inline int64_t paddingAfter(int64_t in, int64_t out, int64_t window,
                            int64_t stride, int64_t dilation, int64_t before) {
  return std::max<int64_t>(
      0, (out - 1) * stride + (window - 1) * dilation + 1 - in - before);
}

/// From tfc_conv2d_params or tfc_conv2d_backprop_params (tfc_runtime.h),
/// which name these fields alike.
template <typename Params> ConvGeometry convGeometry(const Params &p) {
  // oneDNN counts dilation from 0.
  return {{p.stride_h, p.stride_w},
          {p.dilation_h - 1, p.dilation_w - 1},
          {p.pad_top, p.pad_left},
          {paddingAfter(p.h, p.oh, p.kh, p.stride_h, p.dilation_h, p.pad_top),
           paddingAfter(p.w, p.ow, p.kw, p.stride_w, p.dilation_w, p.pad_left)}};
}

} // namespace tfc::onednn

#endif // TFC_RUNTIME_KERNELS_CPU_ONEDNN_H
