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
// padding indices become -1, which the stitch skips; and so do the indices
// of a scatter or sparse optimizer update whose indices and updates are
// rows of one count (the sparse gradient of such a lookup, applied to each
// shard). Where the count
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
#include "tfc/Transforms/Queues.h"
#include "tfc/Transforms/ShapeInference.h"
#include "tfc/Transforms/TensorArrays.h"
#include "tfc/Transforms/Variables.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

#include <numeric>

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_BOUNDDYNAMICROWSPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

/// One dimension of rows. A Reshape may fold the rows with dimensions
/// around them into one (Keras' Dense folds [batch, n, d] into
/// [batch*n, d] for its MatMul): the dimension is then `outer` times
/// `outerUnknown` unknown dimensions (the batch) of `bound` slices of
/// `inner` elements each.
struct RowAxis {
  int64_t axis;
  int64_t outer = 1, outerUnknown = 0, inner = 1;
  bool folded() const { return outer != 1 || outerUnknown || inner != 1; }
  bool sameFold(const RowAxis &other) const {
    return outer == other.outer && outerUnknown == other.outerUnknown &&
           inner == other.inner;
  }
};

/// A value whose dimensions `axes` are each planned for `bound` slices, of
/// which only the first `count` (an int64 scalar of the graph) are
/// TensorFlow's.
struct Rows {
  SmallVector<RowAxis, 2> axes; // By dimension, ascending.
  int64_t bound;
  /// TensorFlow's slices are the first `count + offset` (at least none):
  /// a Pad before the rows adds to them, a convolution without padding
  /// takes from them (Keras' causal Conv1D does both).
  Value count;
  int64_t offset = 0;
  /// The node that made the rows (Where, Unique, DynamicPartition, a
  /// selection of boxes, a feed's _Arg), for messages.
  Operation *where;
  /// For a feed bounded by --max-dim: its name and dimension.
  std::string feed;
  int64_t feedAxis = -1;

  const RowAxis *at(int64_t axis) const {
    for (const RowAxis &a : axes)
      if (a.axis == axis)
        return &a;
    return nullptr;
  }
  int64_t axis() const { return axes.front().axis; }
  /// One dimension, not folded: what masks and fetches handle.
  bool simple() const { return axes.size() == 1 && !axes[0].folded(); }
};

/// How an element of a value computed from the shapes of rows depends on
/// their count: not at all, it is the count, or it is computed from it.
enum class Dependence : uint8_t { None, Count, Other };

/// A value computed from the shape of rows (Shape, Size, and the slices,
/// stacks and arithmetic of them): as computed, it holds the bound, which
/// is what a shape operand (a Reshape's, a Fill's) needs; where it is used
/// as data the count takes the bound's place (Bounder::materialize).
struct ShapeValue {
  SmallVector<Dependence> elements; // Of the flattened value.
  Rows rows;
  bool dependsOnCount() const {
    return llvm::any_of(elements,
                        [](Dependence d) { return d != Dependence::None; });
  }
};

/// A product of dimensions, some of them unknown (the batch, before
/// tfc-tile-batch gives it a size).
struct Extent {
  int64_t known = 1, unknown = 0;
  static Extent of(ArrayRef<int64_t> dims) {
    Extent e;
    for (int64_t d : dims)
      d == ShapedType::kDynamic ? ++e.unknown : e.known *= d;
    return e;
  }
  /// this / other, when other divides this.
  std::optional<Extent> over(const Extent &other) const {
    if (other.unknown > unknown || other.known == 0 ||
        known % other.known != 0)
      return std::nullopt;
    return Extent{known / other.known, unknown - other.unknown};
  }
};

/// Whether `value` is computed from a Shape, Size or ShapeN (within a few
/// nodes).
bool computedFromShapes(Value value, int depth = 8) {
  Operation *node = value.getDefiningOp();
  if (!node || !tfg::isNode(node) || depth == 0)
    return false;
  OpKind kind = opKindOf(node);
  if (kind == OpKind::Shape || kind == OpKind::Size || kind == OpKind::ShapeN)
    return true;
  return llvm::any_of(tfg::getDataOperands(node), [&](Value operand) {
    return computedFromShapes(operand, depth - 1);
  });
}

/// Whether `value` is a Const scalar equal to `number` (integer or float).
bool isScalarConstant(Value value, double number) {
  Operation *node = value.getDefiningOp();
  auto attr = node && opKindOf(node) == OpKind::Const
                  ? node->getAttrOfType<DenseElementsAttr>("value")
                  : DenseElementsAttr();
  if (!attr || attr.getNumElements() != 1)
    return false;
  if (isa<FloatType>(attr.getElementType()))
    return (*attr.getValues<APFloat>().begin()).convertToDouble() == number;
  if (isa<IntegerType>(attr.getElementType()))
    return double((*attr.getValues<APInt>().begin()).getSExtValue()) == number;
  return false;
}

/// Adds `axis` to `axes`; false when another fold of it is there already.
bool addAxis(SmallVectorImpl<RowAxis> &axes, const RowAxis &axis) {
  auto same = llvm::find_if(
      axes, [&](const RowAxis &a) { return a.axis == axis.axis; });
  if (same == axes.end()) {
    axes.push_back(axis);
    return true;
  }
  return same->sameFold(axis);
}

Rows rowsAlong(int64_t axis, int64_t bound, Value count, Operation *where) {
  Rows r;
  r.axes = {RowAxis{axis}};
  r.bound = bound;
  r.count = count;
  r.where = where;
  return r;
}

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
  Bounder(Block &body, bool feeds)
      : body(body), names(body), feedsOnly(feeds) {}

  /// Bounds the Wheres of the body; whether it had any.
  FailureOr<bool> run();

