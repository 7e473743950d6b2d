//===- MatMul.cpp - matrix multiplication on the CPU ----------------------===//
//
// Eigen's dense kernels for small products; oneDNN's GEMM (its JIT-built,
// cache-blocked kernels, on OpenMP threads as many as the runtime's) for
// large ones, where it measures 1.2-1.5x faster than Eigen's tensor
// contraction, transposed operands above all (the gradients' products).
// Tested against the reference kernel in Reference.h.
//
//===----------------------------------------------------------------------===//

#include "Parallel.h"
#include "Runtime.h"
#include "StridedProduct.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include <dnnl.h>
#include <omp.h>

extern "C" void tfc_cpu_matmul_f32(tfc_runtime *runtime, const float *a,
                                   const float *b, float *c, int64_t m,
                                   int64_t k, int64_t n, int32_t transpose_a,
                                   int32_t transpose_b) {
  // An empty inner dimension sums nothing: the product is zeros (Eigen's
  // contraction would leave C untouched).
  if (k == 0) {
    std::fill(c, c + m * n, 0.f);
    return;
  }
  // Eigen's dense kernels or oneDNN's sgemm, on this thread or all, by
  // what each measured on AVX2 (in turns with sgemm in one process, and
  // inside the models; docs/benchmarks.md). What decides is whether the
  // operands fit a core's cache (256 KiB) and how much work there is.
  //  - A product of one row or one column is a matrix-vector product:
  //    memory-bound, and Eigen's GEMV streams the matrix with no setup. It
  //    wins while the operands fit (1 x 256 x 256 in 3.7 us, sgemm 4.9),
  //    and on one thread; past that, sgemm's threads read them faster
  //    (1 x 784 x 256 in 9.6 us, Eigen 12.6).
  //  - Other products go to sgemm but the tiniest, whose setup would
  //    dominate: Eigen's matrix kernel took 1.4-2.5x sgemm's time from two
  //    rows up (2 x 784 x 256 in 48 us against 20, 4 x 128 x 128 in 3.7
  //    against 1.7), on one thread as on two.
  //  - Under a million multiply-adds on operands that fit, sgemm runs on
  //    this thread alone: waking the others between a step's other kernels
  //    costs more than they save (an LSTM's training step, 16 x 64 x 256
  //    products, took 1.5x as long with them on two threads).
  int64_t operandBytes = int64_t(sizeof(float)) * k * (m + n);
  bool operandsFit = operandBytes <= 256 * 1024;
  bool matrixVector = m == 1 || n == 1;
  if (m * n * k < 16384 ||
      (matrixVector && (operandsFit || runtime->threads == 1))) {
    using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic,
                                   Eigen::RowMajor>;
    Eigen::Map<const RowMajor> A(a, transpose_a ? k : m, transpose_a ? m : k);
    Eigen::Map<const RowMajor> B(b, transpose_b ? n : k, transpose_b ? k : n);
    Eigen::Map<RowMajor> C(c, m, n);
    if (transpose_a && transpose_b)
      C.noalias() = A.transpose() * B.transpose();
    else if (transpose_a)
      C.noalias() = A.transpose() * B;
    else if (transpose_b)
      C.noalias() = A * B.transpose();
    else
      C.noalias() = A * B;
    return;
  }
  omp_set_num_threads(operandsFit && m * n * k < (int64_t(1) << 20)
                          ? 1
                          : runtime->threads);
  // Row-major, as tfc's buffers: leading dimensions are row lengths.
  int64_t ldb = transpose_b ? k : n;
  // With few rows of A to repay packing B, oneDNN's sgemm (2.6) reads B
  // in place; rows of B a multiple of 2 KiB apart then share the cache's
  // sets, and it runs at 40-65% of its rate (on AVX2: 73 GFLOP/s for 128
  // x 256 x 1024, a transformer's MLP at batch 1, 191 with rows 64 bytes
  // longer; 100-130 GFLOP/s for 512 x 512 x 512 and 128 x 512 x 512, 160-
  // 192 with them longer). A copy with longer rows costs O(kn), 1/m of
  // the product, about 0.1 ms a MiB: it repays itself from about 32 rows
  // (512 x 512 weights: 32 rows at 1.12x the uncopied call, 64 at 1.26x;
  // 8 rows at 0.33x, 16 at 0.93x).
  if (ldb % 512 == 0 && m >= 32 && m < 1024) {
    int64_t rows = transpose_b ? n : k, padded = ldb + 16;
    thread_local std::vector<float> copy;
    copy.resize(size_t(rows * padded));
    float *to = copy.data();
    tfc::parallelFor(runtime, rows, Eigen::TensorOpCost(ldb * 4, ldb * 4, 0),
                     [&](int64_t first, int64_t last) {
                       for (int64_t r = first; r < last; ++r)
                         std::copy(b + r * ldb, b + (r + 1) * ldb,
                                   to + r * padded);
                     });
    b = to;
    ldb = padded;
  }
  dnnl_sgemm(transpose_a ? 'T' : 'N', transpose_b ? 'T' : 'N', m, n, k, 1.f, a,
             transpose_a ? m : k, b, ldb, 0.f, c, n);
}

