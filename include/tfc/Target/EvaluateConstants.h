//===- EvaluateConstants.h - the tools' constant evaluator ------*- C++ -*-===//
//
// Computes the fetches of a feedless step module by compiling it for the
// host and running it (see EvaluateConstants.cpp). The tools add it to
// their DialectRegistry with registerConstantEvaluator so that
// tfc-fold-constants folds numeric subgraphs.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TARGET_EVALUATECONSTANTS_H
#define TFC_TARGET_EVALUATECONSTANTS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"

namespace tfc {

mlir::FailureOr<llvm::SmallVector<mlir::DenseElementsAttr>>
evaluateConstants(mlir::ModuleOp module);

/// Gives the tfg dialect of every context made from `registry` the
/// ConstantEvaluatorInterface that calls evaluateConstants.
void registerConstantEvaluator(mlir::DialectRegistry &registry);

} // namespace tfc

#endif // TFC_TARGET_EVALUATECONSTANTS_H
