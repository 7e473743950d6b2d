//===- VerifySupported.cpp - reject op types tfc does not know ------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/OpRegistry.h"
#include "tfc/Transforms/Passes.h"

#include "llvm/ADT/MapVector.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_VERIFYSUPPORTEDPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {
struct VerifySupportedPass
    : public impl::VerifySupportedPassBase<VerifySupportedPass> {
  void runOnOperation() override {
    // Op type -> the first node of that type, in IR order.
    llvm::MapVector<StringRef, Operation *> unsupported;
    getOperation().walk([&](Operation *op) {
      if (tfg::isNode(op) && !OpRegistry::get().lookup(tfg::getOpType(op)))
        unsupported.insert({tfg::getOpType(op), op});
    });
    if (unsupported.empty())
      return;
    InFlightDiagnostic diag = unsupported.front().second->emitError();
    diag << unsupported.size() << " unsupported op type"
         << (unsupported.size() == 1 ? "" : "s") << ": ";
    llvm::interleaveComma(unsupported, diag, [&](const auto &entry) {
      diag << entry.first << " (node '" << tfg::getNodeName(entry.second)
           << "')";
    });
    signalPassFailure();
  }
};
} // namespace
} // namespace tfc
