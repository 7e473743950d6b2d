//===- EmitReductions.cpp - reductions and row kernels ----------------------===//
//
// Reductions over constant axes and the kernels over the rows of a 2-D
// view (Softmax, LogSoftmax) as calls of the runtime's kernels.
//
//===----------------------------------------------------------------------===//

#include "StepEmitter.h"

#include "tfc/Dialect/Tfg/NodeUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace tfc {

/// Kernels over the rows of a 2-D view of their input: Softmax, LogSoftmax.
LogicalResult StepEmitter::emitRowKernel(Operation *node, StringRef kernelName) {
  Value input = tfg::getDataOperands(node)[0];
  auto type = cast<RankedTensorType>(input.getType());
  if (!type.getElementType().isF32() || type.getRank() < 1)
    return error(node) << "code generation supports float32 only for now";
  int64_t cols = type.getShape().back();
  int64_t rows = cols == 0 ? 0 : type.getNumElements() / cols;
  Value out = memrefFor(tfg::getDataResults(node)[0]);
  if (!out)
    return error(node) << "output has no buffer";
  Location loc = node->getLoc();
  SmallVector<Value> args = {runtime, pointerTo(memrefFor(input)),
                             pointerTo(out),
                             builder.create<arith::ConstantIntOp>(loc, rows, 64),
                             builder.create<arith::ConstantIntOp>(loc, cols, 64)};
  builder.create<func::CallOp>(
      loc, kernel(kernelName, ValueRange(args).getTypes()), args);
  return success();
}

/// Sum/Mean/Max/Min/Prod over a contiguous run of axes given by a Const.
LogicalResult StepEmitter::emitReduction(Operation *node) {
  Value input = tfg::getDataOperands(node)[0];
  auto in = cast<RankedTensorType>(input.getType());
  if (!in.getElementType().isF32())
    return error(node) << "code generation supports float32 reductions only for now";
  std::optional<SmallVector<int64_t>> axes =
      constantInts(tfg::getDataOperands(node)[1]);
  if (!axes)
    return error(node) << "reduction axes must be constant";
  int64_t rank = in.getRank();
  SmallVector<int64_t> normalized;
  for (int64_t a : *axes)
    normalized.push_back(a < 0 ? a + rank : a);
  llvm::sort(normalized);
  normalized.erase(std::unique(normalized.begin(), normalized.end()),
                   normalized.end());
  for (size_t i = 1; i < normalized.size(); ++i)
    if (normalized[i] != normalized[i - 1] + 1)
      return error(node) << "code generation supports reducing contiguous "
                            "axes only for now";
  int64_t outer = 1, reduced = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d) {
    bool isReduced = llvm::is_contained(normalized, d);
    int64_t size = in.getDimSize(d);
    if (isReduced)
      reduced *= size;
    else if (normalized.empty() || d < normalized.front())
      outer *= size;
    else
      inner *= size;
  }
  StringRef type = tfg::getOpType(node);
  int32_t kind = llvm::StringSwitch<int32_t>(type)
                     .Case("Sum", 0)
                     .Case("Mean", 1)
                     .Case("Max", 2)
                     .Case("Min", 3)
                     .Default(4);
  Value out = memrefFor(tfg::getDataResults(node)[0]);
  if (!out)
    return error(node) << "output has no buffer";
  callKernel(node->getLoc(), "tfc_cpu_reduce_f32",
             {pointerTo(memrefFor(input)), pointerTo(out)},
             {outer, reduced, inner}, kind);
  return success();
}

} // namespace tfc
