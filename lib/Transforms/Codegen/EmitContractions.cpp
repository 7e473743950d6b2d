//===- EmitContractions.cpp - MatMul, BatchMatMul, Einsum -------------------===//
//
// Matrix products as calls of the runtime's GEMM kernels: MatMul with its
// transposes, and BatchMatMul and Einsum as one strided batched product
// whose layout is a constant descriptor; a product by a constant matrix
// (a dense layer, with the epilogue tfc-fuse-elementwise gave it) as one
// call of the dense kernel, which keeps the matrix in its own layout; and
// attention (a fusion group of two such products with a softmax between
// them) as one kernel call.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "tfc/Dialect/Tfc/TfcDialect.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/StridedProducts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace tfc {

namespace {

/// MatMul: the matmul_f32 kernel, with its transposes.
class MatMulPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    if (denseLayerOf(node))
      return step.emitDense(node);
    OperandRange inputs = tfg::getDataOperands(node);
    auto a = cast<RankedTensorType>(inputs[0].getType());
    auto c = cast<RankedTensorType>(tfg::getDataResults(node)[0].getType());
    if (!a.getElementType().isF32())
      return step.error(node)
             << "code generation supports float32 MatMul only for now";
    bool ta = boolAttr(node, "transpose_a"), tb = boolAttr(node, "transpose_b");
    int64_t m = c.getDimSize(0), n = c.getDimSize(1);
    int64_t k = a.getDimSize(ta ? 0 : 1);
    Value pa = step.pointerTo(step.memrefFor(inputs[0]));
    Value pb = step.pointerTo(step.memrefFor(inputs[1]));
    Value out = step.memrefFor(tfg::getDataResults(node)[0]);
    if (!out)
      return step.error(node) << "output has no buffer";
    Value pc = step.pointerTo(out);
    Location loc = node->getLoc();
    auto i64 = [&](int64_t v) {
      return step.builder.create<arith::ConstantIntOp>(loc, v, 64);
    };
    auto i32 = [&](int64_t v) {
      return step.builder.create<arith::ConstantIntOp>(loc, v, 32);
    };
    SmallVector<Value> args = {step.runtime, pa, pb, pc, i64(m), i64(k),
                               i64(n), i32(ta), i32(tb)};
    func::FuncOp callee =
        step.kernel(step.kernelName("matmul_f32"), ValueRange(args).getTypes());
    step.builder.create<func::CallOp>(loc, callee, args);
    return success();
  }
};

/// BatchMatMul(V1-V3) and two-operand Einsum: one call of the
/// strided_matmul_f32 kernel, with the product's layout
/// (StridedProducts.h) as a constant descriptor.
class StridedMatMulPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    if (denseLayerOf(node))
      return step.emitDense(node);
    std::string why;
    FailureOr<StridedProduct> product = stridedProductOf(node, why);
    if (failed(product))
      return step.error(node) << why;
    Location loc = node->getLoc();
    FailureOr<Value> out = step.outputFor(node);
    if (failed(out))
      return failure();
    Value table = step.constantTable(loc, product->descriptor());
    OperandRange inputs = tfg::getDataOperands(node);
    step.callKernel(loc, step.kernelName("strided_matmul_f32"),
                    {step.pointerTo(step.memrefFor(inputs[0])),
                     step.pointerTo(step.memrefFor(inputs[1])),
                     step.pointerTo(*out), step.pointerTo(table)},
                    {});
    return success();
  }
};

} // namespace

LogicalResult StepEmitter::emitDense(Operation *node,
                                     const Epilogue *epilogue) {
  std::optional<DenseLayer> layer = denseLayerOf(node);
  if (!layer)
    return error(node) << "not a product by a constant matrix";
  Value out =
      memrefFor(tfg::getDataResults(epilogue ? epilogue->root : node)[0]);
  if (!out)
    return error(node) << "output has no buffer";
  FailureOr<EpilogueOperands> operands = epilogueOperands(node, epilogue, out);
  if (failed(operands))
    return failure();
  // The call site's parameters; their address also keys its cached
  // primitive and its weights in the primitive's layout.
  tfc_dense_params params{};
  params.m = layer->m;
  params.k = layer->k;
  params.n = layer->n;
  params.transpose_b = layer->transposeB;
  params.activation = epilogue ? epilogue->activation : TFC_ACTIVATION_NONE;
  params.has_bias = epilogue && epilogue->bias;
  params.residual = operands->residualMode;
  Location loc = node->getLoc();
  OperandRange inputs = tfg::getDataOperands(node);
  callKernel(loc, kernelName("dense_f32"),
             {pointerTo(memrefFor(inputs[0])),
              pointerTo(memrefFor(valueOutsideGroup(inputs[1]))),
              operands->bias, operands->residual, pointerTo(out),
              constantParams(loc, params)},
             {});
  return success();
}

LogicalResult StepEmitter::emitAttention(ArrayRef<Operation *> members) {
  // Members: the scores' product, an optional Mul by a one-element scale,
  // the Softmax, the context's product (see tfc-fuse-elementwise).
  Operation *scoresNode = members.front(), *contextNode = members.back();
  std::string why;
  FailureOr<StridedProduct> scores = stridedProductOf(scoresNode, why);
  if (failed(scores))
    return error(scoresNode) << why;
  FailureOr<StridedProduct> context = stridedProductOf(contextNode, why);
  if (failed(context))
    return error(contextNode) << why;
  Location loc = contextNode->getLoc();
  Value scale = nullPointer(loc);
  if (members.size() == 4) {
    OperandRange in = tfg::getDataOperands(members[1]);
    Value factor = in[0] == tfg::getDataResults(scoresNode)[0] ? in[1] : in[0];
    scale = pointerTo(memrefFor(factor));
  }
  FailureOr<Value> out = outputFor(contextNode);
  if (failed(out))
    return failure();
  Value scoresTable = constantTable(loc, scores->descriptor());
  Value contextTable = constantTable(loc, context->descriptor());
  OperandRange query = tfg::getDataOperands(scoresNode);
  callKernel(loc, kernelName("attention_f32"),
             {pointerTo(memrefFor(query[0])), pointerTo(memrefFor(query[1])),
              pointerTo(memrefFor(tfg::getDataOperands(contextNode)[1])),
              scale, pointerTo(*out), pointerTo(scoresTable),
              pointerTo(contextTable)},
             {});
  return success();
}

void populateContractionPatterns(CodegenPatterns &patterns) {
  patterns.add<MatMulPattern>("MatMul");
  patterns.add<StridedMatMulPattern>("BatchMatMul");
  patterns.add<StridedMatMulPattern>("Einsum");
}

} // namespace tfc
