//===- Where.cpp - the coordinates of a tensor's true elements ------------===//
//
// Where(x) (tf.where with one argument, and boolean_mask's row selection):
// the coordinates of x's nonzero elements in row-major order, one int64
// row of `rank` coordinates each. Their number depends on the data; tfc
// plans the output for its bound, every element of x, and fills the rows
// past the true ones with zeros (tfc-bound-dynamic-rows computes the
// count in the graph and keeps the padding from showing).
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <cstdint>
#include <cstring>

namespace {

/// Whether element i is nonzero: TensorFlow's test, `x != 0` (NaN counts,
/// -0.0 does not).
template <typename T> bool nonzero(const void *x, int64_t i) {
  return static_cast<const T *>(x)[i] != T(0);
}

bool nonzeroAt(const void *x, int64_t dtype, int64_t i) {
  switch (dtype) {
  case TFC_FLOAT:
    return nonzero<float>(x, i);
  case TFC_DOUBLE:
    return nonzero<double>(x, i);
  case TFC_INT64:
  case TFC_UINT64:
    return nonzero<int64_t>(x, i);
  case TFC_INT32:
  case TFC_UINT32:
    return nonzero<int32_t>(x, i);
  case TFC_INT16:
  case TFC_UINT16:
    return nonzero<uint16_t>(x, i);
  case TFC_HALF: // -0.0 is zero: the bits but the sign
    return (static_cast<const uint16_t *>(x)[i] & 0x7fff) != 0;
  default: // bool, int8, uint8
    return nonzero<uint8_t>(x, i);
  }
}

} // namespace

extern "C" void tfc_cpu_where(tfc_runtime *, const void *x, int64_t *out,
                              const int64_t *dims, int64_t rank, int64_t n,
                              int64_t dtype) {
  int64_t written = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (!nonzeroAt(x, dtype, i))
      continue;
    int64_t *row = out + written++ * rank;
    for (int64_t d = rank - 1, rest = i; d >= 0; --d) {
      row[d] = rest % dims[d];
      rest /= dims[d];
    }
  }
  std::memset(out + written * rank, 0,
              size_t(n - written) * size_t(rank) * sizeof(int64_t));
}
