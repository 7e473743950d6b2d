//===- RemoveDeadNodes.cpp - erase nodes nothing needs --------------------===//
//
// After a rewrite, nodes whose results (data and control) are all unused
// can go, unless they are stateful (their effect is the point) or roots
// (`_Retval`, sends, targets, init nodes). Their inputs are then looked at
// again. Graphs are only cleaned once pruned to an entry: in a raw graph an
// unused output is something a caller may still fetch. Function bodies are
// always cleaned: their results are what tfg.return uses.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/Passes.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_REMOVEDEADNODESPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

struct RemoveDeadNodesPass
    : public impl::RemoveDeadNodesPassBase<RemoveDeadNodesPass> {
  PassCounter numRemoved{this, "removed", "nodes removed"};
  void runOnOperation() override {
    numRemoved = 0; // Reported even when nothing happens.
    ModuleOp module = getOperation();
    llvm::StringSet<> roots = getRootNames(module);
    for (Block *body : getBodies(module)) {
      if (!canEraseUnusedNodes(*body))
        continue;
      uint64_t removedBefore = numRemoved.value();
      llvm::SetVector<Operation *> worklist;
      for (Operation &op : *body)
        worklist.insert(&op);
      while (!worklist.empty()) {
        Operation *node = worklist.pop_back_val();
        if (!isDead(node, roots))
          continue;
        for (Value operand : node->getOperands())
          if (Operation *producer = operand.getDefiningOp())
            worklist.insert(producer);
        node->erase();
        ++numRemoved;
      }
      if (numRemoved.value() != removedBefore)
        updateColocations(*body);
    }
  }
};

} // namespace
} // namespace tfc