private:
  /// The count of the nonzero elements of `input`, as nodes beside `node`
  /// named `name` (by default, `node`'s name + "/count").
  Value countOf(Operation *node, Value input, StringRef name = {});
  /// Carries the facts through `node`, rewriting what asks for a count.
  LogicalResult visit(Operation *node);
  LogicalResult visitRows(Operation *node, const Rows &from);
  LogicalResult visitCountUser(Operation *node);
  LogicalResult reduceRows(Operation *node, const Rows &rows);
  LogicalResult stitchRows(Operation *node);
  /// A scatter or sparse optimizer update whose indices (operand `at`) are
  /// rows, and its updates one row per index: the padding indices skipped.
  LogicalResult scatterRows(Operation *node, unsigned at);
  LogicalResult contractRows(Operation *node, const Rows &rows);
  /// A GatherV2 with batch dimensions (take_along_axis), whose params and
  /// indices may have rows along several dimensions at once.
  LogicalResult gatherBatchRows(Operation *node, const Rows &rows,
                                int64_t axis);
  /// FFT and IFFT (1D to 3D) whose outermost transformed dimension is the
  /// rows: the inner dimensions transformed as before, then a discrete
  /// Fourier transform of `count` points along the rows, as matrices.
  LogicalResult transformRows(Operation *node, const Rows &rows);
  /// Follows a value computed from shapes of rows through `node`: true
  /// when `node` computes another such value, or uses one as a shape.
  FailureOr<bool> followShapeValue(Operation *node);
  /// The count version of a value computed from shapes of rows: what its
  /// uses as data see. Nodes beside its own compute it.
  Value materialize(Value value);

  /// NonMaxSuppressionV2 and V3 as the V4 that also counts the selection
  /// (the node itself for any other).
  Operation *asCountingSelection(Operation *node);
  /// A QueueDequeueUpToV2 or SparseAccumulatorTakeGradient that also
  /// gives the count of its rows (a last int64 scalar result, which its
  /// kernel writes), if it has `results` data results.
  Operation *asCounting(Operation *node, unsigned results);
  /// The rows a SparseAccumulatorTakeGradient is planned for.
  std::optional<int64_t> takeBound(Operation *accumulator);
  /// A StridedSlice of a range whose ends the step computes, as rows.
  bool sliceRows(Operation *node);
  /// The stack of a TF1 TensorArray of dynamic size, as rows.
  bool stackRows(Operation *node);
  /// A feed whose dimension --max-dim bounds, as rows counted by a feed
  /// added for the purpose.
  bool feedRows(Operation *arg);
  /// Makes operand `operand` of `node`, `bound` indices of which the first
  /// `count` are real, -1 past them, and marks `node` to skip negative
  /// indices (tfc.skip_negative_indices): its padding rows stay untouched.
  void skipPadding(Operation *node, unsigned operand, int64_t bound,
                   Value count, const std::string &name);
  /// `x` with its slices past the count along `axis` replaced by `fill`
  /// (`name`/padded, from `name`/valid).
  Value maskPadding(Operation *like, Value x, const Rows &rows, int64_t axis,
                    Attribute fill, const std::string &name);
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
  /// Whether two counts are one (or feeds' counts made one).
  bool sameCount(Value a, Value b) const {
    return canonicalCount(a) == canonicalCount(b);
  }
  bool sameCount(const Rows &a, const Rows &b) const {
    return sameCount(a.count, b.count) && a.offset == b.offset;
  }
  /// The number of TensorFlow's slices of `rows`, as a value of the graph
  /// (count + offset, at least 0).
  Value countValue(Operation *like, const Rows &rows) {
    if (rows.offset == 0)
      return rows.count;
    Value &made = offsetCounts[{rows.count, rows.offset}];
    if (!made) {
      Builder b(like->getContext());
      Type i64 = b.getIntegerType(64);
      std::string name = (tfg::getNodeName(like) + "/count").str();
      made = binary(like, "AddV2", name,
                    castTo(like, name + "/base", rows.count, i64),
                    scalar(like, name + "/offset", IntegerAttr::get(i64, rows.offset)),
                    i64);
      if (rows.offset < 0)
        made = binary(like, "Maximum", name + "/at_least_none", made,
                      scalar(like, name + "/none", IntegerAttr::get(i64, 0)), i64);
    }
    return made;
  }
  Value canonicalCount(Value count) const {
    while (Value to = countAliases.lookup(count))
      count = to;
    return count;
  }
  /// Makes the counts of two bounded feeds one, where `node` combines
  /// their rows: TensorFlow would stop on different sizes there, and so
  /// does an Assert that `node` waits for. Fails for other counts.
  LogicalResult unifyFeedCounts(Operation *node, const Rows &a,
                                const Rows &b);
  /// An Assert of `condition` (TensorFlow's message `text`) that `node`
  /// waits for.
  void assertThat(Operation *node, Value condition, const std::string &text);

  const Rows *rowsOf(Value value) const {
    auto it = rows.find(value);
    return it == rows.end() ? nullptr : &it->second;
  }
  void setRows(Value value, const Rows &from, ArrayRef<RowAxis> axes) {
    if (axes.empty())
      return;
    Rows r = from;
    r.axes.assign(axes.begin(), axes.end());
    llvm::sort(r.axes, [](const RowAxis &a, const RowAxis &b) {
      return a.axis < b.axis;
    });
    rows[value] = r;
  }
  void setRows(Value value, const Rows &from, int64_t axis) {
    setRows(value, from, ArrayRef<RowAxis>{RowAxis{axis}});
  }
  /// "node 'w' (Where), whose number only the data decides", or a feed's.
  std::string describe(const Rows &rows) const {
    if (!rows.feed.empty())
      return "feed '" + rows.feed + "' along dimension " +
             std::to_string(rows.feedAxis) + ", whose size --max-dim bounds";
    return tfg::nodeLabel(rows.where) + ", whose number only the data decides";
  }
  LogicalResult refuse(Operation *node, const Rows &from, const Twine &why) {
    return node->emitError()
           << tfg::nodeLabel(node) << " " << why << " the rows of "
           << describe(from) << "; tfc plans them for their bound and cannot here";
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
  /// An integer constant of `element` (i32 or i64) and shape `shape`.
  Value integers(Operation *like, StringRef name, Type element,
                 ArrayRef<int64_t> shape, ArrayRef<int64_t> values) {
    auto type = RankedTensorType::get(shape, element);
    if (element.isInteger(32)) {
      SmallVector<int32_t> narrow(values.begin(), values.end());
      return constant(like, name,
                      DenseElementsAttr::get(type, ArrayRef<int32_t>(narrow)));
    }
    return constant(like, name, DenseElementsAttr::get(type, values));
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
  /// Bounds the feeds --max-dim names, not data-dependent sizes.
  bool feedsOnly;
  llvm::DenseMap<Value, Rows> rows;
  /// Values computed from a count, and the rows whose count it is.
  llvm::DenseMap<Value, Rows> counts;
  /// Values computed from shapes of rows, and their count versions.
  llvm::DenseMap<Value, ShapeValue> shapeValues;
  llvm::DenseMap<Value, Value> materialized;
  /// The results whose first dimension gets a bound.
  SmallVector<std::pair<Value, int64_t>> bounded;
  /// Counts of feeds made one with another's (unifyFeedCounts), and the
  /// Asserts that nodes wait for.
  llvm::DenseMap<Value, Value> countAliases;
  /// Counts with offsets, made once each.
  llvm::DenseMap<std::pair<Value, int64_t>, Value> offsetCounts;
  SmallVector<std::pair<Operation *, Operation *>> checks;
  /// The count of each (partitions, partition) of the DynamicPartitions.
  llvm::DenseMap<std::pair<Value, int64_t>, Value> partitionCounts;
  /// The _Retvals of rows, their counts and the dimension of the rows.
  struct FetchedRows {
    Operation *retval;
    Value count;
    int64_t axis;
  };
  SmallVector<FetchedRows> fetchedRows;
  /// The values of small integer tensors that shape inference computes
  /// (a Tensordot's permutation, concatenated from constants).
  KnownValues known;
  /// The value of an integer tensor the step does not compute from rows.
  std::optional<SmallVector<int64_t>> intsOf(Value value) const {
    if (shapeValues.count(value) || counts.count(value) || rows.count(value))
      return std::nullopt;
    if (std::optional<SmallVector<int64_t>> c = constantInts(value))
      return c;
    auto it = known.find(value);
    if (it == known.end())
      return std::nullopt;
    return it->second;
  }
};

void Bounder::addRowCounts() {
  if (fetchedRows.empty())
    return;
  auto module = body.getParentOp()->getParentOfType<ModuleOp>();
  MLIRContext *context = module.getContext();
  Builder b(context);
  auto fetches = module->getAttrOfType<ArrayAttr>(kFetchesAttr);
  SmallVector<Attribute> names(fetches.begin(), fetches.end());
  SmallVector<int64_t> counts(names.size(), -1), axes(names.size(), 0);
  if (auto given = module->getAttrOfType<DenseI64ArrayAttr>(kRowCountsAttr))
    counts.assign(given.asArrayRef().begin(), given.asArrayRef().end());
  if (auto given = module->getAttrOfType<DenseI64ArrayAttr>(kRowAxesAttr))
    axes.assign(given.asArrayRef().begin(), given.asArrayRef().end());
  for (auto [retval, count, axis] : fetchedRows) {
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
    axes[index] = axis;
    counts.push_back(-1);
    axes.push_back(0);
  }
  module->setAttr(kFetchesAttr, b.getArrayAttr(names));
  module->setAttr(kRowCountsAttr, DenseI64ArrayAttr::get(context, counts));
  if (llvm::any_of(axes, [](int64_t a) { return a != 0; }))
    module->setAttr(kRowAxesAttr, DenseI64ArrayAttr::get(context, axes));
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
  unsigned refined = 0;
  if (failed(inferShapes(body, refined, &known)))
    return failure();
  for (Operation *&node : order)
    if (tfg::isNode(node))
      node = asCountingSelection(node);
  for (Operation *node : order) {
    if (!tfg::isNode(node))
      continue;
    if (!producesRows(node) && failed(visit(node)))
      return failure();
  }
  if (rows.empty())
    return false;
  for (auto [node, check] : checks)
    node->insertOperands(node->getNumOperands(), tfg::getControlToken(check));
  addRowCounts();
  for (auto [value, bound] : bounded) {
    auto type = cast<RankedTensorType>(value.getType());
    SmallVector<int64_t> dims(type.getShape());
    dims[rows.lookup(value).axis()] = bound;
    value.setType(RankedTensorType::get(dims, type.getElementType()));
  }
  if (failed(inferShapes(body, refined)))
    return failure();
  return true;
}

Operation *Bounder::asCounting(Operation *node, unsigned resultCount) {
  ResultRange results = tfg::getDataResults(node);
  if (results.size() != resultCount)
    return node;
  SmallVector<Type> resultTypes(results.getTypes());
  Builder b(node->getContext());
  resultTypes.push_back(RankedTensorType::get({}, b.getIntegerType(64)));
  SmallVector<NamedAttribute> attrs;
  for (NamedAttribute attr : node->getAttrs())
    if (attr.getName() != tfg::kNameAttr && attr.getName() != tfg::kDeviceAttr)
      attrs.push_back(attr);
  OpBuilder builder(node);
  std::string name = tfg::getNodeName(node).str();
  Operation *counted = createNodeLike(
      builder, node, tfg::getOpType(node), names.get(name),
      resultTypes,
      tfg::getDataOperands(node), tfg::getControlOperands(node), attrs);
  for (auto [k, result] : llvm::enumerate(results))
    result.replaceAllUsesWith(counted->getResult(k));
  tfg::getControlToken(node).replaceAllUsesWith(tfg::getControlToken(counted));
  node->erase();
  counted->setAttr(tfg::kNameAttr, b.getStringAttr(name));
  return counted;
}

std::optional<int64_t> Bounder::takeBound(Operation *accumulator) {
  // Each apply brings its rows; between two takes every replica's applies
  // may come twice (a sync replicas optimizer's first step takes the
  // workers' gradients and those of its initial tokens), so twice the
  // applies of the graph, for each replica, of the largest gradient.
  SmallVector<Operation *> applies = sparseApplies(accumulator);
  int64_t largest = 0;
  for (Operation *apply : applies) {
    Shape indices = shapeOf(tfg::getDataOperands(apply)[2]);
    if (!indices.isStatic() || indices.rank() != 1)
      return std::nullopt;
    largest = std::max(largest, indices.dims[0]);
  }
  auto module = body.getParentOp()->getParentOfType<ModuleOp>();
  auto replicas = module->getAttrOfType<IntegerAttr>(kReplicasAttr);
  int64_t bound = 2 * int64_t(applies.size()) *
                  (replicas ? replicas.getInt() : 1) * largest;
  if (bound < 1)
    return std::nullopt;
  return bound;
}

bool Bounder::feedRows(Operation *arg) {
  auto module = body.getParentOp()->getParentOfType<ModuleOp>();
  auto maxDims = module->getAttrOfType<ArrayAttr>(kFeedMaxDimsAttr);
  auto feeds = module->getAttrOfType<ArrayAttr>(kFeedsAttr);
  int64_t index = arg->getAttrOfType<IntegerAttr>("index").getInt();
  if (!maxDims || !feeds || !isStepEntry() || index >= int64_t(maxDims.size()))
    return false;
  auto given = dyn_cast<DenseI64ArrayAttr>(maxDims[index]);
  if (!given || given.size() != 2)
    return false;
  int64_t axis = given[0], bound = given[1];
  MLIRContext *context = module.getContext();
  Builder b(context);
  Type i64 = b.getIntegerType(64);
  // The count is a feed of its own, after the others: the program sets it
  // from the fed tensor's shape, a library's caller passes it.
  std::string feed = cast<StringAttr>(feeds[index]).str();
  std::string name = feed + "/dim" + std::to_string(axis);
  int64_t countIndex = feeds.size();
  OpBuilder builder(arg);
  Value count =
      createNodeLike(builder, arg, "_Arg",
                     names.get((tfg::getNodeName(arg) + "/dim" + Twine(axis)).str()),
                     RankedTensorType::get({}, i64), {}, {},
                     {b.getNamedAttr("T", TypeAttr::get(i64)),
                      b.getNamedAttr("index", b.getI64IntegerAttr(countIndex))})
          ->getResult(0);
  auto append = [&](StringRef attrName, Attribute entry) {
    if (auto array = module->getAttrOfType<ArrayAttr>(attrName)) {
      SmallVector<Attribute> entries(array.begin(), array.end());
      entries.push_back(entry);
      module->setAttr(attrName, b.getArrayAttr(entries));
    }
  };
  append(kFeedsAttr, b.getStringAttr(name));
  append(kFeedShapesAttr, b.getUnitAttr());
  append(kFeedMaxDimsAttr, DenseI64ArrayAttr::get(context, {}));
  SmallVector<int64_t> countsOfFeeds(feeds.size() + 1, -1);
  if (auto was = module->getAttrOfType<DenseI64ArrayAttr>(kFeedRowCountsAttr))
    llvm::copy(was.asArrayRef(), countsOfFeeds.begin());
  countsOfFeeds[index] = countIndex;
  module->setAttr(kFeedRowCountsAttr,
                  DenseI64ArrayAttr::get(context, countsOfFeeds));

  Value fed = tfg::getDataResults(arg)[0];
  Rows r = rowsAlong(axis, bound, count, arg);
  r.feed = feed;
  r.feedAxis = axis;
  // The padding is zeroed, whatever the caller left there: zeros are
  // valid indices, and compute nothing surprising.
  Type element = cast<TensorType>(fed.getType()).getElementType();
  Attribute zero;
  if (isa<FloatType>(element))
    zero = FloatAttr::get(element, 0.0);
  else if (isa<IntegerType>(element))
    zero = IntegerAttr::get(element, 0);
  if (zero) {
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : fed.getUses())
      uses.push_back(&use);
    Value zeroed = maskPadding(arg, fed, r, axis, zero,
                               tfg::getNodeName(arg).str());
    for (OpOperand *use : uses)
      use->set(zeroed);
    rows[zeroed] = r;
  }
  rows[fed] = r;
  return true;
}

