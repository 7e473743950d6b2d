//===- EmitStacks.cpp - the stacks of TF1 loop gradients ------------------===//
//
// StackV2 makes its stack empty, StackPushV2 copies its element onto it
// (its output is the element, an alias of its input), StackPopV2 copies
// the last element off into its output buffer: calls of the runtime's
// stack ops (tfc_runtime.h) on the stack's number, which the pass gives
// every StackV2 node of the program (kStackSlotAttr). A push or pop finds
// its stack through the handle's Enter nodes at compile time.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Stacks.h"

using namespace mlir;

namespace tfc {

LogicalResult StepEmitter::emitStackOp(Operation *node) {
  Location loc = node->getLoc();
  OpKind kind = opKindOf(node);
  Operation *stack =
      isStackNode(node) ? node : stackNodeOf(tfg::getDataOperands(node)[0]);
  auto slot = stack ? stack->getAttrOfType<IntegerAttr>(kStackSlotAttr) : nullptr;
  if (!slot)
    return error(node) << "cannot trace its handle to the StackV2 that made it";
  if (kind == OpKind::StackCloseV2)
    return success();
  if (isStackNode(node)) {
    callKernel(loc, "tfc_stack_clear", {}, {slot.getInt()});
    return success();
  }
  if (kind == OpKind::StackPushV2) {
    Value element = tfg::getDataOperands(node)[1];
    Value buffer = memrefFor(element);
    if (!buffer)
      return error(node) << "the element has no buffer";
    int64_t bytes = tensorBytes(element.getType());
    callKernel(loc, "tfc_stack_push", {pointerTo(buffer)}, {slot.getInt(), bytes});
    memrefs[tfg::getDataResults(node)[0]] = buffer;
    return success();
  }
  FailureOr<Value> out = outputFor(node);
  if (failed(out))
    return failure();
  int64_t bytes = tensorBytes(tfg::getDataResults(node)[0].getType());
  callKernel(loc, "tfc_stack_pop",
             {pointerTo(*out), stringPointer(loc, tfg::getNodeName(node))},
             {slot.getInt(), bytes});
  return success();
}

void populateStackPatterns(CodegenPatterns &patterns) {
  patterns.add<EmitterPattern<&StepEmitter::emitStackOp>>("StackOp");
}

} // namespace tfc
