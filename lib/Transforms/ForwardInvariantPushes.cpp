//===- ForwardInvariantPushes.cpp - pops that read the variable instead ---===//
//
// TensorFlow's gradient of a while loop keeps what the gradient loop needs
// of each forward iteration in accumulators: lists the forward loop pushes
// to and the gradient loop pops from in reverse. A Keras RNN cell reads
// its kernels inside the loop, so the forward loop pushes each kernel
// every iteration (an LSTM of 64 units over 20 steps: 20 pushes of 64x256
// floats) and the gradient loop pops each back, though every element is
// the same: the variable's value, which nothing changes before the
// gradients are applied. This pass has the gradient loop read the
// variable where it popped the element; the pops' gathers go. (The lists
// stay, pushed and popped: their lengths are loop variables.)
//
// A TensorListPopBack's element is replaced when
//  * its list is a variable of its loop that only this pop changes (the
//    loop's NextIteration takes the pop's list),
//  * entering from the Exit of another loop's list variable that starts
//    empty (EmptyTensorList) and that only one push changes, of a
//    ReadVariableOp of a variable V,
//  * both loops are outermost, and
//  * every node that writes V is downstream of the gradient loop, so that
//    it runs after that loop's last pop: the value pushed and the value
//    read agree; and every user of the element leads to those writes
//    already, so that tfc-order-variable-accesses, which puts a read's
//    users before the writes, has no edge to add across the loop's
//    boundary.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/Frames.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"
#include "tfc/Transforms/Variables.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_FORWARDINVARIANTPUSHESPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

/// The node of kind `kind` that made `value` (through Identity nodes), or
/// null if another node did.
Operation *madeBy(Value value, OpKind kind) {
  Operation *producer = skipIdentities(value).getDefiningOp();
  return producer && tfg::isNode(producer) && plainOpKindOf(producer) == kind
             ? producer
             : nullptr;
}

/// The Merge of the loop variable whose Switch output `port` `list` is
/// (through Identity nodes: 1 in the loop's body, 0 to its Exit), or null.
Operation *loopVariableOf(Value list, unsigned port) {
  Value source = skipIdentities(list);
  Operation *switchNode = madeBy(source, OpKind::Switch);
  if (!switchNode || cast<OpResult>(source).getResultNumber() != port)
    return nullptr;
  return madeBy(tfg::getDataOperands(switchNode)[0], OpKind::Merge);
}

/// A loop variable's Enter and NextIteration (the Merge's two inputs).
struct VariableEnds {
  Operation *enter = nullptr, *next = nullptr;
};
VariableEnds endsOf(Operation *merge) {
  VariableEnds ends;
  ValueRange inputs = tfg::getDataOperands(merge);
  if (inputs.size() != 2)
    return {};
  for (Value input : inputs) {
    Operation *producer = input.getDefiningOp();
    if (!producer || !tfg::isNode(producer))
      return {};
    OpKind kind = plainOpKindOf(producer);
    if (kind == OpKind::Enter && !ends.enter)
      ends.enter = producer;
    else if (kind == OpKind::NextIteration && !ends.next)
      ends.next = producer;
    else
      return {};
  }
  return ends;
}

