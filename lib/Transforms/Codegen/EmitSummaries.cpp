//===- EmitSummaries.cpp - TensorBoard's summary ops ----------------------===//
//
// ScalarSummary: a call of the runtime's tfc_scalar_summary, which writes
// a serialized Summary protocol buffer (one value per tag) into a string
// scalar, as TensorFlow's kernel does; whoever fetches it writes it to an
// events file or reads it.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "tfc/Dialect/Tfg/DataType.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/OpTable.h"

using namespace mlir;

namespace tfc {

namespace {

class SummaryOpPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    Location loc = node->getLoc();
    OperandRange operands = tfg::getDataOperands(node);
    Value tags = step.memrefFor(operands[0]), values = step.memrefFor(operands[1]);
    if (!tags || !values)
      return step.error(node) << "its tags or values have no buffer";
    auto tagsType = cast<MemRefType>(tags.getType());
    auto valuesType = cast<MemRefType>(values.getType());
    if (tagsType.getShape() != valuesType.getShape())
      return step.error(node)
             << "tags and values are not the same shape: "
             << tagsType << " and " << valuesType;
    Type element = valuesType.getElementType();
    if (!element.isF32() && !element.isF64() && !element.isInteger(32) &&
        !element.isInteger(64))
      return step.error(node) << "summarizes values of type " << element
                              << ": float32, float64, int32 and int64 only";
    FailureOr<Value> out = step.outputFor(node);
    if (failed(out))
      return failure();
    step.callKernel(loc, "tfc_scalar_summary",
                    {step.pointerTo(tags), step.pointerTo(values),
                     step.pointerTo(*out)},
                    {valuesType.getNumElements(),
                     int64_t(tfg::typeToDataType(element))});
    return success();
  }
};

} // namespace

void populateSummaryPatterns(CodegenPatterns &patterns) {
  patterns.add<SummaryOpPattern>("SummaryOp");
}

} // namespace tfc
