//===- VerifySupported.cpp - refuse ops that nothing lowers ---------------===//
//
// Runs once the graph is cut down to what the step runs (after pruning and
// inlining), before any other work: every node whose op type the op table
// does not declare, or declares without a lowering, is reported in one
// error, grouped by op type with every node of the type. Then, when every
// op is lowered, every node with an attribute value its lowering does not
// handle (the table's `attrs`), in a second error grouped the same way:
// no lowering ever ignores an attribute and computes something else.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"

#include "llvm/ADT/MapVector.h"

#include <map>

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_VERIFYSUPPORTEDPASS
#include "tfc/Transforms/Passes.h.inc"

Refusals findRefusals(ModuleOp module) {
  // Op type -> its nodes, in IR order; "OpType attr=value: ..." -> the
  // nodes with that value. Function bodies are not checked: what a call
  // runs is checked where tfc-inline put it.
  Refusals refused;
  for (auto graph : module.getOps<tfg::GraphOp>()) {
    // A SavedModel's restore op, which tfc-freeze-variables replaces by
    // the checkpoint's values, is never compiled as it is (it may also
    // restore tables the step does not use).
    auto entry = graph->getAttrOfType<StringAttr>(kEntryAttr);
    if (module->hasAttr(kFreezeVariablesAttr) && entry &&
        entry.getValue() == "init")
      continue;
    graph.walk([&](Operation *op) {
      if (!tfg::isNode(op))
        return;
      const OpInfo *info = lookupOp(op);
      if (!info || !info->isLowered()) {
        refused.unsupported[tfg::getOpType(op).str()].push_back(op);
        return;
      }
      std::string attr = unhandledAttr(*info, op->getAttrDictionary());
      if (!attr.empty())
        refused.unhandled[(info->type + " " + attr).str()].push_back(op);
      // A static table is compiled as constants: those its initializer
      // gives, or the file it reads (tfc-bind-tables).
      if (opKindOf(op) == OpKind::HashTableV2 && !op->hasAttr(kTableKeysAttr))
        refused.unhandled["HashTableV2 filled by no initializer of constant "
                          "keys and values or of a file a constant names"]
            .push_back(op);
    });
  }
  return refused;
}

namespace {

/// Node names listed per op type before the rest are counted.
constexpr size_t kNamesShown = 5;

struct VerifySupportedPass
    : public impl::VerifySupportedPassBase<VerifySupportedPass> {
  void runOnOperation() override {
    Refusals refused = findRefusals(getOperation());
    if (!refused.unsupported.empty()) {
      report(refused.unsupported, "unsupported op type");
      return;
    }
    if (!refused.unhandled.empty())
      report(refused.unhandled, "unsupported attribute value");
  }

  /// One error listing every group with its nodes.
  void report(const Refusals::Groups &groups, StringRef what) {
    InFlightDiagnostic diag = groups.front().second.front()->emitError();
    diag << groups.size() << " " << what << (groups.size() == 1 ? "" : "s")
         << ": ";
    llvm::interleaveComma(groups, diag, [&](const auto &entry) {
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
