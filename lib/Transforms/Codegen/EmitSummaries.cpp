//===- EmitSummaries.cpp - TensorBoard's summary ops ----------------------===//
//
// ScalarSummary, HistogramSummary, ImageSummary, TensorSummaryV2 and
// MergeSummary: calls of the runtime's tfc_scalar_summary,
// tfc_histogram_summary, tfc_image_summary, tfc_tensor_summary and
// tfc_merge_summary, which write a serialized Summary protocol buffer into
// a string scalar, as TensorFlow's kernels do; a program run with --logdir
// writes the fetched ones to an event file (ProgramDriver.cpp). TF2's
// summary writer ops serialize theirs the same way and append them to the
// event file of their writer (tfc_summary_writer_*).
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "tfc/Dialect/Tfg/DataType.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Variables.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace tfc {

namespace {

/// The buffers of a ScalarSummary's or HistogramSummary's tags (a tag) and
/// values, the values of a type the kernels read.
struct SummaryBuffers {
  Value tags, values;
  MemRefType valuesType;
};

FailureOr<SummaryBuffers> summaryBuffers(StepEmitter &step, Operation *node,
                                         Value tags, Value values) {
  SummaryBuffers buffers;
  buffers.tags = step.memrefFor(tags);
  buffers.values = step.memrefFor(values);
  if (!buffers.tags || !buffers.values)
    return step.error(node) << "its tags or values have no buffer";
  buffers.valuesType = cast<MemRefType>(buffers.values.getType());
  Type element = buffers.valuesType.getElementType();
  if (!element.isF32() && !element.isF64() && !element.isInteger(32) &&
      !element.isInteger(64))
    return step.error(node) << "summarizes values of type " << element
                            << ": float32, float64, int32 and int64 only";
  return buffers;
}

/// tfc_scalar_summary of `values` (a value per tag) into `out`.
LogicalResult scalarSummary(StepEmitter &step, Operation *node, Value tags,
                            Value values, Value out) {
  FailureOr<SummaryBuffers> buffers = summaryBuffers(step, node, tags, values);
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
       step.pointerTo(out)},
      {buffers->valuesType.getNumElements(),
       int64_t(tfg::typeToDataType(buffers->valuesType.getElementType()))});
  return success();
}

/// tfc_histogram_summary of every element of `values` into `out`.
LogicalResult histogramSummary(StepEmitter &step, Operation *node, Value tag,
                               Value values, Value out) {
  FailureOr<SummaryBuffers> buffers = summaryBuffers(step, node, tag, values);
  if (failed(buffers))
    return failure();
  Location loc = node->getLoc();
  step.callKernel(
      loc, "tfc_histogram_summary",
      {step.stringPointer(loc, tfg::nodeLabel(node)),
       step.pointerTo(buffers->tags), step.pointerTo(buffers->values),
       step.pointerTo(out)},
      {buffers->valuesType.getNumElements(),
       int64_t(tfg::typeToDataType(buffers->valuesType.getElementType()))});
  return success();
}

/// tfc_tensor_summary of a numeric or string `tensor` into `out`.
LogicalResult tensorSummary(StepEmitter &step, Operation *node, Value tagValue,
                            Value tensorValue, Value metadataValue, Value out) {
  Location loc = node->getLoc();
  Value tag = step.memrefFor(tagValue), tensor = step.memrefFor(tensorValue),
        metadata = step.memrefFor(metadataValue);
  if (!tag || !tensor || !metadata)
    return step.error(node) << "an input has no buffer";
  auto tensorType = cast<RankedTensorType>(tensorValue.getType());
  Type element = tensorType.getElementType();
  int64_t bytes = isa<tfg::StringType>(element) ? 8
                  : element.isIntOrFloat() && element.getIntOrFloatBitWidth() % 8 == 0
                      ? element.getIntOrFloatBitWidth() / 8
                      : 0;
  if (bytes == 0)
    return step.error(node) << "summarizes a tensor of type " << element
                            << ": numbers of whole bytes and strings only";
  Value dims = tensorType.getRank()
                   ? step.pointerTo(step.constantTable(loc, tensorType.getShape()))
                   : step.nullPointer(loc);
  step.callKernel(loc, "tfc_tensor_summary",
                  {step.stringPointer(loc, tfg::nodeLabel(node)),
                   step.pointerTo(tag), step.pointerTo(tensor),
                   step.pointerTo(metadata), step.pointerTo(out), dims},
                  {tensorType.getRank(), int64_t(tfg::typeToDataType(element)),
                   bytes});
  return success();
}

