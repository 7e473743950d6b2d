//===- TfcOps.cpp - the fusion group --------------------------------------===//
//
// The group verifies its own layout (block arguments, yield, control
// token) without knowing the tfg dialect: the control token's type is the
// root's, and control operands are the operands of that type. The graph's
// verifier (tfg) checks the members as nodes.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfc/TfcDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;

#define GET_OP_CLASSES
#include "tfc/Dialect/Tfc/TfcOps.cpp.inc"

namespace tfc {

StringRef FusionGroupOp::getDefaultDialect() { return "tfg"; }

Value valueOutsideGroup(Value value) {
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    if (auto group =
            dyn_cast_or_null<FusionGroupOp>(argument.getOwner()->getParentOp()))
      return group.getInputOf(argument);
    return value;
  }
  Operation *producer = value.getDefiningOp();
  if (auto group = dyn_cast_or_null<FusionGroupOp>(producer->getParentOp()))
    if (producer == group.getRoot())
      return group->getResult(cast<OpResult>(value).getResultNumber());
  return value;
}

YieldOp FusionGroupOp::getYield() {
  return getMembers().empty() ? YieldOp()
                              : dyn_cast<YieldOp>(getMembers().back());
}

Operation *FusionGroupOp::getRoot() {
  YieldOp yield = getYield();
  if (!yield || yield.getValues().empty())
    return nullptr;
  return yield.getValues().front().getDefiningOp();
}

/// The number of data inputs: operands before the first control token.
static unsigned dataInputCount(FusionGroupOp group) {
  if (group.getOutputs().empty())
    return group.getInputs().size();
  Type control = group.getControlType();
  unsigned count = 0;
  while (count < group.getInputs().size() &&
         group.getInputs()[count].getType() != control)
    ++count;
  return count;
}

OperandRange FusionGroupOp::getDataInputs() {
  return getInputs().take_front(dataInputCount(*this));
}

OperandRange FusionGroupOp::getControlInputs() {
  return getInputs().drop_front(dataInputCount(*this));
}

LogicalResult FusionGroupOp::verify() {
  if (getOutputs().empty())
    return emitOpError("has no control token (its last result)");
  Type control = getControlType();
  if (llvm::any_of(getControlInputs(),
                   [&](Value input) { return input.getType() != control; }))
    return emitOpError("has a data input after its control inputs");
  if (llvm::any_of(getOutputs().drop_back(),
                   [&](Value output) { return output.getType() == control; }))
    return emitOpError("has a control token before its last result");
  return success();
}

LogicalResult FusionGroupOp::verifyRegions() {
  Block &members = getMembers();
  if (members.getNumArguments() != getDataInputs().size())
    return emitOpError("has ")
           << getDataInputs().size() << " data inputs but "
           << members.getNumArguments() << " block arguments";
  for (auto [input, argument] :
       llvm::zip(getDataInputs(), members.getArguments()))
    if (input.getType() != argument.getType())
      return emitOpError("block argument #")
             << argument.getArgNumber() << " has type " << argument.getType()
             << " but its input has type " << input.getType();
  YieldOp yield = getYield();
  if (!yield)
    return emitOpError("does not end with tfc.yield");
  if (yield.getValues().size() + 1 != getOutputs().size())
    return emitOpError("yields ")
           << yield.getValues().size() << " values for "
           << getOutputs().size() - 1 << " data results";
  for (auto [value, output] : llvm::zip(yield.getValues(), getOutputs()))
    if (value.getType() != output.getType())
      return emitOpError("yields a ")
             << value.getType() << " for a result of type " << output.getType();
  Operation *root = getRoot();
  if (!root || root->getBlock() != &members || root->getNumResults() == 0)
    return emitOpError("yields no result of a member (its root)");
  if (llvm::any_of(yield.getValues(), [&](Value value) {
        return value.getDefiningOp() != root;
      }))
    return emitOpError("yields results of more than one member");
  if (root->getResults().back().getType() != getControlType())
    return emitOpError("has a control token of type ")
           << getControlType() << ", its root's is "
           << root->getResults().back().getType();
  return success();
}

} // namespace tfc
