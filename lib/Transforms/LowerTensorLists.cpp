//===- LowerTensorLists.cpp - TensorLists as dense tensors ----------------===//
//
// TF2's loops keep per-step tensors in TensorLists: Keras RNNs read their
// input sequence from one and write their outputs to another, and the
// gradient of a loop keeps each iteration's intermediates in
// accumulators, lists the forward loop pushes to and the gradient loop
// pops from in reverse. A list whose element shape and capacity are known
// at compile time is a dense tensor [capacity, element...]; this pass
// rewrites the list ops into the tensor ops that compute it, as
// TensorFlow's own list-to-tensor rewrites do:
//
//   TensorListReserve(shape, n)      -> a zero Const [n, shape...]
//   EmptyTensorList(shape, max)      -> a zero Const [max, shape...]
//   TensorListFromTensor(t, shape)   -> Identity(t)
//   TensorListGetItem(l, i, shape)   -> GatherV2(l, i, 0)
//   TensorListSetItem(l, i, item)    -> TensorScatterUpdate(l, [[i]], [item])
//   TensorListPushBack(l, item)      -> TensorScatterUpdate(l, [[len]], [item])
//   TensorListPopBack(l, shape)      -> l, and the item GatherV2(l, len - 1, 0)
//   TensorListLength(l)              -> len
//   TensorListElementShape(l)        -> a Const of the element shape
//   TensorListStack(l, shape)        -> Identity(l)
//   TensorListGather(l, indices)     -> GatherV2(l, indices, 0)
//   TensorListScatterIntoExistingList(l, t, indices)
//                                    -> TensorScatterUpdate(l, indices, t)
//   TensorListScatter(V2)(t, indices, ...) -> zeros, then the same
//   TensorListSplit(t, lengths k...) -> t reshaped to [n, k, ...]
//   TensorListConcat(V2)(l)          -> l reshaped to [n * k, ...], and
//                                       the lengths k
//
// and gives the nodes that carry a list (Enter, Merge, Switch, Identity,
// NextIteration, Exit) or add or zero lists (AddN, ZerosLike) the dense
// type in place of the variant.
//
// A list's length `len` is an int32 scalar that follows the list: a
// constant where the list is made, plus one per push and minus one per
// pop, carried through loops and conds by copies of the nodes that carry
// the list. Only the lists whose length some node reads get one.
//
// An accumulator of unknown capacity (the gradient of a loop without
// maximum_iterations) that is only pushed and popped becomes a stack of the
// runtime (StackV2, StackPushV2, StackPopV2), whose storage grows.
//
// A list that TensorListSetItem grows (resize_if_index_out_of_bounds) has
// the capacity tfc-bound-growable-lists planned (tfc.list_capacity), and
// its length, the Reserve's at first, becomes max(length, index + 1) at
// each growing write.
//
// A list this cannot make dense (an element shape or capacity unknown at
// compile time, or the stack of a list whose length changes) is an error
// naming the node.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <numeric>

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_LOWERTENSORLISTSPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {


bool isListOp(Operation *op) {
  if (!tfg::isNode(op))
    return false;
  // The TensorLists family, less the Optionals (tfc-lower-optionals' ops).
  const OpInfo *info = lookupOp(op);
  return info && info->family == OpFamily::TensorLists &&
         !llvm::is_contained({OpKind::OptionalFromValue,
                              OpKind::OptionalGetValue,
                              OpKind::OptionalHasValue, OpKind::OptionalNone},
                             info->kind);
}


/// The nodes `list` may have passed through since it was made, and where
/// it was made, back to the nodes that make lists.
SmallVector<Operation *> historyOf(Value list) {
  llvm::DenseSet<Value> seen;
  SmallVector<Operation *> history;
  SmallVector<Value> worklist = {list};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    Operation *producer = value.getDefiningOp();
    if (!seen.insert(value).second || !producer || !tfg::isNode(producer))
      continue;
    history.push_back(producer);
    for (Value input : tfg::getDataOperands(producer))
      if (isVariant(input.getType()))
        worklist.push_back(input);
  }
  return history;
}

/// Whether a push or pop may have changed the length of `list` since it
/// was made (then its stack's shape is not static).
bool lengthChanges(Value list) {
  return llvm::any_of(historyOf(list), [](Operation *node) {
    return llvm::is_contained({OpKind::EmptyTensorList,
                               OpKind::TensorListPushBack,
                               OpKind::TensorListPopBack},
                              opKindOf(node));
  });
}

/// Ops that make a list (from nothing, or from a tensor).
bool makesList(OpKind kind) {
  return llvm::is_contained({OpKind::TensorListReserve, OpKind::EmptyTensorList,
                             OpKind::TensorListFromTensor,
                             OpKind::TensorListSplit, OpKind::TensorListScatter,
                             OpKind::TensorListScatterV2},
                            kind);
}

/// Ops that output their input list with its length unchanged.
bool keepsLength(OpKind kind) {
  return kind == OpKind::TensorListSetItem ||
         kind == OpKind::TensorListScatterIntoExistingList ||
         carriesVariant(kind) || mapsVariant(kind);
}

