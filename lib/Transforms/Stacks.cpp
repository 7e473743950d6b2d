//===- Stacks.cpp - the stacks of TF1 loop gradients ----------------------===//

#include "tfc/Transforms/Stacks.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Variables.h"


using namespace mlir;

namespace tfc {

bool isStackNode(Operation *node) {
  if (!tfg::isNode(node))
    return false;
  OpKind kind = opKindOf(node);
  return kind == OpKind::StackV2 || kind == OpKind::Stack;
}

bool isStackOp(Operation *node) {
  if (!tfg::isNode(node))
    return false;
  OpKind kind = opKindOf(node);
  return isStackNode(node) || kind == OpKind::StackPushV2 ||
         kind == OpKind::StackPopV2 || kind == OpKind::StackCloseV2;
}

Operation *stackNodeOf(Value handle) {
  return sourceNodeOf(handle, isStackNode);
}

SmallVector<Operation *> pushesTo(Operation *stack) {
  SmallVector<Operation *> pushes;
  for (Operation &op : *stack->getBlock())
    if (tfg::isNode(&op) && opKindOf(&op) == OpKind::StackPushV2 &&
        stackNodeOf(tfg::getDataOperands(&op)[0]) == stack)
      pushes.push_back(&op);
  return pushes;
}

} // namespace tfc