/// ScalarSummary (tfc_scalar_summary, a value per tag), HistogramSummary
/// (tfc_histogram_summary over every element) and TensorSummaryV2
/// (tfc_tensor_summary of a numeric or string tensor): the same
/// serialization the TF2 writer ops use (WriterOpPattern).
class SummaryOpPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    OperandRange operands = tfg::getDataOperands(node);
    FailureOr<Value> out = step.outputFor(node);
    if (failed(out))
      return failure();
    switch (opKindOf(node)) {
    case OpKind::ScalarSummary:
      return scalarSummary(step, node, operands[0], operands[1], *out);
    case OpKind::HistogramSummary:
      return histogramSummary(step, node, operands[0], operands[1], *out);
    default: // TensorSummaryV2.
      return tensorSummary(step, node, operands[0], operands[1], operands[2],
                           *out);
    }
  }
};

/// ImageSummary: tfc_image_summary over a [batch, height, width, channels]
/// tensor, its bad_color a constant of the program.
class ImageOpPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    Location loc = node->getLoc();
    OperandRange operands = tfg::getDataOperands(node);
    Value tag = step.memrefFor(operands[0]), images = step.memrefFor(operands[1]);
    if (!tag || !images)
      return step.error(node) << "its tag or images have no buffer";
    auto type = cast<MemRefType>(images.getType());
    // (The tensor's element type: its memref's integers are signless.)
    Type element =
        cast<RankedTensorType>(operands[1].getType()).getElementType();
    if (type.getRank() != 4 || (type.getDimSize(3) != 1 &&
                                type.getDimSize(3) != 3 && type.getDimSize(3) != 4))
      return step.error(node) << "images of shape " << type
                              << ": expected [batch, height, width, 1, 3 or 4]";
    if (!element.isF32() && !element.isF64() && !element.isUnsignedInteger(8))
      return step.error(node) << "images of type " << element
                              << ": uint8, float32 and float64 only";
    // TensorFlow's default: opaque red.
    SmallVector<int8_t> badColor = {-1, 0, 0, -1};
    if (auto given = node->getAttrOfType<DenseElementsAttr>("bad_color")) {
      badColor.clear();
      for (APInt sample : given.getValues<APInt>())
        badColor.push_back(int8_t(sample.getZExtValue()));
    }
    int64_t channels = type.getDimSize(3);
    if (int64_t(badColor.size()) < channels)
      return step.error(node) << "bad_color has " << badColor.size()
                              << " samples for images of " << channels
                              << " channels";
    badColor.resize(channels);
    auto colorType = MemRefType::get({channels}, step.builder.getI8Type());
    std::string color = step.addGlobal(
        loc, "tfc_bad_color_", colorType,
        DenseElementsAttr::get(
            RankedTensorType::get({channels}, step.builder.getI8Type()),
            ArrayRef<int8_t>(badColor)),
        IntegerAttr());
    auto maxImages = node->getAttrOfType<IntegerAttr>("max_images");
    FailureOr<Value> out = step.outputFor(node);
    if (failed(out))
      return failure();
    step.callKernel(
        loc, "tfc_image_summary",
        {step.pointerTo(tag), step.pointerTo(images),
         step.pointerTo(step.builder.create<memref::GetGlobalOp>(loc, colorType,
                                                                 color)),
         step.pointerTo(*out)},
        {type.getDimSize(0), type.getDimSize(1), type.getDimSize(2), channels,
         int64_t(tfg::typeToDataType(element)),
         maxImages ? maxImages.getInt() : 3});
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