/// The static leading dimension and the rest of a tensor's static shape.
std::optional<std::pair<int64_t, SmallVector<int64_t>>> rowsOf(Value tensor) {
  auto type = dyn_cast<RankedTensorType>(tensor.getType());
  if (!type || !type.hasStaticShape() || type.getRank() == 0)
    return std::nullopt;
  return std::make_pair(type.getDimSize(0),
                        SmallVector<int64_t>(type.getShape().drop_front()));
}

/// Split's lengths when they are constants and all equal.
std::optional<int64_t> uniformSplit(Value lengths) {
  auto values = constantInts(lengths);
  if (!values || values->empty() ||
      llvm::any_of(*values, [&](int64_t v) { return v != values->front(); }))
    return std::nullopt;
  return values->front();
}

/// The length a list-making node gives its list, when static.
std::optional<int64_t> madeLength(Operation *node) {
  OpKind kind = opKindOf(node);
  OperandRange in = tfg::getDataOperands(node);
  std::optional<SmallVector<int64_t>> n;
  if (kind == OpKind::EmptyTensorList)
    return 0;
  if (kind == OpKind::TensorListReserve)
    n = constantInts(in[1]);
  else if (kind == OpKind::TensorListScatterV2)
    n = constantInts(in[3]);
  else if (kind == OpKind::TensorListSplit) {
    if (auto lengths = constantInts(in[2]))
      return int64_t(lengths->size());
  } else if (kind == OpKind::TensorListFromTensor)
    if (auto rows = rowsOf(in[0]))
      return rows->first;
  if (kind == OpKind::TensorListScatter ||
      (kind == OpKind::TensorListScatterV2 && n && n->size() == 1 &&
       (*n)[0] < 0)) {
    // As many as the largest index needs.
    auto indices = constantInts(in[1]);
    if (!indices)
      return std::nullopt;
    int64_t top = -1;
    for (int64_t i : *indices)
      top = std::max(top, i);
    return top + 1;
  }
  if (!n || n->size() != 1 || (*n)[0] < 0)
    return std::nullopt;
  return (*n)[0];
}

/// The static element shape a list-making node gives its elements.
std::optional<SmallVector<int64_t>> writtenElementShape(Operation *maker);

std::optional<SmallVector<int64_t>> madeElementShape(Operation *node) {
  OpKind kind = opKindOf(node);
  OperandRange in = tfg::getDataOperands(node);
  if (kind == OpKind::TensorListReserve || kind == OpKind::EmptyTensorList) {
    auto shape = constantInts(in[0]);
    if (shape && llvm::none_of(*shape, [](int64_t d) { return d < 0; }))
      return shape;
    // (A TensorArray made without element_shape.)
    return writtenElementShape(node);
  }
  auto rows = rowsOf(in[0]);
  if (!rows)
    return std::nullopt;
  if (kind == OpKind::TensorListSplit) {
    std::optional<int64_t> each = uniformSplit(in[2]);
    if (!each)
      return std::nullopt;
    SmallVector<int64_t> shape = {*each};
    llvm::append_range(shape, rows->second);
    return shape;
  }
  return rows->second; // FromTensor, Scatter: the tensor's rows.
}

/// The static shape of what is written to the list `maker` makes, as it
/// goes on (SetItem and PushBack items, the rows ScatterIntoExistingList
/// writes), when a statically shaped one is.
std::optional<SmallVector<int64_t>> writtenElementShape(Operation *maker) {
  llvm::DenseSet<Value> seen;
  SmallVector<Value> worklist = {tfg::getDataResults(maker)[0]};
  while (!worklist.empty()) {
    Value list = worklist.pop_back_val();
    if (!seen.insert(list).second)
      continue;
    for (OpOperand &use : list.getUses()) {
      Operation *user = use.getOwner();
      if (!tfg::isNode(user) ||
          use.getOperandNumber() >= tfg::getDataOperands(user).size())
        continue;
      OpKind kind = opKindOf(user);
      OperandRange in = tfg::getDataOperands(user);
      std::optional<Value> item;
      bool rows = false;
      if (kind == OpKind::TensorListSetItem && use.getOperandNumber() == 0)
        item = in[2];
      else if (kind == OpKind::TensorListPushBack &&
               use.getOperandNumber() == 0)
        item = in[1];
      else if (kind == OpKind::TensorListScatterIntoExistingList &&
               use.getOperandNumber() == 0)
        item = in[1], rows = true;
      if (item) {
        auto shaped = dyn_cast<RankedTensorType>(item->getType());
        if (shaped && shaped.hasStaticShape() && (!rows || shaped.getRank() > 0))
          return SmallVector<int64_t>(
              rows ? shaped.getShape().drop_front() : shaped.getShape());
      }
      if (keepsLength(kind) || kind == OpKind::TensorListPushBack ||
          kind == OpKind::TensorListPopBack)
        for (Value result : tfg::getDataResults(user))
          if (isVariant(result.getType()))
            worklist.push_back(result);
    }
  }
  return std::nullopt;
}

