//===- TfcDialect.cpp - verifying what passes hand each other -------------===//
//
// One row per attribute: which operations may hold it and what its value
// is. An attribute of the namespace that no row declares is an error, so a
// typo in a pass is found by the verifier that runs after it.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfc/TfcDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"

using namespace mlir;

#include "tfc/Dialect/Tfc/TfcDialect.cpp.inc"

namespace tfc {
namespace {

/// The operations an attribute may be on.
enum class Holder {
  Module,
  Graph,
  Node,
  /// A node or a fusion group: what a graph's schedule runs.
  NodeOrGroup,
};

/// The kinds of value.
enum class ValueKind {
  String,
  StringArray,
  /// Per fed tensor, a shape or unit (no shape given).
  ShapeArray,
  NonNegativeInteger,
  Unit,
  DictionaryArray,
  /// One i64 per data result of the node (offsets: -1 or >= 0).
  OffsetArray,
  /// One i64 per data result of the node (output indices: -1 or >= 0).
  OutputIndexArray,
  /// Increasing i64 indices of the node's operands.
  OperandIndexArray,
  /// "Relu" or "Relu6".
  Activation,
  /// {tile = T > 0, feeds = [i, ...], fetches = [j, ...]}.
  BatchTiling,
  /// One i64 per fetch: -1, or the index of another fetch.
  FetchIndexArray,
  /// One i64 >= 0 per fetch.
  FetchAxisArray,
  /// One i64 per feed: -1, or the index of another feed.
  FeedIndexArray,
  /// One i64 array per feed: [dimension >= 0, bound > 0], or [].
  FeedMaxDims,
  /// A tensor's elements, of one dimension.
  Elements,
  /// A pooling window: [kh, kw, stride_h, stride_w, pad_top, pad_left],
  /// sizes and strides > 0, pads >= 0.
  PoolWindow,
};

struct AttributeSpec {
  llvm::StringLiteral name;
  Holder holder;
  ValueKind value;
};

constexpr AttributeSpec kAttributes[] = {
    {kFeedsAttr, Holder::Module, ValueKind::StringArray},
    {kFeedShapesAttr, Holder::Module, ValueKind::ShapeArray},
    {kFetchesAttr, Holder::Module, ValueKind::StringArray},
    {kTargetsAttr, Holder::Module, ValueKind::StringArray},
    {kInitAttr, Holder::Module, ValueKind::StringArray},
    {kLocalInitAttr, Holder::Module, ValueKind::StringArray},
    {kChiefInitAttr, Holder::Module, ValueKind::StringArray},
    {kQueueRunnersAttr, Holder::Module, ValueKind::StringArray},
    {kChiefQueueRunnersAttr, Holder::Module, ValueKind::StringArray},
    {kDevicesAttr, Holder::Module, ValueKind::StringArray},
    {kReplicasAttr, Holder::Module, ValueKind::NonNegativeInteger},
    {kPlacementAttr, Holder::Module, ValueKind::String},
    {kSoftPlacementAttr, Holder::Module, ValueKind::Unit},
    {kCostFileAttr, Holder::Module, ValueKind::String},
    {kCompressTransfersAttr, Holder::Module, ValueKind::String},
    {kNoRecvSchedulingAttr, Holder::Module, ValueKind::Unit},
    {kFreezeVariablesAttr, Holder::Module, ValueKind::String},
    {kObjectGraphAttr, Holder::Module, ValueKind::String},
    {kStateBytesAttr, Holder::Module, ValueKind::NonNegativeInteger},
    {kBatchTileAttr, Holder::Module, ValueKind::NonNegativeInteger},
    {kMicroBatchBytesAttr, Holder::Module, ValueKind::NonNegativeInteger},
    {kBatchAttr, Holder::Module, ValueKind::BatchTiling},
    {kRowCountsAttr, Holder::Module, ValueKind::FetchIndexArray},
    {kRowAxesAttr, Holder::Module, ValueKind::FetchAxisArray},
    {kFeedMaxDimsAttr, Holder::Module, ValueKind::FeedMaxDims},
    {kFeedRowCountsAttr, Holder::Module, ValueKind::FeedIndexArray},
    {kVariablesAttr, Holder::Module, ValueKind::DictionaryArray},
    {kTaskAttr, Holder::Module, ValueKind::String},
    {kPartitionDeviceAttr, Holder::Graph, ValueKind::String},
    {kArenaBytesAttr, Holder::Graph, ValueKind::NonNegativeInteger},
    {kNumInputsAttr, Holder::Graph, ValueKind::NonNegativeInteger},
    {kStepFunctionAttr, Holder::Graph, ValueKind::String},
    {kActivationAttr, Holder::Node, ValueKind::Activation},
    {kMaxPoolAttr, Holder::Node, ValueKind::PoolWindow},
    {kMaxPoolGradientAttr, Holder::Node, ValueKind::PoolWindow},
    {kMaxPoolPositionsAttr, Holder::Node, ValueKind::Unit},
    {kZeroPaddingAttr, Holder::Node, ValueKind::Unit},
    {kInputGradientSumAttr, Holder::Node, ValueKind::Unit},
    {kFilterGradientAttr, Holder::Node, ValueKind::PoolWindow},
    {kVarianceAttr, Holder::Node, ValueKind::Unit},
    {kOffsetsAttr, Holder::NodeOrGroup, ValueKind::OffsetArray},
    {kInOutputsAttr, Holder::NodeOrGroup, ValueKind::OutputIndexArray},
    {kInPlaceOperandsAttr, Holder::Node, ValueKind::OperandIndexArray},
    {kFrameAttr, Holder::Node, ValueKind::String},
    {kCheckpointKeyAttr, Holder::Node, ValueKind::String},
    {kSliceOfAttr, Holder::Node, ValueKind::String},
    {kCheckpointSliceAttr, Holder::Node, ValueKind::String},
    {kSkipNegativeIndicesAttr, Holder::Node, ValueKind::Unit},
    {kPadNegativeAttr, Holder::Node, ValueKind::Unit},
    {kListCapacityAttr, Holder::Node, ValueKind::NonNegativeInteger},
    {kSnapshotAttr, Holder::Node, ValueKind::Unit},
    {kStateOffsetAttr, Holder::Node, ValueKind::NonNegativeInteger},
    {kFlagOffsetAttr, Holder::Node, ValueKind::NonNegativeInteger},
    {kStackSlotAttr, Holder::Node, ValueKind::NonNegativeInteger},
    {kTensorArraySlotAttr, Holder::Node, ValueKind::NonNegativeInteger},
    {kQueueSlotAttr, Holder::Node, ValueKind::NonNegativeInteger},
    {kAccumulatorSlotAttr, Holder::Node, ValueKind::NonNegativeInteger},
    {kSummaryWriterSlotAttr, Holder::Node, ValueKind::NonNegativeInteger},
    {kTableKeysAttr, Holder::Node, ValueKind::Elements},
    {kTableValuesAttr, Holder::Node, ValueKind::Elements},
};

/// Whether `op` is of the kind `holder` names. (Graphs and nodes are the
/// tfg dialect's, which depends on this one: told apart by name here.)
bool holds(Holder holder, Operation *op) {
  StringRef name = op->getName().getStringRef();
  switch (holder) {
  case Holder::Module:
    return isa<ModuleOp>(op);
  case Holder::Graph:
    return name == "tfg.graph";
  case Holder::Node:
    return op->getName().getDialectNamespace() == "tfg" &&
           name != "tfg.graph" && name != "tfg.func" && name != "tfg.return";
  case Holder::NodeOrGroup:
    return isa<FusionGroupOp>(op) || holds(Holder::Node, op);
  }
  return false;
}

StringRef holderName(Holder holder) {
  switch (holder) {
  case Holder::Module:
    return "the module";
  case Holder::Graph:
    return "a tfg.graph";
  case Holder::Node:
    return "a node";
  case Holder::NodeOrGroup:
    return "a node or a fusion group";
  }
  return "";
}

/// The number of data results of a node (or fusion group): all but its
/// control token.
unsigned dataResults(Operation *node) {
  return node->getNumResults() == 0 ? 0 : node->getNumResults() - 1;
}

template <typename T> bool allOf(Attribute attr) {
  auto array = dyn_cast<ArrayAttr>(attr);
  return array && llvm::all_of(array, [](Attribute e) { return isa<T>(e); });
}

/// What is wrong with `attr` as a value of `kind` on `op`; empty if nothing.
std::string checkValue(ValueKind kind, Attribute attr, Operation *op) {
  switch (kind) {
  case ValueKind::String:
    return isa<StringAttr>(attr) ? "" : "expected a string";
  case ValueKind::StringArray:
    return allOf<StringAttr>(attr) ? "" : "expected an array of strings";
  case ValueKind::ShapeArray: {
    // Shapes are the tfg dialect's attribute: anything but arrays and
    // scalars of another kind passes.
    auto array = dyn_cast<ArrayAttr>(attr);
    return array && llvm::none_of(array, [](Attribute e) {
             return isa<StringAttr, IntegerAttr, ArrayAttr>(e);
           })
               ? ""
               : "expected an array of shapes or unit";
  }
  case ValueKind::NonNegativeInteger: {
    auto integer = dyn_cast<IntegerAttr>(attr);
    return integer && integer.getValue().getSExtValue() >= 0
               ? ""
               : "expected an integer >= 0";
  }
  case ValueKind::Unit:
    return isa<UnitAttr>(attr) ? "" : "expected a unit attribute";
  case ValueKind::DictionaryArray:
    return allOf<DictionaryAttr>(attr) ? ""
                                       : "expected an array of dictionaries";
  case ValueKind::OperandIndexArray: {
    auto entries = dyn_cast<DenseI64ArrayAttr>(attr);
    if (!entries)
      return "expected an i64 array";
    int64_t previous = -1;
    for (int64_t index : entries.asArrayRef()) {
      if (index <= previous || index >= int64_t(op->getNumOperands()))
        return "expected increasing operand indices below " +
               std::to_string(op->getNumOperands());
      previous = index;
    }
    return "";
  }
  case ValueKind::OffsetArray:
  case ValueKind::OutputIndexArray: {
    bool isOffsets = kind == ValueKind::OffsetArray;
    std::string what = isOffsets ? "offset" : "output index";
    auto entries = dyn_cast<DenseI64ArrayAttr>(attr);
    if (!entries)
      return "expected an i64 array";
    if (entries.size() != int64_t(dataResults(op)))
      return "expected one " + what + " per data result (" +
             std::to_string(dataResults(op)) + "), got " +
             std::to_string(entries.size());
    if (llvm::any_of(entries.asArrayRef(), [](int64_t e) { return e < -1; }))
      return "expected " + what + "s >= 0, or -1 for " +
             (isOffsets ? "no buffer" : "none");
    return "";
  }
  case ValueKind::Activation: {
    auto name = dyn_cast<StringAttr>(attr);
    return name && (name.getValue() == "Relu" || name.getValue() == "Relu6")
               ? ""
               : "expected \"Relu\" or \"Relu6\"";
  }
  case ValueKind::FetchIndexArray: {
    auto indices = dyn_cast<DenseI64ArrayAttr>(attr);
    auto fetches = op->getAttrOfType<ArrayAttr>(kFetchesAttr);
    if (!indices || !fetches || indices.size() != int64_t(fetches.size()))
      return "expected an i64 array of one entry per fetch";
    if (llvm::any_of(indices.asArrayRef(), [&](int64_t k) {
          return k < -1 || k >= int64_t(fetches.size());
        }))
      return "expected -1 or the index of a fetch";
    return "";
  }
  case ValueKind::FetchAxisArray: {
    auto axes = dyn_cast<DenseI64ArrayAttr>(attr);
    auto fetches = op->getAttrOfType<ArrayAttr>(kFetchesAttr);
    if (!axes || !fetches || axes.size() != int64_t(fetches.size()) ||
        llvm::any_of(axes.asArrayRef(), [](int64_t a) { return a < 0; }))
      return "expected an i64 array of one dimension >= 0 per fetch";
    return "";
  }
  case ValueKind::FeedIndexArray: {
    auto indices = dyn_cast<DenseI64ArrayAttr>(attr);
    auto feeds = op->getAttrOfType<ArrayAttr>(kFeedsAttr);
    if (!indices || !feeds || indices.size() != int64_t(feeds.size()))
      return "expected an i64 array of one entry per feed";
    if (llvm::any_of(indices.asArrayRef(), [&](int64_t k) {
          return k < -1 || k >= int64_t(feeds.size());
        }))
      return "expected -1 or the index of a feed";
    return "";
  }
  case ValueKind::FeedMaxDims: {
    auto array = dyn_cast<ArrayAttr>(attr);
    auto feeds = op->getAttrOfType<ArrayAttr>(kFeedsAttr);
    if (!array || !feeds || array.size() != feeds.size() ||
        !llvm::all_of(array, [](Attribute e) {
          auto dims = dyn_cast<DenseI64ArrayAttr>(e);
          return dims && (dims.empty() ||
                          (dims.size() == 2 && dims[0] >= 0 && dims[1] > 0));
        }))
      return "expected one [dimension, bound] or [] per feed";
    return "";
  }
  case ValueKind::PoolWindow: {
    auto window = dyn_cast<DenseI64ArrayAttr>(attr);
    return window && window.size() == 6 &&
                   llvm::all_of(window.asArrayRef().take_front(4),
                                [](int64_t v) { return v > 0; }) &&
                   window[4] >= 0 && window[5] >= 0
               ? ""
               : "expected [kh, kw, stride_h, stride_w, pad_top, pad_left], "
                 "sizes and strides > 0, pads >= 0";
  }
  case ValueKind::Elements: {
    auto elements = dyn_cast<ElementsAttr>(attr);
    return elements && elements.getShapedType().getRank() == 1
               ? ""
               : "expected the elements of a vector";
  }
  case ValueKind::BatchTiling: {
    auto dict = dyn_cast<DictionaryAttr>(attr);
    auto tile = dict ? dict.getAs<IntegerAttr>("tile") : nullptr;
    return tile && tile.getInt() > 0 && dict.size() == 3 &&
                   allOf<IntegerAttr>(dict.get("feeds")) &&
                   allOf<IntegerAttr>(dict.get("fetches"))
               ? ""
               : "expected {tile = T > 0, feeds = [...], fetches = [...]}";
  }
  }
  return "";
}

} // namespace

void TfcDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tfc/Dialect/Tfc/TfcOps.cpp.inc"
      >();
}

LogicalResult TfcDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attribute) {
  StringRef name = attribute.getName().getValue();
  const AttributeSpec *spec = llvm::find_if(
      kAttributes, [&](const AttributeSpec &s) { return s.name == name; });
  if (spec == std::end(kAttributes))
    return op->emitError() << "unknown tfc attribute '" << name << "'";
  if (!holds(spec->holder, op))
    return op->emitError() << "'" << name << "' belongs on "
                           << holderName(spec->holder);
  std::string problem = checkValue(spec->value, attribute.getValue(), op);
  if (!problem.empty())
    return op->emitError() << "'" << name << "': " << problem;
  return success();
}

} // namespace tfc
