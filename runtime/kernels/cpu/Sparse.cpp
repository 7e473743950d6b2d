//===- Sparse.cpp - row gathers, scatters and sparse optimizer updates ----===//
//
// The ops of embeddings: a variable is [rows, rowSize...], and `count`
// indices (int32 or int64, `indexBytes`) each select one row. Indices are
// checked as TensorFlow's kernels check them, and one out of range stops
// the step with an error naming the node. Updates run in index order, so
// duplicate indices accumulate (scatters) or apply in turn (sparse
// optimizer updates), as in TensorFlow's CPU kernels. A sparse update is
// the dense update (Optimizers.cpp) of each selected row.
//
//===----------------------------------------------------------------------===//

#include "Parallel.h"
#include "Runtime.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>

namespace {

using tfc::rt::indexAt;

/// Calls row(r, i) for each index i selecting row r, in order; stops the
/// step on an index outside [0, rows), unless it is negative and
/// `dropNegative` (the updates of deduplicated rows skip the padding of
/// Unique's output).
template <typename Row>
void forEachIndexedRow(tfc_runtime *runtime, const void *indices, int64_t indexBytes, int64_t count,
                       int64_t rows, const char *node, bool dropNegative,
                       Row row) {
  for (int64_t i = 0; i < count; ++i) {
    int64_t r = indexAt(indices, indexBytes, i);
    if (r < 0 && dropNegative)
      continue;
    if (r < 0 || r >= rows)
      tfc::rt::failIndexOutOfRange(runtime, std::string("node '") + node + "'",
                                   i, r, rows);
    row(r, i);
  }
}

/// The bytes of each row a unit of copyIndexedRows' parallel loop copies.
constexpr int64_t kCopySliceBytes = 16 << 10;

/// Copies rows between a [rows, ...] tensor and a block of `count` rows:
/// the tensor's row indices[i] is the block's row i; a gather copies to the
/// block, a scatter to the tensor. The indices are checked first; then
/// each thread copies slices of the rows' bytes, every row's slice in
/// index order, so that a scatter's duplicate indices leave the last
/// row's bytes as they would one after the other. (The batch's
/// micro-batches are gathered and scattered so, whole images a row: one
/// thread's copies were 1-2% of NASNetMobile's step at batch 32.)
void copyIndexedRows(tfc_runtime *runtime, char *tensor, char *block,
                     const void *indices, const char *node, int64_t rows,
                     int64_t rowBytes, int64_t count, int64_t indexBytes,
                     bool toTensor) {
  forEachIndexedRow(runtime, indices, indexBytes, count, rows, node, false,
                    [](int64_t, int64_t) {});
  int64_t slices = (rowBytes + kCopySliceBytes - 1) / kCopySliceBytes;
  double bytes = double(count) * rowBytes / std::max<int64_t>(slices, 1);
  tfc::parallelFor(runtime, slices, Eigen::TensorOpCost(bytes, bytes, 0),
                   [&](int64_t first, int64_t last) {
                     int64_t from = first * kCopySliceBytes;
                     int64_t size =
                         std::min(last * kCopySliceBytes, rowBytes) - from;
                     for (int64_t i = 0; i < count; ++i) {
                       char *inTensor =
                           tensor +
                           tfc::rt::indexAt(indices, indexBytes, i) * rowBytes +
                           from;
                       char *inBlock = block + i * rowBytes + from;
                       if (toTensor)
                         std::memcpy(inTensor, inBlock, size);
                       else
                         std::memcpy(inBlock, inTensor, size);
                     }
                   });
}

} // namespace

extern "C" void tfc_cpu_gather_rows(tfc_runtime *runtime, const void *params,
                                    const void *indices, void *out,
                                    const char *node, int64_t rows,
                                    int64_t rowBytes, int64_t count,
                                    int64_t indexBytes) {
  copyIndexedRows(runtime, static_cast<char *>(const_cast<void *>(params)),
                  static_cast<char *>(out), indices, node, rows, rowBytes,
                  count, indexBytes, /*toTensor=*/false);
}

extern "C" void tfc_cpu_scatter_rows(tfc_runtime *runtime, void *out,
                                     const void *indices, const void *updates,
                                     const char *node, int64_t rows,
                                     int64_t rowBytes, int64_t count,
                                     int64_t indexBytes) {
  copyIndexedRows(runtime, static_cast<char *>(out),
                  static_cast<char *>(const_cast<void *>(updates)), indices,
                  node, rows, rowBytes, count, indexBytes, /*toTensor=*/true);
}

extern "C" void tfc_cpu_scatter_f32(tfc_runtime *runtime, int32_t kind, float *var,
                                    const void *indices, const float *updates,
                                    const char *node, int64_t rows,
                                    int64_t rowSize, int64_t count,
                                    int64_t indexBytes, int64_t scalarUpdates,
                                    int64_t dropNegative) {
  forEachIndexedRow(
      runtime, indices, indexBytes, count, rows, node, dropNegative != 0,
      [&](int64_t r, int64_t i) {
        float *dst = var + r * rowSize;
        for (int64_t k = 0; k < rowSize; ++k) {
          float u = scalarUpdates ? updates[0] : updates[i * rowSize + k];
          float &v = dst[k];
          switch (kind) {
          case 0: v = u; break;
          case 1: v += u; break;
          case 2: v -= u; break;
          case 3: v *= u; break;
          case 4: v /= u; break;
          case 5: v = std::min(v, u); break;
          default: v = std::max(v, u); break;
          }
        }
      });
}

