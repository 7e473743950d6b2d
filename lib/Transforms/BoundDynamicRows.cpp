//===- BoundDynamicRows.cpp - data-dependent sizes, planned for a bound ----===//
//
// Where(x) has one row per nonzero element of x: a number that only the
// data decides, where tfc's memory plan is static. Yet it has a bound, the
// elements of x. This pass plans Where's output for that bound (the kernel
// pads the rows past the true ones with zeros) and makes the true number,
// the *count*, a value of the graph computed by ordinary ops:
//
//   count = Sum(Cast(NotEqual(x, 0), int64), every axis)
//
// The unpadded selections of NonMaxSuppressionV2 to V5 are bounded the
// same way, by max_output_size (and the boxes), their count what V4 and V5
// return beside them; V2 and V3 become the V4 that also counts. So are a
// Unique's values (but those tfc-bound-unique claimed for the sparse
// updates of optimizers), by the input's length, counted by idx's largest
// position + 1; they are padded with the first value, a valid index. And
// so are DynamicPartition's outputs, each bounded by every row and
// counted by the partitions equal to its number, and the TensorListStack
// of a list that grows in a loop (tfc-bound-growable-lists), bounded by
// its capacity and counted by its length (a TensorListLength, which
// tfc-lower-tensor-lists follows).
//
// Then it proves that the padding never shows. Each value downstream of a
// Where whose size depends on the count is *rows along axis a*: dimension
// a is planned for the bound and only its first `count` slices are
// TensorFlow's. Rules per op carry the fact on, as tfc-tile-batch does for
// the batch: elementwise ops, identities, Squeeze/ExpandDims/Reshape that
// keep the axis whole, Transpose, gathers of the rows (boolean_mask's
// GatherV2) or from them, MatMul of them, softmax along another axis,
// concatenation and stacking of rows of one count; DynamicStitch, whose
// inputs' rows may have counts of their own (DynamicPartition's outputs
// stitched back by embedding lookups over sharded tables): each input's
// padding indices become -1, which the stitch skips. Where the count
// itself is asked for, the pass computes it:
//
//   Shape(v), Size(v)     from the count (and v's other, static dims)
//   Sum/Max/Min/Prod/All/Any/EuclideanNorm over axis a
//                         of v with the padding replaced by the
//                         reduction's identity (SelectV2 on row < count)
//   Mean over axis a      that Sum, divided by count times the other
//                         reduced dimensions
//
// and a value computed from the count may be used as data (arithmetic,
// slices of a shape, fetches), never as a shape. A fetch of rows (along
// its first dimension) gets a fetch of their count after the others,
// "NAME/rows", and tfc.row_counts says which fetch counts which: the
// program writes the first `count` rows, a library's caller reads them.
// Any other use of rows, or of a count, is an error naming the node and
// the Where.
//
// The padding computes like any rows (a gather through a padding index
// reads row 0), so a kernel's run-time check could in principle stop on a
// padding row that TensorFlow never computes: a gather from an empty
// tensor, an integer division by a gathered zero.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"
#include "tfc/Transforms/ShapeInference.h"
#include "tfc/Transforms/TensorArrays.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

#include <numeric>

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_BOUNDDYNAMICROWSPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

/// A value whose dimension `axis` is planned for `bound` slices, of which
/// only the first `count` (an int64 scalar of the graph) are TensorFlow's.
struct Rows {
  int64_t axis;
  int64_t bound;
  Value count;
  /// The node that made the rows (Where, Unique, DynamicPartition, a
  /// selection of boxes), for messages.
  Operation *where;
};

Shape shapeOf(Value value) { return Shape::fromType(value.getType()); }

