//===- EmitTensorArrays.cpp - TF1 TensorArrays ----------------------------===//
//
// TensorArrayV3 (re)makes its array, zeroed; TensorArrayGradV3 makes its
// gradient array once per step; writes and scatters copy rows in (adding
// them up in a gradient array), reads and gathers copy rows out: calls of
// the runtime's TensorArray ops (tfc_runtime.h) on the array's number,
// which the pass gives every forward array and every (forward array,
// source) of a gradient (kTensorArraySlotAttr). The flow outputs, which
// only order the ops, are zeros.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/TensorArrays.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace tfc {

namespace {

/// The TensorArray*V3 ops: the runtime's TensorArray ops.
class TensorArrayOpPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    Location loc = node->getLoc();
    OpKind kind = opKindOf(node);
    OperandRange operands = tfg::getDataOperands(node);
    if (kind == OpKind::TensorArrayCloseV3)
      return success();
    bool makes =
        kind == OpKind::TensorArrayV3 || kind == OpKind::TensorArrayGradV3;
    Operation *array = makes ? node : tensorArrayOf(operands[0]);
    Operation *forward = forwardArrayOf(array);
    auto slot = array ? array->getAttrOfType<IntegerAttr>(kTensorArraySlotAttr)
                      : nullptr;
    if (!slot || !forward)
      return step.error(node) << "cannot trace its handle to the TensorArrayV3 "
                                 "that made it";
    std::optional<int64_t> size = tensorArraySize(forward);
    std::optional<SmallVector<int64_t>> shape =
        tensorArrayElementShape(forward);
    if (!size || !shape)
      return step.error(node)
             << "the TensorArray's size or element shape is not static";
    auto dtype = forward->getAttrOfType<TypeAttr>("dtype");
    int64_t rowBytes =
        tensorBytes(RankedTensorType::get(*shape, dtype.getValue()));
    bool gradient = opKindOf(array) == OpKind::TensorArrayGradV3;

    // The flow output (the last, but for a gradient's handle) is a zero.
    auto zeroFlow = [&](unsigned port) -> LogicalResult {
      FailureOr<Value> flow = step.outputFor(node, port);
      if (failed(flow))
        return failure();
      step.builder.create<memref::StoreOp>(
          loc,
          step.builder.create<arith::ConstantOp>(
              loc, step.builder.getF32FloatAttr(0)),
          *flow, ValueRange{});
      return success();
    };
    auto buffer = [&](Value value) -> FailureOr<Value> {
      Value memref = step.memrefFor(value);
      if (!memref)
        return step.error(node) << "an input has no buffer";
      return memref;
    };
    Value name = step.stringPointer(loc, tfg::getNodeName(node));

    // An array of dynamic size (tfc-bound-growable-lists): planned for its
    // capacity, its length the runtime's.
    bool growing = forward->hasAttr(kListCapacityAttr);
    if (kind == OpKind::TensorArrayV3) {
      std::optional<SmallVector<int64_t>> made =
          constantInts(tfg::getDataOperands(forward)[0]);
      int64_t length = growing && made && made->size() == 1 ? (*made)[0] : *size;
      step.callKernel(loc, "tfc_tensor_array_init", {},
                      {slot.getInt(), *size, rowBytes, length});
      return zeroFlow(1);
    }
    if (kind == OpKind::TensorArrayGradV3) {
      auto forwardSlot =
          forward->getAttrOfType<IntegerAttr>(kTensorArraySlotAttr);
      step.callKernel(loc, "tfc_tensor_array_grad", {},
                      {slot.getInt(), forwardSlot.getInt(), rowBytes});
      return zeroFlow(1);
    }
    if (kind == OpKind::TensorArraySizeV3) {
      FailureOr<Value> out = step.outputFor(node);
      if (failed(out))
        return failure();
      if (growing) {
        step.callKernel(loc, "tfc_tensor_array_size", {step.pointerTo(*out)},
                        {slot.getInt()});
        return success();
      }
      step.builder.create<memref::StoreOp>(
          loc, step.builder.create<arith::ConstantIntOp>(loc, *size, 32), *out,
          ValueRange{});
      return success();
    }
    if (kind == OpKind::TensorArraySplitV3) {
      // The parts, k rows each, are the first elements in order.
      FailureOr<Value> rows = buffer(operands[1]);
      if (failed(rows))
        return failure();
      if (!splitLength(node) || *splitLength(node) != (*shape)[0])
        return step.error(node)
               << "splits into lengths that are not one constant";
      int64_t count =
          cast<MemRefType>(rows->getType()).getDimSize(0) / (*shape)[0];
      step.callKernel(loc, "tfc_tensor_array_write",
                      {step.nullPointer(loc), step.pointerTo(*rows), name},
                      {slot.getInt(), count, rowBytes, gradient ? 1 : 0});
      return zeroFlow(0);
    }
    if (kind == OpKind::TensorArrayConcatV3) {
      // Every element in order, and each one's length k.
      FailureOr<Value> out = step.outputFor(node, 0);
      FailureOr<Value> lengths = step.outputFor(node, 1);
      if (failed(out) || failed(lengths))
        return failure();
      step.callKernel(loc, "tfc_tensor_array_read",
                      {step.nullPointer(loc), step.pointerTo(*out), name},
                      {slot.getInt(), *size, rowBytes, 0});
      step.builder.create<linalg::FillOp>(
          loc,
          step.builder
              .create<arith::ConstantIntOp>(
                  loc, shape->empty() ? 1 : (*shape)[0], 64)
              .getResult(),
          *lengths);
      return success();
    }
    FailureOr<Value> indices = buffer(operands[1]);
    if (failed(indices))
      return failure();
    int64_t count = cast<MemRefType>(indices->getType()).getNumElements();
    if (kind == OpKind::TensorArrayWriteV3 ||
        kind == OpKind::TensorArrayScatterV3) {
      FailureOr<Value> rows = buffer(operands[2]);
      if (failed(rows))
        return failure();
      if (gradient && !dtype.getValue().isF32())
        return step.error(node) << "gradients of TensorArrays of "
                                << dtype.getValue() << " are not supported";
      step.callKernel(loc, "tfc_tensor_array_write",
                      {step.pointerTo(*indices), step.pointerTo(*rows), name},
                      {slot.getInt(), count, rowBytes, gradient ? 1 : 0});
      return zeroFlow(0);
    }
    if (kind == OpKind::TensorArrayReadV3 ||
        kind == OpKind::TensorArrayGatherV3) {
      FailureOr<Value> out = step.outputFor(node);
      if (failed(out))
        return failure();
      // (A stack of an array of dynamic size: padding indices are -1,
      // tfc-bound-dynamic-rows.)
      step.callKernel(
          loc, "tfc_tensor_array_read",
          {step.pointerTo(*indices), step.pointerTo(*out), name},
          {slot.getInt(), count, rowBytes,
           node->hasAttr(kSkipNegativeIndicesAttr) ? 1 : 0});
      return success();
    }
    return step.error(node) << "this TensorArray op is not supported yet";
  }
};

} // namespace

void populateTensorArrayPatterns(CodegenPatterns &patterns) {
  patterns.add<TensorArrayOpPattern>("TensorArrayOp");
}

} // namespace tfc
