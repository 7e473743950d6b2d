//===- ConstantEvaluator.cpp - the installed constant evaluator -----------===//

#include "tfc/Transforms/ConstantEvaluator.h"

namespace tfc {

static ConstantEvaluator &installedEvaluator() {
  static ConstantEvaluator evaluator;
  return evaluator;
}

void setConstantEvaluator(ConstantEvaluator evaluator) {
  installedEvaluator() = std::move(evaluator);
}

const ConstantEvaluator &getConstantEvaluator() { return installedEvaluator(); }

} // namespace tfc