int64_t product(ArrayRef<int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

/// Whether every dimension of `shape` but `axis` is known.
bool staticBut(const Shape &shape, int64_t axis) {
  if (!shape.ranked)
    return false;
  for (auto [d, size] : llvm::enumerate(shape.dims))
    if (int64_t(d) != axis && size == ShapedType::kDynamic)
      return false;
  return true;
}

bool boolAttr(Operation *node, StringRef name) {
  auto attr = node->getAttrOfType<BoolAttr>(name);
  return attr && attr.getValue();
}

int64_t intAttr(Operation *node, StringRef name) {
  auto attr = node->getAttrOfType<IntegerAttr>(name);
  return attr ? attr.getInt() : 0;
}

bool isIdentityLike(OpKind kind) {
  return llvm::is_contained(
      {OpKind::Identity, OpKind::StopGradient, OpKind::Snapshot,
       OpKind::PreventGradient, OpKind::CheckNumerics, OpKind::EnsureShape},
      kind);
}

bool isReduction(OpKind kind) {
  return llvm::is_contained({OpKind::Sum, OpKind::Mean, OpKind::Max,
                             OpKind::Min, OpKind::Prod, OpKind::All,
                             OpKind::Any, OpKind::EuclideanNorm},
                            kind);
}

/// The value a reduction's padding takes so that it changes nothing.
Attribute identityOf(OpKind kind, Type element) {
  bool high = kind == OpKind::Min || kind == OpKind::All,
       low = kind == OpKind::Max, one = kind == OpKind::Prod;
  if (auto floatType = dyn_cast<FloatType>(element)) {
    const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
    if (high || low)
      return FloatAttr::get(element, llvm::APFloat::getInf(semantics, low));
    return FloatAttr::get(element, one ? 1.0 : 0.0);
  }
  auto intType = dyn_cast<IntegerType>(element);
  if (!intType)
    return {};
  unsigned width = intType.getWidth();
  llvm::APInt value(width, one ? 1 : 0);
  if (width == 1)
    value = llvm::APInt(1, high ? 1 : 0);
  else if (high)
    value = intType.isUnsigned() ? llvm::APInt::getMaxValue(width)
                                 : llvm::APInt::getSignedMaxValue(width);
  else if (low)
    value = intType.isUnsigned() ? llvm::APInt::getMinValue(width)
                                 : llvm::APInt::getSignedMinValue(width);
  return IntegerAttr::get(element, value);
}

class Bounder {
public:
  Bounder(Block &body) : body(body), names(body) {}

  /// Bounds the Wheres of the body; whether it had any.
  FailureOr<bool> run();

private:
  /// The count of the nonzero elements of `input`, as nodes beside `node`
  /// named `name` (by default, `node`'s name + "/count").
  Value countOf(Operation *node, Value input, StringRef name = {});
  /// Carries the facts through `node`, rewriting what asks for a count.
  LogicalResult visit(Operation *node);
  LogicalResult visitCountUser(Operation *node);
  LogicalResult reduceRows(Operation *node, const Rows &rows);
  LogicalResult stitchRows(Operation *node);
  LogicalResult shapeOfRows(Operation *node, const Rows &rows);

  /// NonMaxSuppressionV2 and V3 as the V4 that also counts the selection
  /// (the node itself for any other).
  Operation *asCountingSelection(Operation *node);
  /// A StridedSlice of a range whose ends the step computes, as rows.
  bool sliceRows(Operation *node);
  /// The stack of a TF1 TensorArray of dynamic size, as rows.
  bool stackRows(Operation *node);
  /// Makes operand `operand` of `node`, `bound` indices of which the first
  /// `count` are real, -1 past them, and marks `node` to skip negative
  /// indices (tfc.skip_negative_indices): its padding rows stay untouched.
  void skipPadding(Operation *node, unsigned operand, int64_t bound,
                   Value count, const std::string &name);
  /// Whether `node` makes rows of its own (Where, an unpadded selection of
  /// boxes): their facts, counts and bounds are recorded.
  bool producesRows(Operation *node);
  /// Whether the body is the step's graph, whose _Retvals are the fetches.
  bool isStepEntry() const {
    auto graph = dyn_cast<tfg::GraphOp>(body.getParentOp());
    auto entry = graph ? graph->getAttrOfType<StringAttr>(kEntryAttr) : nullptr;
    return entry && entry.getValue() == "step";
  }
  /// A fetch of each count of fetched rows, and tfc.row_counts.
  void addRowCounts();

  const Rows *rowsOf(Value value) const {
    auto it = rows.find(value);
    return it == rows.end() ? nullptr : &it->second;
  }
  void setRows(Value value, const Rows &from, int64_t axis) {
    rows[value] = {axis, from.bound, from.count, from.where};
  }
  LogicalResult refuse(Operation *node, const Rows &from, const Twine &why) {
    return node->emitError()
           << tfg::nodeLabel(node) << " " << why << " the rows of "
           << tfg::nodeLabel(from.where)
           << ", whose number only the data decides; tfc plans them for "
              "their bound and cannot here";
  }

  // Node builders, where `like` is, typed by shape inference afterwards.
  Value make(Operation *like, StringRef op, StringRef name, Type type,
             ValueRange data, ArrayRef<NamedAttribute> attrs) {
    OpBuilder b(like);
    return createNodeLike(b, like, op, names.get(name), type, data, {}, attrs)
        ->getResult(0);
  }
  Value constant(Operation *like, StringRef name, ElementsAttr value) {
    OpBuilder b(like);
    return createConstLike(b, like, names.get(name), value)->getResult(0);
  }
  Value scalar(Operation *like, StringRef name, Attribute value) {
    auto typed = cast<TypedAttr>(value);
    return constant(like, name,
                    DenseElementsAttr::get(
                        RankedTensorType::get({}, typed.getType()), value));
  }
  Value castTo(Operation *like, StringRef name, Value value, Type to) {
    Type from = cast<TensorType>(value.getType()).getElementType();
    if (from == to)
      return value;
    Builder b(like->getContext());
    return make(like, "Cast", name,
                RankedTensorType::get(shapeOf(value).dims, to), value,
                {b.getNamedAttr("SrcT", TypeAttr::get(from)),
                 b.getNamedAttr("DstT", TypeAttr::get(to)),
                 b.getNamedAttr("Truncate", b.getBoolAttr(false))});
  }
  Value binary(Operation *like, StringRef op, StringRef name, Value a,
               Value b, Type result) {
    Builder builder(like->getContext());
    Type element = cast<TensorType>(a.getType()).getElementType();
    return make(like, op, name, UnrankedTensorType::get(result), {a, b},
                {builder.getNamedAttr("T", TypeAttr::get(element))});
  }
  /// Replaces `node`'s data result 0 by `value` (which takes its name
  /// when it is a node made here: what fetches and errors show).
  void replace(Operation *node, Value value) {
    std::string name = tfg::getNodeName(node).str();
    tfg::getDataResults(node)[0].replaceAllUsesWith(value);
    node->erase();
    if (Operation *made = value.getDefiningOp();
        made && made->hasAttr(tfg::kNameAttr))
      made->setAttr(tfg::kNameAttr, StringAttr::get(made->getContext(), name));
  }

  Block &body;
  NameUniquer names;
  llvm::DenseMap<Value, Rows> rows;
  /// Values computed from a count, and the rows whose count it is.
  llvm::DenseMap<Value, Rows> counts;
  /// The results whose first dimension gets a bound.
  SmallVector<std::pair<Value, int64_t>> bounded;
  /// The count of each (partitions, partition) of the DynamicPartitions.
  llvm::DenseMap<std::pair<Value, int64_t>, Value> partitionCounts;
  /// The _Retvals of rows, and their counts.
  SmallVector<std::pair<Operation *, Value>> fetchedRows;
};

void Bounder::addRowCounts() {
  if (fetchedRows.empty())
    return;
  auto module = body.getParentOp()->getParentOfType<ModuleOp>();
  MLIRContext *context = module.getContext();
  Builder b(context);
  auto fetches = module->getAttrOfType<ArrayAttr>(kFetchesAttr);
  SmallVector<Attribute> names(fetches.begin(), fetches.end());
  SmallVector<int64_t> counts(names.size(), -1);
  if (auto given = module->getAttrOfType<DenseI64ArrayAttr>(kRowCountsAttr))
    counts.assign(given.asArrayRef().begin(), given.asArrayRef().end());
  for (auto [retval, count] : fetchedRows) {
    int64_t index = retval->getAttrOfType<IntegerAttr>("index").getInt();
    int64_t k = names.size();
    std::string name = cast<StringAttr>(names[index]).str() + "/rows";
    OpBuilder builder(retval);
    createNodeLike(builder, retval, "_Retval",
                   this->names.get((tfg::getNodeName(retval) + "/rows").str()),
                   {}, count, {},
                   {b.getNamedAttr("T", TypeAttr::get(b.getIntegerType(64))),
                    b.getNamedAttr("index", b.getI64IntegerAttr(k))});
    names.push_back(b.getStringAttr(name));
    counts[index] = k;
    counts.push_back(-1);
  }
  module->setAttr(kFetchesAttr, b.getArrayAttr(names));
  module->setAttr(kRowCountsAttr, DenseI64ArrayAttr::get(context, counts));
}

Value Bounder::countOf(Operation *where, Value input, StringRef name) {
  MLIRContext *context = where->getContext();
  Builder b(context);
  std::string base =
      name.empty() ? (tfg::getNodeName(where) + "/count").str() : name.str();
  Type element = cast<TensorType>(input.getType()).getElementType();
  Type i64 = b.getIntegerType(64), i1 = b.getI1Type();
  Value truth = input;
  if (element != i1) {
    Attribute zero = isa<FloatType>(element)
                         ? Attribute(FloatAttr::get(element, 0.0))
                         : Attribute(IntegerAttr::get(element, 0));
    truth = make(where, "NotEqual", base + "/nonzero",
                 RankedTensorType::get(shapeOf(input).dims, i1),
                 {input, scalar(where, base + "/zero", zero)},
                 {b.getNamedAttr("T", TypeAttr::get(element))});
  }
  Value ones = castTo(where, base + "/ones", truth, i64);
  int64_t rank = shapeOf(input).rank();
  SmallVector<int32_t> axes(rank);
  std::iota(axes.begin(), axes.end(), 0);
  Value allAxes = constant(
      where, base + "/axes",
      DenseElementsAttr::get(RankedTensorType::get({rank}, b.getI32Type()),
                             ArrayRef<int32_t>(axes)));
  return make(where, "Sum", base, RankedTensorType::get({}, i64),
              {ones, allAxes},
              {b.getNamedAttr("T", TypeAttr::get(i64)),
               b.getNamedAttr("Tidx", TypeAttr::get(b.getI32Type())),
               b.getNamedAttr("keep_dims", b.getBoolAttr(false))});
}

FailureOr<bool> Bounder::run() {
  SmallVector<Operation *> order = topologicalOrder(body);
  for (Operation *&node : order)
    if (tfg::isNode(node))
      node = asCountingSelection(node);
  for (Operation *node : order) {
    if (!tfg::isNode(node))
      continue;
    if (!producesRows(node) && failed(visit(node)))
      return failure();
  }
  if (bounded.empty())
    return false;
  addRowCounts();
  for (auto [value, bound] : bounded) {
    auto type = cast<RankedTensorType>(value.getType());
    SmallVector<int64_t> dims(type.getShape());
    dims[rows.lookup(value).axis] = bound;
    value.setType(RankedTensorType::get(dims, type.getElementType()));
  }
  unsigned refined = 0;
  if (failed(inferShapes(body, refined)))
    return failure();
  return true;
}

Operation *Bounder::asCountingSelection(Operation *node) {
  OpKind kind = opKindOf(node);
  if (kind != OpKind::NonMaxSuppressionV2 &&
      kind != OpKind::NonMaxSuppressionV3)
    return node;
  // V2 and V3 are V4 unpadded, whose count of the selection they lack (V2
  // with no score threshold).
  Builder b(node->getContext());
  SmallVector<Value> operands(tfg::getDataOperands(node));
  Type threshold = cast<TensorType>(operands[3].getType()).getElementType();
  if (kind == OpKind::NonMaxSuppressionV2) {
    auto floatType = dyn_cast<FloatType>(threshold);
    if (!floatType)
      return node;
    operands.push_back(scalar(
        node, (tfg::getNodeName(node) + "/score_threshold").str(),
        FloatAttr::get(threshold, llvm::APFloat::getLargest(
                                      floatType.getFloatSemantics(), true))));
  }
  Value selected = tfg::getDataResults(node)[0];
  OpBuilder builder(node);
  Operation *v4 = createNodeLike(
      builder, node, "NonMaxSuppressionV4", names.get(tfg::getNodeName(node)),
      {selected.getType(), RankedTensorType::get({}, b.getI32Type())},
      operands, tfg::getControlOperands(node),
      {b.getNamedAttr("T", TypeAttr::get(cast<TensorType>(operands[0].getType())
                                             .getElementType())),
       b.getNamedAttr("T_threshold", TypeAttr::get(threshold)),
       b.getNamedAttr("pad_to_max_output_size", b.getBoolAttr(false))});
  std::string name = tfg::getNodeName(node).str();
  selected.replaceAllUsesWith(v4->getResult(0));
  tfg::getControlToken(node).replaceAllUsesWith(tfg::getControlToken(v4));
  node->erase();
  v4->setAttr(tfg::kNameAttr, b.getStringAttr(name));
  return v4;
}

bool Bounder::sliceRows(Operation *node) {
  // x[b:e] (one dimension) with b or e computed in the step: every slice of
  // that dimension the stride reaches is its bound, and the count is
  // TensorFlow's clamped range, computed in the graph.
  OperandRange operands = tfg::getDataOperands(node);
  Shape in = shapeOf(operands[0]), spec = shapeOf(operands[3]);
  // (Ends that shape inference knows, computed from shapes, are constants.)
  if (!in.isStatic() || !spec.isStatic() || spec.rank() != 1 ||
      shapeOf(tfg::getDataResults(node)[0]).isStatic())
    return false;
  size_t n = spec.dims[0];
  SliceIndices stride = sliceIndices(operands[3], n);
  if (llvm::is_contained(stride.known, false))
    return false;
  std::optional<SmallVector<int64_t>> strides = stride.values;
  SliceIndices begin = sliceIndices(operands[1], n),
               end = sliceIndices(operands[2], n);
  std::string message;
  FailureOr<StridedSliceSpec> resolved = resolveStridedSlice(
      in.dims, begin.values, end.values, *strides, intAttr(node, "begin_mask"),
      intAttr(node, "end_mask"), intAttr(node, "ellipsis_mask"),
      intAttr(node, "new_axis_mask"), intAttr(node, "shrink_axis_mask"),
      message, begin.known, end.known);
  if (failed(resolved))
    return false;
  int64_t axis = -1, dim = -1;
  for (auto [k, d] : llvm::enumerate(resolved->outputSource)) {
    if (d < 0 || !resolved->dims[d].atRunTime)
      continue;
    if (axis >= 0)
      return false; // (Two ranges of the step's: not followed.)
    axis = k, dim = d;
  }
  const StridedSliceDim &d = resolved->dims[dim < 0 ? 0 : dim];
  if (axis < 0 || d.stride <= 0)
    return false;
  MLIRContext *context = node->getContext();
  Builder b(context);
  Type i64 = b.getIntegerType(64);
  int64_t size = in.dims[dim];
  std::string base = (tfg::getNodeName(node) + "/count").str();
  auto i64Scalar = [&](StringRef name, int64_t v) {
    return scalar(node, base + "/" + name.str(), IntegerAttr::get(i64, v));
  };
  auto arith = [&](StringRef op, StringRef name, Value x, Value y) {
    return binary(node, op, base + "/" + name.str(), x, y, i64);
  };
  // An end of the range: TensorFlow's, from the end when negative, then
  // clamped to [0, size]; `masked` the whole dimension's.
  auto endOf = [&](Value vector, StringRef name, int64_t maskBit,
                   int64_t whole) -> Value {
    if (intAttr(node, name == "begin" ? "begin_mask" : "end_mask") >> maskBit & 1)
      return i64Scalar(name, whole);
    Type indexType = cast<TensorType>(vector.getType()).getElementType();
    auto one = [&](int64_t v) {
      return constant(node, (base + "/" + name + "_at").str(),
                      DenseElementsAttr::get(
                          RankedTensorType::get({1}, indexType),
                          IntegerAttr::get(indexType, v)));
    };
    Value at = make(node, "StridedSlice", base + "/" + name.str(),
                    RankedTensorType::get({}, indexType),
                    {vector, one(d.entry), one(d.entry + 1), one(1)},
                    {b.getNamedAttr("T", TypeAttr::get(indexType)),
                     b.getNamedAttr("Index", TypeAttr::get(indexType)),
                     b.getNamedAttr("shrink_axis_mask", b.getI64IntegerAttr(1))});
    Value raw = castTo(node, base + "/" + name.str() + "_wide", at, i64);
    Value negative = make(
        node, "Less", base + "/" + name.str() + "_negative",
        RankedTensorType::get({}, b.getI1Type()),
        {raw, i64Scalar(name.str() + "_zero", 0)},
        {b.getNamedAttr("T", TypeAttr::get(i64))});
    Value fromEnd = arith("AddV2", name.str() + "_from_end", raw,
                          i64Scalar(name.str() + "_size", size));
    Value index = make(node, "SelectV2", base + "/" + name.str() + "_index",
                       RankedTensorType::get({}, i64), {negative, fromEnd, raw},
                       {b.getNamedAttr("T", TypeAttr::get(i64))});
    Value low = arith("Maximum", name.str() + "_low", index,
                      i64Scalar(name.str() + "_none", 0));
    return arith("Minimum", name.str() + "_clamped", low,
                 i64Scalar(name.str() + "_all", size));
  };
  Value first = endOf(operands[1], "begin", d.entry, 0);
  Value last = endOf(operands[2], "end", d.entry, size);
  // ceil((last - first) / stride), at least 0.
  Value span = arith("AddV2", "span",
                     arith("Sub", "difference", last, first),
                     i64Scalar("round_up", d.stride - 1));
  Value steps = arith("FloorDiv", "steps", span, i64Scalar("stride", d.stride));
  Value count = binary(node, "Maximum", base, steps, i64Scalar("empty", 0), i64);
  int64_t bound = (size + d.stride - 1) / d.stride;
  ResultRange results = tfg::getDataResults(node);
  rows[results[0]] = {axis, bound, count, node};
  bounded.push_back({results[0], bound});
  return true;
}

bool Bounder::stackRows(Operation *node) {
  // TensorArrayGatherV3(handle, Range(0, TensorArraySizeV3(handle), 1)) of
  // an array of dynamic size (tfc-bound-growable-lists): its capacity of
  // rows, the indices past its size -1 (rows of zeros), counted by the size.
  OperandRange operands = tfg::getDataOperands(node);
  Operation *array = forwardArrayOf(tensorArrayOf(operands[0]));
  auto capacity =
      array ? array->getAttrOfType<IntegerAttr>(kListCapacityAttr) : nullptr;
  Operation *range = operands[1].getDefiningOp();
  if (!capacity || !range || !tfg::isNode(range) ||
      opKindOf(range) != OpKind::Range)
    return false;
  OperandRange bounds = tfg::getDataOperands(range);
  Operation *size = bounds[1].getDefiningOp();
  std::optional<SmallVector<int64_t>> start = constantInts(bounds[0]),
                                      delta = constantInts(bounds[2]);
  if (!start || !delta || (*start) != SmallVector<int64_t>{0} ||
      (*delta) != SmallVector<int64_t>{1} || !size || !tfg::isNode(size) ||
      opKindOf(size) != OpKind::TensorArraySizeV3 ||
      forwardArrayOf(tensorArrayOf(tfg::getDataOperands(size)[0])) != array)
    return false;
  Builder b(node->getContext());
  int64_t bound = capacity.getInt();
  std::string base = (tfg::getNodeName(node) + "/indices").str();
  // Every element's index, those past the size -1.
  SmallVector<int32_t> iota(bound);
  std::iota(iota.begin(), iota.end(), 0);
  node->setOperand(
      1, constant(node, base + "/all",
                  DenseElementsAttr::get(
                      RankedTensorType::get({bound}, b.getI32Type()),
                      ArrayRef(iota))));
  Value length = tfg::getDataResults(size)[0];
  skipPadding(node, 1, bound, length, base);
  Value count = castTo(node, (tfg::getNodeName(node) + "/count").str(), length,
                       b.getIntegerType(64));
  Value result = tfg::getDataResults(node)[0];
  rows[result] = {0, bound, count, node};
  bounded.push_back({result, bound});
  return true;
}

bool Bounder::producesRows(Operation *node) {
  OpKind kind = opKindOf(node);
  OperandRange operands = tfg::getDataOperands(node);
  ResultRange results = tfg::getDataResults(node);
  if (kind == OpKind::Where) {
    // An input of unknown shape (a feed's) has no bound yet; a Where of
    // rows is refused as any op that takes them.
    Shape in = shapeOf(operands[0]);
    if (!in.isStatic())
      return false;
    int64_t bound = in.numElements();
    rows[results[0]] = {0, bound, countOf(node, operands[0]), node};
    bounded.push_back({results[0], bound});
    return true;
  }
  if (kind == OpKind::DynamicPartition) {
    // Output p gets the rows whose partition is p: at most every row.
    Shape partitions = shapeOf(operands[1]);
    if (!partitions.isStatic() || !staticBut(shapeOf(operands[0]), -1))
      return false;
    int64_t bound = partitions.numElements();
    MLIRContext *context = node->getContext();
    Builder b(context);
    Type i32 = b.getI32Type(), i1 = b.getI1Type();
    for (auto [p, result] : llvm::enumerate(results)) {
      // Partitions of one tensor by the same partitions (embedding
      // lookups split ids and their positions so) share their counts.
      Value &count = partitionCounts[{operands[1], int64_t(p)}];
      if (!count) {
        std::string base =
            (tfg::getNodeName(node) + "/count_" + Twine(p)).str();
        Value mine = make(node, "Equal", base + "/mine",
                          RankedTensorType::get(partitions.dims, i1),
                          {operands[1],
                           scalar(node, base + "/partition",
                                  IntegerAttr::get(i32, int64_t(p)))},
                          {b.getNamedAttr("T", TypeAttr::get(i32))});
        count = countOf(node, mine, base);
      }
      rows[result] = {0, bound, count, node};
      bounded.push_back({result, bound});
    }
    return true;
  }
  if (kind == OpKind::Unique && !node->hasAttr(kPadNegativeAttr)) {
    // The distinct values, as many as idx's largest position + 1.
    Shape in = shapeOf(operands[0]);
    if (!in.isStatic() || in.rank() != 1)
      return false;
    int64_t bound = in.dims[0];
    MLIRContext *context = node->getContext();
    Builder b(context);
    Type i64 = b.getIntegerType(64);
    std::string base = (tfg::getNodeName(node) + "/count").str();
    Value count;
    if (bound == 0) {
      count = scalar(node, base, IntegerAttr::get(i64, 0));
    } else {
      Value positions = castTo(node, base + "/positions", results[1], i64);
      Value axis = scalar(node, base + "/axis",
                          IntegerAttr::get(b.getI32Type(), 0));
      Value last = make(node, "Max", base + "/last",
                        RankedTensorType::get({}, i64), {positions, axis},
                        {b.getNamedAttr("T", TypeAttr::get(i64)),
                         b.getNamedAttr("Tidx", TypeAttr::get(b.getI32Type())),
                         b.getNamedAttr("keep_dims", b.getBoolAttr(false))});
      count = binary(node, "AddV2", base, last,
                     scalar(node, base + "/one", IntegerAttr::get(i64, 1)), i64);
    }
    rows[results[0]] = {0, bound, count, node};
    bounded.push_back({results[0], bound});
    return true;
  }
  if (kind == OpKind::TensorListStack) {
    // A list that grows in a loop (tfc-bound-growable-lists): its capacity
    // of elements, of which the list's length are TensorFlow's.
    Operation *reserve = reserveOf(operands[0]);
    auto capacity =
        reserve ? reserve->getAttrOfType<IntegerAttr>(kListCapacityAttr)
                : IntegerAttr();
    if (!capacity || !staticBut(shapeOf(results[0]), 0))
      return false;
    Builder b(node->getContext());
    std::string base = (tfg::getNodeName(node) + "/count").str();
    Value length = make(node, "TensorListLength", base + "/length",
                        RankedTensorType::get({}, b.getI32Type()),
                        operands[0], {});
    Value count = castTo(node, base, length, b.getIntegerType(64));
    rows[results[0]] = {0, capacity.getInt(), count, node};
    bounded.push_back({results[0], capacity.getInt()});
    return true;
  }
  if (kind == OpKind::StridedSlice && !rowsOf(operands[0]))
    return sliceRows(node);
  if (kind == OpKind::TensorArrayGatherV3)
    return stackRows(node);
  if (kind == OpKind::NonMaxSuppressionV4 ||
      kind == OpKind::NonMaxSuppressionV5) {
    // Unpadded, the selection (and V5's scores) has the count V4 and V5
    // give; its bound is max_output_size, and at most every box.
    Shape boxes = shapeOf(operands[0]);
    auto pad = node->getAttrOfType<BoolAttr>("pad_to_max_output_size");
    if ((pad && pad.getValue()) || !boxes.ranked || boxes.rank() != 2 ||
        boxes.dims[0] == ShapedType::kDynamic)
      return false;
    int64_t bound = boxes.dims[0];
    if (std::optional<SmallVector<int64_t>> m = constantInts(operands[2]);
        m && m->size() == 1)
      bound = std::clamp<int64_t>((*m)[0], 0, bound);
    bool v5 = kind == OpKind::NonMaxSuppressionV5;
    Value count = castTo(node, (tfg::getNodeName(node) + "/count").str(),
                         results[v5 ? 2 : 1], IntegerType::get(node->getContext(), 64));
    for (unsigned i = 0; i < (v5 ? 2u : 1u); ++i) {
      rows[results[i]] = {0, bound, count, node};
      bounded.push_back({results[i], bound});
    }
    return true;
  }
  return false;
}

LogicalResult Bounder::visit(Operation *node) {
  const Rows *from = nullptr;
  bool fromCount = false;
  for (Value operand : tfg::getDataOperands(node)) {
    if (const Rows *r = rowsOf(operand))
      from = from ? from : r;
    fromCount |= counts.count(operand) > 0;
  }
  if (!from)
    return fromCount ? visitCountUser(node) : success();

  OpKind kind = opKindOf(node);
  OperandRange operands = tfg::getDataOperands(node);
  ResultRange results = tfg::getDataResults(node);
  // The axis of the rows of operand i, or -1 when it has none.
  auto axisOf = [&](unsigned i) {
    const Rows *r = rowsOf(operands[i]);
    return r ? r->axis : -1;
  };
  if (kind == OpKind::DynamicStitch || kind == OpKind::ParallelDynamicStitch)
    return stitchRows(node);
  // Every operand with rows has the same count.
  for (Value operand : operands)
    if (const Rows *r = rowsOf(operand); r && r->count != from->count)
      return refuse(node, *from,
                    "combines rows of two Wheres: " + tfg::nodeLabel(r->where) +
                        " and");
  auto rankOf = [&](Value v) { return shapeOf(v).rank(); };
  auto constantAxis = [&](Value v, int64_t rank) -> std::optional<int64_t> {
    std::optional<SmallVector<int64_t>> values = constantInts(v);
    if (!values || values->size() != 1)
      return std::nullopt;
    return normalizeAxis((*values)[0], rank);
  };
  auto to = [&](int64_t axis) {
    setRows(results[0], *from, axis);
    return success();
  };
  const char *moves = "moves";

  if (kind == OpKind::InternalRetval) {
    // Fetched with their count: the program returns the first rows.
    if (from->axis != 0 || !isStepEntry())
      return node->emitError()
             << "fetch of " << tfg::nodeLabel(operands[0].getDefiningOp())
             << " has as many slices along dimension " << from->axis
             << " as " << tfg::nodeLabel(from->where)
             << " finds, which only the data decides; tfc returns such a "
                "count of rows only as the first dimension of a fetch of the "
                "step";
    fetchedRows.push_back({node, from->count});
    return success();
  }
  if (kind == OpKind::Shape || kind == OpKind::Size)
    return shapeOfRows(node, *from);
  if (kind == OpKind::Rank)
    return success();
  if (isReduction(kind))
    return reduceRows(node, *from);
  if (isIdentityLike(kind))
    return to(from->axis);

  if (isElementwise(node)) {
    // Rows line up right-aligned, as broadcasting does; every other
    // operand must broadcast along them.
    int64_t rank = rankOf(results[0]), axis = -1;
    if (rank < 0 || kind == OpKind::Select ||
        (kind == OpKind::BiasAdd &&
         node->getAttrOfType<StringAttr>("data_format") &&
         node->getAttrOfType<StringAttr>("data_format").getValue() == "NCHW"))
      return refuse(node, *from, "broadcasts in a way tfc does not follow for");
    for (auto [i, operand] : llvm::enumerate(operands)) {
      int64_t r = rankOf(operand), a = axisOf(i);
      if (r < 0)
        return refuse(node, *from, "broadcasts an operand of unknown rank with");
      if (a >= 0) {
        if (axis >= 0 && a + rank - r != axis)
          return refuse(node, *from, "lines up on different axes");
        axis = a + rank - r;
      }
    }
    for (auto [i, operand] : llvm::enumerate(operands)) {
      int64_t r = rankOf(operand), at = axis - (rank - r);
      if (axisOf(i) < 0 && at >= 0 && shapeOf(operand).dims[at] != 1)
        return refuse(node, *from, "combines a tensor of other rows with");
    }
    return to(axis);
  }

  switch (kind) {
  case OpKind::Squeeze: {
    int64_t rank = rankOf(operands[0]);
    auto dims = node->getAttrOfType<ArrayAttr>("squeeze_dims");
    if (!dims || dims.empty())
      return refuse(node, *from, "squeezes every dimension of size 1, maybe");
    int64_t axis = from->axis;
    for (Attribute dim : dims) {
      std::optional<int64_t> d =
          normalizeAxis(cast<IntegerAttr>(dim).getInt(), rank);
      if (!d || *d == from->axis)
        return refuse(node, *from, "squeezes");
      axis -= *d < from->axis;
    }
    return to(axis);
  }
  case OpKind::ExpandDims: {
    std::optional<int64_t> d =
        constantAxis(operands[1], rankOf(operands[0]) + 1);
    if (!d || axisOf(1) >= 0)
      return refuse(node, *from, "expands by a dimension tfc cannot see in");
    return to(from->axis + (*d <= from->axis));
  }
  case OpKind::Reshape: {
    // The same elements before and after the axis: each slice of the rows
    // stays one slice.
    Shape in = shapeOf(operands[0]), out = shapeOf(results[0]);
    if (axisOf(1) >= 0 || !staticBut(in, from->axis) || !out.ranked)
      return refuse(node, *from, "reshapes");
    int64_t axis = -1;
    for (auto [d, size] : llvm::enumerate(out.dims))
      if (size == ShapedType::kDynamic)
        axis = axis < 0 ? int64_t(d) : -2;
    ArrayRef<int64_t> i(in.dims), o(out.dims);
    if (axis < 0 ||
        product(i.take_front(from->axis)) != product(o.take_front(axis)) ||
        product(i.drop_front(from->axis + 1)) != product(o.drop_front(axis + 1)))
      return refuse(node, *from, "reshapes into other rows");
    return to(axis);
  }
  case OpKind::Transpose: {
    std::optional<SmallVector<int64_t>> perm = constantInts(operands[1]);
    if (!perm || axisOf(1) >= 0)
      return refuse(node, *from, "transposes by a permutation tfc cannot see in");
    for (auto [d, source] : llvm::enumerate(*perm))
      if (source == from->axis)
        return to(d);
    return refuse(node, *from, moves);
  }
  case OpKind::GatherV2:
  case OpKind::Gather:
  case OpKind::ResourceGather: {
    // Rows of indices pick rows; rows of params are picked from along
    // another axis.
    unsigned params = 0, indices = 1;
    int64_t gatherAxis = 0;
    if (kind == OpKind::GatherV2) {
      std::optional<int64_t> a =
          constantAxis(operands[2], rankOf(operands[0]));
      if (!a || axisOf(2) >= 0 || intAttr(node, "batch_dims") != 0)
        return refuse(node, *from, "gathers in a way tfc does not follow for");
      gatherAxis = *a;
    }
    if (kind == OpKind::ResourceGather && intAttr(node, "batch_dims") != 0)
      return refuse(node, *from, "gathers in a way tfc does not follow for");
    if (axisOf(indices) >= 0 && (kind == OpKind::ResourceGather ||
                                 axisOf(params) < 0))
      return to(gatherAxis + axisOf(indices));
    if (axisOf(params) >= 0 && axisOf(indices) < 0 &&
        axisOf(params) != gatherAxis)
      return to(axisOf(params) < gatherAxis
                    ? axisOf(params)
                    : axisOf(params) + rankOf(operands[indices]) - 1);
    return refuse(node, *from, "gathers along");
  }
  case OpKind::StridedSlice: {
    // Slices of the other axes ([:, 1]) with the rows taken whole.
    std::optional<SmallVector<int64_t>> begin = constantInts(operands[1]),
                                        end = constantInts(operands[2]),
                                        strides = constantInts(operands[3]);
    int64_t a = from->axis, shrink = intAttr(node, "shrink_axis_mask");
    if (!begin || !end || !strides || axisOf(0) != a ||
        intAttr(node, "ellipsis_mask") || intAttr(node, "new_axis_mask"))
      return refuse(node, *from, "slices in a way tfc does not follow for");
    if (a < int64_t(begin->size()) &&
        (!(intAttr(node, "begin_mask") >> a & 1) && (*begin)[a] != 0 ||
         !(intAttr(node, "end_mask") >> a & 1) || (*strides)[a] != 1 ||
         shrink >> a & 1))
      return refuse(node, *from, "slices");
    return to(a - llvm::popcount(uint64_t(shrink) & ((uint64_t(1) << a) - 1)));
  }
  case OpKind::GatherNd:
    if (axisOf(0) < 0 && axisOf(1) >= 0 && axisOf(1) < rankOf(operands[1]) - 1)
      return to(axisOf(1));
    return refuse(node, *from, "gathers along");
  case OpKind::MatMul:
    if (axisOf(0) == 0 && axisOf(1) < 0 && !boolAttr(node, "transpose_a"))
      return to(0);
    return refuse(node, *from, "contracts");
  case OpKind::Softmax:
  case OpKind::LogSoftmax:
    if (from->axis == rankOf(operands[0]) - 1)
      return refuse(node, *from, "normalizes along");
    return to(from->axis);
  case OpKind::ConcatV2: {
    std::optional<int64_t> a =
        constantAxis(operands.back(), rankOf(results[0]));
    for (unsigned i = 0; i + 1 < operands.size(); ++i)
      if (axisOf(i) != from->axis)
        return refuse(node, *from, "concatenates other tensors with");
    if (!a || *a == from->axis)
      return refuse(node, *from, "concatenates along");
    return to(from->axis);
  }
  case OpKind::Pack: {
    std::optional<int64_t> a =
        normalizeAxis(intAttr(node, "axis"), rankOf(results[0]));
    for (unsigned i = 0; i < operands.size(); ++i)
      if (axisOf(i) != from->axis)
        return refuse(node, *from, "stacks other tensors with");
    if (!a)
      return refuse(node, *from, "stacks");
    return to(from->axis + (*a <= from->axis));
  }
  default:
    return refuse(node, *from, "takes");
  }
}

LogicalResult Bounder::visitCountUser(Operation *node) {
  const Rows *of = nullptr;
  for (Value operand : tfg::getDataOperands(node))
    if (auto it = counts.find(operand); it != counts.end())
      of = &it->second;
  OpKind kind = opKindOf(node);
  bool asData = false;
  switch (kind) {
  case OpKind::InternalRetval:
    return success();
  case OpKind::StridedSlice:
  case OpKind::Slice:
  case OpKind::GatherV2:
  case OpKind::Sum:
  case OpKind::Prod:
  case OpKind::Max:
  case OpKind::Min: {
    // Slices and reductions of a shape, not shapes of slices.
    OperandRange operands = tfg::getDataOperands(node);
    asData = counts.count(operands[0]) &&
             llvm::none_of(operands.drop_front(),
                           [&](Value v) { return counts.count(v) > 0; });
    break;
  }
  default:
    // (Through a loop's back edge a count may reach a shape unseen here;
    // that shape is then unknown, which tfc-verify-static-shapes refuses.)
    asData = isElementwise(node) || isIdentityLike(kind) ||
             isTf1ControlFlow(node) || kind == OpKind::Pack ||
             kind == OpKind::ConcatV2;
  }
  if (!asData)
    return node->emitError()
           << tfg::nodeLabel(node) << " uses the number of rows of "
           << tfg::nodeLabel(of->where)
           << ", which only the data decides, as a shape or an index; tfc "
              "plans for static shapes";
  for (Value result : tfg::getDataResults(node))
    counts[result] = *of;
  return success();
}

LogicalResult Bounder::shapeOfRows(Operation *node, const Rows &rows) {
  Value operand = tfg::getDataOperands(node)[0];
  Shape in = shapeOf(operand);
  if (!staticBut(in, rows.axis))
    return refuse(node, rows, "asks for a shape of unknown dimensions beside");
  Builder b(node->getContext());
  StringRef name = tfg::getNodeName(node);
  Type element =
      cast<TensorType>(tfg::getDataResults(node)[0].getType()).getElementType();
  Value count = castTo(node, (name + "/count").str(), rows.count, element);
  // `values` of the result's integer type: a vector, or a scalar.
  auto typed = [&](ArrayRef<int64_t> values, bool scalar = false) {
    SmallVector<int64_t> shape;
    if (!scalar)
      shape.push_back(int64_t(values.size()));
    auto type = RankedTensorType::get(shape, element);
    if (element.isInteger(32)) {
      SmallVector<int32_t> narrow(values.begin(), values.end());
      return DenseElementsAttr::get(type, ArrayRef<int32_t>(narrow));
    }
    return DenseElementsAttr::get(type, values);
  };
  Value result;
  if (opKindOf(node) == OpKind::Size) {
    SmallVector<int64_t> others(in.dims.begin(), in.dims.end());
    others.erase(others.begin() + rows.axis);
    Value perRow = constant(node, (name + "/per_row").str(),
                            typed({product(others)}, /*scalar=*/true));
    result = binary(node, "Mul", (name + "/size").str(), count, perRow,
                    element);
  } else {
    // The static dims with 0 at the axis, plus the count there.
    SmallVector<int64_t> dims(in.dims.begin(), in.dims.end()), unit(in.rank(), 0);
    dims[rows.axis] = 0;
    unit[rows.axis] = 1;
    Value atAxis = binary(node, "Mul", (name + "/at_axis").str(),
                          constant(node, (name + "/unit").str(), typed(unit)),
                          count, element);
    result = binary(node, "AddV2", (name + "/shape").str(),
                    constant(node, (name + "/static").str(), typed(dims)),
                    atAxis, element);
  }
  replace(node, result);
  counts[result] = rows;
  return success();
}

LogicalResult Bounder::reduceRows(Operation *node, const Rows &rows) {
  OpKind kind = opKindOf(node);
  OperandRange operands = tfg::getDataOperands(node);
  Value x = operands[0];
  Shape in = shapeOf(x);
  std::optional<SmallVector<int64_t>> axes = constantInts(operands[1]);
  if (!axes || counts.count(operands[1]) || rowsOf(operands[1]))
    return refuse(node, rows, "reduces along unknown axes");
  SmallVector<int64_t> reduced;
  for (int64_t a : *axes) {
    std::optional<int64_t> d = normalizeAxis(a, in.rank());
    if (!d)
      return refuse(node, rows, "reduces along an axis out of range of");
    reduced.push_back(*d);
  }
  bool keepDims = boolAttr(node, "keep_dims");
  if (!llvm::is_contained(reduced, rows.axis)) {
    // The rows stay apart: the result has them too.
    int64_t axis = rows.axis;
    if (!keepDims)
      axis -= llvm::count_if(reduced, [&](int64_t d) { return d < rows.axis; });
    setRows(tfg::getDataResults(node)[0], rows, axis);
    return success();
  }
  if (!staticBut(in, rows.axis))
    return refuse(node, rows, "reduces dimensions of unknown size beside");
  Type element = cast<TensorType>(x.getType()).getElementType();
  if (kind == OpKind::Mean && !isa<FloatType>(element))
    return refuse(node, rows, "averages integers over");
  Attribute identity = identityOf(kind, element);
  if (!identity)
    return refuse(node, rows, "reduces elements tfc cannot pad in");
  MLIRContext *context = node->getContext();
  Builder b(context);
  std::string name = tfg::getNodeName(node).str();
  // mask[i] = i < count along the axis, broadcast along the others.
  SmallVector<int64_t> maskShape(in.rank(), 1), iota(rows.bound);
  maskShape[rows.axis] = rows.bound;
  std::iota(iota.begin(), iota.end(), 0);
  Type i64 = b.getIntegerType(64), i1 = b.getI1Type();
  Value index = constant(
      node, name + "/row",
      DenseElementsAttr::get(RankedTensorType::get(maskShape, i64),
                             ArrayRef(iota)));
  Value mask = binary(node, "Less", name + "/valid", index, rows.count, i1);
  Value padded = make(node, "SelectV2", name + "/padded", x.getType(),
                      {mask, x, scalar(node, name + "/identity", identity)},
                      {b.getNamedAttr("T", TypeAttr::get(element))});
  if (kind != OpKind::Mean) {
    node->setOperand(0, padded);
    return success();
  }
  // Mean = the Sum over the true elements / their number.
  SmallVector<NamedAttribute> attrs = tfg::getNodeAttrs(node);
  Type result = tfg::getDataResults(node)[0].getType();
  Value sum = make(node, "Sum", name + "/sum", result,
                         {padded, operands[1]}, attrs);
  int64_t others = 1;
  for (int64_t d : reduced)
    if (d != rows.axis)
      others *= in.dims[d];
  Value n = castTo(node, name + "/count", rows.count, element);
  if (others != 1)
    n = binary(node, "Mul", name + "/elements", n,
               scalar(node, name + "/per_row", FloatAttr::get(element, double(others))),
               element);
  replace(node, binary(node, "RealDiv", name + "/mean", sum, n, element));
  return success();
}

LogicalResult Bounder::stitchRows(Operation *node) {
  OperandRange operands = tfg::getDataOperands(node);
  unsigned n = operands.size() / 2;
  Shape out = shapeOf(tfg::getDataResults(node)[0]);
  for (unsigned i = 0; i < n; ++i) {
    Value indices = operands[i], data = operands[n + i];
    const Rows *index = rowsOf(indices), *rowsOfData = rowsOf(data);
    const Rows *any = index ? index : rowsOfData;
    if (!any)
      continue;
    // The stitched rows are known (the shape function's), the inputs'
    // rows one per index and as many.
    if (!out.ranked || out.rank() == 0 || out.dims[0] == ShapedType::kDynamic)
      return refuse(node, *any, "stitches into a size only the data decides from");
    if (!index || !rowsOfData || index->count != rowsOfData->count ||
        index->axis != 0 || rowsOfData->axis != 0 || shapeOf(indices).rank() != 1)
      return refuse(node, *any, "stitches data and indices that are not rows "
                                "of one count, one index per row, as");
    skipPadding(node, i, index->bound, index->count,
                (tfg::getNodeName(node) + "/indices_" + Twine(i)).str());
  }
  return success();
}

void Bounder::skipPadding(Operation *node, unsigned operand, int64_t bound,
                          Value count, const std::string &name) {
  // indices[j] for j < count, else -1.
  Builder b(node->getContext());
  Value indices = tfg::getDataOperands(node)[operand];
  auto countType = cast<IntegerType>(
      cast<TensorType>(count.getType()).getElementType());
  Type indexType = cast<TensorType>(indices.getType()).getElementType();
  SmallVector<APInt> iota;
  for (int64_t j = 0; j < bound; ++j)
    iota.push_back(APInt(countType.getWidth(), j));
  Value position = constant(
      node, name + "/row",
      DenseElementsAttr::get(RankedTensorType::get({bound}, countType), iota));
  Value valid =
      binary(node, "Less", name + "/valid", position, count, b.getI1Type());
  Value masked =
      make(node, "SelectV2", name, indices.getType(),
           {valid, indices,
            scalar(node, name + "/padding", IntegerAttr::get(indexType, -1))},
           {b.getNamedAttr("T", TypeAttr::get(indexType))});
  node->setOperand(operand, masked);
  node->setAttr(kSkipNegativeIndicesAttr, UnitAttr::get(node->getContext()));
}

struct BoundDynamicRowsPass
    : public impl::BoundDynamicRowsPassBase<BoundDynamicRowsPass> {
  PassCounter numBounded{this, "bounded", "graph bodies with Wheres bounded"};

  void runOnOperation() override {
    numBounded = 0;
    for (Block *body : getBodies(getOperation())) {
      Bounder bounder(*body);
      FailureOr<bool> bounded = bounder.run();
      if (failed(bounded))
        return signalPassFailure();
      numBounded += *bounded;
    }
  }
};

} // namespace
} // namespace tfc
