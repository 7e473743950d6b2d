//===- NativeVector.h - the widest float vector of one register -*- C++ -*-===//
//
// GCC's vector extension at the width of one register of the instruction
// set the kernels are built for: sixteen floats with AVX-512, eight
// otherwise (one AVX2 register, two SSE ones). Kernels whose inner loops
// hold many vectors at once (register-blocked products, selects across a
// window) want this width: a vector of sixteen on AVX2 is two registers,
// which doubles what a blocked loop holds and spills it, and GCC splits
// sixteen-lane comparisons and selects element by element there.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_KERNELS_CPU_NATIVEVECTOR_H
#define TFC_RUNTIME_KERNELS_CPU_NATIVEVECTOR_H

#include <cstdint>

namespace tfc {

#ifdef __AVX512F__
constexpr int64_t kNativeLanes = 16;
#else
constexpr int64_t kNativeLanes = 8;
#endif

typedef float NativeFloats __attribute__((vector_size(4 * kNativeLanes)));
typedef int32_t NativeInts __attribute__((vector_size(4 * kNativeLanes)));

namespace detail {
/// At any float's alignment (see Vector16.h for why not memcpy).
typedef float UnalignedNativeFloats
    __attribute__((vector_size(4 * kNativeLanes), aligned(4)));
} // namespace detail

inline NativeFloats loadNative(const float *p) {
  return *reinterpret_cast<const detail::UnalignedNativeFloats *>(p);
}

inline void storeNative(float *p, NativeFloats v) {
  *reinterpret_cast<detail::UnalignedNativeFloats *>(p) = v;
}

/// x in every lane: one broadcast (a loop over the lanes compiles to one
/// insert per lane; see splat16 for why not `NativeFloats{} + x`).
inline NativeFloats splatNative(float x) {
#ifdef __AVX512F__
  return NativeFloats{x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x};
#else
  return NativeFloats{x, x, x, x, x, x, x, x};
#endif
}

} // namespace tfc

#endif // TFC_RUNTIME_KERNELS_CPU_NATIVEVECTOR_H
