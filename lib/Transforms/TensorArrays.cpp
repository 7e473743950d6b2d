//===- TensorArrays.cpp - TF1 TensorArrays --------------------------------===//

#include "tfc/Transforms/TensorArrays.h"
#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Variables.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace tfc {

bool isTensorArrayOp(Operation *node) {
  if (!tfg::isNode(node))
    return false;
  // The TensorArrays family: every TensorArray*V3 op of the registry.
  const OpInfo *op = lookupOp(node);
  return op && op->family == OpFamily::TensorArrays;
}

Operation *tensorArrayOf(Value handle) {
  return sourceNodeOf(handle, [](Operation *node) {
    OpKind kind = opKindOf(node);
    return kind == OpKind::TensorArrayV3 || kind == OpKind::TensorArrayGradV3;
  });
}

Operation *forwardArrayOf(Operation *array) {
  while (array && opKindOf(array) == OpKind::TensorArrayGradV3)
    array = tensorArrayOf(tfg::getDataOperands(array)[0]);
  return array;
}

std::optional<int64_t> tensorArraySize(Operation *forward) {
  // (Of dynamic size: the capacity tfc-bound-growable-lists planned.)
  if (auto capacity = forward->getAttrOfType<IntegerAttr>(kListCapacityAttr))
    return capacity.getInt();
  auto size = constantInts(tfg::getDataOperands(forward)[0]);
  if (!size || size->size() != 1 || (*size)[0] < 0)
    return std::nullopt;
  return (*size)[0];
}

std::optional<int64_t> splitLength(Operation *split) {
  Value lengthsValue = tfg::getDataOperands(split)[2];
  // The gradient of a concat splits by the lengths the concat output: as
  // many parts as the concatenated array had elements, of equal rows.
  if (Operation *concat = lengthsValue.getDefiningOp();
      concat && tfg::isNode(concat) &&
      opKindOf(concat) == OpKind::TensorArrayConcatV3) {
    auto value = dyn_cast<RankedTensorType>(tfg::getDataResults(concat)[0].getType());
    Operation *forward = forwardArrayOf(tensorArrayOf(tfg::getDataOperands(concat)[0]));
    std::optional<int64_t> size = forward ? tensorArraySize(forward) : std::nullopt;
    if (!value || !value.hasStaticShape() || value.getRank() == 0 || !size ||
        *size == 0 || value.getDimSize(0) % *size != 0)
      return std::nullopt;
    return value.getDimSize(0) / *size;
  }
  auto lengths = constantInts(lengthsValue);
  if (!lengths || lengths->empty() ||
      llvm::any_of(*lengths, [&](int64_t k) { return k != lengths->front(); }))
    return std::nullopt;
  return lengths->front();
}

std::optional<SmallVector<int64_t>> tensorArrayElementShape(Operation *forward) {
  if (auto shape = forward->getAttrOfType<tfg::ShapeAttr>("element_shape"))
    if (!shape.getUnranked() &&
        llvm::none_of(shape.getDims(), [](int64_t d) { return d < 0; }))
      return SmallVector<int64_t>(shape.getDims());
  for (Operation &op : *forward->getBlock()) {
    if (!tfg::isNode(&op))
      continue;
    OpKind kind = opKindOf(&op);
    if (kind != OpKind::TensorArrayWriteV3 &&
        kind != OpKind::TensorArrayScatterV3 &&
        kind != OpKind::TensorArraySplitV3)
      continue;
    OperandRange in = tfg::getDataOperands(&op);
    if (forwardArrayOf(tensorArrayOf(in[0])) != forward)
      continue;
    Value stored = kind == OpKind::TensorArraySplitV3 ? in[1] : in[2];
    auto value = dyn_cast<RankedTensorType>(stored.getType());
    if (!value || !value.hasStaticShape())
      continue;
    SmallVector<int64_t> shape(value.getShape());
    if (kind == OpKind::TensorArrayWriteV3)
      return shape;
    if (shape.empty())
      continue;
    if (kind == OpKind::TensorArraySplitV3) {
      // Equal lengths k: elements [k, ...].
      std::optional<int64_t> each = splitLength(&op);
      if (!each)
        continue;
      shape[0] = *each;
      return shape;
    }
    return SmallVector<int64_t>(ArrayRef<int64_t>(shape).drop_front());
  }
  return std::nullopt;
}

} // namespace tfc
