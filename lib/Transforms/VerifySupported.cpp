//===- VerifySupported.cpp - refuse ops that nothing lowers ---------------===//
//
// Runs once the graph is cut down to what the step runs (after pruning and
// inlining), before any other work: every node whose op type the op table
// does not declare, or declares without a lowering, is reported in one
// error, grouped by op type with every node of the type.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"

#include "llvm/ADT/MapVector.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_VERIFYSUPPORTEDPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

/// Node names listed per op type before the rest are counted.
constexpr size_t kNamesShown = 5;

struct VerifySupportedPass
    : public impl::VerifySupportedPassBase<VerifySupportedPass> {
  void runOnOperation() override {
    // Op type -> its nodes, in IR order. Function bodies are not checked:
    // what a call runs is checked where tfc-inline put it.
    llvm::MapVector<StringRef, SmallVector<Operation *>> unsupported;
    for (auto graph : getOperation().getOps<tfg::GraphOp>())
      graph.walk([&](Operation *op) {
        if (!tfg::isNode(op))
          return;
        const OpInfo *info = lookupOp(op);
        if (!info || !info->isLowered())
          unsupported[tfg::getOpType(op)].push_back(op);
      });
    if (unsupported.empty())
      return;
    InFlightDiagnostic diag = unsupported.front().second.front()->emitError();
    diag << unsupported.size() << " unsupported op type"
         << (unsupported.size() == 1 ? "" : "s") << ": ";
    llvm::interleaveComma(unsupported, diag, [&](const auto &entry) {
      ArrayRef<Operation *> nodes = entry.second;
      diag << entry.first << " (node" << (nodes.size() == 1 ? " " : "s ");
      ArrayRef<Operation *> shown = nodes.take_front(kNamesShown);
      llvm::interleaveComma(shown, diag, [&](Operation *node) {
        diag << "'" << tfg::getNodeName(node) << "'";
      });
      if (nodes.size() > shown.size())
        diag << " and " << nodes.size() - shown.size() << " more";
      diag << ")";
    });
    signalPassFailure();
  }
};

} // namespace
} // namespace tfc
