//===- SearchSorted.cpp - LowerBound and UpperBound ------------------------===//
//
// tf.searchsorted: for each of the `m` values of a row, the index in the
// row's `n` sorted inputs of the first element not below it (LowerBound)
// or above it (UpperBound), as std::lower_bound and std::upper_bound give
// it, which are what TensorFlow's kernels call.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <algorithm>
#include <cstdint>

namespace {

template <typename T, typename Index>
void search(bool upper, const void *sorted, const void *values, void *out,
            int64_t rows, int64_t n, int64_t m) {
  for (int64_t r = 0; r < rows; ++r) {
    const T *first = static_cast<const T *>(sorted) + r * n;
    const T *row = static_cast<const T *>(values) + r * m;
    Index *to = static_cast<Index *>(out) + r * m;
    for (int64_t i = 0; i < m; ++i)
      to[i] = Index((upper ? std::upper_bound(first, first + n, row[i])
                           : std::lower_bound(first, first + n, row[i])) -
                    first);
  }
}

template <typename T>
void searchInto(bool upper, const void *sorted, const void *values, void *out,
                int64_t rows, int64_t n, int64_t m, int64_t outBytes) {
  if (outBytes == 8)
    search<T, int64_t>(upper, sorted, values, out, rows, n, m);
  else
    search<T, int32_t>(upper, sorted, values, out, rows, n, m);
}

} // namespace

extern "C" void tfc_cpu_search_sorted(tfc_runtime *, int32_t upper,
                                      const void *sorted, const void *values,
                                      void *out, int64_t rows, int64_t n,
                                      int64_t m, int64_t dtype,
                                      int64_t out_bytes) {
  switch (dtype) {
  case TFC_DOUBLE:
    return searchInto<double>(upper, sorted, values, out, rows, n, m, out_bytes);
  case TFC_INT32:
    return searchInto<int32_t>(upper, sorted, values, out, rows, n, m, out_bytes);
  case TFC_INT64:
    return searchInto<int64_t>(upper, sorted, values, out, rows, n, m, out_bytes);
  default:
    return searchInto<float>(upper, sorted, values, out, rows, n, m, out_bytes);
  }
}
