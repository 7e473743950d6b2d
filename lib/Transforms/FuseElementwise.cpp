//===- FuseElementwise.cpp - group elementwise chains ---------------------===//
//
// Marks which elementwise nodes code generation computes together in one
// loop nest. An elementwise node is fused into its consumer when that
// consumer is elementwise too, is its only user (data and control), has the
// same output shape, and is on the same device. Each group is then a tree
// whose root is the only node whose value leaves the group; the other
// members carry `tfc.fused_into = "<root name>"`. Their values never exist
// in memory: the root's loop computes them element by element.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpClasses.h"
#include "tfc/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_FUSEELEMENTWISEPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

/// Equal static shapes (element types may differ: Cast fuses).
bool sameShape(Value a, Value b) {
  auto ta = dyn_cast<RankedTensorType>(a.getType());
  auto tb = dyn_cast<RankedTensorType>(b.getType());
  return ta && tb && ta.hasStaticShape() && ta.getShape() == tb.getShape();
}

struct FuseElementwisePass
    : public impl::FuseElementwisePassBase<FuseElementwisePass> {
  PassCounter numFused{this, "fused", "nodes fused into a consumer"};

  void runOnOperation() override {
    numFused = 0; // Reported even when nothing happens.
    Builder builder(&getContext());
    for (Block *body : getBodies(getOperation())) {
      // Visit consumers after producers, so that a producer joins the group
      // its consumer ends up in.
      SmallVector<Operation *> order = topologicalOrder(*body);
      llvm::DenseMap<Operation *, Operation *> root;
      for (Operation *node : llvm::reverse(order)) {
        if (!tfg::isNode(node) || !isElementwise(node))
          continue;
        Operation *consumer = nullptr;
        if (node->hasOneUse())
          consumer = *node->getUsers().begin();
        Value result = tfg::getDataResults(node).empty()
                           ? Value()
                           : tfg::getDataResults(node)[0];
        if (!consumer || !result || !result.hasOneUse() ||
            !tfg::isNode(consumer) || !isElementwise(consumer) ||
            consumer->getBlock() != body ||
            tfg::getRequestedDevice(consumer) != tfg::getRequestedDevice(node) ||
            tfg::getAssignedDevice(consumer) != tfg::getAssignedDevice(node) ||
            !sameShape(tfg::getDataResults(consumer)[0], result))
          continue;
        Operation *groupRoot = root.lookup(consumer);
        if (!groupRoot)
          groupRoot = consumer;
        root[node] = groupRoot;
        node->setAttr("tfc.fused_into",
                      builder.getStringAttr(tfg::getNodeName(groupRoot)));
        ++numFused;
      }
    }
  }
};

} // namespace
} // namespace tfc