LogicalResult Bounder::unifyFeedCounts(Operation *node, const Rows &a,
                                      const Rows &b) {
  if (a.feed.empty() || b.feed.empty() || a.offset != b.offset)
    return failure();
  Value first = canonicalCount(b.count), second = canonicalCount(a.count);
  countAliases[second] = first;
  MLIRContext *context = node->getContext();
  Builder builder(context);
  std::string name = (tfg::getNodeName(node) + "/same_length").str();
  Value same = binary(node, "Equal", name + "/equal", second, first,
                      builder.getI1Type());
  assertThat(node, same,
             "Incompatible shapes: feeds '" + a.feed + "' (dimension " +
                 std::to_string(a.feedAxis) + ") and '" + b.feed +
                 "' (dimension " + std::to_string(b.feedAxis) +
                 ") differ in size where node '" +
                 tfg::getNodeName(node).str() + "' combines them");
  return success();
}

void Bounder::assertThat(Operation *node, Value condition,
                         const std::string &text) {
  MLIRContext *context = node->getContext();
  Builder builder(context);
  std::string name = (tfg::getNodeName(node) + "/check").str();
  auto stringType = RankedTensorType::get({}, tfg::StringType::get(context));
  Value message =
      constant(node, name + "/message",
               DenseStringElementsAttr::get(stringType, {text}));
  OpBuilder b(node);
  Operation *check = createNodeLike(
      b, node, "Assert", names.get(name), {}, {condition, message}, {},
      {builder.getNamedAttr("T", builder.getTypeArrayAttr(
                                     {stringType.getElementType()})),
       builder.getNamedAttr("summarize", builder.getI64IntegerAttr(3))});
  // (Attached after the walk: the node's operands are being read.)
  checks.push_back({node, check});
}

Value Bounder::maskPadding(Operation *like, Value x, const Rows &rows,
                           int64_t axis, Attribute fill,
                           const std::string &name) {
  // valid[i] = i < count along the axis, broadcast along the others.
  Builder b(like->getContext());
  Shape in = shapeOf(x);
  SmallVector<int64_t> maskShape(in.rank(), 1), iota(rows.bound);
  maskShape[axis] = rows.bound;
  std::iota(iota.begin(), iota.end(), 0);
  Type i64 = b.getIntegerType(64), i1 = b.getI1Type();
  Value index = integers(like, name + "/row", i64, maskShape, iota);
  Value valid = binary(like, "Less", name + "/valid", index,
                       countValue(like, rows), i1);
  Type element = cast<TensorType>(x.getType()).getElementType();
  return make(like, "SelectV2", name + "/padded", x.getType(),
              {valid, x, scalar(like, name + "/fill", fill)},
              {b.getNamedAttr("T", TypeAttr::get(element))});
}

Operation *Bounder::asCountingSelection(Operation *node) {
  OpKind kind = opKindOf(node);
  if (kind == OpKind::QueueDequeueUpToV2) {
    auto types = node->getAttrOfType<ArrayAttr>("component_types");
    return types ? asCounting(node, types.size()) : node;
  }
  if (kind == OpKind::SparseAccumulatorTakeGradient)
    return asCounting(node, 3);
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
  rows[results[0]] = rowsAlong(axis, bound, count, node);
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
  std::optional<SmallVector<int64_t>> start = intsOf(bounds[0]),
                                      delta = intsOf(bounds[2]);
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
  rows[result] = rowsAlong(0, bound, count, node);
  bounded.push_back({result, bound});
  return true;
}

bool Bounder::producesRows(Operation *node) {
  OpKind kind = opKindOf(node);
  if (feedsOnly || kind == OpKind::InternalArg)
    return feedsOnly && kind == OpKind::InternalArg && feedRows(node);
  OperandRange operands = tfg::getDataOperands(node);
  ResultRange results = tfg::getDataResults(node);
  if (kind == OpKind::Where) {
    // An input of unknown shape (a feed's) has no bound yet; a Where of
    // rows is refused as any op that takes them.
    Shape in = shapeOf(operands[0]);
    if (!in.isStatic())
      return false;
    int64_t bound = in.numElements();
    rows[results[0]] = rowsAlong(0, bound, countOf(node, operands[0]), node);
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
      rows[result] = rowsAlong(0, bound, count, node);
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
    rows[results[0]] = rowsAlong(0, bound, count, node);
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
    rows[results[0]] = rowsAlong(0, capacity.getInt(), count, node);
    bounded.push_back({results[0], capacity.getInt()});
    return true;
  }
  // (Ends computed from shapes of rows are followShapeValue's; ends
  // computed from other shapes are known once tfc-tile-batch has given
  // the batch a size.)
  if (kind == OpKind::StridedSlice && !rowsOf(operands[0]) &&
      !shapeValues.count(operands[1]) && !shapeValues.count(operands[2]) &&
      !computedFromShapes(operands[1]) && !computedFromShapes(operands[2]))
    return sliceRows(node);
  if (kind == OpKind::TensorArrayGatherV3)
    return stackRows(node);
  if (kind == OpKind::QueueDequeueUpToV2) {
    // Up to n elements, as many as the dequeue's count (its last result,
    // asCountingDequeue's).
    std::optional<SmallVector<int64_t>> n = intsOf(operands[1]);
    auto types = node->getAttrOfType<ArrayAttr>("component_types");
    if (!n || n->size() != 1 || (*n)[0] < 1 || !types ||
        results.size() != types.size() + 1)
      return false;
    for (unsigned k = 0; k < types.size(); ++k)
      if (!staticBut(shapeOf(results[k]), 0))
        return false;
    Value count = results.back();
    for (unsigned k = 0; k < types.size(); ++k) {
      rows[results[k]] = rowsAlong(0, (*n)[0], count, node);
      bounded.push_back({results[k], (*n)[0]});
    }
    return true;
  }
  if (kind == OpKind::SparseAccumulatorTakeGradient) {
    // The rows of the gradients applied since the last take, as many as
    // its count (its last result, asCounting's), indices and values.
    Operation *accumulator = accumulatorNodeOf(operands[0]);
    std::optional<int64_t> bound =
        accumulator ? takeBound(accumulator) : std::nullopt;
    if (!bound || results.size() != 4 || !staticBut(shapeOf(results[1]), 0))
      return false;
    for (unsigned k = 0; k < 2; ++k) {
      rows[results[k]] = rowsAlong(0, *bound, results.back(), node);
      bounded.push_back({results[k], *bound});
    }
    return true;
  }
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
    if (std::optional<SmallVector<int64_t>> m = intsOf(operands[2]);
        m && m->size() == 1)
      bound = std::clamp<int64_t>((*m)[0], 0, bound);
    bool v5 = kind == OpKind::NonMaxSuppressionV5;
    Value count = castTo(node, (tfg::getNodeName(node) + "/count").str(),
                         results[v5 ? 2 : 1], IntegerType::get(node->getContext(), 64));
    for (unsigned i = 0; i < (v5 ? 2u : 1u); ++i) {
      rows[results[i]] = rowsAlong(0, bound, count, node);
      bounded.push_back({results[i], bound});
    }
    return true;
  }
  return false;
}

LogicalResult Bounder::visit(Operation *node) {
  // Values computed from shapes of rows: followed, used as shapes, or
  // replaced by their count versions where used as data.
  if (llvm::any_of(tfg::getDataOperands(node),
                   [&](Value v) { return shapeValues.count(v) > 0; })) {
    FailureOr<bool> followed = followShapeValue(node);
    if (failed(followed))
      return failure();
    if (*followed)
      return success();
    for (OpOperand &operand : node->getOpOperands())
      if (shapeValues.count(operand.get()))
        operand.set(materialize(operand.get()));
  }
  const Rows *from = nullptr;
  bool fromCount = false;
  for (Value operand : tfg::getDataOperands(node)) {
    if (const Rows *r = rowsOf(operand))
      from = from ? from : r;
    fromCount |= counts.count(operand) > 0;
  }
  if (!from)
    return fromCount ? visitCountUser(node) : success();
  // (A copy: the map grows as facts are recorded.)
  Rows copy = *from;
  return visitRows(node, copy);
}