struct ForwardInvariantPushesPass
    : public impl::ForwardInvariantPushesPassBase<ForwardInvariantPushesPass> {
  void runOnOperation() override {
    for (auto graph : getOperation().getOps<tfg::GraphOp>())
      if (failed(run(graph.getBody())))
        return signalPassFailure();
  }

  LogicalResult run(Block &body) {
    SmallVector<Operation *> pops;
    for (Operation &op : body)
      if (tfg::isNode(&op) && plainOpKindOf(&op) == OpKind::TensorListPopBack)
        pops.push_back(&op);
    if (pops.empty())
      return success();
    FailureOr<std::unique_ptr<FrameInfo>> frames = FrameInfo::analyze(body);
    if (failed(frames))
      return success(); // (Loops this cannot follow are left as they are.)
    for (Operation *pop : pops)
      forward(pop, **frames, body);
    return success();
  }

  /// The variable every element of `pop`'s list holds, or null.
  Operation *invariantVariable(Operation *pop, const FrameInfo &frames,
                               Operation *&gradientEnter) {
    auto outermost = [&](Operation *node) {
      Frame *frame = frames.frameOf(node);
      return frame && !frame->parent;
    };
    // The gradient loop: the pop alone changes its list.
    Operation *merge = loopVariableOf(tfg::getDataOperands(pop)[0], 1);
    if (!merge || !outermost(merge))
      return nullptr;
    VariableEnds gradient = endsOf(merge);
    if (!gradient.enter ||
        tfg::getDataOperands(gradient.next)[0] != pop->getResult(0))
      return nullptr;
    // The forward loop's list, leaving by its Exit.
    Operation *exit =
        madeBy(tfg::getDataOperands(gradient.enter)[0], OpKind::Exit);
    if (!exit)
      return nullptr;
    Operation *forwardMerge = loopVariableOf(tfg::getDataOperands(exit)[0], 0);
    if (!forwardMerge || !outermost(forwardMerge))
      return nullptr;
    VariableEnds forward = endsOf(forwardMerge);
    if (!forward.enter ||
        !madeBy(tfg::getDataOperands(forward.enter)[0],
                OpKind::EmptyTensorList))
      return nullptr;
    // One push changes it, of a variable's value.
    Operation *push =
        madeBy(tfg::getDataOperands(forward.next)[0], OpKind::TensorListPushBack);
    if (!push || tfg::getDataOperands(forward.next)[0] != push->getResult(0) ||
        loopVariableOf(tfg::getDataOperands(push)[0], 1) != forwardMerge)
      return nullptr;
    Operation *read =
        madeBy(tfg::getDataOperands(push)[1], OpKind::ReadVariableOp);
    if (!read)
      return nullptr;
    gradientEnter = gradient.enter;
    return variableNodeOf(tfg::getDataOperands(read)[0]);
  }

  /// The nodes downstream of `from` (data and control edges), `from`
  /// included.
  static llvm::DenseSet<Operation *> downstreamOf(ArrayRef<Operation *> from) {
    llvm::DenseSet<Operation *> downstream;
    SmallVector<Operation *> work(from.begin(), from.end());
    while (!work.empty()) {
      Operation *node = work.pop_back_val();
      if (!downstream.insert(node).second)
        continue;
      for (Operation *user : node->getUsers())
        if (tfg::isNode(user))
          work.push_back(user);
    }
    return downstream;
  }

  /// The nodes writing `variable`, if every one runs after `loop`:
  /// downstream of the loop's nodes, outside it (what leaves a loop does so
  /// by its Exits, which the loop's whole run precedes). Fails if one does
  /// not, or if a node writes a variable this cannot tell apart from it.
  FailureOr<SmallVector<Operation *>>
  writersAfter(Operation *variable, const Frame &loop, Block &body) {
    llvm::DenseSet<Operation *> inside(loop.allNodes.begin(),
                                       loop.allNodes.end());
    llvm::DenseSet<Operation *> downstream = downstreamOf(loop.allNodes);
    SmallVector<Operation *> writers;
    for (Operation &op : body) {
      if (!tfg::isNode(&op) || !writesVariables(&op))
        continue;
      bool after = downstream.contains(&op) && !inside.contains(&op);
      for (Value operand : tfg::getDataOperands(&op))
        if (isVariableReference(operand.getType())) {
          Operation *written = variableNodeOf(operand);
          if (!written && !after)
            return failure();
          if (written == variable) {
            if (!after)
              return failure();
            writers.push_back(&op);
            break;
          }
        }
    }
    return writers;
  }

  /// Whether what will observe the read in the element's place (its users,
  /// through aliases) leads to every writer already, so that ordering the
  /// read before the writes (tfc-order-variable-accesses) adds no edge:
  /// one from inside the gradient loop to a node after it would cross the
  /// loop's boundary.
  bool observersPrecede(Value element, ArrayRef<Operation *> writers) {
    SmallVector<Operation *> observers;
    llvm::DenseSet<Operation *> seen;
    SmallVector<Value> values = {element};
    while (!values.empty()) {
      Value value = values.pop_back_val();
      for (Operation *user : value.getUsers()) {
        if (!tfg::isNode(user) || !seen.insert(user).second)
          continue;
        observers.push_back(user);
        if (isAlias(user))
          llvm::append_range(values, tfg::getDataResults(user));
      }
    }
    for (Operation *observer : observers) {
      llvm::DenseSet<Operation *> downstream = downstreamOf({observer});
      if (!llvm::all_of(writers, [&](Operation *writer) {
            return downstream.contains(writer);
          }))
        return false;
    }
    return true;
  }

  void forward(Operation *pop, const FrameInfo &frames, Block &body) {
    Operation *gradientEnter = nullptr;
    Operation *variable = invariantVariable(pop, frames, gradientEnter);
    if (!variable)
      return;
    FailureOr<SmallVector<Operation *>> writers =
        writersAfter(variable, *frames.frameOf(gradientEnter), body);
    Value element = tfg::getDataResults(pop)[1];
    if (failed(writers) || !observersPrecede(element, *writers))
      return;
    Value handle = tfg::getDataResults(variable)[0];
    OpBuilder b(pop);
    std::string name = tfg::getNodeName(pop).str();
    SmallVector<NamedAttribute> enterAttrs;
    for (NamedAttribute attr : gradientEnter->getAttrs())
      if (llvm::is_contained({"frame_name", "parallel_iterations"},
                             attr.getName().strref()))
        enterAttrs.push_back(attr);
    enterAttrs.push_back(b.getNamedAttr(
        "T", TypeAttr::get(getElementTypeOrSelf(handle.getType()))));
    enterAttrs.push_back(b.getNamedAttr("is_constant", b.getBoolAttr(true)));
    Operation *enter =
        createNodeLike(b, pop, "Enter", name + "/variable/Enter",
                       handle.getType(), {handle}, {}, enterAttrs);
    Operation *read = createNodeLike(
        b, pop, "ReadVariableOp", name + "/variable/ReadVariableOp",
        element.getType(), {tfg::getDataResults(enter)[0]}, {},
        {b.getNamedAttr("dtype", TypeAttr::get(getElementTypeOrSelf(
                                     element.getType())))});
    element.replaceAllUsesWith(tfg::getDataResults(read)[0]);
    ++forwarded;
  }

  PassCounter forwarded{this, "forwarded",
                        "Pops of an accumulator of a variable's value "
                        "replaced by a read of the variable"};
};

} // namespace
} // namespace tfc
