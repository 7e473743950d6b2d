//===- ConstantEvaluator.h - computing constant subgraphs -------*- C++ -*-===//
//
// tfc-fold-constants folds numeric subgraphs of constants by having them
// computed by the code generator itself, so that a folded value is the
// value the compiled program would have computed. The code generator sits
// above the graph passes (lib/Target), so the tools install it here; where
// none is installed, numeric subgraphs stay as they are.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TRANSFORMS_CONSTANTEVALUATOR_H
#define TFC_TRANSFORMS_CONSTANTEVALUATOR_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"

#include <functional>

namespace tfc {

/// Computes the fetches of `module`: a step entry without feeds whose
/// `_Retval`s name, in index order, the values wanted (tfc.fetches). The
/// module may be consumed. Fails after emitting an error.
using ConstantEvaluator =
    std::function<mlir::FailureOr<llvm::SmallVector<mlir::DenseElementsAttr>>(
        mlir::ModuleOp module)>;

void setConstantEvaluator(ConstantEvaluator evaluator);
/// The installed evaluator, or null.
const ConstantEvaluator &getConstantEvaluator();

} // namespace tfc

#endif // TFC_TRANSFORMS_CONSTANTEVALUATOR_H
