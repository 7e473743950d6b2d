//===- OrderVariableAccesses.cpp - reads of a variable before its writes --===//
//
// A variable's value lives in one buffer that writes (Assign, the
// optimizers' Apply ops, ...) update in place, and a read (Identity of a
// ref, ReadVariableOp) is that buffer itself, not a copy. TensorFlow leaves
// the order of a read and a write that no path connects unspecified; tfc
// fixes it the way training steps expect: a read sees the value the
// variable had before every write the read does not depend on. So that
// `loss`, the forward pass and a fetched variable all see the step's
// starting weights, while the train op updates them.
//
// For each read R of a variable and each write W of it that is not an
// ancestor of R, every node that sees R's memory (R, the aliases of it
// such as Reshape, and their users) gets a control edge to W. When one of
// those nodes depends on W itself, no order can make it see the old value
// in place: R is marked `tfc.snapshot` (code generation copies the value)
// and R alone precedes W.
//
// Nodes that read a variable without aliasing it (ResourceGather,
// VarIsInitializedOp) precede the writes they do not depend on too.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"
#include "tfc/Transforms/Variables.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_ORDERVARIABLEACCESSESPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

/// Whether a path of data or control edges leads from `from` to `to`.
bool reaches(Operation *from, Operation *to) {
  if (from == to)
    return true;
  llvm::DenseSet<Operation *> seen;
  SmallVector<Operation *> worklist = {to};
  while (!worklist.empty()) {
    Operation *node = worklist.pop_back_val();
    for (Value operand : node->getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if (!producer || producer->getBlock() != to->getBlock())
        continue;
      if (producer == from)
        return true;
      if (seen.insert(producer).second)
        worklist.push_back(producer);
    }
  }
  return false;
}

/// The nodes that see a read's memory: the read, its aliases (transitively)
/// and their data users.
SmallVector<Operation *> observersOf(Operation *read) {
  llvm::SetVector<Operation *> observers;
  observers.insert(read);
  if (!isVariableRead(read) || read->hasAttr(kSnapshotAttr))
    return observers.takeVector();
  for (size_t i = 0; i < observers.size(); ++i) {
    Operation *node = observers[i];
    if (node != read && !isAlias(node))
      continue;
    for (Value result : tfg::getDataResults(node))
      for (Operation *user : result.getUsers())
        if (tfg::isNode(user))
          observers.insert(user);
  }
  return observers.takeVector();
}

struct OrderVariableAccessesPass
    : public impl::OrderVariableAccessesPassBase<OrderVariableAccessesPass> {
  PassCounter numEdges{this, "edges", "control edges added from reads to writes"};
  PassCounter numSnapshots{this, "snapshots", "reads that copy the value"};

  void runOnOperation() override {
    numEdges = 0;
    numSnapshots = 0;
    for (Block *body : getBodies(getOperation()))
      orderBody(*body);
  }

  void orderBody(Block &body) {
    // Per variable: the nodes reading it and the nodes writing it.
    llvm::MapVector<StringRef, std::pair<SmallVector<Operation *>,
                                         SmallVector<Operation *>>> accesses;
    llvm::StringMap<std::string> ids;
    for (Operation &node : body) {
      if (!tfg::isNode(&node) || isVariableNode(&node))
        continue;
      bool writes = writesVariables(&node);
      // Nodes that only pass a reference on neither read nor write: an
      // Identity of a handle, and the control flow nodes that carry one
      // into, around and out of a loop or cond.
      if (!writes && !isVariableRead(&node) &&
          (plainOpKindOf(&node) == OpKind::Identity ||
           isTf1ControlFlow(&node)))
        continue;
      llvm::SmallSetVector<StringRef, 4> variables;
      for (Value operand : tfg::getDataOperands(&node)) {
        if (!isVariableReference(operand.getType()))
          continue;
        Operation *variable = variableNodeOf(operand);
        if (!variable)
          continue;
        std::string id = variableId(variable);
        variables.insert(ids.try_emplace(id, id).first->getKey());
      }
      for (StringRef id : variables)
        (writes ? accesses[id].second : accesses[id].first).push_back(&node);
    }

    OpBuilder builder(body.getParentOp()->getContext());
    auto addEdge = [&](Operation *from, Operation *to) {
      to->insertOperands(to->getNumOperands(), tfg::getControlToken(from));
      ++numEdges;
    };
    for (auto &[id, lists] : accesses) {
      auto &[reads, writes] = lists;
      for (Operation *read : reads) {
        // A read nothing uses is seen by nothing: it needs no order (and
        // one left in a loop, its users gone, would otherwise get an edge
        // across the loop's boundary).
        if (isVariableRead(read) &&
            llvm::all_of(tfg::getDataResults(read),
                         [](Value result) { return result.use_empty(); }))
          continue;
        for (Operation *write : writes) {
          if (write == read || reaches(write, read))
            continue; // The read sees the written value: it depends on it.
          SmallVector<Operation *> observers = observersOf(read);
          bool needsCopy = llvm::any_of(observers, [&](Operation *observer) {
            return observer != write && reaches(write, observer);
          });
          if (needsCopy) {
            if (!read->hasAttr(kSnapshotAttr)) {
              read->setAttr(kSnapshotAttr, builder.getUnitAttr());
              ++numSnapshots;
            }
            observers = {read};
          }
          // Users first: once they precede the write, so does the read.
          for (Operation *observer : llvm::reverse(observers))
            if (observer != write && !reaches(observer, write))
              addEdge(observer, write);
        }
      }
    }
  }
};

} // namespace
} // namespace tfc
