//===- EmitElementwise.cpp - fused elementwise loops ------------------------===//
//
// Each elementwise group (see tfc-fuse-elementwise) becomes one
// linalg.generic over the group's external inputs, broadcast by indexing
// maps, whose body computes every member element by element.
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

/// The scalar computation of one elementwise node on element values.
FailureOr<Value> StepEmitter::emitScalar(Operation *node,
                                         ArrayRef<Value> in, Location loc) {
  StringRef type = tfg::getOpType(node);
  Type element = cast<TensorType>(tfg::getDataResults(node)[0].getType())
                     .getElementType();
  if (!isa<FloatType>(element))
    return error(node) << "code generation supports float elementwise ops "
                          "only for now";
  auto zero = [&] {
    return builder.create<arith::ConstantOp>(loc, builder.getFloatAttr(element, 0.0));
  };
  if (type == "Add" || type == "AddV2" || type == "BiasAdd")
    return Value(builder.create<arith::AddFOp>(loc, in[0], in[1]));
  if (type == "Sub")
    return Value(builder.create<arith::SubFOp>(loc, in[0], in[1]));
  if (type == "Mul")
    return Value(builder.create<arith::MulFOp>(loc, in[0], in[1]));
  if (type == "RealDiv" || type == "Div")
    return Value(builder.create<arith::DivFOp>(loc, in[0], in[1]));
  if (type == "Maximum")
    return Value(builder.create<arith::MaximumFOp>(loc, in[0], in[1]));
  if (type == "Minimum")
    return Value(builder.create<arith::MinimumFOp>(loc, in[0], in[1]));
  if (type == "SquaredDifference") {
    Value d = builder.create<arith::SubFOp>(loc, in[0], in[1]);
    return Value(builder.create<arith::MulFOp>(loc, d, d));
  }
  if (type == "Neg")
    return Value(builder.create<arith::NegFOp>(loc, in[0]));
  if (type == "Abs")
    return Value(builder.create<math::AbsFOp>(loc, in[0]));
  if (type == "Square")
    return Value(builder.create<arith::MulFOp>(loc, in[0], in[0]));
  if (type == "Sqrt")
    return Value(builder.create<math::SqrtOp>(loc, in[0]));
  if (type == "Rsqrt")
    return Value(builder.create<math::RsqrtOp>(loc, in[0]));
  if (type == "Exp")
    return Value(builder.create<math::ExpOp>(loc, in[0]));
  if (type == "Log")
    return Value(builder.create<math::LogOp>(loc, in[0]));
  if (type == "Log1p")
    return Value(builder.create<math::Log1pOp>(loc, in[0]));
  if (type == "Tanh")
    return Value(builder.create<math::TanhOp>(loc, in[0]));
  if (type == "Erf")
    return Value(builder.create<math::ErfOp>(loc, in[0]));
  if (type == "Erfc") {
    // MLIR 19's math dialect has no erfc, and 1 - erf(x) loses the tail:
    // call the C library's erfcf.
    if (!element.isF32())
      return error(node) << "code generation supports float32 Erfc only";
    func::FuncOp erfc = kernel("erfcf", TypeRange{element});
    erfc.setType(builder.getFunctionType(element, element));
    return builder.create<func::CallOp>(loc, erfc, in[0]).getResult(0);
  }
  if (type == "Relu")
    // NaN propagates, as in TensorFlow.
    return Value(builder.create<arith::MaximumFOp>(loc, in[0], zero()));
  if (type == "Relu6") {
    Value six = builder.create<arith::ConstantOp>(
        loc, builder.getFloatAttr(element, 6.0));
    Value relu = builder.create<arith::MaximumFOp>(loc, in[0], zero());
    return Value(builder.create<arith::MinimumFOp>(loc, relu, six));
  }
  if (type == "Sigmoid") {
    Value one = builder.create<arith::ConstantOp>(
        loc, builder.getFloatAttr(element, 1.0));
    Value e = builder.create<math::ExpOp>(
        loc, builder.create<arith::NegFOp>(loc, in[0]));
    return Value(builder.create<arith::DivFOp>(
        loc, one, builder.create<arith::AddFOp>(loc, one, e)));
  }
  return error(node) << "no code generation for this op yet";
}

/// One linalg.generic for an elementwise group: inputs are the group's
/// external operands, broadcast to the root's shape.
LogicalResult StepEmitter::emitGroup(Operation *root) {
  Location loc = root->getLoc();
  Value rootResult = tfg::getDataResults(root)[0];
  auto outType = cast<RankedTensorType>(rootResult.getType());
  int64_t rank = outType.getRank();

  // Members in dependency order (the group's nodes, root last).
  SmallVector<Operation *> members = groups.lookup(tfg::getNodeName(root));
  members.push_back(root);
  llvm::DenseSet<Operation *> inGroup(members.begin(), members.end());

  SmallVector<Value> inputs;   // External tensor values, deduplicated.
  SmallVector<AffineMap> maps;
  for (Operation *member : members)
    for (Value operand : tfg::getDataOperands(member)) {
      if (inGroup.contains(operand.getDefiningOp()) ||
          llvm::is_contained(inputs, operand))
        continue;
      auto type = cast<RankedTensorType>(operand.getType());
      // Right-aligned broadcasting: size-1 (and missing) dims read index 0.
      SmallVector<AffineExpr> exprs;
      for (int64_t d = 0; d < type.getRank(); ++d) {
        int64_t outDim = rank - type.getRank() + d;
        exprs.push_back(type.getDimSize(d) == 1 && outType.getDimSize(outDim) != 1
                            ? builder.getAffineConstantExpr(0)
                            : builder.getAffineDimExpr(outDim));
      }
      inputs.push_back(operand);
      maps.push_back(AffineMap::get(rank, 0, exprs, context));
    }
  maps.push_back(builder.getMultiDimIdentityMap(rank));
  SmallVector<Value> inputMemrefs;
  for (Value input : inputs) {
    Value memref = memrefFor(input);
    if (!memref)
      return error(root) << "an input has no buffer";
    inputMemrefs.push_back(memref);
  }
  Value output = memrefFor(rootResult);
  if (!output)
    return error(root) << "output has no buffer";

  SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
  LogicalResult result = success();
  builder.create<linalg::GenericOp>(
      loc, inputMemrefs, output, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPoint(nested.getInsertionBlock(),
                                  nested.getInsertionPoint());
        llvm::DenseMap<Value, Value> scalars;
        for (auto [value, arg] : llvm::zip(inputs, args))
          scalars[value] = arg;
        Value last;
        for (Operation *member : members) {
          SmallVector<Value> in;
          for (Value operand : tfg::getDataOperands(member))
            in.push_back(scalars.lookup(operand));
          FailureOr<Value> v = emitScalar(member, in, nestedLoc);
          if (failed(v)) {
            result = failure();
            v = Value(args.back()); // Keep the body well formed.
          }
          scalars[tfg::getDataResults(member)[0]] = *v;
          last = *v;
        }
        builder.create<linalg::YieldOp>(nestedLoc, last);
      });
  return result;
}

} // namespace tfc
