//===- TensorArrays.cpp - TF1 TensorArrays --------------------------------===//

#include "tfc/Transforms/TensorArrays.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/Variables.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace tfc {

bool isTensorArrayOp(Operation *node) {
  if (!tfg::isNode(node))
    return false;
  StringRef type = tfg::getOpType(node);
  return type.starts_with("TensorArray") && type.ends_with("V3");
}

Operation *tensorArrayOf(Value handle) {
  return sourceNodeOf(handle, [](Operation *node) {
    StringRef type = tfg::getOpType(node);
    return type == "TensorArrayV3" || type == "TensorArrayGradV3";
  });
}

Operation *forwardArrayOf(Operation *array) {
  while (array && tfg::getOpType(array) == "TensorArrayGradV3")
    array = tensorArrayOf(tfg::getDataOperands(array)[0]);
  return array;
}

std::optional<int64_t> tensorArraySize(Operation *forward) {
  auto size = constantInts(tfg::getDataOperands(forward)[0]);
  if (!size || size->size() != 1 || (*size)[0] < 0)
    return std::nullopt;
  return (*size)[0];
}

std::optional<SmallVector<int64_t>> tensorArrayElementShape(Operation *forward) {
  if (auto shape = forward->getAttrOfType<tfg::ShapeAttr>("element_shape"))
    if (!shape.getUnranked() &&
        llvm::none_of(shape.getDims(), [](int64_t d) { return d < 0; }))
      return SmallVector<int64_t>(shape.getDims());
  for (Operation &op : *forward->getBlock()) {
    if (!tfg::isNode(&op))
      continue;
    StringRef type = tfg::getOpType(&op);
    if (type != "TensorArrayWriteV3" && type != "TensorArrayScatterV3")
      continue;
    if (forwardArrayOf(tensorArrayOf(tfg::getDataOperands(&op)[0])) != forward)
      continue;
    auto value = dyn_cast<RankedTensorType>(tfg::getDataOperands(&op)[2].getType());
    if (!value || !value.hasStaticShape())
      continue;
    ArrayRef<int64_t> shape = value.getShape();
    if (type == "TensorArrayScatterV3") {
      if (shape.empty())
        continue;
      shape = shape.drop_front();
    }
    return SmallVector<int64_t>(shape);
  }
  return std::nullopt;
}

} // namespace tfc