/// The length of `list` when no push or pop changes it and every node
/// that may have made it made it of that constant length.
std::optional<int64_t> staticLength(Value list) {
  std::optional<int64_t> length;
  for (Operation *node : historyOf(list)) {
    OpKind kind = opKindOf(node);
    if (kind == OpKind::EmptyTensorList || node->hasAttr(kListCapacityAttr))
      return std::nullopt; // (Pushes fill it, or growing writes.)
    if (!makesList(kind)) {
      if (!keepsLength(kind) || growsList(node))
        return std::nullopt;
      continue;
    }
    std::optional<int64_t> made = madeLength(node);
    if (!made || (length && *made != *length))
      return std::nullopt;
    length = made;
  }
  return length;
}

/// The Const node all of `pushes` push (equal Consts), or null.
Operation *sameConstantPushed(ArrayRef<Operation *> pushes) {
  Operation *pushed = nullptr;
  for (Operation *push : pushes) {
    Operation *item = tfg::getDataOperands(push)[1].getDefiningOp();
    if (!item || !tfg::isNode(item) || opKindOf(item) != OpKind::Const ||
        (pushed && pushed->getAttr("value") != item->getAttr("value")))
      return nullptr;
    pushed = item;
  }
  return pushed;
}

/// The Const node whose value every element of `list` has: the list was
/// made empty and only that value (equal Consts) pushed to it; or null.
Operation *onlyPushedConstant(Value list) {
  SmallVector<Operation *> pushes;
  for (Operation *node : historyOf(list)) {
    OpKind kind = opKindOf(node);
    if (kind == OpKind::TensorListPushBack)
      pushes.push_back(node);
    else if (kind != OpKind::EmptyTensorList &&
             kind != OpKind::TensorListPopBack && !carriesVariant(kind))
      return nullptr;
  }
  return sameConstantPushed(pushes);
}

/// The static element shape of `list`, from where it was made.
std::optional<SmallVector<int64_t>> elementShapeOf(Value list) {
  for (Operation *node : historyOf(list))
    if (makesList(opKindOf(node)))
      if (auto shape = madeElementShape(node))
        return shape;
  return std::nullopt;
}

/// Whether `read` reads a list that grows (tfc-bound-growable-lists gave
/// it a capacity beyond its length).
bool readsGrowingList(Operation *read) {
  Operation *reserve = reserveOf(tfg::getDataOperands(read)[0]);
  return reserve && reserve->hasAttr(kListCapacityAttr);
}

/// Rewrites the lists of one graph body.
class ListLowering {
public:
  ListLowering(Block &body, unsigned &lowered)
      : body(body), names(body), builder(body.getParentOp()->getContext()),
        lowered(lowered) {}

  LogicalResult run();

private:
  void checkWithinLength(Operation *read, Operation *gather, Value indices);
  FailureOr<Value> lengthOf(Value list, Operation *reader);
  LogicalResult lower(Operation *op);
  bool lowerToStack(Operation *empty);

  /// Creates a node at the builder's insertion point that waits for what
  /// `like` waits for.
  Operation *node(Operation *like, StringRef opType, StringRef name,
                  TypeRange results, ValueRange data,
                  ArrayRef<NamedAttribute> attrs) {
    return createNodeLike(builder, like, opType, name, results, data,
                          tfg::getControlOperands(like), attrs);
  }
  /// A Const of `value` that waits for what `like` waits for.
  Operation *constant(Operation *like, StringRef name, ElementsAttr value) {
    return createConstLike(builder, like, name, value,
                           tfg::getControlOperands(like));
  }
  /// A Const copy of the Const node `from`.
  Operation *copyOf(Operation *like, StringRef name, Operation *from) {
    return constant(like, name, cast<ElementsAttr>(from->getAttr("value")));
  }
  /// An int32 Const (inputless: graph constants are read from any frame).
  Value i32Const(Operation *like, StringRef name, ArrayRef<int64_t> shape,
                 ArrayRef<int32_t> values) {
    auto type = RankedTensorType::get(shape, builder.getI32Type());
    return createConstLike(builder, like, names.get(name),
                           DenseElementsAttr::get(type, values))
        ->getResult(0);
  }
  /// Zeros of `type`.
  DenseElementsAttr zerosOf(RankedTensorType type) {
    return DenseElementsAttr::get(type, builder.getZeroAttr(type.getElementType()));
  }
  NamedAttribute typeAttr(StringRef name, Type type) {
    return builder.getNamedAttr(name, TypeAttr::get(type));
  }

  Block &body;
  NameUniquer names;
  OpBuilder builder;
  unsigned &lowered;
  /// The length of each list value that has one.
  llvm::DenseMap<Value, Value> lengths;
  /// The length each push, pop and Length node reads (a push: its input
  /// list's; a pop: its output list's), found before any rewrite.
  llvm::DenseMap<Operation *, Value> lengthRead;
  /// The element shape each TensorListElementShape node reads, where static.
  llvm::DenseMap<Operation *, SmallVector<int64_t>> elementShapes;
  /// The element shape of each Reserve and EmptyTensorList, where static
  /// (found before any rewrite).
  llvm::DenseMap<Operation *, SmallVector<int64_t>> makerShapes;
  /// The static length and element shape of each concatenated list.
  llvm::DenseMap<Operation *, std::pair<int64_t, SmallVector<int64_t>>>
      concatShapes;
  /// The stacks of lists that pushes or pops changed.
  llvm::DenseSet<Operation *> stacksChangingList;
  /// The Const every push to a popped list pushed, for each pop whose
  /// list only ever held that value.
  llvm::DenseMap<Operation *, Operation *> constantPushed;
  /// The dense values that replaced lists, for the retyping.
  SmallVector<Value> dense;
};

