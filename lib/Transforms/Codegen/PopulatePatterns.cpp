//===- PopulatePatterns.cpp - the patterns of every family ----------------===//

#include "PopulatePatterns.h"

#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Transforms/OpTable.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace tfc {

NodePattern::NodePattern(StringRef opType, StepEmitter &step,
                         MLIRContext *context, PatternBenefit benefit)
    : RewritePattern(
          opType.empty()
              ? FusionGroupOp::getOperationName().str()
              : (tfg::TfgDialect::getDialectNamespace() + "." + opType).str(),
          benefit, context),
      step(step) {}

SmallVector<StringRef> CodegenPatterns::opsLoweredBy(StringRef name) {
  SmallVector<StringRef> types;
  for (const OpInfo &op : opTable())
    if (op.lowering == Lowering::Pattern && op.loweredBy == name)
      types.push_back(op.type);
  return types;
}

LogicalResult CodegenPatterns::verifyCoverTable(Operation *where) const {
  SmallVector<std::string> missing;
  for (const OpInfo &op : opTable())
    if (op.lowering == Lowering::Pattern && !added.contains(op.loweredBy))
      missing.push_back((op.type + " (Pattern<\"" + op.loweredBy + "\">)").str());
  if (missing.empty())
    return success();
  return where->emitError()
         << "the op table lowers ops with patterns no family adds: "
         << llvm::join(missing, ", ");
}

Value complexConstant(OpBuilder &builder, Location loc, ComplexType type,
                      double real) {
  Type part = type.getElementType();
  return builder.create<complex::ConstantOp>(
      loc, type,
      builder.getArrayAttr({builder.getFloatAttr(part, real),
                            builder.getFloatAttr(part, 0.0)}));
}

Value zeroElement(OpBuilder &builder, Location loc, Type element) {
  if (auto complex = dyn_cast<ComplexType>(element))
    return complexConstant(builder, loc, complex, 0.0);
  return builder.create<arith::ConstantOp>(loc, builder.getZeroAttr(element));
}

LogicalResult applyNodePatterns(PatternApplicator &applicator,
                                PatternRewriter &rewriter, Operation *node) {
  bool matched = false;
  return applicator.matchAndRewrite(node, rewriter, [&](const Pattern &pattern) {
    if (matched)
      return false;
    matched = succeeded(static_cast<const NodePattern &>(pattern).match(node));
    return matched;
  });
}

void populateCodegenPatterns(CodegenPatterns &patterns) {
  populateCheckpointPatterns(patterns);
  populateContractionPatterns(patterns);
  populateControlFlowPatterns(patterns);
  populateDataMovementPatterns(patterns);
  populateElementwisePatterns(patterns);
  populateLinearAlgebraPatterns(patterns);
  populateNormalizationPatterns(patterns);
  populateQuantizationPatterns(patterns);
  populateReductionPatterns(patterns);
  populateSpectralPatterns(patterns);
  populateQueuePatterns(patterns);
  populateStackPatterns(patterns);
  populateStatePatterns(patterns);
  populateStringPatterns(patterns);
  populateSummaryPatterns(patterns);
  populateTablePatterns(patterns);
  populateTensorArrayPatterns(patterns);
  populateWindowPatterns(patterns);
  populateStepPatterns(patterns);
}

} // namespace tfc
