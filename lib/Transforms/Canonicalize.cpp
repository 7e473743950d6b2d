//===- Canonicalize.cpp - graph simplifications that are always safe ------===//
//
// The rewrites TensorFlow's own graph optimizers treat as safe, each applied
// only where no control, device or dataflow semantics can change:
//
//  1. Identity forwarding. Identity, StopGradient, PreventGradient and
//     IdentityN pass values through. Consumers read the input directly, and
//     `^identity` becomes `^producer`. Not when the node has control inputs
//     (they order the value), is a root, reads a ref (the read happens when
//     it runs), sits on another device than its producer (it is a copy), or
//     reads a Switch (such Identities are the pivots of TF1 conds).
//  2. NoOp forwarding. A NoOp that only gathers control edges is bypassed:
//     each consumer depends on the NoOp's control inputs directly, when that
//     does not add edges (inputs x users <= inputs + users, TensorFlow's
//     dependency optimizer rule) and no device is involved. Not roots.
//  3. Duplicate control inputs are dropped.
//  4. A control input from a node whose data output is also an input is
//     dropped: the data edge already orders them. Not on control-flow ops,
//     whose control edges carry deadness.
//  5. A control input from a stateless node without inputs (a constant, an
//     argument) is dropped: such a node is ready at the start of the step
//     and never dead, so the edge orders nothing. (Not on control-flow ops
//     either, to keep their edges as written.)
//  6. A stateless node whose data outputs nothing reads, but whose control
//     output something waits for, becomes a NoOp with the same name,
//     device and ordering (control inputs from its inputs' producers and
//     its own control inputs), as TensorFlow's dependency optimizer does:
//     waiting for a computation nobody reads only needs its inputs ready.
//     Not a node reading a Switch: it is alive with one output of the
//     Switch only, and a control edge from the Switch would not be.
//     TensorFlow's gradients make such nodes: each gradient's `tuple`
//     waits for every input gradient, also those of inputs (the features
//     of the first layer) that no variable needs. Not for ops that can
//     fail at run time (the failure would be lost), control-flow ops, or
//     roots; only where unused nodes may go.
//
// The rules run to a fixed point. Where tfc-remove-dead-nodes would erase
// unused nodes, this pass erases those its rewrites leave unused too, since
// that can enable further rewrites.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/Passes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_CANONICALIZEPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

/// Whether `node` reads an output of a Switch: it is alive with that one
/// output (a cond's pivot), which a control edge from the Switch is not.
bool readsSwitch(Operation *node) {
  return llvm::any_of(tfg::getDataOperands(node), [](Value input) {
    Operation *producer = input.getDefiningOp();
    return producer && tfg::isNode(producer) &&
           plainOpKindOf(producer) == OpKind::Switch;
  });
}

bool isIdentityLike(Operation *node) {
  return llvm::is_contained({OpKind::Identity, OpKind::IdentityN,
                             OpKind::StopGradient, OpKind::PreventGradient},
                            opKindOf(node));
}

/// Requested and assigned device of a node, or of nothing for arguments.
std::pair<StringRef, StringRef> devicesOf(Value value) {
  Operation *producer = value.getDefiningOp();
  if (!producer)
    return {};
  return {tfg::getRequestedDevice(producer), tfg::getAssignedDevice(producer)};
}

/// Replaces control operand `token` of `user` by `replacements`, keeping
/// data operands first and control operands unique.
void replaceControlOperand(Operation *user, Value token,
                           ArrayRef<Value> replacements) {
  SmallVector<Value> operands(tfg::getDataOperands(user));
  llvm::SetVector<Value> control;
  for (Value operand : tfg::getControlOperands(user)) {
    if (operand == token)
      control.insert(replacements.begin(), replacements.end());
    else
      control.insert(operand);
  }
  operands.append(control.begin(), control.end());
  user->setOperands(operands);
}

class Canonicalizer {
public:
  explicit Canonicalizer(llvm::StringSet<> roots) : roots(std::move(roots)) {}

  /// Applies the rules to `node`; true if the IR changed.
  bool simplify(Operation *node) {
    if (isIdentityLike(node) && forwardIdentity(node))
      return true;
    if (opKindOf(node) == OpKind::NoOp && forwardNoOp(node))
      return true;
    return pruneControlInputs(node);
  }