/// The length of `list`, made on demand: a constant where the list is
/// made, an increment or decrement after a push or a pop, and copies of
/// the nodes that carry the list (made before their inputs' lengths, so
/// that a loop's back edge finds its Merge's copy).
FailureOr<Value> ListLowering::lengthOf(Value list, Operation *reader) {
  if (auto known = lengths.find(list); known != lengths.end())
    return known->second;
  Operation *producer = list.getDefiningOp();
  if (!producer || !tfg::isNode(producer)) {
    tfg::nodeError(reader) << "cannot trace its list to where it is made";
    return failure();
  }
  OpKind kind = opKindOf(producer);
  OperandRange in = tfg::getDataOperands(producer);
  std::string name = tfg::getNodeName(producer).str() + "/length";
  auto scalar = RankedTensorType::get({}, builder.getI32Type());
  auto remember = [&](Value length) {
    lengths[list] = length;
    return length;
  };
  auto constant = [&](int64_t value) {
    builder.setInsertionPointAfter(producer);
    return remember(
        i32Const(producer, name, {}, {static_cast<int32_t>(value)}));
  };

  if (std::optional<int64_t> length = staticLength(list))
    return constant(*length);
  if (makesList(kind)) {
    if (std::optional<int64_t> length = madeLength(producer))
      return constant(*length);
    // (A length computed in the step must still be a constant by the time
    // the list is made dense, which reports it.)
    if (kind == OpKind::TensorListReserve)
      return remember(in[1]);
    tfg::nodeError(producer) << "the list's length is not a compile-time constant";
    return failure();
  }
  bool grows = growsList(producer);
  if (grows || kind == OpKind::TensorListPushBack ||
      kind == OpKind::TensorListPopBack) {
    FailureOr<Value> before = lengthOf(in[0], producer);
    if (failed(before))
      return failure();
    // (A loop's back edge may have made it meanwhile.)
    if (auto known = lengths.find(list); known != lengths.end())
      return known->second;
    // (Before the write, push or pop, which its rewrite then reads.)
    builder.setInsertionPoint(producer);
    NamedAttribute T = typeAttr("T", builder.getI32Type());
    if (grows) {
      // max(length, index + 1).
      Value one = i32Const(producer, name + "/one", {}, {1});
      Value reach = node(producer, "AddV2", names.get(name + "/reach"), scalar,
                         {in[1], one}, {T})
                        ->getResult(0);
      return remember(node(producer, "Maximum", names.get(name), scalar,
                           {*before, reach}, {T})
                          ->getResult(0));
    }
    int32_t step = kind == OpKind::TensorListPushBack ? 1 : -1;
    Value one = i32Const(producer, name + "/step", {}, {step});
    return remember(node(producer, "AddV2", names.get(name), scalar,
                         {*before, one}, {T})
                        ->getResult(0));
  }
  if (keepsLength(kind) && !carriesVariant(kind)) {
    FailureOr<Value> length = lengthOf(in[0], producer);
    return failed(length) ? length : remember(*length);
  }
  if (carriesVariant(kind)) {
    // A copy of the carrier on the lengths, remembered for each list it
    // outputs before its inputs are traced.
    builder.setInsertionPointAfter(producer);
    Operation *copy = builder.clone(*producer);
    copy->setAttr(tfg::kNameAttr, builder.getStringAttr(names.get(name)));
    copy->setAttr("T", TypeAttr::get(builder.getI32Type()));
    for (auto [result, copied] :
         llvm::zip(tfg::getDataResults(producer), tfg::getDataResults(copy))) {
      if (!isVariant(result.getType()))
        continue;
      copied.setType(scalar);
      lengths[result] = copied;
    }
    for (auto [index, input] : llvm::enumerate(in)) {
      if (!isVariant(input.getType()))
        continue; // (a Switch's predicate)
      FailureOr<Value> length = lengthOf(input, producer);
      if (failed(length))
        return failure();
      copy->setOperand(index, *length);
    }
    return lengths[list];
  }
  tfg::nodeError(reader) << "cannot follow the length of its list through node '"
                    << tfg::getNodeName(producer) << "' ("
                    << tfg::getOpType(producer) << ")";
  return failure();
}

