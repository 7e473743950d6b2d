//===- StridedProduct.h - a strided batched product's descriptor -*- C++ -*-===//
//
// The descriptor tfc_cpu_strided_matmul_f32 and tfc_cpu_attention_f32 take
// (tfc_runtime.h), read field by field.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_KERNELS_CPU_STRIDEDPRODUCT_H
#define TFC_RUNTIME_KERNELS_CPU_STRIDEDPRODUCT_H

#include <cstdint>

namespace tfc {

struct StridedProduct {
  int64_t batchRank;
  const int64_t *batchDims, *aBatch, *bBatch, *cBatch;
  int64_t m, n, k, aM, aK, bK, bN, cM, cN;

  explicit StridedProduct(const int64_t *d)
      : batchRank(d[0]), batchDims(d + 1), aBatch(d + 1 + batchRank),
        bBatch(d + 1 + 2 * batchRank), cBatch(d + 1 + 3 * batchRank) {
    const int64_t *rest = d + 1 + 4 * batchRank;
    m = rest[0]; n = rest[1]; k = rest[2];
    aM = rest[3]; aK = rest[4]; bK = rest[5]; bN = rest[6];
    cM = rest[7]; cN = rest[8];
  }

  int64_t batches() const {
    int64_t count = 1;
    for (int64_t d = 0; d < batchRank; ++d)
      count *= batchDims[d];
    return count;
  }

  /// The batch index, digit by digit, to each operand's offset.
  void offsets(int64_t batch, int64_t &offA, int64_t &offB, int64_t &offC) const {
    int64_t rest = batch;
    offA = offB = offC = 0;
    for (int64_t d = batchRank - 1; d >= 0; --d) {
      int64_t i = rest % batchDims[d];
      rest /= batchDims[d];
      offA += i * aBatch[d];
      offB += i * bBatch[d];
      offC += i * cBatch[d];
    }
  }
};

} // namespace tfc

#endif // TFC_RUNTIME_KERNELS_CPU_STRIDEDPRODUCT_H
