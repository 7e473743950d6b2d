//===- Vector16.h - sixteen floats as one vector ----------------*- C++ -*-===//
//
// GCC's vector extension: one AVX-512 register, or two or four narrower
// ones in the other builds of the kernels. For loops whose shape the
// auto-vectorizer does not see through (selects across a window, tile
// transforms).
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_KERNELS_CPU_VECTOR16_H
#define TFC_RUNTIME_KERNELS_CPU_VECTOR16_H

#include <cstdint>

namespace tfc {

typedef float Floats16 __attribute__((vector_size(64)));
typedef int32_t Ints16 __attribute__((vector_size(64)));
constexpr int64_t kLanes16 = 16;

namespace detail {
/// The same at any float's alignment, for loads and stores in place (a
/// vector type aliases its element type only, unlike memcpy, which would
/// make the compiler reload every pointer after each store).
typedef float UnalignedFloats16 __attribute__((vector_size(64), aligned(4)));
} // namespace detail

inline Floats16 load16(const float *p) {
  return *reinterpret_cast<const detail::UnalignedFloats16 *>(p);
}

inline void store16(float *p, Floats16 v) {
  *reinterpret_cast<detail::UnalignedFloats16 *>(p) = v;
}

/// x in every lane (a broadcast; `Floats16{} + x` would add zero first,
/// which the compiler must keep for x = -0).
inline Floats16 splat16(float x) {
  return Floats16{x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x};
}

} // namespace tfc

#endif // TFC_RUNTIME_KERNELS_CPU_VECTOR16_H