/// A list that grows holds zeros past its length, up to its capacity: a
/// read there (`read`, whose rewrite is `gather`) stops the step, as
/// TensorFlow's does, by an Assert that the gather waits for.
void ListLowering::checkWithinLength(Operation *read, Operation *gather,
                                     Value indices) {
  Value length = lengthRead.lookup(read);
  if (!length)
    return;
  std::string name = tfg::getNodeName(read).str();
  Type i1 = builder.getI1Type(), i32 = builder.getI32Type();
  int64_t rank = cast<RankedTensorType>(indices.getType()).getRank();
  SmallVector<int64_t> shape(cast<RankedTensorType>(indices.getType()).getShape());
  Value within = node(read, "Less", names.get(name + "/within_length"),
                      RankedTensorType::get(shape, i1), {indices, length},
                      {typeAttr("T", i32)})
                     ->getResult(0);
  if (rank > 0) {
    SmallVector<int32_t> axes(rank);
    std::iota(axes.begin(), axes.end(), 0);
    within = node(read, "All", names.get(name + "/all_within_length"),
                  RankedTensorType::get({}, i1),
                  {within, i32Const(read, name + "/axes", {rank}, axes)},
                  {typeAttr("Tidx", i32),
                   builder.getNamedAttr("keep_dims", builder.getBoolAttr(false))})
                 ->getResult(0);
  }
  auto stringType = RankedTensorType::get(
      {}, tfg::StringType::get(builder.getContext()));
  Value message =
      constant(read, names.get(name + "/message"),
               DenseStringElementsAttr::get(
                   stringType,
                   {"Trying to access an element past the end of the list"}))
          ->getResult(0);
  Operation *check = node(
      read, "Assert", names.get(name + "/check"), {}, {within, message},
      {builder.getNamedAttr("T", builder.getTypeArrayAttr(
                                     {stringType.getElementType()})),
       builder.getNamedAttr("summarize", builder.getI64IntegerAttr(3))});
  gather->insertOperands(gather->getNumOperands(), tfg::getControlToken(check));
}

