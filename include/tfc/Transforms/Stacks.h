//===- Stacks.h - the stacks of TF1 loop gradients --------------*- C++ -*-===//
//
// A TF1 while loop's gradient keeps the values of each forward iteration
// that it needs on stacks (StackV2): the forward loop pushes them
// (StackPushV2), the gradient loop pops them in reverse (StackPopV2). The
// handle of a stack enters both loops as a constant; these functions find
// the stack behind a handle and the pushes to a stack.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TRANSFORMS_STACKS_H
#define TFC_TRANSFORMS_STACKS_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

namespace tfc {

/// StackV2 or Stack.
bool isStackNode(mlir::Operation *node);

/// StackV2, StackPushV2, StackPopV2 or StackCloseV2.
bool isStackOp(mlir::Operation *node);

/// The stack node that made `handle`, seen through Enter, Identity, Switch,
/// Exit and Merge; null if it cannot be traced.
mlir::Operation *stackNodeOf(mlir::Value handle);

/// The StackPushV2 nodes that push to `stack`.
llvm::SmallVector<mlir::Operation *> pushesTo(mlir::Operation *stack);

} // namespace tfc

#endif // TFC_TRANSFORMS_STACKS_H
