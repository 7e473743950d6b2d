//===- OneDnnDense.cpp - dense layers through oneDNN ----------------------===//
//
// A product by a constant matrix of the program (a Dense or EinsumDense
// layer's kernel) runs as oneDNN's matmul primitive, with its epilogue
// (bias, residual add, ReLU, ReLU6, swish, hard swish or GELU) applied by
// the primitive as it writes (a bias argument, a sum or binary post-op and
// an eltwise post-op). Each call site passes its constant
// tfc_dense_params, whose address keys a cache holding the primitive and
// the weights reordered once into the layout the primitive prefers
// (blocked for its brgemm micro-kernels, so that no call packs them).
//
// Against oneDNN's sgemm (tfc_cpu_matmul_f32), which packs the weights at
// every call, on AVX-512 with two threads (a test program calling both;
// bench/gemm.py measures the models' shapes so): a transformer's products
// at batch 32 (4096 x 1024 x 256 in 6.7 ms against 7.5, 4096 x 256 x 256
// in 1.69 against 1.83) and at batch 1 (128 x 256 x 1024 in 0.22 against
// 0.25), and a classifier's (32 x 2048 x 1000 in 0.50 against 0.56); GELU
// as a post-op cost 1.3 ms on the 4096 x 1024 output, where the generated
// loop after sgemm took 2.7.
//
// Only oneDNN's brgemm kernels (AVX-512 and up in oneDNN 2.6) are used:
// below them the matmul primitive wraps the same sgemm, and was not
// measured against it. Elsewhere, and for products where sgemm is faster
// (the tiniest, many rows by 16 MiB of weights, and bare products of many
// rows by many columns), tfc_cpu_matmul_f32 computes the product and a
// loop applies the epilogue.
//
//===----------------------------------------------------------------------===//

#include "Epilogue.h"
#include "OneDnn.h"
#include "Runtime.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <cstring>
#include <memory>
#include <omp.h>
#include <vector>

namespace {

using dnnl::memory;
using Tag = memory::format_tag;
using DenseParams = tfc_dense_params;

/// Whether tfc_cpu_matmul_f32 computes the product faster: a product of
/// one row (a batch-1 dense layer: a matrix-vector product, which the
/// brgemm kernels compute one row of their tiles at a time; on the AMD
/// Zen 5 machine bench/gemm.py's 1 x 784 x 256 ran at 0.81-0.89 of
/// sgemm's rate in four runs of six through the primitive, 0.95-1.00 in
/// three through sgemm, figures that move by a third between runs), one too small
/// to repay a primitive call (those it gives to Eigen's kernels), or one
/// of many rows by a matrix of 16 MiB or more, which sgemm's packing runs
/// at 1.05-1.08x the primitive's rate (on AVX-512 with two threads:
/// 2048 x 2048 x 2048 in 52.3 ms against 55.5, 2048 x 4096 x 1024 in 53.1
/// against 56.9; with 512 rows or fewer the primitive ties or wins, and
/// with 4 MiB weights it is within 2%), or a bare product (no epilogue)
/// of many rows by many columns: on a second AVX-512 machine, with 1024
/// or 4096 rows and 1024 or 2048 columns, sgemm ran at 1.00-1.19x the
/// primitive's rate (4096 x 256 x 1024 in 12.2 ms against 14.1, a
/// transformer's MLP at batch 32), while with 256 columns the primitive
/// ran at 1.14-1.27x sgemm's. With an epilogue the two tied there (bias
/// and GELU, 14.6 ms each): the primitive's post-ops save the pass over
/// the output that sgemm's route adds, so it keeps those.
bool sgemmIsFaster(const DenseParams &p) {
  bool bare = !p.has_bias && !p.residual && p.activation == TFC_ACTIVATION_NONE;
  return p.m == 1 || p.m * p.n * p.k < 16384 ||
         (p.m >= 1024 && p.k * p.n >= (int64_t(4) << 20)) ||
         (bare && p.m >= 1024 && p.n >= 1024);
}

/// The threads the product runs on: one for a product under a million
/// multiply-adds whose operands fit a core's cache, as tfc_cpu_matmul_f32
/// decides (waking the others costs more than they save there). oneDNN's
/// brgemm matmul splits its work when the primitive is made, for the
/// threads OpenMP then offers: the count is set before it is made and at
/// every call.
int threadsFor(const tfc_runtime *runtime, const DenseParams &p) {
  int64_t operandBytes = int64_t(sizeof(float)) * p.k * (p.m + p.n);
  bool small = operandBytes <= 256 * 1024 &&
               p.m * p.n * p.k < (int64_t(1) << 20);
  return small ? 1 : runtime->threads;
}

/// The primitive of a call site, with its weights reordered; null where
/// oneDNN has no brgemm kernel for it (see the file comment).
std::unique_ptr<tfc::onednn::BrgemmProduct> makeDense(const DenseParams &p,
                                                      const float *weights) {
  memory::desc user({p.k, p.n}, memory::data_type::f32,
                    p.transpose_b ? Tag::ba : Tag::ab);
  return tfc::onednn::makeBrgemmProduct(p.m, p.k, p.n, user, weights,
                                        p.has_bias, p.residual, p.activation);
}

} // namespace

extern "C" void tfc_cpu_dense_f32(tfc_runtime *runtime, const float *a,
                                  const float *weights, const float *bias,
                                  const float *residual, float *out,
                                  const tfc_dense_params *params) {
  const DenseParams &p = *params;
  static tfc::onednn::PrimitiveCache<tfc::onednn::BrgemmProduct> cache;
  int threads = threadsFor(runtime, p);
  omp_set_num_threads(threads);
  tfc::onednn::BrgemmProduct *prim =
      sgemmIsFaster(p) || p.k == 0
          ? nullptr
          : cache.lookup(params, [&] { return makeDense(p, weights); });
  if (!prim) {
    // The product overwrites a residual planned in place: keep it.
    std::vector<float> saved;
    if (p.residual == 2) {
      saved.assign(out, out + p.m * p.n);
      residual = saved.data();
    }
    tfc_cpu_matmul_f32(runtime, a, weights, out, p.m, p.k, p.n, 0,
                       int32_t(p.transpose_b));
    if (p.has_bias || p.residual || p.activation != TFC_ACTIVATION_NONE)
      tfc::applyEpilogue(runtime, out, p.m, p.n, p.has_bias ? bias : nullptr,
                         p.residual ? residual : nullptr, p.activation);
    return;
  }
  prim->run(a, out, bias, residual);
}
