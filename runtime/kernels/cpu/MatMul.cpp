//===- MatMul.cpp - matrix multiplication on the CPU ----------------------===//
//
// Eigen on the runtime's thread pool: dense kernels for small products,
// the tensor contraction (tiled, parallel) for large ones. Tested against the
// reference kernel in Reference.h.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <algorithm>

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
  // Small products (batch-1 inference: a matrix-vector product) go to
  // Eigen's dense kernels, whose GEMV path has no setup to amortize; large
  // ones to the tensor contraction, which tiles and uses the thread pool.
  if (m * n * k < (int64_t(1) << 20) || runtime->threads == 1) {
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
  using Matrix = Eigen::TensorMap<Eigen::Tensor<const float, 2, Eigen::RowMajor>>;
  using Output = Eigen::TensorMap<Eigen::Tensor<float, 2, Eigen::RowMajor>>;
  Matrix A(a, transpose_a ? k : m, transpose_a ? m : k);
  Matrix B(b, transpose_b ? n : k, transpose_b ? k : n);
  Output C(c, m, n);
  // Contract A's k dimension with B's.
  Eigen::array<Eigen::IndexPair<int>, 1> dims = {
      Eigen::IndexPair<int>(transpose_a ? 0 : 1, transpose_b ? 1 : 0)};
  C.device(runtime->device) = A.contract(B, dims);
}