extern "C" void tfc_cpu_sparse_apply_momentum_f32(
    tfc_runtime *runtime, float *var, float *accum, const float *lr,
    const float *grad, const float *momentum, const void *indices,
    const char *node, int64_t rowSize, int64_t count, int64_t rows,
    int64_t indexBytes, int64_t skipNegative, int64_t nesterov) {
  forEachIndexedRow(runtime, indices, indexBytes, count, rows, node, skipNegative != 0,
                    [&](int64_t r, int64_t i) {
                      tfc_cpu_apply_momentum_f32(
                          runtime, var + r * rowSize, accum + r * rowSize, lr,
                          grad + i * rowSize, momentum, rowSize, nesterov);
                    });
}

extern "C" void tfc_cpu_sparse_apply_adagrad_f32(
    tfc_runtime *runtime, float *var, float *accum, const float *lr,
    const float *epsilon, const float *grad, const void *indices,
    const char *node, int64_t rowSize, int64_t count, int64_t rows,
    int64_t indexBytes, int64_t skipNegative, int64_t updateSlots) {
  forEachIndexedRow(runtime, indices, indexBytes, count, rows, node, skipNegative != 0,
                    [&](int64_t r, int64_t i) {
                      tfc_cpu_apply_adagrad_f32(
                          runtime, var + r * rowSize, accum + r * rowSize, lr,
                          epsilon, grad + i * rowSize, rowSize, updateSlots);
                    });
}

extern "C" void tfc_cpu_sparse_apply_rmsprop_f32(
    tfc_runtime *runtime, float *var, float *ms, float *mom, const float *lr,
    const float *rho, const float *momentum, const float *epsilon,
    const float *grad, const void *indices, const char *node, int64_t rowSize,
    int64_t count, int64_t rows, int64_t indexBytes, int64_t skipNegative) {
  forEachIndexedRow(runtime, indices, indexBytes, count, rows, node, skipNegative != 0,
                    [&](int64_t r, int64_t i) {
                      int64_t at = r * rowSize;
                      tfc_cpu_apply_rmsprop_f32(runtime, var + at, ms + at,
                                                mom + at, lr, rho, momentum,
                                                epsilon, grad + i * rowSize,
                                                rowSize);
                    });
}

extern "C" void tfc_cpu_sparse_apply_centered_rmsprop_f32(
    tfc_runtime *runtime, float *var, float *mg, float *ms, float *mom,
    const float *lr, const float *rho, const float *momentum,
    const float *epsilon, const float *grad, const void *indices,
    const char *node, int64_t rowSize, int64_t count, int64_t rows,
    int64_t indexBytes, int64_t skipNegative) {
  forEachIndexedRow(runtime, indices, indexBytes, count, rows, node, skipNegative != 0,
                    [&](int64_t r, int64_t i) {
                      int64_t at = r * rowSize;
                      tfc_cpu_apply_centered_rmsprop_f32(
                          runtime, var + at, mg + at, ms + at, mom + at, lr,
                          rho, momentum, epsilon, grad + i * rowSize, rowSize);
                    });
}

extern "C" void tfc_cpu_sparse_apply_adadelta_f32(
    tfc_runtime *runtime, float *var, float *accum, float *accumUpdate,
    const float *lr, const float *rho, const float *epsilon, const float *grad,
    const void *indices, const char *node, int64_t rowSize, int64_t count,
    int64_t rows, int64_t indexBytes, int64_t skipNegative) {
  forEachIndexedRow(runtime, indices, indexBytes, count, rows, node, skipNegative != 0,
                    [&](int64_t r, int64_t i) {
                      int64_t at = r * rowSize;
                      tfc_cpu_apply_adadelta_f32(runtime, var + at, accum + at,
                                                 accumUpdate + at, lr, rho,
                                                 epsilon, grad + i * rowSize,
                                                 rowSize);
                    });
}

extern "C" void tfc_cpu_sparse_apply_ftrl_f32(
    tfc_runtime *runtime, float *var, float *accum, float *linear,
    const float *grad, const float *lr, const float *l1, const float *l2,
    const float *l2Shrinkage, const float *lrPower, const void *indices,
    const char *node, int64_t rowSize, int64_t count, int64_t rows,
    int64_t indexBytes, int64_t skipNegative, int64_t multiplyLinearByLr) {
  forEachIndexedRow(runtime, indices, indexBytes, count, rows, node, skipNegative != 0,
                    [&](int64_t r, int64_t i) {
                      int64_t at = r * rowSize;
                      tfc_cpu_apply_ftrl_f32(runtime, var + at, accum + at,
                                             linear + at, grad + i * rowSize,
                                             lr, l1, l2, l2Shrinkage, lrPower,
                                             rowSize, multiplyLinearByLr);
                    });
}

extern "C" void tfc_cpu_unique(tfc_runtime *, const void *x, void *y, void *idx,
                               int64_t count, int64_t valueBytes, int64_t idxBytes,
                               int64_t padNegative) {
  std::unordered_map<int64_t, int64_t> position;
  position.reserve(size_t(count));
  int64_t unique = 0;
  auto store = [](void *to, int64_t bytes, int64_t i, int64_t value) {
    if (bytes == 8)
      static_cast<int64_t *>(to)[i] = value;
    else
      static_cast<int32_t *>(to)[i] = int32_t(value);
  };
  for (int64_t i = 0; i < count; ++i) {
    int64_t value = indexAt(x, valueBytes, i);
    auto [it, inserted] = position.try_emplace(value, unique);
    if (inserted)
      store(y, valueBytes, unique++, value);
    store(idx, idxBytes, i, it->second);
  }
  // The padding: skipped by the updates of deduplicated rows, or a valid
  // index for whatever gathers through the rows.
  int64_t padding = padNegative || count == 0 ? -1 : indexAt(y, valueBytes, 0);
  for (int64_t i = unique; i < count; ++i)
    store(y, valueBytes, i, padding);
}
