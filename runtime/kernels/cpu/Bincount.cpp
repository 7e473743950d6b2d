//===- Bincount.cpp - Bincount and DenseBincount --------------------------===//
//
// Each row's values counted into `bins` bins: one per value, the value's
// weight when there are weights, at most one when binary. Values past the
// last bin are dropped and a negative one stops the step, as TensorFlow's
// CPU kernels do.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <cstdint>
#include <cstring>

namespace {

using tfc::rt::failAt;
using tfc::rt::indexAt;

template <typename T>
void count(tfc_runtime *runtime, bool binary, const void *values,
           const void *weights, void *out, const char *node, int64_t rows,
           int64_t n, int64_t bins, int64_t valueBytes) {
  T *to = static_cast<T *>(out);
  std::memset(to, 0, sizeof(T) * rows * bins);
  const T *w = static_cast<const T *>(weights);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t i = 0; i < n; ++i) {
      int64_t v = indexAt(values, valueBytes, r * n + i);
      if (v < 0)
        failAt(runtime, node, "Input arr must be non-negative!");
      if (v >= bins)
        continue;
      T &bin = to[r * bins + v];
      if (binary)
        bin = T(1);
      else
        bin += w ? w[r * n + i] : T(1);
    }
}

} // namespace

extern "C" void tfc_cpu_bincount(tfc_runtime *runtime, int32_t binary,
                                 const void *values, const void *weights,
                                 void *out, const char *node, int64_t rows,
                                 int64_t n, int64_t bins, int64_t valueBytes,
                                 int64_t dtype) {
  switch (dtype) {
  case TFC_INT32:
    return count<int32_t>(runtime, binary, values, weights, out, node, rows, n,
                          bins, valueBytes);
  case TFC_INT64:
    return count<int64_t>(runtime, binary, values, weights, out, node, rows, n,
                          bins, valueBytes);
  case TFC_DOUBLE:
    return count<double>(runtime, binary, values, weights, out, node, rows, n,
                         bins, valueBytes);
  default:
    return count<float>(runtime, binary, values, weights, out, node, rows, n,
                        bins, valueBytes);
  }
}