/// Rewrites one list op into tensor ops (see the file comment).
LogicalResult ListLowering::lower(Operation *op) {
  OpKind kind = opKindOf(op);
  OperandRange in = tfg::getDataOperands(op);
  builder.setInsertionPoint(op);
  auto replaceBy = [&](Operation *replacement, Value list) {
    tfg::getDataResults(op)[0].replaceAllUsesWith(replacement->getResult(0));
    tfg::getControlToken(op).replaceAllUsesWith(
        tfg::getControlToken(replacement));
    if (list)
      dense.push_back(list);
    op->erase();
    ++lowered;
    return success();
  };
  if (kind == OpKind::TensorListLength) {
    // A constant length stays visible as one (gradients push it to
    // accumulators and make lists of that length from what they pop).
    Value length = lengthRead.lookup(op);
    if (constantInts(length))
      return replaceBy(copyOf(op, tfg::getNodeName(op), length.getDefiningOp()),
                       nullptr);
    auto i32 = builder.getI32Type();
    return replaceBy(node(op, "Identity", tfg::getNodeName(op),
                          RankedTensorType::get({}, i32), length,
                          {typeAttr("T", i32)}),
                     nullptr);
  }
  if (kind == OpKind::TensorListElementShape) {
    auto shape = elementShapes.find(op);
    if (shape == elementShapes.end()) {
      tfg::nodeError(op) << "the list's element shape is not static";
      return failure();
    }
    auto element =
        cast<IntegerType>(cast<TensorType>(tfg::getDataResults(op)[0].getType())
                              .getElementType());
    auto tensorType =
        RankedTensorType::get({int64_t(shape->second.size())}, element);
    SmallVector<APInt> values;
    for (int64_t d : shape->second)
      values.push_back(APInt(element.getWidth(), d, /*isSigned=*/true));
    return replaceBy(constant(op, tfg::getNodeName(op),
                              DenseElementsAttr::get(tensorType, values)),
                     nullptr);
  }
  auto dtype = op->getAttrOfType<TypeAttr>("element_dtype");
  if (!dtype) {
    tfg::nodeError(op) << "no element_dtype";
    return failure();
  }
  Type element = dtype.getValue();
  auto unranked = UnrankedTensorType::get(element);
  auto i32 = builder.getI32Type();
  NamedAttribute T = typeAttr("T", element);
  std::string name = tfg::getNodeName(op).str();

  // A zero Const [capacity, element shape...].
  auto zeros = [&](Value shapeInput, Value capacityInput,
                   StringRef what) -> Operation * {
    // The shape input now (a gradient's pop of a constant has become that
    // constant), or what the list's writes store.
    std::optional<SmallVector<int64_t>> shape = constantInts(shapeInput);
    if (!shape || llvm::any_of(*shape, [](int64_t d) { return d < 0; })) {
      auto written = makerShapes.find(op);
      shape = written != makerShapes.end()
                  ? std::optional<SmallVector<int64_t>>(written->second)
                  : std::nullopt;
    }
    auto capacity = constantInts(capacityInput);
    // (A list that grows: planned for its capacity, tfc-bound-growable-lists.)
    if (auto planned = op->getAttrOfType<IntegerAttr>(kListCapacityAttr))
      capacity = SmallVector<int64_t>{planned.getInt()};
    if (!shape) {
      tfg::nodeError(op) << "the list's element shape is not static";
      return nullptr;
    }
    if (!capacity || capacity->size() != 1 || (*capacity)[0] < 0) {
      tfg::nodeError(op) << "the list's " << what
                    << " is not a compile-time constant";
      return nullptr;
    }
    SmallVector<int64_t> dims = {(*capacity)[0]};
    llvm::append_range(dims, *shape);
    return constant(op, name, zerosOf(RankedTensorType::get(dims, element)));
  };
  // GatherV2(list, index, 0): one row.
  auto gather = [&](StringRef nodeName, Value list, Value index) {
    return node(
        op, "GatherV2", nodeName, unranked,
        {list, index, i32Const(op, name + "/axis", {}, {0})},
        {typeAttr("Tparams", element), typeAttr("Tindices", i32),
         typeAttr("Taxis", i32),
         builder.getNamedAttr("batch_dims", builder.getI64IntegerAttr(0))});
  };
  auto reshape = [&](StringRef nodeName, Value tensor, ArrayRef<int64_t> dims,
                     Type elementType) {
    SmallVector<int32_t> shape(dims.begin(), dims.end());
    return node(op, "Reshape", nodeName, UnrankedTensorType::get(elementType),
                {tensor, i32Const(op, name + "/shape", {int64_t(dims.size())},
                                  shape)},
                {typeAttr("T", elementType), typeAttr("Tshape", i32)});
  };
  // TensorScatterUpdate(list, indices as [n, 1], rows): the list with the
  // indexed rows set.
  auto setRows = [&](Value list, Value indices, Value rows) {
    Operation *index = reshape(names.get(name + "/index"), indices, {-1, 1}, i32);
    return node(op, "TensorScatterUpdate", name, unranked,
                {list, index->getResult(0), rows},
                {T, typeAttr("Tindices", i32)});
  };
  // TensorScatterUpdate(list, [[index]], [item]): the list with one row set.
  auto setRow = [&](Value list, Value index, Value item) {
    Operation *indices = node(
        op, "Reshape", names.get(name + "/index"), UnrankedTensorType::get(i32),
        {index, i32Const(op, name + "/index_shape", {2}, {1, 1})},
        {typeAttr("T", i32), typeAttr("Tshape", i32)});
    Operation *update =
        node(op, "ExpandDims", names.get(name + "/update"), unranked,
             {item, i32Const(op, name + "/axis", {}, {0})},
             {T, typeAttr("Tdim", i32)});
    return node(op, "TensorScatterUpdate", name, unranked,
                {list, indices->getResult(0), update->getResult(0)},
                {T, typeAttr("Tindices", i32)});
  };

  // The node that takes the list op's place (its name and control users)
  // and the dense list, if the op outputs one.
  Operation *replacement = nullptr;
  Value list;
  if (kind == OpKind::TensorListReserve || kind == OpKind::EmptyTensorList) {
    replacement =
        zeros(in[0], in[1],
              kind == OpKind::EmptyTensorList ? "maximum length" : "length");
    if (!replacement)
      return failure();
    list = replacement->getResult(0);
  } else if (kind == OpKind::TensorListFromTensor) {
    replacement = node(op, "Identity", name, unranked, in[0], {T});
    list = replacement->getResult(0);
  } else if (kind == OpKind::TensorListStack) {
    if (stacksChangingList.contains(op)) {
      tfg::nodeError(op) << "stacking a list that pushes or pops change is not "
                       "supported (its shape would not be static)";
      return failure();
    }
    replacement = node(op, "Identity", name, unranked, in[0], {T});
  } else if (kind == OpKind::TensorListGetItem) {
    replacement = gather(name, in[0], in[1]);
    checkWithinLength(op, replacement, in[1]);
  } else if (kind == OpKind::TensorListSetItem) {
    replacement = setRow(in[0], in[1], in[2]);
    list = replacement->getResult(0);
  } else if (kind == OpKind::TensorListPushBack) {
    replacement = setRow(in[0], lengthRead.lookup(op), in[1]);
    list = replacement->getResult(0);
  } else if (kind == OpKind::TensorListPopBack) {
    // The rows stay; the length, one less, is the row to read, unless
    // every push pushed the same constant.
    if (Operation *pushed = constantPushed.lookup(op))
      replacement = copyOf(op, name, pushed);
    else
      replacement = gather(name, in[0], lengthRead.lookup(op));
    tfg::getDataResults(op)[0].replaceAllUsesWith(in[0]);
    tfg::getDataResults(op)[1].replaceAllUsesWith(replacement->getResult(0));
    tfg::getControlToken(op).replaceAllUsesWith(
        tfg::getControlToken(replacement));
    op->erase();
    ++lowered;
    return success();
  } else if (kind == OpKind::TensorListGather) {
    replacement = gather(name, in[0], in[1]);
    checkWithinLength(op, replacement, in[1]);
  } else if (kind == OpKind::TensorListScatterIntoExistingList) {
    replacement = setRows(in[0], in[2], in[1]);
    list = replacement->getResult(0);
  } else if (kind == OpKind::TensorListScatter ||
             kind == OpKind::TensorListScatterV2) {
    // Zero rows as many as the list holds, then the scattered ones.
    std::optional<int64_t> length = madeLength(op);
    auto rows = rowsOf(in[0]);
    if (!length || !rows) {
      tfg::nodeError(op) << "the list's length or element shape is not static";
      return failure();
    }
    SmallVector<int64_t> dims = {*length};
    llvm::append_range(dims, rows->second);
    Operation *empty = constant(op, names.get(name + "/zeros"),
                                zerosOf(RankedTensorType::get(dims, element)));
    replacement = setRows(empty->getResult(0), in[1], in[0]);
    list = replacement->getResult(0);
  } else if (kind == OpKind::TensorListSplit) {
    // Equal lengths k: the tensor [n * k, ...] as [n, k, ...].
    std::optional<int64_t> length = madeLength(op);
    std::optional<SmallVector<int64_t>> shape = madeElementShape(op);
    if (!length || !shape) {
      tfg::nodeError(op) << "splits into lengths that are not one constant";
      return failure();
    }
    SmallVector<int64_t> dims = {*length};
    llvm::append_range(dims, *shape);
    replacement = reshape(name, in[0], dims, element);
    list = replacement->getResult(0);
  } else if (kind == OpKind::TensorListConcat ||
             kind == OpKind::TensorListConcatV2) {
    // Elements [k, ...]: the list [n, k, ...] as [n * k, ...], and the
    // lengths, k each.
    auto shape = concatShapes.find(op);
    if (shape == concatShapes.end() || shape->second.second.empty()) {
      tfg::nodeError(op) << "the list's length or element shape is not static";
      return failure();
    }
    auto [length, elementShape] = shape->second;
    SmallVector<int64_t> dims = {length * elementShape[0]};
    llvm::append_range(dims, ArrayRef<int64_t>(elementShape).drop_front());
    replacement = reshape(name, in[0], dims, element);
    Operation *lengths = constant(
        op, names.get(name + "/lengths"),
        DenseElementsAttr::get(
            RankedTensorType::get({length}, builder.getI64Type()),
            ArrayRef<int64_t>(SmallVector<int64_t>(length, elementShape[0]))));
    tfg::getDataResults(op)[1].replaceAllUsesWith(lengths->getResult(0));
  } else {
    tfg::nodeError(op) << "this TensorList op is not supported yet";
    return failure();
  }
  return replaceBy(replacement, list);
}

