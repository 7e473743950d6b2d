//===- Stacks.cpp - the stacks of TF1 loop gradients ----------------------===//

#include "tfc/Transforms/Stacks.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/Variables.h"


using namespace mlir;

namespace tfc {

bool isStackNode(Operation *node) {
  if (!tfg::isNode(node))
    return false;
  StringRef type = tfg::getOpType(node);
  return type == "StackV2" || type == "Stack";
}

bool isStackOp(Operation *node) {
  if (!tfg::isNode(node))
    return false;
  StringRef type = tfg::getOpType(node);
  return isStackNode(node) || type == "StackPushV2" || type == "StackPopV2" ||
         type == "StackCloseV2";
}

Operation *stackNodeOf(Value handle) {
  return sourceNodeOf(handle, isStackNode);
}

SmallVector<Operation *> pushesTo(Operation *stack) {
  SmallVector<Operation *> pushes;
  for (Operation &op : *stack->getBlock())
    if (tfg::isNode(&op) && tfg::getOpType(&op) == "StackPushV2" &&
        stackNodeOf(tfg::getDataOperands(&op)[0]) == stack)
      pushes.push_back(&op);
  return pushes;
}

} // namespace tfc