LogicalResult Bounder::visitRows(Operation *node, const Rows &from) {
  OpKind kind = opKindOf(node);
  OperandRange operands = tfg::getDataOperands(node);
  ResultRange results = tfg::getDataResults(node);
  // The rows of operand i, or null.
  auto rowsAt = [&](unsigned i) { return rowsOf(operands[i]); };
  // The (single) axis of the rows of operand i, or -1 when it has none.
  auto axisOf = [&](unsigned i) {
    const Rows *r = rowsOf(operands[i]);
    return r ? r->axis() : -1;
  };
  if (kind == OpKind::DynamicStitch || kind == OpKind::ParallelDynamicStitch)
    return stitchRows(node);
  if (int at = scatterIndicesOperand(node); at >= 0)
    return scatterRows(node, at);
  // Every operand with rows has the same count. Two feeds' dimensions
  // that the model combines must be as long: a check at run time.
  for (Value operand : operands)
    if (const Rows *r = rowsOf(operand);
        r && !sameCount(*r, from) && failed(unifyFeedCounts(node, *r, from)))
      return node->emitError()
             << tfg::nodeLabel(node) << " combines the rows of "
             << describe(*r) << ", and those of " << describe(from)
             << "; tfc plans them for their bound and cannot here";
  auto rankOf = [&](Value v) { return shapeOf(v).rank(); };
  auto constantAxis = [&](Value v, int64_t rank) -> std::optional<int64_t> {
    std::optional<SmallVector<int64_t>> values = intsOf(v);
    if (!values || values->size() != 1)
      return std::nullopt;
    return normalizeAxis((*values)[0], rank);
  };
  auto to = [&](int64_t axis) {
    RowAxis a = from.axes.front();
    a.axis = axis;
    setRows(results[0], from, ArrayRef<RowAxis>{a});
    return success();
  };
  // Each axis of the rows moved by `move` (-1: refused).
  auto mapAxes = [&](function_ref<int64_t(int64_t)> move,
                     const char *why) -> LogicalResult {
    SmallVector<RowAxis> axes;
    for (RowAxis a : from.axes) {
      int64_t to = move(a.axis);
      if (to < 0)
        return refuse(node, from, why);
      a.axis = to;
      axes.push_back(a);
    }
    setRows(results[0], from, axes);
    return success();
  };
  const char *moves = "moves";
  // Ops that only one dimension of rows, not folded, can take.
  auto single = [&]() { return from.simple(); };

  if (kind == OpKind::InternalRetval) {
    // Fetched with their count: the program returns the first rows.
    if (!single() || !isStepEntry())
      return node->emitError()
             << "fetch of " << tfg::nodeLabel(operands[0].getDefiningOp())
             << " has slices along " << from.axes.size()
             << " dimension(s) as many as " << describe(from)
             << "; tfc returns such a count only along one dimension of a "
                "fetch of the step";
    fetchedRows.push_back({node, countValue(node, from), from.axis()});
    return success();
  }
  if (kind == OpKind::Shape || kind == OpKind::Size) {
    Shape in = shapeOf(operands[0]);
    if (!in.ranked)
      return refuse(node, from, "asks for a shape of unknown rank beside");
    ShapeValue value{{}, from};
    if (kind == OpKind::Size) {
      value.elements.push_back(Dependence::Other);
    } else {
      value.elements.assign(in.rank(), Dependence::None);
      for (const RowAxis &a : from.axes)
        value.elements[a.axis] =
            a.folded() ? Dependence::Other : Dependence::Count;
    }
    shapeValues[results[0]] = value;
    return success();
  }
  if (kind == OpKind::Rank)
    return success();
  if (isTf1ControlFlow(node)) {
    // A loop carries the rows (a list of them, a tensor) as it finds them
    // entering: its back edge brings the same.
    if (kind == OpKind::LoopCond)
      return refuse(node, from, "decides a loop by");
    // (A Merge's second result is the index of the input it took.)
    for (Value result : kind == OpKind::Merge ? results.take_front(1) : results)
      setRows(result, from, from.axes);
    return success();
  }
  if (isReduction(kind))
    return reduceRows(node, from);
  if (isIdentityLike(kind))
    return mapAxes([](int64_t a) { return a; }, moves);

  if (isElementwise(node)) {
    // Rows line up right-aligned, as broadcasting does; every other
    // operand must broadcast along them.
    int64_t rank = rankOf(results[0]);
    if (rank < 0 || kind == OpKind::Select ||
        (kind == OpKind::BiasAdd &&
         node->getAttrOfType<StringAttr>("data_format") &&
         node->getAttrOfType<StringAttr>("data_format").getValue() == "NCHW"))
      return refuse(node, from, "broadcasts in a way tfc does not follow for");
    SmallVector<RowAxis> axes;
    for (auto [i, operand] : llvm::enumerate(operands)) {
      int64_t r = rankOf(operand);
      if (r < 0)
        return refuse(node, from, "broadcasts an operand of unknown rank with");
      const Rows *mine = rowsAt(i);
      if (!mine)
        continue;
      for (RowAxis a : mine->axes) {
        a.axis += rank - r;
        if (!addAxis(axes, a))
          return refuse(node, from, "lines up differently folded");
      }
    }
    for (auto [i, operand] : llvm::enumerate(operands)) {
      int64_t r = rankOf(operand);
      const Rows *mine = rowsAt(i);
      for (const RowAxis &a : axes) {
        int64_t at = a.axis - (rank - r);
        if (at >= 0 && !(mine && mine->at(at)) &&
            shapeOf(operand).dims[at] != 1)
          return refuse(node, from, "combines a tensor of other rows with");
      }
    }
    setRows(results[0], from, axes);
    return success();
  }

  switch (kind) {
  case OpKind::Squeeze: {
    int64_t rank = rankOf(operands[0]);
    auto dims = node->getAttrOfType<ArrayAttr>("squeeze_dims");
    if (!dims || dims.empty())
      return refuse(node, from, "squeezes every dimension of size 1, maybe");
    SmallVector<int64_t> squeezed;
    for (Attribute dim : dims) {
      std::optional<int64_t> d =
          normalizeAxis(cast<IntegerAttr>(dim).getInt(), rank);
      if (!d || from.at(*d))
        return refuse(node, from, "squeezes");
      squeezed.push_back(*d);
    }
    return mapAxes(
        [&](int64_t a) {
          return a - llvm::count_if(squeezed, [&](int64_t d) { return d < a; });
        },
        moves);
  }
  case OpKind::ExpandDims: {
    std::optional<int64_t> d =
        constantAxis(operands[1], rankOf(operands[0]) + 1);
    if (!d || axisOf(1) >= 0)
      return refuse(node, from, "expands by a dimension tfc cannot see in");
    return mapAxes([&](int64_t a) { return a + (*d <= a); }, moves);
  }
  case OpKind::Reshape: {
    // Each dimension of rows stays whole, maybe folded with others: as
    // many elements before and after its slices on both sides.
    Shape in = shapeOf(operands[0]), out = shapeOf(results[0]);
    // Into the shape of other rows (a gradient reshapes back to its
    // input's shape): that shape as planned, the bound at its rows.
    if (Operation *shape = operands[1].getDefiningOp();
        shape && opKindOf(shape) == OpKind::Shape && !out.isStatic()) {
      Value of = tfg::getDataOperands(shape)[0];
      Shape planned = shapeOf(of);
      const Rows *r = rowsOf(of);
      if (planned.ranked && r && sameCount(*r, from)) {
        for (const RowAxis &a : r->axes)
          if (!a.folded())
            planned.dims[a.axis] = r->bound;
        if (planned.isStatic())
          out = planned;
      }
    }
    if (axisOf(1) >= 0 || !in.ranked || !out.ranked)
      return refuse(node, from, "reshapes");
    SmallVector<RowAxis> axes;
    for (const RowAxis &a : from.axes) {
      SmallVector<int64_t> dims(in.dims.begin(), in.dims.end());
      dims[a.axis] = 1;
      std::optional<Extent> prefix =
          Extent::of(ArrayRef(dims).take_front(a.axis));
      prefix->known *= a.outer;
      prefix->unknown += a.outerUnknown;
      Extent suffix = Extent::of(ArrayRef(dims).drop_front(a.axis + 1));
      suffix.known *= a.inner;
      bool found = false;
      for (int64_t b = 0; b < out.rank() && !found; ++b) {
        ArrayRef<int64_t> o(out.dims);
        std::optional<Extent> outer = prefix->over(Extent::of(o.take_front(b))),
                              inner = suffix.over(Extent::of(o.drop_front(b + 1)));
        if (!outer || !inner || inner->unknown)
          continue;
        bool unknownHere = o[b] == ShapedType::kDynamic;
        if (outer->unknown ? !unknownHere
                           : !unknownHere && o[b] != outer->known * from.bound *
                                                         inner->known)
          continue;
        if (unknownHere && !outer->unknown && in.dims[a.axis] != ShapedType::kDynamic)
          continue;
        axes.push_back({b, outer->known, outer->unknown, inner->known});
        found = true;
      }
      if (!found)
        return refuse(node, from, "reshapes into other rows");
    }
    setRows(results[0], from, axes);
    return success();
  }
  case OpKind::Transpose: {
    std::optional<SmallVector<int64_t>> perm = intsOf(operands[1]);
    if (!perm || axisOf(1) >= 0)
      return refuse(node, from, "transposes by a permutation tfc cannot see in");
    return mapAxes(
        [&](int64_t a) -> int64_t {
          auto it = llvm::find(*perm, a);
          return it == perm->end() ? -1 : it - perm->begin();
        },
        moves);
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
      if (!a || axisOf(2) >= 0)
        return refuse(node, from, "gathers in a way tfc does not follow for");
      if (intAttr(node, "batch_dims") != 0)
        return gatherBatchRows(node, from, *a);
      gatherAxis = *a;
    }
    if (kind == OpKind::ResourceGather && intAttr(node, "batch_dims") != 0)
      return refuse(node, from, "gathers in a way tfc does not follow for");
    if (!single())
      return refuse(node, from, "gathers along");
    if (axisOf(indices) >= 0 && (kind == OpKind::ResourceGather ||
                                 axisOf(params) < 0))
      return to(gatherAxis + axisOf(indices));
    if (axisOf(params) >= 0 && axisOf(indices) < 0 &&
        axisOf(params) != gatherAxis)
      return to(axisOf(params) < gatherAxis
                    ? axisOf(params)
                    : axisOf(params) + rankOf(operands[indices]) - 1);
    return refuse(node, from, "gathers along");
  }
  case OpKind::StridedSlice: {
    // Slices of the other axes ([:, 1], new axes, an ellipsis) with the
    // rows taken whole.
    std::optional<SmallVector<int64_t>> begin = intsOf(operands[1]),
                                        end = intsOf(operands[2]),
                                        strides = intsOf(operands[3]);
    Shape in = shapeOf(operands[0]);
    if (!begin || !end || !strides || axisOf(0) < 0 || !in.ranked)
      return refuse(node, from, "slices in a way tfc does not follow for");
    // (The rows' dimensions at their bound, as the Where's are planned.)
    SmallVector<int64_t> dims(in.dims.begin(), in.dims.end());
    for (const RowAxis &r : from.axes)
      if (ShapedType::isDynamic(dims[r.axis]))
        dims[r.axis] = from.bound;
    std::string message;
    FailureOr<StridedSliceSpec> spec = resolveStridedSlice(
        dims, *begin, *end, *strides, intAttr(node, "begin_mask"),
        intAttr(node, "end_mask"), intAttr(node, "ellipsis_mask"),
        intAttr(node, "new_axis_mask"), intAttr(node, "shrink_axis_mask"),
        message);
    if (failed(spec))
      return refuse(node, from, "slices in a way tfc does not follow for");
    SmallVector<RowAxis> axes;
    for (RowAxis r : from.axes) {
      const StridedSliceDim &d = spec->dims[r.axis];
      // One slice of the rows, x[:, k] with k >= 0: TensorFlow stops the
      // step when k is past them, and so does an Assert.
      if (d.shrink) {
        // (A negative index counts from the bound, not from the count.)
        bool fromEnd = d.entry >= 0 && d.entry < int64_t(begin->size()) &&
                       (*begin)[d.entry] < 0;
        if (r.folded() || fromEnd)
          return refuse(node, from, "slices from the end");
        Builder b(node->getContext());
        std::string name = (tfg::getNodeName(node) + "/within").str();
        Value within = binary(
            node, "Less", name + "/less",
            scalar(node, name + "/index",
                   IntegerAttr::get(b.getIntegerType(64), d.begin)),
            countValue(node, from), b.getI1Type());
        assertThat(node, within,
                   "slice index " + std::to_string(d.begin) + " of dimension " +
                       std::to_string(r.axis) + " out of bounds.");
        continue;
      }
      if (d.begin != 0 || d.stride != 1 || d.count != dims[r.axis])
        return refuse(node, from, "slices");
      auto at = llvm::find(spec->outputSource, r.axis);
      if (at == spec->outputSource.end())
        return refuse(node, from, "slices");
      r.axis = at - spec->outputSource.begin();
      axes.push_back(r);
    }
    setRows(results[0], from, axes);
    return success();
  }
  case OpKind::Pad:
  case OpKind::PadV2: {
    // Padding before the rows shifts them (p more slices are
    // TensorFlow's, the p first); padding after them would lie past the
    // bound, where TensorFlow's lies after the count.
    std::optional<SmallVector<int64_t>> paddings = intsOf(operands[1]);
    int64_t rank = rankOf(operands[0]);
    if (!paddings || int64_t(paddings->size()) != 2 * rank ||
        axisOf(1) >= 0 || (operands.size() > 2 && axisOf(2) >= 0) ||
        !single())
      return refuse(node, from, "pads in a way tfc does not follow for");
    int64_t a = from.axis(), before = (*paddings)[2 * a],
            after = (*paddings)[2 * a + 1];
    if (after != 0 || before < 0)
      return refuse(node, from, "pads after");
    Rows shifted = from;
    shifted.offset += before;
    shifted.bound += before;
    setRows(results[0], shifted, a);
    return success();
  }
  case OpKind::Conv2D:
  case OpKind::DepthwiseConv2dNative: {
    // Along the rows (a spatial dimension of NHWC, Keras' Conv1D's W),
    // stride 1: SAME reads zeros past the count where TensorFlow reads
    // its padding, so the padding is zeroed first; VALID makes
    // (k - 1) * dilation fewer slices, each reading only true ones.
    auto format = node->getAttrOfType<StringAttr>("data_format");
    auto padding = node->getAttrOfType<StringAttr>("padding");
    int64_t a = from.axis();
    if ((format && format.getValue() != "NHWC") || !padding || !single() ||
        axisOf(0) != a || axisOf(1) >= 0 || (a != 1 && a != 2))
      return refuse(node, from, "convolves in a way tfc does not follow for");
    auto intsAt = [&](StringRef name, int64_t otherwise) {
      auto list = node->getAttrOfType<ArrayAttr>(name);
      return list && int64_t(list.size()) > a
                 ? cast<IntegerAttr>(list[a]).getInt()
                 : otherwise;
    };
    int64_t stride = intsAt("strides", 1), dilation = intsAt("dilations", 1);
    Shape filter = shapeOf(operands[1]);
    if (stride != 1 || !filter.isStatic() || filter.rank() != 4)
      return refuse(node, from, "convolves with a stride along");
    int64_t k = filter.dims[a - 1];
    Rows out = from;
    if (padding.getValue() == "SAME") {
      Type element = cast<TensorType>(operands[0].getType()).getElementType();
      node->setOperand(0, maskPadding(node, operands[0], from, a,
                                      FloatAttr::get(element, 0.0),
                                      (tfg::getNodeName(node) + "/input").str()));
    } else if (padding.getValue() == "VALID") {
      out.offset -= (k - 1) * dilation;
      out.bound -= (k - 1) * dilation;
    } else {
      return refuse(node, from, "convolves with explicit padding along");
    }
    setRows(results[0], out, a);
    return success();
  }
  // A list whose elements are the rows (a loop over a sequence unstacks
  // it, writes a list of the bound's elements and stacks it): its
  // elements are the rows' slices, the first `count` TensorFlow's.
  case OpKind::TensorListFromTensor:
    if (!single() || from.axis() != 0 || axisOf(1) >= 0)
      return refuse(node, from, "makes a list of");
    return to(0);
  case OpKind::TensorListSetItem:
    // (An element written into the list, or the list itself.)
    if (axisOf(0) != 0 || axisOf(1) >= 0 || axisOf(2) >= 0)
      return refuse(node, from, "writes a list element of");
    return to(0);
  case OpKind::TensorListGetItem:
    // One element, read at an index the loop keeps below the count.
    if (axisOf(0) != 0 || axisOf(1) >= 0 || axisOf(2) >= 0)
      return refuse(node, from, "reads a list element of");
    return success();
  case OpKind::TensorListStack:
    if (axisOf(0) != 0 || axisOf(1) >= 0)
      return refuse(node, from, "stacks a list of");
    return to(0);
  case OpKind::TensorListLength: {
    // The count, where it is data; the bound where it shapes.
    ShapeValue value{{Dependence::Count}, from};
    shapeValues[results[0]] = value;
    return success();
  }
  case OpKind::ReverseV2: {
    // Reversed along the rows, TensorFlow's slices come first, the padding
    // after them: a ReverseSequence of `count` slices (Keras' backward
    // RNNs, Bidirectional's).
    std::optional<SmallVector<int64_t>> axes = intsOf(operands[1]);
    int64_t rank = rankOf(operands[0]);
    if (!axes || axisOf(1) >= 0 || rank < 2)
      return refuse(node, from, "reverses in a way tfc does not follow for");
    SmallVector<int64_t> along;
    for (int64_t a : *axes) {
      std::optional<int64_t> d = normalizeAxis(a, rank);
      if (!d)
        return refuse(node, from, "reverses in a way tfc does not follow for");
      if (from.at(*d))
        along.push_back(*d);
    }
    if (along.empty())
      return mapAxes([](int64_t a) { return a; }, moves);
    if (along.size() != 1 || axes->size() != 1 || !single())
      return refuse(node, from, "reverses along");
    int64_t seq = along[0], batch = seq == 0 ? 1 : 0;
    Shape in = shapeOf(operands[0]);
    if (ShapedType::isDynamic(in.dims[batch]))
      return refuse(node, from, "reverses along");
    MLIRContext *context = node->getContext();
    Builder b(context);
    Type i64 = b.getIntegerType(64);
    std::string name = (tfg::getNodeName(node) + "/lengths").str();
    Value lengths = make(
        node, "Fill", name, RankedTensorType::get({in.dims[batch]}, i64),
        {integers(node, name + "/shape", b.getI32Type(), {1}, {in.dims[batch]}),
         countValue(node, from)},
        {b.getNamedAttr("T", TypeAttr::get(i64)),
         b.getNamedAttr("index_type", TypeAttr::get(b.getI32Type()))});
    Type element = cast<TensorType>(operands[0].getType()).getElementType();
    Value reversed = make(
        node, "ReverseSequence", tfg::getNodeName(node), results[0].getType(),
        {operands[0], lengths},
        {b.getNamedAttr("T", TypeAttr::get(element)),
         b.getNamedAttr("Tlen", TypeAttr::get(i64)),
         b.getNamedAttr("seq_dim", b.getI64IntegerAttr(seq)),
         b.getNamedAttr("batch_dim", b.getI64IntegerAttr(batch))});
    setRows(reversed, from, from.axes);
    rows.erase(results[0]);
    replace(node, reversed);
    return success();
  }
  case OpKind::MatrixBandPart:
    // The band is a function of the positions: what lies within the
    // first `count` slices stays TensorFlow's (causal masks).
    if (axisOf(1) >= 0 || axisOf(2) >= 0)
      return refuse(node, from, "sets the band of a matrix by");
    return mapAxes([](int64_t a) { return a; }, moves);
  case OpKind::Cumsum:
  case OpKind::Cumprod: {
    // A prefix along the rows reads only slices before it; a suffix
    // (reverse) would read the padding.
    std::optional<int64_t> a = constantAxis(operands[1], rankOf(operands[0]));
    if (!a || (boolAttr(node, "reverse") && from.at(*a)) ||
        (from.at(*a) && from.at(*a)->folded()))
      return refuse(node, from, "accumulates along");
    return mapAxes([](int64_t a) { return a; }, moves);
  }
  case OpKind::GatherNd:
    if (single() && axisOf(0) < 0 && axisOf(1) >= 0 &&
        axisOf(1) < rankOf(operands[1]) - 1)
      return to(axisOf(1));
    return refuse(node, from, "gathers along");
  case OpKind::MatMul:
  case OpKind::BatchMatMul:
  case OpKind::BatchMatMulV2:
  case OpKind::BatchMatMulV3:
  case OpKind::Einsum:
    return contractRows(node, from);
  case OpKind::FFT:
  case OpKind::FFT2D:
  case OpKind::FFT3D:
  case OpKind::IFFT:
  case OpKind::IFFT2D:
  case OpKind::IFFT3D:
  case OpKind::RFFT:
  case OpKind::RFFT2D:
  case OpKind::RFFT3D:
  case OpKind::IRFFT:
  case OpKind::IRFFT2D:
  case OpKind::IRFFT3D: {
    // Lines apart from the transformed dimensions are transformed apart.
    int64_t first = rankOf(results[0]) - fourierAxes(node);
    if (llvm::none_of(from.axes,
                      [&](const RowAxis &a) { return a.axis >= first; }))
      return mapAxes([](int64_t a) { return a; }, moves);
    return transformRows(node, from);
  }
  case OpKind::Softmax:
  case OpKind::LogSoftmax: {
    // Along the rows, the padding becomes -inf first: exp gives it 0.
    int64_t last = rankOf(operands[0]) - 1;
    if (const RowAxis *a = from.at(last)) {
      auto element = dyn_cast<FloatType>(
          cast<TensorType>(operands[0].getType()).getElementType());
      if (a->folded() || !element)
        return refuse(node, from, "normalizes along");
      node->setOperand(
          0, maskPadding(node, operands[0], from, last,
                         FloatAttr::get(element, llvm::APFloat::getInf(
                                                     element.getFloatSemantics(),
                                                     /*Negative=*/true)),
                         tfg::getNodeName(node).str()));
    }
    return mapAxes([](int64_t a) { return a; }, moves);
  }
  case OpKind::ConcatV2: {
    std::optional<int64_t> a =
        constantAxis(operands.back(), rankOf(results[0]));
    for (unsigned i = 0; i + 1 < operands.size(); ++i)
      if (!rowsAt(i) || rowsAt(i)->axes.size() != from.axes.size() ||
          !llvm::all_of(from.axes, [&](const RowAxis &r) {
            const RowAxis *other = rowsAt(i)->at(r.axis);
            return other && other->sameFold(r);
          }))
        return refuse(node, from, "concatenates other tensors with");
    if (!a || from.at(*a))
      return refuse(node, from, "concatenates along");
    return mapAxes([](int64_t a) { return a; }, moves);
  }
  case OpKind::Pack: {
    std::optional<int64_t> a =
        normalizeAxis(intAttr(node, "axis"), rankOf(results[0]));
    for (unsigned i = 0; i < operands.size(); ++i)
      if (!rowsAt(i) || rowsAt(i)->axes.size() != from.axes.size() ||
          !llvm::all_of(from.axes, [&](const RowAxis &r) {
            const RowAxis *other = rowsAt(i)->at(r.axis);
            return other && other->sameFold(r);
          }))
        return refuse(node, from, "stacks other tensors with");
    if (!a)
      return refuse(node, from, "stacks");
    return mapAxes([&](int64_t b) { return b + (*a <= b); }, moves);
  }
  default:
    return refuse(node, from, "takes");
  }
}