/// An accumulator of unknown capacity (the gradient of a loop without
/// maximum_iterations: a list made empty, pushed to by the forward loop
/// and popped by the gradient loop, nothing else) becomes a stack, whose
/// runtime storage grows: EmptyTensorList a StackV2, PushBack a
/// StackPushV2 and PopBack a StackPopV2; the list values become the
/// stack's handle, and what read a list after a push or pop waits for it.
/// Returns whether `empty` was such an accumulator.
bool ListLowering::lowerToStack(Operation *empty) {
  // The list's values, and that nothing but carriers, pushes and pops
  // read them.
  SmallVector<Value> values = {tfg::getDataResults(empty)[0]};
  SmallVector<Operation *> pushes, pops, carriers;
  llvm::DenseSet<Operation *> seen;
  for (size_t k = 0; k < values.size(); ++k)
    for (OpOperand &use : values[k].getUses()) {
      Operation *user = use.getOwner();
      if (!tfg::isNode(user) || use.getOperandNumber() >=
                                    tfg::getDataOperands(user).size())
        continue; // (A control edge.)
      OpKind kind = opKindOf(user);
      bool push = kind == OpKind::TensorListPushBack,
           pop = kind == OpKind::TensorListPopBack;
      if (!push && !pop && !carriesVariant(kind))
        return false;
      if ((push || pop) && use.getOperandNumber() != 0)
        return false;
      if (!seen.insert(user).second)
        continue;
      (push ? pushes : pop ? pops : carriers).push_back(user);
      for (Value result : tfg::getDataResults(user))
        if (isVariant(result.getType()))
          values.push_back(result);
    }
  auto dtype = empty->getAttrOfType<TypeAttr>("element_dtype");
  if (!dtype)
    return false;
  // (A pop of an accumulator of one constant is that constant.)
  Operation *pushed = sameConstantPushed(pushes);
  MLIRContext *context = builder.getContext();
  auto handle = RankedTensorType::get({}, tfg::ResourceType::get(context));
  auto element = typeAttr("elem_type", dtype.getValue());
  // A list output's readers read the handle once the push or pop ran.
  auto afterward = [&](Value list, Operation *effect, Value handleValue) {
    Value token = tfg::getControlToken(effect);
    for (OpOperand &use : llvm::make_early_inc_range(list.getUses())) {
      Operation *user = use.getOwner();
      use.set(handleValue);
      if (!llvm::is_contained(tfg::getControlOperands(user), token))
        user->insertOperands(user->getNumOperands(), token);
    }
  };
  builder.setInsertionPoint(empty);
  std::string name = tfg::getNodeName(empty).str();
  Value unbounded = i32Const(empty, name + "/max_size", {}, {-1});
  Operation *stack = node(empty, "StackV2", name, handle, unbounded,
                          {element, builder.getNamedAttr(
                                        "stack_name", builder.getStringAttr(""))});
  tfg::getDataResults(empty)[0].replaceAllUsesWith(stack->getResult(0));
  tfg::getControlToken(empty).replaceAllUsesWith(tfg::getControlToken(stack));
  makerShapes.erase(empty);
  empty->erase();
  for (Operation *carrier : carriers) {
    for (Value result : tfg::getDataResults(carrier))
      if (isVariant(result.getType()))
        result.setType(handle);
    carrier->setAttr("T", TypeAttr::get(handle.getElementType()));
  }
  for (Operation *push : pushes) {
    builder.setInsertionPoint(push);
    OperandRange in = tfg::getDataOperands(push);
    Operation *stackPush = node(
        push, "StackPushV2", tfg::getNodeName(push), in[1].getType(),
        {in[0], in[1]},
        {typeAttr("T", dtype.getValue()),
         builder.getNamedAttr("swap_memory", builder.getBoolAttr(false))});
    afterward(tfg::getDataResults(push)[0], stackPush, in[0]);
    tfg::getControlToken(push).replaceAllUsesWith(tfg::getControlToken(stackPush));
    push->erase();
    ++lowered;
  }
  for (Operation *pop : pops) {
    builder.setInsertionPoint(pop);
    OperandRange in = tfg::getDataOperands(pop);
    Operation *stackPop =
        pushed ? copyOf(pop, tfg::getNodeName(pop), pushed)
               : node(pop, "StackPopV2", tfg::getNodeName(pop),
                      tfg::getDataResults(pop)[1].getType(), in[0], {element});
    tfg::getDataResults(pop)[1].replaceAllUsesWith(stackPop->getResult(0));
    afterward(tfg::getDataResults(pop)[0], stackPop, in[0]);
    tfg::getControlToken(pop).replaceAllUsesWith(tfg::getControlToken(stackPop));
    pop->erase();
    ++lowered;
  }
  ++lowered;
  return true;
}