namespace {
using tfc::StridedProduct;

/// How sgemm can read a matrix of `rows` x `cols` with these element
/// strides: (transposed, leading dimension) where its rows or its columns
/// are contiguous, or none.
std::optional<std::pair<bool, int64_t>> contiguousLayout(int64_t rows,
                                                         int64_t cols,
                                                         int64_t rowStride,
                                                         int64_t colStride) {
  if (colStride == 1 && rowStride >= std::max<int64_t>(cols, 1))
    return std::make_pair(false, rowStride);
  if (rowStride == 1 && colStride >= std::max<int64_t>(rows, 1))
    return std::make_pair(true, colStride);
  return std::nullopt;
}

/// Whether tfc_cpu_matmul_f32, which takes no leading dimension, can read
/// the matrix as it is: as (transposed) when it is dense or densely
/// transposed, none otherwise.
std::optional<bool> denseLayout(int64_t rows, int64_t cols, int64_t rowStride,
                                int64_t colStride) {
  auto layout = contiguousLayout(rows, cols, rowStride, colStride);
  if (!layout || layout->second != (layout->first ? rows : cols))
    return std::nullopt;
  return layout->first;
}

/// Whether every batch shares B and the batches of A and C are only more
/// rows of dense row-major matrices (a projection of [batch, m, k] by one
/// [k, n], as Keras' BatchMatMulV2 and EinsumDense make them): then the
/// whole product is one of batches x m rows.
bool batchesAreRows(const StridedProduct &p) {
  if (p.aK != 1 || p.aM != p.k || p.cN != 1 || p.cM != p.n)
    return false;
  int64_t rowsA = p.m * p.aM, rowsC = p.m * p.cM; // Strides of one batch.
  for (int64_t d = p.batchRank - 1; d >= 0; --d) {
    if (p.batchDims[d] == 1)
      continue;
    if (p.bBatch[d] != 0 || p.aBatch[d] != rowsA || p.cBatch[d] != rowsC)
      return false;
    rowsA *= p.batchDims[d];
    rowsC *= p.batchDims[d];
  }
  return true;
}
} // namespace

