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

namespace {

/// StackV2, StackPushV2, StackPopV2, StackCloseV2: the runtime's stack ops.
class StackOpPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    Location loc = node->getLoc();
    OpKind kind = opKindOf(node);
    Operation *stack =
        isStackNode(node) ? node : stackNodeOf(tfg::getDataOperands(node)[0]);
    auto slot =
        stack ? stack->getAttrOfType<IntegerAttr>(kStackSlotAttr) : nullptr;
    if (!slot)
      return step.error(node)
             << "cannot trace its handle to the StackV2 that made it";
    if (kind == OpKind::StackCloseV2)
      return success();
    if (isStackNode(node)) {
      step.callKernel(loc, "tfc_stack_clear", {}, {slot.getInt()});
      return success();
    }
    if (kind == OpKind::StackPushV2) {
      Value element = tfg::getDataOperands(node)[1];
      Value buffer = step.memrefFor(element);
      if (!buffer)
        return step.error(node) << "the element has no buffer";
      int64_t bytes = tensorBytes(element.getType());
      step.callKernel(loc, "tfc_stack_push", {step.pointerTo(buffer)},
                      {slot.getInt(), bytes});
      step.memrefs[tfg::getDataResults(node)[0]] = buffer;
      return success();
    }
    FailureOr<Value> out = step.outputFor(node);
    if (failed(out))
      return failure();
    int64_t bytes = tensorBytes(tfg::getDataResults(node)[0].getType());
    step.callKernel(
        loc, "tfc_stack_pop",
        {step.pointerTo(*out), step.stringPointer(loc, tfg::getNodeName(node))},
        {slot.getInt(), bytes});
    return success();
  }
};

} // namespace

void populateStackPatterns(CodegenPatterns &patterns) {
  patterns.add<StackOpPattern>("StackOp");
}

} // namespace tfc
