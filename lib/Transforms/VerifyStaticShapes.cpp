//===- VerifyStaticShapes.cpp - ask for the shapes code generation needs --===//
//
// Code generation needs every tensor's shape at compile time. This pass
// finds the first node of each entry (in topological order) with a data
// output of unknown shape and reports it, together with the feeds it depends
// on whose shapes are not fully given, and the flag that would fix it:
//
//   node 'dense/MatMul' (MatMul) has output shape [?,16], unknown at compile
//   time: it depends on feed 'x:0' of shape [?,784]; give it, e.g.
//   --feed x:0=1,784
//
// Resource, variant and string outputs are handles or opaque values and need
// no shape.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"
#include "tfc/Transforms/ShapeInference.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_VERIFYSTATICSHAPESPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

std::string describe(Type type) { return Shape::fromType(type).str(); }

/// The _Arg nodes of unknown shape that `node` depends on.
SmallVector<Operation *> unknownFeedsOf(Operation *node) {
  SmallVector<Operation *> feeds, worklist{node};
  llvm::DenseSet<Operation *> seen;
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!seen.insert(op).second)
      continue;
    if (opKindOf(op) == OpKind::InternalArg &&
        !Shape::fromType(op->getResult(0).getType()).isStatic())
      feeds.push_back(op);
    for (Value operand : op->getOperands())
      if (Operation *producer = operand.getDefiningOp())
        if (tfg::isNode(producer))
          worklist.push_back(producer);
  }
  llvm::sort(feeds, [](Operation *a, Operation *b) {
    return a->getAttrOfType<IntegerAttr>("index").getInt() <
           b->getAttrOfType<IntegerAttr>("index").getInt();
  });
  return feeds;
}

struct VerifyStaticShapesPass
    : public impl::VerifyStaticShapesPassBase<VerifyStaticShapesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto feedNames = module->getAttrOfType<ArrayAttr>(kFeedsAttr);
    for (auto graph : module.getOps<tfg::GraphOp>()) {
      if (!graph->hasAttr(kEntryAttr))
        continue;
      for (Operation *node : topologicalOrder(graph.getBody())) {
        if (!tfg::isNode(node))
          continue;
        auto unknown = llvm::find_if(tfg::getDataResults(node), [](Value v) {
          return needsShape(v) && !Shape::fromType(v.getType()).isStatic();
        });
        if (unknown == tfg::getDataResults(node).end())
          continue;
        auto feedName = [&](Operation *feed) {
          int64_t index = feed->getAttrOfType<IntegerAttr>("index").getInt();
          return feedNames && index < static_cast<int64_t>(feedNames.size())
                     ? cast<StringAttr>(feedNames[index]).str()
                     : tfg::getNodeName(feed).str();
        };
        SmallVector<Operation *> feeds = unknownFeedsOf(node);
        InFlightDiagnostic diag = node->emitError();
        if (opKindOf(node) == OpKind::InternalArg) {
          diag << "feed '" << feedName(node) << "' has shape "
               << describe((*unknown).getType())
               << ", unknown at compile time";
        } else {
          diag << "node '" << tfg::getNodeName(node) << "' ("
               << tfg::getOpType(node) << ") has output shape "
               << describe((*unknown).getType())
               << ", unknown at compile time";
          if (feeds.empty()) {
            diag << "; no feed shape decides it: the data does, and tfc plans "
                    "for a bound only where it finds one (Where, Unique, "
                    "DynamicPartition, NonMaxSuppression, a sparse accumulator's "
                    "take)";
            return signalPassFailure();
          }
          SmallVector<std::string> given;
          for (Operation *feed : feeds)
            given.push_back("feed '" + feedName(feed) + "' of shape " +
                            describe(feed->getResult(0).getType()));
          diag << ": it depends on " << llvm::join(given, ", ");
        }
        // Suggest 1 for unknown sizes (a batch of one).
        SmallVector<std::string> hints;
        for (Operation *feed : feeds) {
          Shape shape = Shape::fromType(feed->getResult(0).getType());
          if (!shape.ranked)
            continue;
          SmallVector<std::string> dims;
          for (int64_t d : shape.dims)
            dims.push_back(ShapedType::isDynamic(d) ? "1" : std::to_string(d));
          hints.push_back("--feed " + feedName(feed) + "=" +
                          llvm::join(dims, ","));
        }
        if (!hints.empty())
          diag << "; give " << (hints.size() == 1 ? "its shape" : "their shapes")
               << ", e.g. " << llvm::join(hints, " ");
        // A dimension past the batch may be a length the data decides
        // (a sequence's): a bound serves every size up to it.
        for (Operation *feed : feeds) {
          Shape shape = Shape::fromType(feed->getResult(0).getType());
          for (int64_t d = 1; shape.ranked && d < shape.rank(); ++d)
            if (ShapedType::isDynamic(shape.dims[d])) {
              diag << "; or bound a size the data decides, e.g. "
                      "--max-dim "
                   << feedName(feed) << ":" << d << "=512";
              return signalPassFailure();
            }
        }
        return signalPassFailure();
      }
    }
  }
};

} // namespace
} // namespace tfc