LogicalResult Bounder::gatherBatchRows(Operation *node, const Rows &from,
                                       int64_t axis) {
  // The output is params[:axis] + indices[batch_dims:] + params[axis+1:];
  // the leading batch_dims dimensions of both go together, so their rows
  // must be the same in both.
  OperandRange operands = tfg::getDataOperands(node);
  const Rows *params = rowsOf(operands[0]), *indices = rowsOf(operands[1]);
  int64_t indicesRank = shapeOf(operands[1]).rank();
  int64_t batchDims = intAttr(node, "batch_dims");
  if (batchDims < 0)
    batchDims += indicesRank;
  if (batchDims < 0 || axis < batchDims)
    return refuse(node, from, "gathers in a way tfc does not follow for");
  SmallVector<RowAxis> axes;
  for (int64_t d = 0; d < batchDims; ++d) {
    const RowAxis *p = params ? params->at(d) : nullptr;
    const RowAxis *i = indices ? indices->at(d) : nullptr;
    if (!p && !i)
      continue;
    if (!p || !i || !p->sameFold(*i))
      return refuse(node, from, "gathers in a way tfc does not follow for");
    axes.push_back(*p);
  }
  if (params)
    for (RowAxis r : params->axes) {
      if (r.axis < batchDims)
        continue;
      if (r.axis == axis || r.folded())
        return refuse(node, from, "gathers along");
      if (r.axis > axis)
        r.axis += indicesRank - batchDims - 1;
      axes.push_back(r);
    }
  if (indices)
    for (RowAxis r : indices->axes) {
      if (r.axis < batchDims)
        continue;
      if (r.folded())
        return refuse(node, from, "gathers along");
      r.axis += axis - batchDims;
      axes.push_back(r);
    }
  setRows(tfg::getDataResults(node)[0], from, axes);
  return success();
}

