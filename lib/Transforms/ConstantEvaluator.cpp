//===- ConstantEvaluator.cpp - the context's constant evaluator -----------===//

#include "tfc/Transforms/ConstantEvaluator.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"

namespace tfc {

const ConstantEvaluatorInterface *
getConstantEvaluator(mlir::MLIRContext *context) {
  auto *dialect = context->getLoadedDialect<tfg::TfgDialect>();
  return dialect ? dialect->getRegisteredInterface<ConstantEvaluatorInterface>()
                 : nullptr;
}

} // namespace tfc
