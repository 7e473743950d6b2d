//===- ConstantEvaluator.h - computing constant subgraphs -------*- C++ -*-===//
//
// tfc-fold-constants folds numeric subgraphs of constants by having them
// computed by the code generator itself, so that a folded value is the
// value the compiled program would have computed. The code generator sits
// above the graph passes (lib/Target), so it reaches the pass as an
// interface of the tfg dialect that a tool adds to its DialectRegistry
// (registerConstantEvaluator, tfc/Target/EvaluateConstants.h): stated
// where the context is made, not installed in a global. A context without
// it cannot fold such subgraphs, and the pass fails naming the first one.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TRANSFORMS_CONSTANTEVALUATOR_H
#define TFC_TRANSFORMS_CONSTANTEVALUATOR_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectInterface.h"

namespace tfc {

class ConstantEvaluatorInterface
    : public mlir::DialectInterface::Base<ConstantEvaluatorInterface> {
public:
  explicit ConstantEvaluatorInterface(mlir::Dialect *dialect)
      : Base(dialect) {}

  /// Computes the fetches of `module`: a step entry without feeds whose
  /// `_Retval`s name, in index order, the values wanted (tfc.fetches). The
  /// module may be consumed. Fails after emitting an error.
  virtual mlir::FailureOr<llvm::SmallVector<mlir::DenseElementsAttr>>
  evaluate(mlir::ModuleOp module) const = 0;
};

/// The evaluator the context's tfg dialect has, or null.
const ConstantEvaluatorInterface *getConstantEvaluator(mlir::MLIRContext *context);

} // namespace tfc

#endif // TFC_TRANSFORMS_CONSTANTEVALUATOR_H
