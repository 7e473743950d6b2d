//===- EmitLinearAlgebra.cpp - decompositions and solves -------------------===//
//
// MatrixInverse, the determinants, Cholesky, the solves, Qr, Svd and
// SelfAdjointEigV2 on batched float32 or float64 matrices: one call of the
// runtime's Eigen kernels (LinearAlgebra.cpp) each, the batch being every
// dimension before the last two.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "tfc/Dialect/Tfg/DataType.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/OpTable.h"

using namespace mlir;

namespace tfc {
namespace {

class LinearAlgebraPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    OpKind kind = opKindOf(node);
    OperandRange operands = tfg::getDataOperands(node);
    auto type = cast<RankedTensorType>(operands[0].getType());
    Type element = type.getElementType();
    if (!element.isF32() && !element.isF64())
      return step.error(node) << "supports float32 and float64 only";
    if (type.getRank() < 2)
      return step.error(node) << "needs matrices, not " << type;
    int64_t m = type.getDimSize(type.getRank() - 2);
    int64_t n = type.getDimSize(type.getRank() - 1);
    int64_t batch = 1;
    for (int64_t d = 0; d < type.getRank() - 2; ++d)
      batch *= type.getDimSize(d);
    int64_t dtype = tfg::typeToDataType(element);
    Location loc = node->getLoc();
    SmallVector<Value> outs;
    for (unsigned port = 0; port < tfg::getDataResults(node).size(); ++port) {
      FailureOr<Value> out = step.outputFor(node, port);
      if (failed(out))
        return failure();
      outs.push_back(step.pointerTo(*out));
    }
    Value in = step.pointerTo(step.memrefFor(operands[0]));
    Value label = step.stringPointer(loc, tfg::nodeLabel(node));
    Value none = step.nullPointer(loc);
    // The columns of the right-hand sides.
    auto columns = [&] {
      auto rhs = cast<RankedTensorType>(operands[1].getType());
      return rhs.getDimSize(rhs.getRank() - 1);
    };
    auto isSquare = [&]() -> LogicalResult {
      if (m != n)
        return step.error(node) << "needs square matrices, not " << type;
      return success();
    };
    switch (kind) {
    case OpKind::MatrixInverse:
      if (failed(isSquare()))
        return failure();
      step.callKernel(loc, step.kernelName("matrix_inverse"), {in, outs[0], label},
                      {batch, n, boolAttr(node, "adjoint"), dtype});
      return success();
    case OpKind::MatrixDeterminant:
    case OpKind::LogMatrixDeterminant:
      if (failed(isSquare()))
        return failure();
      step.callKernel(loc, step.kernelName("matrix_determinant"),
                      {in, outs[0], outs.size() > 1 ? outs[1] : none},
                      {batch, n, dtype});
      return success();
    case OpKind::Cholesky:
      if (failed(isSquare()))
        return failure();
      step.callKernel(loc, step.kernelName("cholesky"), {in, outs[0], label},
                      {batch, n, dtype});
      return success();
    case OpKind::MatrixSolve:
    case OpKind::MatrixTriangularSolve: {
      if (failed(isSquare()))
        return failure();
      auto rhs = cast<RankedTensorType>(operands[1].getType());
      if (rhs.getNumElements() != batch * n * columns())
        return step.error(node) << "the batches of " << type << " and " << rhs
                                << " differ";
      Value rhsPointer = step.pointerTo(step.memrefFor(operands[1]));
      if (kind == OpKind::MatrixSolve)
        step.callKernel(loc, step.kernelName("matrix_solve"),
                        {in, rhsPointer, outs[0], label},
                        {batch, n, columns(), boolAttr(node, "adjoint"), dtype});
      else
        step.callKernel(loc, step.kernelName("triangular_solve"),
                        {in, rhsPointer, outs[0]},
                        {batch, n, columns(),
                         boolAttr(node, "lower", /*otherwise=*/true),
                         boolAttr(node, "adjoint"), dtype});
      return success();
    }
    case OpKind::Qr:
      step.callKernel(loc, step.kernelName("qr"), {in, outs[0], outs[1]},
                      {batch, m, n, boolAttr(node, "full_matrices"), dtype});
      return success();
    case OpKind::Svd: {
      bool vectors = boolAttr(node, "compute_uv", /*otherwise=*/true);
      step.callKernel(loc, step.kernelName("svd"),
                      {in, outs[0], vectors ? outs[1] : none,
                       vectors ? outs[2] : none},
                      {batch, m, n, boolAttr(node, "full_matrices"), dtype});
      return success();
    }
    case OpKind::SelfAdjointEigV2: {
      if (failed(isSquare()))
        return failure();
      bool vectors = boolAttr(node, "compute_v", /*otherwise=*/true);
      step.callKernel(loc, step.kernelName("self_adjoint_eig"),
                      {in, outs[0], vectors ? outs[1] : none},
                      {batch, n, dtype});
      return success();
    }
    default:
      return step.error(node) << "no code generation for this op yet";
    }
  }
};

} // namespace

void populateLinearAlgebraPatterns(CodegenPatterns &patterns) {
  patterns.add<LinearAlgebraPattern>("LinearAlgebra");
}

} // namespace tfc
