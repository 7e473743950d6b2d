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

#if defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

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

#if defined(__AVX2__) && !defined(__AVX512F__)
/// AVX2's mask of the first `lanes` lanes: all ones there, zeros after.
inline __m256i firstLanesMask(int64_t lanes) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(int32_t(lanes)),
                            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
#endif

/// n rounded up to whole vectors (a multiple of kNativeLanes).
inline int64_t roundUpToVectors(int64_t n) {
  return (n + kNativeLanes - 1) / kNativeLanes * kNativeLanes;
}

inline NativeFloats loadNative(const float *p) {
  return *reinterpret_cast<const detail::UnalignedNativeFloats *>(p);
}

inline void storeNative(float *p, NativeFloats v) {
  *reinterpret_cast<detail::UnalignedNativeFloats *>(p) = v;
}

/// x in every lane: one broadcast (a loop over the lanes compiles to one
/// insert per lane; see splat16 for why not `NativeFloats{} + x`).
/// The first `lanes` floats at p (fewer than a vector), the other lanes
/// zero; nothing past p + lanes is read (a channel count's tail).
inline NativeFloats loadNativeFirst(const float *p, int64_t lanes) {
#if defined(__AVX512F__)
  return NativeFloats(_mm512_maskz_loadu_ps(__mmask16((1u << lanes) - 1), p));
#elif defined(__AVX2__)
  return NativeFloats(_mm256_maskload_ps(p, firstLanesMask(lanes)));
#else
  NativeFloats v = {};
  for (int64_t i = 0; i < lanes; ++i)
    v[i] = p[i];
  return v;
#endif
}

/// Stores the first `lanes` floats of v at p, nothing past p + lanes.
inline void storeNativeFirst(float *p, NativeFloats v, int64_t lanes) {
#if defined(__AVX512F__)
  _mm512_mask_storeu_ps(p, __mmask16((1u << lanes) - 1), __m512(v));
#elif defined(__AVX2__)
  _mm256_maskstore_ps(p, firstLanesMask(lanes), __m256(v));
#else
  for (int64_t i = 0; i < lanes; ++i)
    p[i] = v[i];
#endif
}

inline NativeFloats splatNative(float x) {
#ifdef __AVX512F__
  return NativeFloats{x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x};
#else
  return NativeFloats{x, x, x, x, x, x, x, x};
#endif
}

} // namespace tfc

#endif // TFC_RUNTIME_KERNELS_CPU_NATIVEVECTOR_H