LogicalResult Bounder::transformRows(Operation *node, const Rows &from) {
  // TensorFlow transforms `count` points along the rows, a transform the
  // bound's points cannot give (its frequencies are others). Along the
  // rows it is a product by the count's DFT matrix, whose entries past the
  // count are 0 (the padding, whatever it holds, adds nothing, and the
  // padding of the result is 0): W[k][j] = exp(-2*pi*i * (k*j mod n) / n),
  // as cos and sin matrices and real products, the inverse's conjugate and
  // divided by n. O(bound^2) per line where an FFT is O(n log n): the
  // price of one program for every length (FNet's FFT2D over positions).
  OperandRange operands = tfg::getDataOperands(node);
  Value x = operands[0];
  StringRef type = tfg::getOpType(node);
  bool inverse = type.starts_with("IFFT");
  int64_t rank = shapeOf(x).rank(), axes = fourierAxes(node);
  int64_t axis = rank - axes;
  auto complex = dyn_cast<ComplexType>(
      cast<TensorType>(x.getType()).getElementType());
  const RowAxis *rowAxis = from.at(axis);
  if (type.contains("RFFT") || !from.simple() || !rowAxis ||
      rowAxis->folded() || rank > 20 || !complex ||
      !complex.getElementType().isF32())
    return refuse(node, from, "transforms along");
  MLIRContext *context = node->getContext();
  Builder b(context);
  Type i64 = b.getIntegerType(64), i1 = b.getI1Type();
  FloatType real = cast<FloatType>(complex.getElementType());
  std::string name = tfg::getNodeName(node).str();
  auto typeAttr = [&](StringRef attr, Type t) {
    return b.getNamedAttr(attr, TypeAttr::get(t));
  };
  // The inner dimensions first, by the transform of one rank less.
  if (axes > 1)
    x = make(node, (inverse ? "IFFT" : "FFT") + std::string(axes == 3 ? "2D" : ""),
             name + "/inner", x.getType(), x, {typeAttr("Tcomplex", complex)});

  // The matrices, from the count: n = max(count, 1) keeps the modulus
  // defined where no slice is TensorFlow's (all of W is 0 then).
  int64_t bound = from.bound;
  SmallVector<int64_t> products, iota(bound);
  std::iota(iota.begin(), iota.end(), 0);
  for (int64_t k = 0; k < bound; ++k)
    for (int64_t j = 0; j < bound; ++j)
      products.push_back(k * j);
  Value count = countValue(node, from);
  std::string m = name + "/dft";
  Value n = binary(node, "Maximum", m + "/points", count,
                   scalar(node, m + "/one", IntegerAttr::get(i64, 1)), i64);
  Value phase = make(node, "FloorMod", m + "/phase",
                     RankedTensorType::get({bound, bound}, i64),
                     {integers(node, m + "/kj", i64, {bound, bound}, products), n},
                     {typeAttr("T", i64)});
  Value realN = castTo(node, m + "/points_real", n, real);
  Value angle = binary(
      node, "RealDiv", m + "/angle",
      binary(node, "Mul", m + "/turns", castTo(node, m + "/phase_real", phase, real),
             scalar(node, m + "/two_pi", FloatAttr::get(real, 6.283185307179586)), real),
      realN, real);
  Value valid = binary(
      node, "LogicalAnd", m + "/valid",
      binary(node, "Less", m + "/valid_k",
             integers(node, m + "/k", i64, {bound, 1}, iota), count, i1),
      binary(node, "Less", m + "/valid_j",
             integers(node, m + "/j", i64, {1, bound}, iota), count, i1),
      i1);
  auto matrix = RankedTensorType::get({bound, bound}, real);
  Value zero = scalar(node, m + "/zero", FloatAttr::get(real, 0.0));
  auto masked = [&](StringRef op) {
    Value v = make(node, op, m + "/" + op.lower(), matrix, angle,
                   {typeAttr("T", real)});
    if (inverse)
      v = binary(node, "RealDiv", m + "/" + op.lower() + "_scaled", v, realN, real);
    return make(node, "SelectV2", m + "/" + op.lower() + "_masked", matrix,
                {valid, v, zero}, {typeAttr("T", real)});
  };
  Value cosines = masked("Cos"), sines = masked("Sin");

  // Real products along the rows: W x = (C - iS)(A + iB) forwards,
  // (C + iS)(A + iB) / n backwards.
  auto realType = RankedTensorType::get(shapeOf(x).dims, real);
  auto part = [&](StringRef op) {
    return make(node, op, m + "/" + op.lower(), realType, x,
                {typeAttr("T", complex), typeAttr("Tout", real)});
  };
  Value re = part("Real"), im = part("Imag");
  std::string labels;
  for (int64_t d = 0; d < rank; ++d)
    labels.push_back(char('a' + d));
  std::string out = labels;
  out[axis] = 'Z';
  std::string equation = std::string("Z") + labels[axis] + "," + labels + "->" + out;
  auto product = [&](Value w, Value v, StringRef suffix) {
    return make(node, "Einsum", m + "/" + suffix.str(), realType, {w, v},
                {b.getNamedAttr("equation", b.getStringAttr(equation)),
                 b.getNamedAttr("N", b.getI64IntegerAttr(2)),
                 typeAttr("T", real)});
  };
  Value ca = product(cosines, re, "ca"), sb = product(sines, im, "sb");
  Value cb = product(cosines, im, "cb"), sa = product(sines, re, "sa");
  Value outRe = binary(node, inverse ? "Sub" : "AddV2", m + "/re", ca, sb, real);
  Value outIm = binary(node, inverse ? "AddV2" : "Sub", m + "/im", cb, sa, real);
  Value result = make(node, "Complex", name, x.getType(), {outRe, outIm},
                      {typeAttr("T", real), typeAttr("Tout", complex)});
  setRows(result, from, from.axes);
  rows.erase(tfg::getDataResults(node)[0]);
  replace(node, result);
  return success();
}

LogicalResult Bounder::contractRows(Operation *node, const Rows &from) {
  // Each dimension of an operand gets a label, as Einsum's equation gives
  // them: rows whose label the output keeps stay rows there; rows that
  // are summed over have their padding zeroed first, in each operand.
  OpKind kind = opKindOf(node);
  OperandRange operands = tfg::getDataOperands(node);
  Value result = tfg::getDataResults(node)[0];
  SmallVector<std::string> terms;
  std::string output;
  if (kind == OpKind::Einsum) {
    auto equation = node->getAttrOfType<StringAttr>("equation");
    if (!equation || equation.getValue().contains("."))
      return refuse(node, from, "has an equation tfc does not follow for");
    auto [inputs, out] = equation.getValue().split("->");
    SmallVector<StringRef> parts;
    inputs.split(parts, ',');
    for (StringRef part : parts)
      terms.push_back(part.str());
    output = out.str();
  } else {
    bool matmul = kind == OpKind::MatMul;
    bool ta = boolAttr(node, matmul ? "transpose_a" : "adj_x"),
         tb = boolAttr(node, matmul ? "transpose_b" : "adj_y");
    int64_t rank = shapeOf(result).rank();
    if (rank < 2)
      return refuse(node, from, "contracts");
    // Batch dimensions line up right-aligned.
    std::string batch;
    for (int64_t d = 0; d < rank - 2; ++d)
      batch.push_back(char('A' + d));
    for (unsigned i = 0; i < 2; ++i) {
      int64_t r = shapeOf(operands[i]).rank();
      if (r < 2)
        return refuse(node, from, "contracts");
      std::string term = batch.substr(batch.size() - (r - 2));
      bool transposed = i == 0 ? ta : tb;
      std::string matrix = i == 0 ? "ij" : "jk";
      if (transposed)
        std::swap(matrix[0], matrix[1]);
      terms.push_back(term + matrix);
    }
    output = batch + "ik";
  }
  if (terms.size() != operands.size())
    return refuse(node, from, "has an equation tfc does not follow for");
  int64_t outRank = shapeOf(result).rank();
  SmallVector<RowAxis> axes;
  // The operands' rows, before any is masked; the masks, made after.
  SmallVector<std::optional<Rows>> before;
  for (Value operand : operands)
    before.push_back(rowsOf(operand) ? std::optional<Rows>(*rowsOf(operand))
                                     : std::nullopt);
  SmallVector<std::pair<unsigned, int64_t>> masks;
  for (auto [i, term] : llvm::enumerate(terms)) {
    const Rows *mine = before[i] ? &*before[i] : nullptr;
    if (!mine)
      continue;
    if (int64_t(term.size()) != shapeOf(operands[i]).rank())
      return refuse(node, from, "has an equation tfc does not follow for");
    for (const RowAxis &a : mine->axes) {
      char label = term[a.axis];
      // Another operand with this label has rows there too, or broadcasts.
      for (auto [j, other] : llvm::enumerate(terms)) {
        size_t at = other.find(label);
        const Rows *theirs = before[j] ? &*before[j] : nullptr;
        if (at == std::string::npos || (theirs && theirs->at(at)))
          continue;
        if (shapeOf(operands[j]).dims[at] != 1)
          return refuse(node, from, "combines a tensor of other rows with");
      }
      size_t kept = output.find(label);
      if (kept != std::string::npos) {
        RowAxis b = a;
        b.axis = kept;
        if (int64_t(kept) >= outRank)
          return refuse(node, from, "contracts");
        if (!addAxis(axes, b))
          return refuse(node, from, "lines up differently folded");
        continue;
      }
      if (a.folded())
        return refuse(node, from, "sums over");
      masks.push_back({unsigned(i), a.axis});
    }
  }
  for (auto [i, axis] : masks) {
    Value operand = tfg::getDataOperands(node)[i];
    Type element = cast<TensorType>(operand.getType()).getElementType();
    Attribute zero = isa<FloatType>(element)
                         ? Attribute(FloatAttr::get(element, 0.0))
                         : Attribute(IntegerAttr::get(element, 0));
    node->setOperand(
        i, maskPadding(node, operand, *before[i], axis, zero,
                       (tfg::getNodeName(node) + "/operand_" + Twine(i)).str()));
  }
  setRows(result, from, axes);
  return success();
}

