//===- Scan.cpp - index-producing and cumulative kernels on the CPU -------===//
//
// ArgMax/ArgMin, Cumsum/Cumprod and TopKV2: kernels that walk one axis in
// order, keeping state along it. Every tensor is seen as [outer, n, inner]
// with the walked axis in the middle; the element type is a run-time
// argument (a compile-time constant of the generated call), dispatched
// once per call.
//
//===----------------------------------------------------------------------===//

#include "Parallel.h"
#include "Runtime.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

namespace {

/// Calls `f` with a null pointer of the C++ type of `dtype`.
template <typename F> bool withType(int64_t dtype, F &&f) {
  switch (dtype) {
  case TFC_FLOAT: f((float *)nullptr); return true;
  case TFC_DOUBLE: f((double *)nullptr); return true;
  case TFC_INT32: f((int32_t *)nullptr); return true;
  case TFC_INT64: f((int64_t *)nullptr); return true;
  case TFC_UINT8: f((uint8_t *)nullptr); return true;
  case TFC_INT8: f((int8_t *)nullptr); return true;
  case TFC_INT16: f((int16_t *)nullptr); return true;
  default: return false;
  }
}

} // namespace

extern "C" void tfc_cpu_arg_reduce(tfc_runtime *runtime, const void *in,
                                   void *out, int64_t kind, int64_t dtype,
                                   int64_t index_dtype, int64_t outer,
                                   int64_t n, int64_t inner) {
  withType(dtype, [&](auto *tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    const T *x = static_cast<const T *>(in);
    auto rows = [&](Eigen::Index first, Eigen::Index last) {
      for (Eigen::Index o = first; o < last; ++o)
        for (int64_t i = 0; i < inner; ++i) {
          // As TensorFlow's Eigen reducer walked in order: start from
          // index 0 holding the type's lowest (highest) value, and move on a
          // strictly greater (smaller) value only. Ties keep the first
          // index; NaN never wins.
          int64_t best = 0;
          T bestValue = kind == 0 ? std::numeric_limits<T>::lowest()
                                  : std::numeric_limits<T>::max();
          for (int64_t r = 0; r < n; ++r) {
            T v = x[(o * n + r) * inner + i];
            if (kind == 0 ? v > bestValue : v < bestValue) {
              best = r;
              bestValue = v;
            }
          }
          if (index_dtype == TFC_INT32)
            static_cast<int32_t *>(out)[o * inner + i] = int32_t(best);
          else
            static_cast<int64_t *>(out)[o * inner + i] = best;
        }
    };
    tfc::parallelFor(runtime, 
        outer, Eigen::TensorOpCost(sizeof(T) * n * inner, 8.0 * inner, 2.0 * n * inner),
        rows);
  });
}

extern "C" void tfc_cpu_scan(tfc_runtime *runtime, const void *in, void *out,
                             int64_t kind, int64_t dtype, int64_t outer,
                             int64_t n, int64_t inner, int64_t exclusive,
                             int64_t reverse) {
  withType(dtype, [&](auto *tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    const T *x = static_cast<const T *>(in);
    T *y = static_cast<T *>(out);
    auto rows = [&](Eigen::Index first, Eigen::Index last) {
      for (Eigen::Index o = first; o < last; ++o)
        for (int64_t i = 0; i < inner; ++i) {
          T acc = kind == 0 ? T(0) : T(1);
          for (int64_t step = 0; step < n; ++step) {
            int64_t r = reverse ? n - 1 - step : step;
            int64_t at = (o * n + r) * inner + i;
            T v = x[at];
            if (exclusive)
              y[at] = acc;
            acc = kind == 0 ? T(acc + v) : T(acc * v);
            if (!exclusive)
              y[at] = acc;
          }
        }
    };
    tfc::parallelFor(runtime, 
        outer, Eigen::TensorOpCost(sizeof(T) * n * inner, sizeof(T) * n * inner, n * inner),
        rows);
  });
}

extern "C" void tfc_cpu_top_k_f32(tfc_runtime *runtime, const float *in,
                                  float *values, int32_t *indices,
                                  int64_t rows, int64_t n, int64_t k) {
  auto work = [&](Eigen::Index first, Eigen::Index last) {
    std::vector<int32_t> order(n);
    for (Eigen::Index r = first; r < last; ++r) {
      const float *x = in + r * n;
      std::iota(order.begin(), order.end(), 0);
      // Larger first; equal values keep the lower index first. NaN counts
      // as larger than everything, as in TensorFlow.
      auto before = [x](int32_t a, int32_t b) {
        bool na = std::isnan(x[a]), nb = std::isnan(x[b]);
        if (na != nb)
          return na;
        if (!na && x[a] != x[b])
          return x[a] > x[b];
        return a < b;
      };
      std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
      for (int64_t j = 0; j < k; ++j) {
        values[r * k + j] = x[order[j]];
        indices[r * k + j] = order[j];
      }
    }
  };
  tfc::parallelFor(runtime, 
      rows, Eigen::TensorOpCost(4.0 * n, 8.0 * k, 10.0 * n), work);
}