  unsigned forwarded = 0, controlEdgesRemoved = 0;

private:
  /// Rule 1.
  bool forwardIdentity(Operation *node) {
    if (node->use_empty() || !tfg::getControlOperands(node).empty() ||
        isRoot(node, roots))
      return false;
    OperandRange inputs = tfg::getDataOperands(node);
    ResultRange outputs = tfg::getDataResults(node);
    if (inputs.size() != outputs.size() || inputs.empty() || readsSwitch(node))
      return false;
    std::pair<StringRef, StringRef> devices = {tfg::getRequestedDevice(node),
                                               tfg::getAssignedDevice(node)};
    Operation *producer = inputs[0].getDefiningOp();
    for (Value input : inputs) {
      if (isa<tfg::RefType>(cast<TensorType>(input.getType()).getElementType()))
        return false;
      if (devicesOf(input) != devices)
        return false;
      Operation *inputProducer = input.getDefiningOp();
      // The control token can only be forwarded to one producer node.
      if (inputProducer != producer)
        producer = nullptr;
    }
    Value token = tfg::getControlToken(node);
    if (!token.use_empty() && !producer)
      return false;
    for (auto [input, output] : llvm::zip(inputs, outputs))
      output.replaceAllUsesWith(input);
    if (!token.use_empty())
      token.replaceAllUsesWith(tfg::getControlToken(producer));
    ++forwarded;
    return true;
  }

  /// Rule 2.
  bool forwardNoOp(Operation *node) {
    if (isRoot(node, roots) || !tfg::getRequestedDevice(node).empty() ||
        !tfg::getAssignedDevice(node).empty())
      return false;
    Value token = tfg::getControlToken(node);
    SmallVector<Value> inputs(tfg::getControlOperands(node));
    llvm::SetVector<Operation *> users;
    for (Operation *user : token.getUsers())
      users.insert(user);
    if (users.empty() ||
        inputs.size() * users.size() > inputs.size() + users.size())
      return false;
    for (Operation *user : users)
      if (!tfg::isNode(user))
        return false; // tfg.return names its control results.
    for (Operation *user : users)
      replaceControlOperand(user, token, inputs);
    ++forwarded;
    return true;
  }

  /// Rules 3, 4 and 5.
  bool pruneControlInputs(Operation *node) {
    OperandRange control = tfg::getControlOperands(node);
    if (control.empty())
      return false;
    llvm::SetVector<Value> kept;
    bool flowSensitive = isControlFlow(node);
    for (Value token : control) {
      Operation *producer = token.getDefiningOp();
      bool impliedByData =
          !flowSensitive && !isControlFlow(producer) &&
          llvm::any_of(tfg::getDataOperands(node), [&](Value input) {
            return input.getDefiningOp() == producer;
          });
      bool fromSource = !flowSensitive && producer->getNumOperands() == 0 &&
                        !isStateful(producer) && !isControlFlow(producer);
      bool redundant = impliedByData || fromSource;
      if (!redundant)
        kept.insert(token);
    }
    if (kept.size() == control.size())
      return false;
    controlEdgesRemoved += control.size() - kept.size();
    SmallVector<Value> operands(tfg::getDataOperands(node));
    operands.append(kept.begin(), kept.end());
    node->setOperands(operands);
    return true;
  }

  llvm::StringSet<> roots;
};

/// Ops that can stop a step with an error: rule 6 keeps them.
bool canFail(Operation *node) {
  switch (opKindOf(node)) {
  case OpKind::SparseSoftmaxCrossEntropyWithLogits:
  case OpKind::GatherV2:
  case OpKind::Gather:
  case OpKind::ResourceGather:
  case OpKind::GatherNd:
  case OpKind::CheckNumerics:
  case OpKind::EnsureShape:
    return true;
  default:
    return false;
  }
}

/// Whether `node` takes a ref (Assign, Apply*, ref reads: TensorFlow marks
/// these stateless, but they update or observe a variable).
bool readsOrWritesRefs(Operation *node) {
  return llvm::any_of(tfg::getDataOperands(node), [](Value input) {
    return isa<tfg::RefType>(cast<TensorType>(input.getType()).getElementType());
  });
}

/// TensorFlow's internal ops (arguments, results, transfers): rule 6 keeps
/// them.
bool isInternalOp(Operation *node) {
  return llvm::is_contained({OpKind::InternalArg, OpKind::InternalRetval,
                             OpKind::InternalSend, OpKind::InternalRecv,
                             OpKind::InternalHostSend,
                             OpKind::InternalHostRecv},
                            opKindOf(node));
}