LogicalResult ListLowering::run() {
  auto listOps = [&] {
    SmallVector<Operation *> ops;
    for (Operation &op : body)
      if (isListOp(&op))
        ops.push_back(&op);
    return ops;
  };
  for (Operation *op : listOps()) {
    OpKind kind = opKindOf(op);
    if (kind == OpKind::TensorListReserve || kind == OpKind::EmptyTensorList)
      if (auto shape = madeElementShape(op))
        makerShapes[op] = *shape;
  }
  // What reads a list's element shape or length first, on the graph as it
  // was made: constants where they are static, which the pops of the
  // accumulators they are pushed to then are too.
  SmallVector<Operation *> shapeReads;
  for (Operation *op : listOps()) {
    OpKind kind = opKindOf(op);
    Value list = tfg::getDataOperands(op)[0];
    if (kind == OpKind::TensorListElementShape) {
      if (auto shape = elementShapeOf(list))
        elementShapes[op] = *shape;
    } else if (kind == OpKind::TensorListLength) {
      FailureOr<Value> length = lengthOf(list, op);
      if (failed(length))
        return failure();
      lengthRead[op] = *length;
    } else {
      continue;
    }
    shapeReads.push_back(op);
  }
  for (Operation *op : shapeReads)
    if (failed(lower(op)))
      return failure();

  // Accumulators of unknown capacity become stacks.
  SmallVector<Operation *> unbounded;
  for (Operation *op : listOps())
    if (opKindOf(op) == OpKind::EmptyTensorList) {
      auto capacity = constantInts(tfg::getDataOperands(op)[1]);
      if (!capacity || capacity->size() != 1 || (*capacity)[0] < 0)
        unbounded.push_back(op);
    }
  for (Operation *empty : unbounded)
    lowerToStack(empty);

  // The rest, after what their rewrites need of the graph as it is now.
  SmallVector<Operation *> others = listOps();
  for (Operation *op : others) {
    OpKind kind = opKindOf(op);
    if (kind == OpKind::TensorListStack &&
        lengthChanges(tfg::getDataOperands(op)[0]))
      stacksChangingList.insert(op);
    if (kind == OpKind::TensorListConcat ||
        kind == OpKind::TensorListConcatV2) {
      Value concatenated = tfg::getDataOperands(op)[0];
      std::optional<int64_t> length = staticLength(concatenated);
      std::optional<SmallVector<int64_t>> shape = elementShapeOf(concatenated);
      if (length && shape)
        concatShapes[op] = {*length, *shape};
    }
    if (kind == OpKind::TensorListPopBack)
      if (Operation *pushed = onlyPushedConstant(tfg::getDataOperands(op)[0]))
        constantPushed[op] = pushed;
    Value read;
    if (kind == OpKind::TensorListPushBack)
      read = tfg::getDataOperands(op)[0];
    else if (kind == OpKind::TensorListPopBack)
      read = tfg::getDataResults(op)[0];
    else if ((kind == OpKind::TensorListGetItem ||
              kind == OpKind::TensorListGather) &&
             readsGrowingList(op))
      read = tfg::getDataOperands(op)[0]; // (Checked against its length.)
    else
      continue;
    FailureOr<Value> length = lengthOf(read, op);
    if (failed(length))
      return failure();
    lengthRead[op] = *length;
  }
  for (Operation *op : others)
    if (failed(lower(op)))
      return failure();
  retypeVariantCarriers(dense);
  return success();
}

struct LowerTensorListsPass
    : public impl::LowerTensorListsPassBase<LowerTensorListsPass> {
  PassCounter numLowered{this, "lowered", "TensorList ops rewritten"};

  void runOnOperation() override {
    unsigned lowered = 0;
    for (Block *body : getBodies(getOperation()))
      if (failed(ListLowering(*body, lowered).run()))
        return signalPassFailure();
    numLowered = lowered;
  }
};

} // namespace
} // namespace tfc