/// EncodePng: tfc_encode_png of each image of uint8 [..., h, w, c].
class EncodePngOpPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    Value input = tfg::getDataOperands(node)[0];
    Value images = step.memrefFor(input);
    if (!images)
      return step.error(node) << "its images have no buffer";
    auto type = cast<RankedTensorType>(input.getType());
    if (!type.getElementType().isUnsignedInteger(8))
      return step.error(node) << "encodes images of " << type.getElementType()
                              << ": uint8 only";
    ArrayRef<int64_t> dims = type.getShape();
    if (dims.size() < 3 || dims.back() < 1 || dims.back() > 4)
      return step.error(node) << "images of shape " << type
                              << ": expected [..., height, width, 1 to 4]";
    FailureOr<Value> out = step.outputFor(node);
    if (failed(out))
      return failure();
    int64_t count = ShapedType::getNumElements(dims.drop_back(3));
    step.callKernel(node->getLoc(), "tfc_encode_png",
                    {step.pointerTo(images), step.pointerTo(*out)},
                    {count, dims[dims.size() - 3], dims[dims.size() - 2],
                     dims.back()});
    return success();
  }
};

bool isSummaryWriterNode(Operation *node) {
  return tfg::isNode(node) && opKindOf(node) == OpKind::SummaryWriter;
}

/// TF2's summary writers: calls of tfc_summary_writer_* on the writer's
/// number, which convert-tfg-to-memref gives each SummaryWriter node by its
/// shared_name (an op finds it through its handle at compile time). A
/// write serializes its Summary as the summary op of its kind would
/// (WriteSummary as TensorSummaryV2, WriteScalarSummary as ScalarSummary,
/// WriteHistogramSummary as HistogramSummary) into a buffer of its own,
/// then appends it at its step.
class WriterOpPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    Location loc = node->getLoc();
    OpKind kind = opKindOf(node);
    // The handle itself: the writer is made by CreateSummaryFileWriter.
    if (kind == OpKind::SummaryWriter)
      return success();
    OperandRange operands = tfg::getDataOperands(node);
    Operation *writer = sourceNodeOf(operands[0], isSummaryWriterNode);
    auto slot = writer ? writer->getAttrOfType<IntegerAttr>(kSummaryWriterSlotAttr)
                       : nullptr;
    if (!slot)
      return step.error(node)
             << "cannot trace its handle to the SummaryWriter node that made it";
    Value name = step.stringPointer(loc, tfg::nodeLabel(node));
    auto pointer = [&](unsigned i) { return step.pointerTo(step.memrefFor(operands[i])); };
    for (Value operand : operands.drop_front())
      if (!step.memrefFor(operand))
        return step.error(node) << "an input has no buffer";
    switch (kind) {
    case OpKind::CreateSummaryFileWriter:
      // (logdir, max_queue, flush_millis, filename_suffix)
      step.callKernel(loc, "tfc_summary_writer_create",
                      {name, pointer(1), pointer(4)}, {slot.getInt()});
      return success();
    case OpKind::FlushSummaryWriter:
    case OpKind::CloseSummaryWriter:
      step.callKernel(loc, "tfc_summary_writer_flush", {name},
                      {slot.getInt(), kind == OpKind::CloseSummaryWriter});
      return success();
    default:
      break;
    }
    // A write: (writer, step, ...) as its summary op's inputs.
    auto handleType = MemRefType::get({}, step.builder.getI64Type());
    Value summary = step.builder.create<memref::AllocOp>(loc, handleType);
    LogicalResult made =
        kind == OpKind::WriteSummary
            // (tensor, tag, summary_metadata)
            ? tensorSummary(step, node, operands[3], operands[2], operands[4],
                            summary)
        : kind == OpKind::WriteScalarSummary
            // (tag, value)
            ? scalarSummary(step, node, operands[2], operands[3], summary)
            // WriteHistogramSummary: (tag, values)
            : histogramSummary(step, node, operands[2], operands[3], summary);
    if (failed(made))
      return failure();
    step.callKernel(loc, "tfc_summary_writer_write",
                    {name, pointer(1), step.pointerTo(summary)}, {slot.getInt()});
    step.builder.create<memref::DeallocOp>(loc, summary);
    return success();
  }
};

} // namespace

void populateSummaryPatterns(CodegenPatterns &patterns) {
  patterns.add<WriterOpPattern>("WriterOp");
  patterns.add<EncodePngOpPattern>("EncodePngOp");
  patterns.add<SummaryOpPattern>("SummaryOp");
  patterns.add<MergeOpPattern>("MergeOp");
  patterns.add<ImageOpPattern>("ImageOp");
}

} // namespace tfc