extern "C" void tfc_cpu_strided_matmul_f32(tfc_runtime *runtime,
                                           const float *a, const float *b,
                                           float *c,
                                           const int64_t *descriptor) {
  StridedProduct p(descriptor);
  int64_t batches = p.batches();
  // One product of all the rows: tfc_cpu_matmul_f32 splits it across the
  // threads at its own GEMM's rate (a batch of 32 projections of 128 x 256
  // by 256 x 256 ran at about 157 GFLOP/s as 32 sgemm calls, where one
  // 4096 x 256 x 256 product runs at about 215 on AVX-512).
  std::optional<bool> transposedB = denseLayout(p.k, p.n, p.bK, p.bN);
  if (batches > 1 && p.k > 0 && batchesAreRows(p) && transposedB) {
    tfc_cpu_matmul_f32(runtime, a, b, c, batches * p.m, p.k, p.n, false,
                       *transposedB);
    return;
  }
  // Fewer large products than threads (an Einsum projection at batch 1,
  // attention with few heads): parallelism must come from inside each
  // product. tfc_cpu_matmul_f32 takes dense row-major operands (or their
  // transposes); others are gathered into dense scratch first, which costs
  // O(mk + kn) against the product's O(mnk).
  if (batches < runtime->threads && p.m * p.n * p.k >= (int64_t(1) << 20)) {
    std::vector<float> scratchA, scratchB, scratchC;
    for (int64_t batch = 0; batch < batches; ++batch) {
      int64_t offA, offB, offC;
      p.offsets(batch, offA, offB, offC);
      // An operand as (pointer, transposed), densified when it must be.
      auto dense = [](const float *x, int64_t rows, int64_t cols,
                      int64_t rowStride, int64_t colStride,
                      std::vector<float> &scratch) -> std::pair<const float *, bool> {
        if (std::optional<bool> transposed =
                denseLayout(rows, cols, rowStride, colStride))
          return {x, *transposed};
        scratch.resize(size_t(rows * cols));
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t q = 0; q < cols; ++q)
            scratch[size_t(r * cols + q)] = x[r * rowStride + q * colStride];
        return {scratch.data(), false};
      };
      auto [A, transposeA] = dense(a + offA, p.m, p.k, p.aM, p.aK, scratchA);
      auto [B, transposeB] = dense(b + offB, p.k, p.n, p.bK, p.bN, scratchB);
      bool denseC = p.cN == 1 && p.cM == p.n;
      if (!denseC)
        scratchC.resize(size_t(p.m * p.n));
      float *C = denseC ? c + offC : scratchC.data();
      tfc_cpu_matmul_f32(runtime, A, B, C, p.m, p.k, p.n, transposeA, transposeB);
      if (!denseC)
        for (int64_t r = 0; r < p.m; ++r)
          for (int64_t q = 0; q < p.n; ++q)
            c[offC + r * p.cM + q * p.cN] = scratchC[size_t(r * p.n + q)];
    }
    return;
  }
  using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic,
                               Eigen::RowMajor>;
  using Strides = Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>;
  // Each matrix whose rows or columns are contiguous goes to oneDNN's
  // sgemm, on the thread that runs its batch (oneDNN runs on the calling
  // thread inside a parallel region): on AVX2 it runs attention's 128 x 32
  // x 128 products at 1.7x the rate of Eigen's kernel.
  auto layoutA = contiguousLayout(p.m, p.k, p.aM, p.aK);
  auto layoutB = contiguousLayout(p.k, p.n, p.bK, p.bN);
  bool viaSgemm = layoutA && layoutB && p.cN == 1 &&
                  p.cM >= std::max<int64_t>(p.n, 1) && p.k > 0;
  auto product = [&](Eigen::Index first, Eigen::Index last) {
    bool onThisThread = omp_in_parallel() || runtime->threads == 1;
    for (Eigen::Index batch = first; batch < last; ++batch) {
      int64_t offA, offB, offC;
      p.offsets(batch, offA, offB, offC);
      if (viaSgemm && onThisThread) {
        dnnl_sgemm(layoutA->first ? 'T' : 'N', layoutB->first ? 'T' : 'N',
                   p.m, p.n, p.k, 1.f, a + offA, layoutA->second, b + offB,
                   layoutB->second, 0.f, c + offC, p.cM);
        continue;
      }
      // Row-major maps: outer stride between rows, inner between columns.
      Eigen::Map<const Matrix, 0, Strides> A(a + offA, p.m, p.k, Strides(p.aM, p.aK));
      Eigen::Map<const Matrix, 0, Strides> B(b + offB, p.k, p.n, Strides(p.bK, p.bN));
      Eigen::Map<Matrix, 0, Strides> C(c + offC, p.m, p.n, Strides(p.cM, p.cN));
      if (p.k == 0)
        C.setZero();
      else
        C.noalias() = A * B;
    }
  };
  tfc::parallelFor(runtime, 
      batches, Eigen::TensorOpCost(4.0 * p.k * (p.m + p.n), 4.0 * p.m * p.n, 2.0 * p.m * p.n * p.k),
      product);
}