FailureOr<bool> Bounder::followShapeValue(Operation *node) {
  OpKind kind = opKindOf(node);
  OperandRange operands = tfg::getDataOperands(node);
  ResultRange results = tfg::getDataResults(node);
  if (results.empty())
    return false;
  Rows rows;
  for (Value v : operands)
    if (auto it = shapeValues.find(v); it != shapeValues.end()) {
      rows = it->second.rows;
      break;
    }
  auto valueAt = [&](unsigned i) -> const ShapeValue * {
    auto it = shapeValues.find(operands[i]);
    return it == shapeValues.end() ? nullptr : &it->second;
  };
  // The dependences of operand i's elements (none for a tensor of static
  // shape that no shape of rows computes).
  auto elementsOf = [&](unsigned i) -> std::optional<SmallVector<Dependence>> {
    if (const ShapeValue *v = valueAt(i))
      return v->elements;
    Shape s = shapeOf(operands[i]);
    if (!s.isStatic() || rowsOf(operands[i]))
      return std::nullopt;
    return SmallVector<Dependence>(s.numElements(), Dependence::None);
  };
  auto record = [&](SmallVector<Dependence> elements) -> FailureOr<bool> {
    // (Elements that none of the count decides are plain values: the
    // batch size sliced from a shape of rows.)
    ShapeValue value{std::move(elements), rows};
    if (value.dependsOnCount())
      shapeValues[results[0]] = value;
    return true;
  };
  auto onlyFirst = [&]() {
    for (unsigned i = 1; i < operands.size(); ++i)
      if (valueAt(i) || rowsOf(operands[i]))
        return false;
    return valueAt(0) != nullptr;
  };
  Type element = cast<TensorType>(results[0].getType()).getElementType();
  bool integral = element.isInteger(32) || element.isInteger(64);
  auto refuseShape = [&](const Twine &why) -> FailureOr<bool> {
    return node->emitError()
           << tfg::nodeLabel(node) << " " << why
           << " a shape computed from the rows of " << describe(rows)
           << "; tfc plans them for their bound and cannot here";
  };

  // The axes a broadcast's gradient sums over: the same with the bound
  // in place of the count (a count of 1 against a 1 sums over one row, as
  // not summing would), so a constant once the rows are planned.
  if (kind == OpKind::BroadcastGradientArgs) {
    // Each shape as planned: a Shape of rows with the bound at the rows'
    // axes, or a constant.
    SmallVector<SmallVector<int64_t>> shapes;
    for (Value operand : operands) {
      Operation *producer = operand.getDefiningOp();
      if (std::optional<SmallVector<int64_t>> known = intsOf(operand)) {
        shapes.push_back(*known);
        continue;
      }
      if (!producer || opKindOf(producer) != OpKind::Shape)
        return refuseShape("broadcasts by");
      Value of = tfg::getDataOperands(producer)[0];
      Shape planned = shapeOf(of);
      if (!planned.ranked)
        return refuseShape("broadcasts by");
      if (const Rows *r = rowsOf(of))
        for (const RowAxis &a : r->axes) {
          if (a.folded())
            return refuseShape("broadcasts by");
          planned.dims[a.axis] = r->bound;
        }
      if (!planned.isStatic())
        return refuseShape("broadcasts by");
      shapes.push_back(SmallVector<int64_t>(planned.dims.begin(), planned.dims.end()));
    }
    // TensorFlow's rule: each side sums over the axes it was broadcast
    // along (its leading axes the other has, and its 1s against more).
    size_t rank = std::max(shapes[0].size(), shapes[1].size());
    SmallVector<int64_t> reduce[2];
    for (size_t d = 0; d < rank; ++d) {
      int64_t dims[2];
      for (int k = 0; k < 2; ++k) {
        size_t pad = rank - shapes[k].size();
        dims[k] = d < pad ? 1 : shapes[k][d - pad];
      }
      for (int k = 0; k < 2; ++k)
        if (dims[k] == 1 && (dims[1 - k] != 1 || d < rank - shapes[k].size()))
          reduce[k].push_back(int64_t(d));
    }
    Type element = cast<TensorType>(results[0].getType()).getElementType();
    for (int k = 0; k < 2; ++k) {
      Value axes = integers(
          node, (tfg::getNodeName(node) + "/planned_" + Twine(k)).str(), element,
          {int64_t(reduce[k].size())}, reduce[k]);
      results[k].replaceAllUsesWith(axes);
    }
    return true;
  }
  // Shape arithmetic: what it computes is a shape of rows too (a cast to
  // floats included: ops.arange(n) of floats counts to it as well).
  if ((isIdentityLike(kind) || kind == OpKind::Cast) && onlyFirst() &&
      (integral || (kind == OpKind::Cast && isa<FloatType>(element))))
    return record(valueAt(0)->elements);
  // Reshaped, the elements keep their order (tf.repeat reshapes the
  // batch size it repeats by into a vector).
  if (llvm::is_contained({OpKind::Reshape, OpKind::ExpandDims, OpKind::Squeeze},
                         kind) &&
      onlyFirst() && integral && shapeOf(results[0]).isStatic() &&
      shapeOf(results[0]).numElements() ==
          int64_t(valueAt(0)->elements.size()))
    return record(valueAt(0)->elements);
  if (kind == OpKind::StridedSlice && onlyFirst() && integral &&
      shapeOf(operands[0]).rank() == 1) {
    std::optional<SmallVector<int64_t>> begin = intsOf(operands[1]),
                                        end = intsOf(operands[2]),
                                        strides = intsOf(operands[3]);
    const SmallVector<Dependence> &in = valueAt(0)->elements;
    std::string message;
    if (begin && end && strides) {
      FailureOr<StridedSliceSpec> spec = resolveStridedSlice(
          {int64_t(in.size())}, *begin, *end, *strides,
          intAttr(node, "begin_mask"), intAttr(node, "end_mask"),
          intAttr(node, "ellipsis_mask"), intAttr(node, "new_axis_mask"),
          intAttr(node, "shrink_axis_mask"), message);
      if (succeeded(spec) && spec->dims.size() == 1) {
        SmallVector<Dependence> picked;
        const StridedSliceDim &d = spec->dims[0];
        for (int64_t k = 0; k < d.count; ++k)
          picked.push_back(in[d.begin + k * d.stride]);
        return record(picked);
      }
    }
  }
  if ((kind == OpKind::GatherV2 || kind == OpKind::Gather) && onlyFirst() &&
      shapeOf(operands[0]).rank() == 1) {
    std::optional<SmallVector<int64_t>> indices = intsOf(operands[1]);
    const SmallVector<Dependence> &in = valueAt(0)->elements;
    if (indices && llvm::all_of(*indices, [&](int64_t k) {
          return k >= 0 && k < int64_t(in.size());
        })) {
      SmallVector<Dependence> picked;
      for (int64_t k : *indices)
        picked.push_back(in[k]);
      return record(picked);
    }
  }
  if ((kind == OpKind::Pack || kind == OpKind::ConcatV2) && integral) {
    unsigned n = kind == OpKind::Pack ? operands.size() : operands.size() - 1;
    SmallVector<Dependence> all;
    bool ok = kind == OpKind::Pack ? intAttr(node, "axis") == 0
                                   : intsOf(operands.back()) ==
                                         SmallVector<int64_t>{0};
    for (unsigned i = 0; i < n && ok; ++i) {
      std::optional<SmallVector<Dependence>> e = elementsOf(i);
      ok = e && shapeOf(operands[i]).rank() == (kind == OpKind::Pack ? 0 : 1);
      if (ok)
        all.append(*e);
    }
    if (ok)
      return record(all);
  }
  if (llvm::is_contained({OpKind::Prod, OpKind::Sum, OpKind::Max, OpKind::Min},
                         kind) &&
      onlyFirst() && integral) {
    bool depends = valueAt(0)->dependsOnCount();
    Shape out = shapeOf(results[0]);
    if (out.isStatic())
      return record(SmallVector<Dependence>(
          out.numElements(), depends ? Dependence::Other : Dependence::None));
  }
  if (isElementwise(node) && integral &&
      llvm::none_of(operands, [&](Value v) { return rowsOf(v) != nullptr; })) {
    Shape out = shapeOf(results[0]);
    if (out.isStatic() && out.rank() <= 1) {
      SmallVector<Dependence> elements(out.numElements(), Dependence::None);
      bool ok = true;
      for (unsigned i = 0; i < operands.size() && ok; ++i) {
        std::optional<SmallVector<Dependence>> e = elementsOf(i);
        ok = e && (e->size() == 1 || e->size() == elements.size());
        for (size_t k = 0; ok && k < elements.size(); ++k)
          if ((*e)[e->size() == 1 ? 0 : k] != Dependence::None)
            elements[k] = Dependence::Other;
      }
      if (ok)
        return record(elements);
    }
  }

  // Uses as a shape: the bound stays, and the result has rows where the
  // count is.
  auto countAxes = [&](const ShapeValue &value, SmallVector<RowAxis> &axes)
      -> LogicalResult {
    for (auto [d, dep] : llvm::enumerate(value.elements)) {
      if (dep == Dependence::Other)
        return failure();
      if (dep == Dependence::Count &&
          llvm::none_of(axes, [&](const RowAxis &a) { return a.axis == int64_t(d); }))
        axes.push_back(RowAxis{int64_t(d)});
    }
    return success();
  };
  auto sameCount = [&](unsigned i) {
    const Rows *r = rowsOf(operands[i]);
    return !r || this->sameCount(*r, rows) ||
           succeeded(unifyFeedCounts(node, *r, rows));
  };
  switch (kind) {
  case OpKind::Reshape: {
    const ShapeValue *target = valueAt(1);
    const Rows *input = rowsOf(operands[0]);
    if (!target || valueAt(0) || !input || !sameCount(0))
      return refuseShape("reshapes by");
    Rows in = *input;
    if (failed(visitRows(node, in)))
      return failure();
    const Rows *out = rowsOf(results[0]);
    for (auto [d, dep] : llvm::enumerate(target->elements)) {
      const RowAxis *a = out ? out->at(d) : nullptr;
      if (dep == Dependence::None)
        continue;
      if (!a || (dep == Dependence::Count && a->folded()))
        return refuseShape("reshapes by");
    }
    return true;
  }
  case OpKind::Fill:
  case OpKind::BroadcastTo: {
    unsigned shapeOperand = kind == OpKind::Fill ? 0 : 1,
             data = 1 - shapeOperand;
    const ShapeValue *target = valueAt(shapeOperand);
    if (!target || valueAt(data) || !sameCount(data))
      return refuseShape("fills");
    SmallVector<RowAxis> axes;
    int64_t rank = target->elements.size();
    if (const Rows *r = rowsOf(operands[data])) {
      int64_t shift = rank - shapeOf(operands[data]).rank();
      for (RowAxis a : r->axes) {
        if (a.folded())
          return refuseShape("broadcasts by");
        a.axis += shift;
        axes.push_back(a);
      }
    }
    if (failed(countAxes(*target, axes)))
      return refuseShape("fills");
    setRows(results[0], rows, axes);
    return true;
  }
  case OpKind::Tile: {
    // Repeated count times along a dimension of 1 (tf.repeat by the
    // length: DeBERTa's relative positions): rows of the count there.
    // Rows of the input stay where they are repeated once.
    // (The output's dimensions the count repeats along are unknown until
    // the rows are planned: a Mean's gradient tiles by the rows' shape.)
    const ShapeValue *multiples = valueAt(1);
    const Rows *input = rowsOf(operands[0]);
    Shape in = shapeOf(operands[0]), out = shapeOf(results[0]);
    if (!multiples || valueAt(0) || !sameCount(0) || !in.isStatic() ||
        !out.ranked || out.rank() != in.rank() ||
        int64_t(multiples->elements.size()) != in.rank())
      return refuseShape("tiles by");
    SmallVector<RowAxis> axes;
    for (auto [d, dep] : llvm::enumerate(multiples->elements)) {
      const RowAxis *a = input ? input->at(d) : nullptr;
      if (dep == Dependence::Other ||
          (dep == Dependence::Count && (a || in.dims[d] != 1)) ||
          (dep != Dependence::Count && out.dims[d] == ShapedType::kDynamic) ||
          (a && (a->folded() || out.dims[d] != in.dims[d])))
        return refuseShape("tiles by");
      if (dep == Dependence::Count)
        axes.push_back(RowAxis{int64_t(d)});
      else if (a)
        axes.push_back(*a);
    }
    setRows(results[0], rows, axes);
    return true;
  }
  case OpKind::TensorListReserve: {
    // A list of as many elements as the count: planned for the bound.
    const ShapeValue *length = valueAt(1);
    if (!length || valueAt(0) ||
        length->elements != SmallVector<Dependence>{Dependence::Count})
      return refuseShape("makes a list of");
    setRows(results[0], rows, 0);
    return true;
  }
  case OpKind::Range: {
    const ShapeValue *limit = valueAt(1);
    if (!limit || valueAt(0) || valueAt(2) ||
        limit->elements != SmallVector<Dependence>{Dependence::Count} ||
        !isScalarConstant(operands[0], 0) || !isScalarConstant(operands[2], 1))
      return refuseShape("counts to");
    setRows(results[0], rows, 0);
    return true;
  }
  case OpKind::Slice:
  case OpKind::StridedSlice: {
    // x[:n] (or tf.slice(x, [0], [n])) with n the count: rows of x's
    // first n slices, planned for the bound.
    bool strided = kind == OpKind::StridedSlice;
    if (valueAt(0) || rowsOf(operands[0]) || (strided && valueAt(3)))
      return refuseShape("slices by");
    Shape in = shapeOf(operands[0]), out = shapeOf(results[0]);
    const ShapeValue *begin = valueAt(1), *last = valueAt(2);
    Shape spec = shapeOf(operands[1]);
    if (begin || !last || !in.ranked || !out.ranked || !spec.isStatic() ||
        spec.rank() != 1)
      return refuseShape("slices by");
    // Constants, or stacks of constant scalars (what x[:n] builds).
    size_t entries = spec.dims[0];
    SliceIndices first = sliceIndices(operands[1], entries);
    auto startsAt0 = [&](size_t e) {
      return e < entries && first.known[e] && first.values[e] == 0;
    };
    // The sliced dimension holds the bound (the slice is planned for it).
    auto fits = [&](size_t e) {
      return e < in.dims.size() && !ShapedType::isDynamic(in.dims[e]) &&
             in.dims[e] >= rows.bound &&
             (ShapedType::isDynamic(out.dims[e]) || out.dims[e] == rows.bound);
    };
    SmallVector<RowAxis> axes;
    if (strided) {
      SliceIndices strides = sliceIndices(operands[3], entries);
      if (intAttr(node, "ellipsis_mask") ||
          intAttr(node, "new_axis_mask") || intAttr(node, "shrink_axis_mask"))
        return refuseShape("slices by");
      for (auto [e, dep] : llvm::enumerate(last->elements)) {
        if (dep == Dependence::None)
          continue;
        bool fromStart = (intAttr(node, "begin_mask") >> e & 1) || startsAt0(e);
        if (dep != Dependence::Count || intAttr(node, "end_mask") >> e & 1 ||
            !fromStart || !strides.known[e] || strides.values[e] != 1 ||
            !fits(e))
          return refuseShape("slices by");
        axes.push_back(RowAxis{int64_t(e)});
      }
    } else {
      for (auto [e, dep] : llvm::enumerate(last->elements)) {
        if (dep == Dependence::None)
          continue;
        if (dep != Dependence::Count || !startsAt0(e) || !fits(e))
          return refuseShape("slices by");
        axes.push_back(RowAxis{int64_t(e)});
      }
    }
    if (axes.size() != 1)
      return refuseShape("slices by");
    setRows(results[0], rows, axes);
    if (ShapedType::isDynamic(out.dims[axes[0].axis]))
      bounded.push_back({results[0], rows.bound});
    return true;
  }
  default:
    return false;
  }
}

