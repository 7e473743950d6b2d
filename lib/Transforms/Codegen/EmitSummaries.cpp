//===- EmitSummaries.cpp - TensorBoard's summary ops ----------------------===//
//
// ScalarSummary, HistogramSummary and MergeSummary: calls of the runtime's
// tfc_scalar_summary, tfc_histogram_summary and tfc_merge_summary, which
// write a serialized Summary protocol buffer into a string scalar, as
// TensorFlow's kernels do; a program run with --logdir writes the fetched
// ones to an event file (ProgramDriver.cpp).
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "tfc/Dialect/Tfg/DataType.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/OpTable.h"

using namespace mlir;

namespace tfc {

namespace {

/// The buffers of a ScalarSummary's or HistogramSummary's tags (a tag) and
/// values and of its output, the values of a type the kernels read.
struct SummaryBuffers {
  Value tags, values, out;
  MemRefType valuesType;
};

FailureOr<SummaryBuffers> summaryBuffers(StepEmitter &step, Operation *node) {
  OperandRange operands = tfg::getDataOperands(node);
  SummaryBuffers buffers;
  buffers.tags = step.memrefFor(operands[0]);
  buffers.values = step.memrefFor(operands[1]);
  if (!buffers.tags || !buffers.values)
    return step.error(node) << "its tags or values have no buffer";
  buffers.valuesType = cast<MemRefType>(buffers.values.getType());
  Type element = buffers.valuesType.getElementType();
  if (!element.isF32() && !element.isF64() && !element.isInteger(32) &&
      !element.isInteger(64))
    return step.error(node) << "summarizes values of type " << element
                            << ": float32, float64, int32 and int64 only";
  FailureOr<Value> out = step.outputFor(node);
  if (failed(out))
    return failure();
  buffers.out = *out;
  return buffers;
}

/// ScalarSummary: tfc_scalar_summary, a value per tag.
class SummaryOpPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    FailureOr<SummaryBuffers> buffers = summaryBuffers(step, node);
    if (failed(buffers))
      return failure();
    auto tagsType = cast<MemRefType>(buffers->tags.getType());
    if (tagsType.getShape() != buffers->valuesType.getShape())
      return step.error(node)
             << "tags and values are not the same shape: " << tagsType
             << " and " << buffers->valuesType;
    step.callKernel(
        node->getLoc(), "tfc_scalar_summary",
        {step.pointerTo(buffers->tags), step.pointerTo(buffers->values),
         step.pointerTo(buffers->out)},
        {buffers->valuesType.getNumElements(),
         int64_t(tfg::typeToDataType(buffers->valuesType.getElementType()))});
    return success();
  }
};

/// HistogramSummary: tfc_histogram_summary over every element.
class HistogramOpPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    FailureOr<SummaryBuffers> buffers = summaryBuffers(step, node);
    if (failed(buffers))
      return failure();
    Location loc = node->getLoc();
    step.callKernel(
        loc, "tfc_histogram_summary",
        {step.stringPointer(loc, tfg::nodeLabel(node)),
         step.pointerTo(buffers->tags), step.pointerTo(buffers->values),
         step.pointerTo(buffers->out)},
        {buffers->valuesType.getNumElements(),
         int64_t(tfg::typeToDataType(buffers->valuesType.getElementType()))});
    return success();
  }
};

/// MergeSummary: tfc_merge_summary over a table of its inputs' handles.
class MergeOpPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    Location loc = node->getLoc();
    SmallVector<Value> inputs;
    for (Value operand : tfg::getDataOperands(node)) {
      Value input = step.memrefFor(operand);
      if (!input)
        return step.error(node) << "an input has no buffer";
      inputs.push_back(input);
    }
    FailureOr<Value> out = step.outputFor(node);
    if (failed(out))
      return failure();
    step.callKernel(loc, "tfc_merge_summary",
                    {step.stringPointer(loc, tfg::nodeLabel(node)),
                     step.addressTable(loc, inputs), step.pointerTo(*out)},
                    {int64_t(inputs.size())});
    return success();
  }
};

} // namespace

void populateSummaryPatterns(CodegenPatterns &patterns) {
  patterns.add<SummaryOpPattern>("SummaryOp");
  patterns.add<HistogramOpPattern>("HistogramOp");
  patterns.add<MergeOpPattern>("MergeOp");
}

} // namespace tfc
