//===- LowerOptionals.cpp - the Optionals of TF2 cond gradients -----------===//
//
// A TF2 cond (If, control flow v2) that is differentiated hands the
// intermediates of the branch that ran to its gradient as extra outputs,
// wrapped in Optionals: each branch outputs OptionalFromValue of its own
// intermediates and OptionalNone for the other branch's, and the gradient
// If's branches unwrap them with OptionalGetValue. tfc-inline has made
// both Ifs conditionals (Switch and Merge), where only the branch that ran
// produces live values; an Optional is then just its value:
//
//   OptionalFromValue(x)    -> Identity(x)
//   OptionalGetValue(o)     -> Identity(o)
//   OptionalNone()          -> a zero Const of the type of the values it is
//                              merged with (it is never read: its branch
//                              did not run)
//
// and the nodes that carry an Optional (Enter, Merge, Switch, Identity,
// NextIteration, Exit) take the dense type.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_LOWEROPTIONALSPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

/// The static type of the value `optional` wraps, found from a Merge it
/// reaches through carriers to a wrapped value (`wrapped`: the Identities
/// that replaced OptionalFromValue, with the type of what they wrap).
RankedTensorType typeMergedWith(Value optional,
                                const llvm::DenseMap<Value, Type> &wrapped) {
  // Back from a Merge's input to what it carries.
  auto wrappedType = [&](Value start) -> RankedTensorType {
    llvm::DenseSet<Value> seen;
    SmallVector<Value> worklist = {start};
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      if (!seen.insert(value).second)
        continue;
      if (Type type = wrapped.lookup(value)) {
        auto ranked = dyn_cast<RankedTensorType>(type);
        if (ranked && ranked.hasStaticShape())
          return ranked;
        continue;
      }
      Operation *producer = value.getDefiningOp();
      if (producer && tfg::isNode(producer) &&
          carriesVariant(opKindOf(producer)))
        for (Value input : tfg::getDataOperands(producer))
          if (isVariant(input.getType()) || wrapped.count(input))
            worklist.push_back(input);
    }
    return nullptr;
  };
  llvm::DenseSet<Value> seen;
  SmallVector<Value> worklist = {optional};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    for (Operation *user : value.getUsers()) {
      if (!tfg::isNode(user) || !carriesVariant(opKindOf(user)))
        continue;
      if (opKindOf(user) == OpKind::Merge)
        for (Value input : tfg::getDataOperands(user))
          if (input != value)
            if (RankedTensorType type = wrappedType(input))
              return type;
      for (Value result : tfg::getDataResults(user))
        if (isVariant(result.getType()))
          worklist.push_back(result);
    }
  }
  return nullptr;
}

struct LowerOptionalsPass
    : public impl::LowerOptionalsPassBase<LowerOptionalsPass> {
  void runOnOperation() override {
    for (Block *body : getBodies(getOperation()))
      if (failed(lower(*body)))
        return signalPassFailure();
  }

  LogicalResult lower(Block &body) {
    SmallVector<Operation *> froms, nones, gets;
    for (Operation &op : body) {
      if (!tfg::isNode(&op))
        continue;
      OpKind kind = opKindOf(&op);
      if (kind == OpKind::OptionalHasValue) {
        tfg::nodeError(&op) << "is not supported (tfc lowers the Optionals of "
                          "cond gradients to their values)";
        return failure();
      }
      if ((kind == OpKind::OptionalFromValue ||
           kind == OpKind::OptionalGetValue) &&
          (tfg::getDataOperands(&op).size() != 1 ||
           tfg::getDataResults(&op).size() != 1)) {
        tfg::nodeError(&op) << "Optionals of several components are not supported";
        return failure();
      }
      if (kind == OpKind::OptionalFromValue)
        froms.push_back(&op);
      else if (kind == OpKind::OptionalNone)
        nones.push_back(&op);
      else if (kind == OpKind::OptionalGetValue)
        gets.push_back(&op);
    }
    if (froms.empty() && nones.empty() && gets.empty())
      return success();

    OpBuilder builder(body.getParentOp()->getContext());
    auto identity = [&](Operation *op, Value input, Type resultType) {
      builder.setInsertionPoint(op);
      Type element = cast<TensorType>(resultType).getElementType();
      return createNodeLike(builder, op, "Identity", tfg::getNodeName(op),
                            resultType, input, tfg::getControlOperands(op),
                            {builder.getNamedAttr("T", TypeAttr::get(element))});
    };
    auto replace = [](Operation *op, Operation *by) {
      tfg::getDataResults(op)[0].replaceAllUsesWith(by->getResult(0));
      tfg::getControlToken(op).replaceAllUsesWith(tfg::getControlToken(by));
      op->erase();
    };

    SmallVector<Value> dense;
    llvm::DenseMap<Value, Type> wrapped;
    for (Operation *from : froms) {
      Value component = tfg::getDataOperands(from)[0];
      Operation *id = identity(from, component, component.getType());
      wrapped[id->getResult(0)] = component.getType();
      dense.push_back(id->getResult(0));
      replace(from, id);
    }
    for (Operation *none : nones) {
      RankedTensorType type =
          typeMergedWith(tfg::getDataResults(none)[0], wrapped);
      if (!type) {
        tfg::nodeError(none) << "the type of the value it stands for is not known "
                           "(no static OptionalFromValue is merged with it)";
        return failure();
      }
      builder.setInsertionPoint(none);
      Operation *zeros = createConstLike(
          builder, none, tfg::getNodeName(none),
          DenseElementsAttr::get(type, builder.getZeroAttr(type.getElementType())),
          tfg::getControlOperands(none));
      dense.push_back(zeros->getResult(0));
      replace(none, zeros);
    }
    retypeVariantCarriers(dense);
    for (Operation *get : gets)
      replace(get, identity(get, tfg::getDataOperands(get)[0],
                            tfg::getDataResults(get)[0].getType()));
    return success();
  }
};

} // namespace
} // namespace tfc
