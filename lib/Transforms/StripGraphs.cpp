//===- StripGraphs.cpp - drop the graphs once the steps are written -------===//

#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_STRIPGRAPHSPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {
struct StripGraphsPass : public impl::StripGraphsPassBase<StripGraphsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (Operation &op : llvm::make_early_inc_range(*module.getBody()))
      if (isa<tfg::GraphOp, tfg::FuncOp>(op))
        op.erase();
    for (NamedAttribute attr : llvm::to_vector(module->getAttrs()))
      if (attr.getName().getValue().starts_with("tfg.") ||
          attr.getName().getValue().starts_with("tfc."))
        module->removeAttr(attr.getName());
  }
};
} // namespace
} // namespace tfc
