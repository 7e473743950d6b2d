//===- StridedProducts.h - batched products as strided layouts --*- C++ -*-===//
//
// BatchMatMul and two-operand Einsum compute C[b..., m, n] = sum_k
// A[b..., m, k] B[b..., k, n] over their operands' row-major buffers read
// through element strides. This is that layout, as code generation passes
// it to the runtime's strided kernels (the descriptor of
// tfc_cpu_strided_matmul_f32 in tfc_runtime.h), and as
// tfc-fuse-elementwise checks that two products can run as one attention
// kernel.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TRANSFORMS_STRIDEDPRODUCTS_H
#define TFC_TRANSFORMS_STRIDEDPRODUCTS_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace tfc {

struct StridedProduct {
  /// The batch dims (the output's, in its order) and each operand's
  /// element stride along them (0: broadcast).
  llvm::SmallVector<int64_t> batch, batchA, batchB, batchC;
  int64_t m = 1, n = 1, k = 1;
  /// Element strides of A along m and k, B along k and n, C along m and n.
  int64_t aM = 0, aK = 0, bK = 0, bN = 0, cM = 0, cN = 0;

  /// The runtime's descriptor: the batch rank, the batch dims, the three
  /// operands' batch strides, then m, n, k and the six strides.
  llvm::SmallVector<int64_t> descriptor() const;
};

/// The layout of a float32 BatchMatMul (V1-V3; batch dims broadcast,
/// adjoints as swapped strides) or two-operand Einsum of static shapes;
/// failure with `why` set to what is not supported.
mlir::FailureOr<StridedProduct> stridedProductOf(mlir::Operation *node,
                                                 std::string &why);

/// Whether `node` is a BatchMatMul (V1-V3) or an Einsum.
bool isBatchedProduct(mlir::Operation *node);

/// A dense layer: a float32 product whose B is a constant matrix of the
/// program (its weights) and whose output rows are A's rows times it, as
/// the runtime's dense kernel (tfc_cpu_dense_f32) computes it: A is [m, k]
/// row-major, B [k, n] (or [n, k], transposed), C [m, n] row-major.
struct DenseLayer {
  int64_t m = 0, k = 0, n = 0;
  bool transposeB = false;
};

/// The dense layer `node` computes, if it is one: a MatMul without
/// transpose_a, or a batched product (a Keras Dense on a sequence's
/// BatchMatMulV2, an EinsumDense's Einsum) whose batches all read one B
/// and whose batches of A and C are only more rows. Inside a
/// tfc.fusion_group, B is the group's input.
std::optional<DenseLayer> denseLayerOf(mlir::Operation *node);

} // namespace tfc

#endif // TFC_TRANSFORMS_STRIDEDPRODUCTS_H