/// Rule 6 over a body, consumers first (a node turned NoOp leaves its
/// producers' outputs unused); the number of nodes turned.
unsigned replaceWaitedOnlyNodes(Block &body, const llvm::StringSet<> &roots) {
  unsigned replaced = 0;
  SmallVector<Operation *> order = topologicalOrder(body);
  for (Operation *node : llvm::reverse(order)) {
    if (!tfg::isNode(node) || opKindOf(node) == OpKind::NoOp ||
        tfg::getDataResults(node).empty() || isRoot(node, roots) ||
        isStateful(node) || isControlFlow(node) || canFail(node) ||
        isInternalOp(node) || readsOrWritesRefs(node) ||
        tfg::getControlToken(node).use_empty() ||
        llvm::any_of(tfg::getDataResults(node),
                     [](Value result) { return !result.use_empty(); }) ||
        readsSwitch(node))
      continue;
    llvm::SetVector<Value> control;
    for (Value input : tfg::getDataOperands(node))
      if (Operation *producer = input.getDefiningOp())
        control.insert(tfg::getControlToken(producer));
    for (Value token : tfg::getControlOperands(node))
      control.insert(token);
    SmallVector<NamedAttribute> attrs;
    for (StringRef name :
         {tfg::kNameAttr, tfg::kDeviceAttr, tfg::kAssignedDeviceAttr})
      if (Attribute value = node->getAttr(name))
        attrs.push_back(NamedAttribute(StringAttr::get(node->getContext(), name), value));
    OpBuilder builder(node);
    Operation *noOp = tfg::createNode(builder, node->getLoc(), "NoOp", {}, {},
                                      control.getArrayRef(), attrs);
    tfg::getControlToken(node).replaceAllUsesWith(tfg::getControlToken(noOp));
    node->erase();
    ++replaced;
  }
  return replaced;
}

struct CanonicalizePass : public impl::CanonicalizePassBase<CanonicalizePass> {
  PassCounter numForwarded{this, "forwarded", "Identity and NoOp nodes bypassed"};
  PassCounter numErased{this, "erased", "nodes left unused and erased"};
  PassCounter numControlEdgesRemoved{this, "control-edges-removed",
                                     "redundant control inputs removed"};
  PassCounter numWaitedOnly{this, "waited-only",
                            "computations only waited for, turned NoOps"};
  void runOnOperation() override {
    numErased = 0; // Reported even when nothing happens.
    numWaitedOnly = 0;
    Canonicalizer canonicalizer(getRootNames(getOperation()));
    llvm::StringSet<> roots = getRootNames(getOperation());
    for (Block *body : getBodies(getOperation())) {
      // Each change can enable others on the neighbours: iterate to a fixed
      // point over a worklist. Where unused nodes may go, nodes a rewrite
      // leaves unused are erased at once (their producers then have fewer
      // users, which can enable NoOp forwarding).
      bool erase = canEraseUnusedNodes(*body);
      uint64_t erasedBefore = numErased.value();
      if (erase)
        numWaitedOnly += replaceWaitedOnlyNodes(*body, roots);
      llvm::SetVector<Operation *> worklist;
      for (Operation &op : *body)
        if (tfg::isNode(&op))
          worklist.insert(&op);
      while (!worklist.empty()) {
        Operation *node = worklist.pop_back_val();
        // Producers and users before the change: a rewrite moves edges
        // between them.
        SmallVector<Operation *> neighbours(node->getUsers());
        for (Value operand : node->getOperands())
          if (Operation *producer = operand.getDefiningOp())
            neighbours.push_back(producer);
        if (erase && isDead(node, roots)) {
          node->erase();
          ++numErased;
        } else if (canonicalizer.simplify(node)) {
          worklist.insert(node);
        } else {
          continue;
        }
        for (Operation *neighbour : neighbours)
          if (tfg::isNode(neighbour))
            worklist.insert(neighbour);
      }
      if (numErased.value() != erasedBefore)
        updateColocations(*body);
    }
    numForwarded = canonicalizer.forwarded;
    numControlEdgesRemoved = canonicalizer.controlEdgesRemoved;
  }
};

} // namespace
} // namespace tfc