Value Bounder::materialize(Value value) {
  if (Value done = materialized.lookup(value))
    return done;
  ShapeValue shape = shapeValues.lookup(value);
  const Rows &rows = shape.rows;
  Operation *def = value.getDefiningOp();
  OpKind kind = opKindOf(def);
  std::string name = (tfg::getNodeName(def) + "/count").str();
  Type element = cast<TensorType>(value.getType()).getElementType();
  Value result;
  if (kind == OpKind::TensorListLength) {
    result = castTo(def, name, countValue(def, rows), element);
  } else if (kind == OpKind::Shape || kind == OpKind::Size) {
    // What the node computes with the bound in the count's place: each
    // dimension of rows is (what folds with it) x bound.
    Value count = castTo(def, name + "/value", countValue(def, rows), element);
    if (kind == OpKind::Size) {
      result = value;
      for (size_t k = 0; k < rows.axes.size(); ++k)
        result = binary(def, "FloorDiv", name + "/per_bound",
                        binary(def, "Mul", name + "/times", result, count, element),
                        integers(def, name + "/bound", element, {}, {rows.bound}),
                        element);
    } else {
      int64_t rank = shape.elements.size();
      SmallVector<int64_t> unit(rank, 0), others(rank, 1), bounds(rank, 1);
      for (const RowAxis &a : rows.axes) {
        unit[a.axis] = 1;
        others[a.axis] = 0;
        bounds[a.axis] = rows.bound;
      }
      Value counts = binary(
          def, "AddV2", name + "/counts",
          integers(def, name + "/others", element, {rank}, others),
          binary(def, "Mul", name + "/at_rows",
                 integers(def, name + "/unit", element, {rank}, unit), count,
                 element),
          element);
      result = binary(
          def, "FloorDiv", name,
          binary(def, "Mul", name + "/times", value, counts, element),
          integers(def, name + "/bounds", element, {rank}, bounds), element);
    }
  } else {
    OpBuilder builder(def);
    Operation *copy = builder.clone(*def);
    copy->setAttr(tfg::kNameAttr, builder.getStringAttr(names.get(name)));
    for (OpOperand &operand : copy->getOpOperands())
      if (shapeValues.count(operand.get()))
        operand.set(materialize(operand.get()));
    result = copy->getResult(0);
  }
  materialized[value] = result;
  counts[result] = rows;
  return result;
}

LogicalResult Bounder::visitCountUser(Operation *node) {
  const Rows *of = nullptr;
  for (Value operand : tfg::getDataOperands(node))
    if (auto it = counts.find(operand); it != counts.end())
      of = &it->second;
  OpKind kind = opKindOf(node);
  // A Switch whose predicate alone comes from a count (a loop that runs
  // count times) passes on values that do not.
  if (kind == OpKind::Switch &&
      !counts.count(tfg::getDataOperands(node)[0]))
    return success();
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

LogicalResult Bounder::reduceRows(Operation *node, const Rows &rows) {
  OpKind kind = opKindOf(node);
  OperandRange operands = tfg::getDataOperands(node);
  Value x = operands[0];
  Shape in = shapeOf(x);
  std::optional<SmallVector<int64_t>> axes = intsOf(operands[1]);
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
  // The rows kept stay apart: the result has them too.
  SmallVector<RowAxis> kept;
  SmallVector<int64_t> summed;
  for (RowAxis a : rows.axes) {
    if (llvm::is_contained(reduced, a.axis)) {
      if (a.folded())
        return refuse(node, rows, "reduces over");
      summed.push_back(a.axis);
      continue;
    }
    if (!keepDims)
      a.axis -= llvm::count_if(reduced, [&](int64_t d) { return d < a.axis; });
    kept.push_back(a);
  }
  Value result = tfg::getDataResults(node)[0];
  setRows(result, rows, kept);
  if (summed.empty())
    return success();
  if (!staticBut(in, -1) && !llvm::all_of(reduced, [&](int64_t d) {
        return llvm::is_contained(summed, d) ||
               in.dims[d] != ShapedType::kDynamic;
      }))
    return refuse(node, rows, "reduces dimensions of unknown size beside");
  Type element = cast<TensorType>(x.getType()).getElementType();
  if (kind == OpKind::Mean && !isa<FloatType>(element))
    return refuse(node, rows, "averages integers over");
  Attribute identity = identityOf(kind, element);
  if (!identity)
    return refuse(node, rows, "reduces elements tfc cannot pad in");
  std::string name = tfg::getNodeName(node).str();
  Value padded = x;
  for (int64_t a : summed)
    padded = maskPadding(node, padded, rows, a, identity, name);
  if (kind != OpKind::Mean) {
    node->setOperand(0, padded);
    return success();
  }
  // Mean = the Sum over the true elements / their number.
  SmallVector<NamedAttribute> attrs = tfg::getNodeAttrs(node);
  Value sum = make(node, "Sum", name + "/sum", result.getType(),
                   {padded, operands[1]}, attrs);
  int64_t others = 1;
  for (int64_t d : reduced)
    if (!llvm::is_contained(summed, d))
      others *= in.dims[d];
  Value perCount = castTo(node, name + "/count", countValue(node, rows), element);
  Value n = perCount;
  for (size_t k = 1; k < summed.size(); ++k)
    n = binary(node, "Mul", name + "/counts", n, perCount, element);
  if (others != 1)
    n = binary(node, "Mul", name + "/elements", n,
               scalar(node, name + "/per_row", FloatAttr::get(element, double(others))),
               element);
  Value mean = binary(node, "RealDiv", name + "/mean", sum, n, element);
  setRows(mean, rows, kept);
  this->rows.erase(result);
  replace(node, mean);
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
    if (!index || !rowsOfData || !sameCount(*index, *rowsOfData) ||
        index->axis() != 0 || rowsOfData->axis() != 0 || !index->simple() || !rowsOfData->simple() || shapeOf(indices).rank() != 1)
      return refuse(node, *any, "stitches data and indices that are not rows "
                                "of one count, one index per row, as");
    skipPadding(node, i, index->bound, countValue(node, *index),
                (tfg::getNodeName(node) + "/indices_" + Twine(i)).str());
  }
  return success();
}

LogicalResult Bounder::scatterRows(Operation *node, unsigned at) {
  OperandRange operands = tfg::getDataOperands(node);
  const Rows *index = rowsOf(operands[at]);
  for (auto [i, operand] : llvm::enumerate(operands)) {
    const Rows *rows = rowsOf(operand);
    if (!rows)
      continue;
    bool oneRowPerIndex =
        index && sameCount(*rows, *index) && rows->axis() == 0 &&
        rows->simple() && index->axis() == 0 && index->simple() &&
        shapeOf(operands[at]).rank() == 1;
    if (!oneRowPerIndex)
      return refuse(node, *rows,
                    "updates a variable with data and indices that are not "
                    "rows of one count, one index per row, as");
  }
  skipPadding(node, at, index->bound, countValue(node, *index),
              (tfg::getNodeName(node) + "/indices").str());
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
  using BoundDynamicRowsPassBase::BoundDynamicRowsPassBase;
  PassCounter numBounded{this, "bounded", "graph bodies with Wheres bounded"};

  void runOnOperation() override {
    numBounded = 0;
    for (Block *body : getBodies(getOperation())) {
      Bounder bounder(*body, feeds);
      FailureOr<bool> bounded = bounder.run();
      if (failed(bounded))
        return signalPassFailure();
      numBounded += *bounded;
    }
  }
};

} // namespace
} // namespace tfc
