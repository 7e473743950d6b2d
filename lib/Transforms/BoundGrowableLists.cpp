//===- BoundGrowableLists.cpp - growing TensorLists planned for a bound ---===//
//
// `tf.TensorArray(..., dynamic_size=True)` written in a loop is a
// TensorList made by TensorListReserve(shape, n) (n is 0 for size=0) and
// grown by TensorListSetItem with resize_if_index_out_of_bounds=true: a
// write at index i past the end makes the list i + 1 long. Its final
// length is what the loop decides; tfc plans the list for the most
// elements the loop can write, its *capacity*, from the loop's bound.
//
// A loop's bound is read from its condition: a comparison `x < L` (or
// `x <= L`, `L > x`, `L >= x`) of a counting variable x (a loop variable
// that starts at a constant and adds a constant step each iteration) with
// an invariant constant L bounds its trip count; of a LogicalAnd of
// conditions (TF2's maximum_iterations), each comparison bounds it; of a
// cond's output (autograph's `i < n and not broke`), each branch's value
// is false or exists only when a bounded predicate holds. A
// write's index must be a counting variable of its loop (or a constant):
// its largest value is start + step * (trips - 1). The capacity is the
// largest of n and every such index + 1. A write the pass cannot bound is
// an error naming the node and saying what bounds it.
//
// When the list's length after the loop is that capacity for certain (the
// loop's condition is the one comparison, so it runs exactly its bound;
// each iteration writes once, unconditionally, at a counting index; the
// list is made for this loop alone), the list becomes the fixed list it
// is: Reserve of the capacity, writes that do not resize (the
// `for i in tf.range(8)` loop). Otherwise the Reserve is marked with its
// capacity (tfc.list_capacity): tfc-lower-tensor-lists makes it a dense
// [capacity, ...] tensor whose length, n at first and max(length, i + 1)
// after each growing write, follows the list, and tfc-bound-dynamic-rows
// makes a TensorListStack of it rows whose count is that length.
//
// A TF1 TensorArrayV3 of dynamic size (its storage the runtime's), written
// by TensorArrayWriteV3: written once per iteration of a loop that runs
// exactly its bound, the loop carrying its flow, its size read after the
// loop, it becomes the fixed array of its capacity and its
// TensorArraySizeV3 that constant. Otherwise it is marked with its
// capacity: the runtime keeps its length (writes lengthen it, reads past
// it stop the step, TensorArraySizeV3 reads it), and tfc-bound-dynamic-rows
// makes its stack (a gather of Range(0, size)) rows of that count. A
// concat or a gradient of such an array is an error naming it.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/Frames.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"
#include "tfc/Transforms/TensorArrays.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_BOUNDGROWABLELISTSPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

/// `value` seen through Identity nodes and Switches (a loop variable's, or
/// a cond's in the loop body: the same value, where it flows).
Value throughForwarding(Value value) {
  while (Operation *producer = value.getDefiningOp()) {
    if (!tfg::isNode(producer) ||
        !llvm::is_contained({OpKind::Identity, OpKind::Switch},
                            opKindOf(producer)))
      break;
    value = tfg::getDataOperands(producer)[0];
  }
  return value;
}

/// A loop variable's value, as the condition reads it (its Merge) or as
/// the body does (through its Switch): the variable, or null.
const LoopVariable *variableOf(Value value, const Frame &frame) {
  auto result = dyn_cast<OpResult>(throughForwarding(value));
  if (!result || result.getResultNumber() != 0)
    return nullptr;
  for (const LoopVariable &variable : frame.variables)
    if (result.getOwner() == variable.merge)
      return &variable;
  return nullptr;
}

std::optional<int64_t> scalarConstant(Value value) {
  std::optional<SmallVector<int64_t>> ints =
      constantInts(throughForwarding(value));
  if (!ints || ints->size() != 1)
    return std::nullopt;
  return ints->front();
}

/// The constant a frame reads as `value`: a Const, one entered into the
/// frame, or a loop variable that every iteration passes on unchanged.
std::optional<int64_t> invariant(Value value, const Frame &frame) {
  if (std::optional<int64_t> constant = scalarConstant(value))
    return constant;
  Value seen = throughForwarding(value);
  if (Operation *enter = seen.getDefiningOp();
      enter && tfg::isNode(enter) && opKindOf(enter) == OpKind::Enter)
    return scalarConstant(tfg::getDataOperands(enter)[0]);
  const LoopVariable *variable = variableOf(seen, frame);
  if (!variable || !variable->nextIteration ||
      variableOf(tfg::getDataOperands(variable->nextIteration)[0], frame) !=
          variable)
    return std::nullopt;
  return scalarConstant(tfg::getDataOperands(variable->enter)[0]);
}

/// A loop variable that starts at a constant and adds a constant (not
/// negative) each iteration.
struct Counter {
  const LoopVariable *variable;
  int64_t start, step;
};

std::optional<Counter> counterOf(Value value, const Frame &frame) {
  const LoopVariable *variable = variableOf(value, frame);
  if (!variable || !variable->nextIteration)
    return std::nullopt;
  std::optional<int64_t> start =
      scalarConstant(tfg::getDataOperands(variable->enter)[0]);
  Operation *add = throughForwarding(
      tfg::getDataOperands(variable->nextIteration)[0]).getDefiningOp();
  if (!start || !add || !tfg::isNode(add) ||
      !llvm::is_contained({OpKind::AddV2, OpKind::Add}, opKindOf(add)))
    return std::nullopt;
  OperandRange in = tfg::getDataOperands(add);
  for (int self = 0; self < 2; ++self) {
    if (variableOf(in[self], frame) != variable)
      continue;
    std::optional<int64_t> step = invariant(in[1 - self], frame);
    if (step && *step >= 0)
      return Counter{variable, *start, *step};
  }
  return std::nullopt;
}

/// At most how many iterations a frame runs, and whether it runs exactly
/// that many.
struct Trips {
  int64_t count;
  bool exact;
};

/// The predicate P of a cond's Switch whose true output `value` is computed
/// from (through data or control edges): such a value exists only when P
/// holds. Null when there is none.
Value truePredicateOf(Value value) {
  SmallVector<Value> worklist = {value};
  llvm::DenseSet<Value> seen;
  while (!worklist.empty() && seen.size() < 256) {
    Value v = worklist.pop_back_val();
    auto result = dyn_cast<OpResult>(v);
    if (!result || !seen.insert(v).second)
      continue;
    Operation *node = result.getOwner();
    if (!tfg::isNode(node))
      continue;
    OpKind kind = opKindOf(node);
    if (kind == OpKind::Switch) {
      Value predicate = tfg::getDataOperands(node)[1];
      Operation *test = predicate.getDefiningOp();
      // (Not a loop variable's Switch, on the loop's own condition.)
      if (result.getResultNumber() == 1 && test && tfg::isNode(test) &&
          opKindOf(test) != OpKind::LoopCond)
        return predicate;
      continue;
    }
    if (llvm::is_contained({OpKind::Merge, OpKind::Enter, OpKind::NextIteration,
                            OpKind::LoopCond},
                           kind))
      continue;
    llvm::append_range(worklist, tfg::getDataOperands(node));
    llvm::append_range(worklist, tfg::getControlOperands(node));
  }
  return nullptr;
}

std::optional<Trips> tripsOf(Value predicate, const Frame &frame) {
  Operation *test = throughForwarding(predicate).getDefiningOp();
  if (!test || !tfg::isNode(test))
    return std::nullopt;
  OpKind kind = opKindOf(test);
  OperandRange in = tfg::getDataOperands(test);
  if (kind == OpKind::Merge) {
    // A cond's output (autograph's `i < n and not broke`): each branch's
    // value is false, or exists only when a bounded predicate holds.
    int64_t count = 0;
    for (Value branch : in) {
      if (std::optional<int64_t> constant = scalarConstant(branch);
          constant && *constant == 0)
        continue;
      Value guard = truePredicateOf(branch);
      std::optional<Trips> guarded =
          guard ? tripsOf(guard, frame) : std::nullopt;
      if (!guarded)
        return std::nullopt;
      count = std::max(count, guarded->count);
    }
    return Trips{count, false};
  }
  if (kind == OpKind::LogicalAnd) {
    std::optional<Trips> a = tripsOf(in[0], frame), b = tripsOf(in[1], frame);
    if (!a || !b)
      return a ? Trips{a->count, false} : b ? Trips{b->count, false} : b;
    return Trips{std::min(a->count, b->count), false};
  }
  // x < L, x <= L, or the same written L > x, L >= x.
  bool mirrored = kind == OpKind::Greater || kind == OpKind::GreaterEqual;
  bool inclusive = kind == OpKind::LessEqual || kind == OpKind::GreaterEqual;
  if (!mirrored && kind != OpKind::Less && kind != OpKind::LessEqual)
    return std::nullopt;
  std::optional<Counter> x = counterOf(in[mirrored ? 1 : 0], frame);
  std::optional<int64_t> limit = invariant(in[mirrored ? 0 : 1], frame);
  if (!x || !limit || x->step <= 0)
    return std::nullopt;
  // The values start, start + step, ... that pass the test.
  int64_t span = *limit - x->start + (inclusive ? 1 : 0);
  int64_t count = span <= 0 ? 0 : (span + x->step - 1) / x->step;
  return Trips{count, true};
}

/// The frame's bound, from its LoopCond's predicate.
std::optional<Trips> tripsOf(const Frame &frame) {
  if (!frame.loopCond)
    return std::nullopt;
  return tripsOf(tfg::getDataOperands(frame.loopCond)[0], frame);
}

bool isGrowingTensorArray(Operation *node) {
  if (opKindOf(node) != OpKind::TensorArrayV3)
    return false;
  auto dynamic = node->getAttrOfType<BoolAttr>("dynamic_size");
  return dynamic && dynamic.getValue();
}

class Bounder {
public:
  Bounder(Block &body, const FrameInfo &frames)
      : body(body), frames(frames), names(body),
        builder(body.getParentOp()->getContext()) {}

  LogicalResult run(unsigned &bounded);

private:
  /// The largest index a growing write writes at (nullopt when it never
  /// runs), or failure after an error naming it.
  FailureOr<std::optional<int64_t>> largestIndex(Operation *write);
  /// Whether `made` (a list, or a TF1 array's flow) is the loop variable
  /// of one loop that writes it (operand `carried` of the write) once per
  /// iteration at a counting index, a loop that runs exactly its bound.
  bool lengthIsCapacity(Value made, ArrayRef<Operation *> writes,
                        unsigned carried);
  /// The capacity of a container made `made` elements long that `writes`
  /// grow, or failure after an error naming a write.
  FailureOr<int64_t> capacityOf(int64_t made, ArrayRef<Operation *> writes);
  /// Bounds a TF1 TensorArrayV3 of dynamic size.
  LogicalResult boundTensorArray(Operation *array, unsigned &bounded);

  Block &body;
  const FrameInfo &frames;
  NameUniquer names;
  OpBuilder builder;
};

FailureOr<std::optional<int64_t>> Bounder::largestIndex(Operation *write) {
  Value index = tfg::getDataOperands(write)[1];
  if (std::optional<int64_t> constant = scalarConstant(index))
    return std::optional<int64_t>(*constant);
  const Frame *frame = frames.frameOf(write);
  std::optional<Counter> counter;
  std::optional<Trips> trips;
  if (frame) {
    if (std::optional<int64_t> constant = invariant(index, *frame))
      return std::optional<int64_t>(*constant);
    counter = counterOf(index, *frame);
    trips = tripsOf(*frame);
  }
  if (!counter || !trips) {
    bool tensorArray = opKindOf(write) == OpKind::TensorArrayWriteV3;
    tfg::nodeError(write)
        << (tensorArray ? "grows its TensorArray (dynamic_size)"
                        : "grows its list (resize_if_index_out_of_bounds)")
        << " at an index that no constant bounds; tfc plans a growing "
        << (tensorArray ? "TensorArray" : "list")
        << " for the most elements its loop writes: write at the loop's "
           "counter, in a loop that counts to a constant (tf.range of a "
           "constant, or maximum_iterations)";
    return failure();
  }
  if (trips->count == 0)
    return std::optional<int64_t>();
  return std::optional<int64_t>(counter->start +
                                counter->step * (trips->count - 1));
}

bool Bounder::lengthIsCapacity(Value made, ArrayRef<Operation *> writes,
                               unsigned carried) {
  if (writes.size() != 1 || !made.hasOneUse())
    return false;
  Operation *write = writes.front();
  const Frame *frame = frames.frameOf(write);
  if (!frame)
    return false;
  std::optional<Trips> trips = tripsOf(*frame);
  if (!trips || !trips->exact || !counterOf(tfg::getDataOperands(write)[1], *frame))
    return false;
  // The loop variable: entered as what the maker made, read by the write
  // and nothing else in the loop (a read there sees a length that grows),
  // written back by it.
  const LoopVariable *variable =
      variableOf(tfg::getDataOperands(write)[carried], *frame);
  if (!variable || !variable->nextIteration || !variable->switchNode ||
      throughForwarding(tfg::getDataOperands(variable->enter)[0]) != made ||
      throughForwarding(tfg::getDataOperands(variable->nextIteration)[0]) !=
          tfg::getDataResults(write)[0])
    return false;
  SmallVector<Value> values = {tfg::getDataResults(variable->switchNode)[1]};
  while (!values.empty()) {
    Value value = values.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (user == write && use.getOperandNumber() == carried)
        continue;
      if (!tfg::isNode(user) || opKindOf(user) != OpKind::Identity)
        return false;
      values.push_back(tfg::getDataResults(user)[0]);
    }
  }
  return true;
}

LogicalResult Bounder::run(unsigned &bounded) {
  // The growing writes of each Reserve's list.
  llvm::MapVector<Operation *, SmallVector<Operation *>> writesOf;
  for (Operation &node : body) {
    if (!tfg::isNode(&node) || !growsList(&node))
      continue;
    Operation *reserve = reserveOf(tfg::getDataOperands(&node)[0]);
    if (!reserve) {
      tfg::nodeError(&node) << "grows a list that tfc cannot trace to the "
                          "TensorListReserve that made it";
      return failure();
    }
    writesOf[reserve].push_back(&node);
  }
  for (auto &[reserve, writes] : writesOf) {
    std::optional<int64_t> made =
        scalarConstant(tfg::getDataOperands(reserve)[1]);
    if (!made) {
      tfg::nodeError(reserve) << "a list that grows must be made of a constant "
                            "length (num_elements)";
      return failure();
    }
    FailureOr<int64_t> capacity = capacityOf(*made, writes);
    if (failed(capacity))
      return failure();
    builder.setInsertionPoint(reserve);
    if (lengthIsCapacity(tfg::getDataResults(reserve)[0], writes, 0)) {
      auto type = RankedTensorType::get({}, builder.getI32Type());
      Operation *length = createConstLike(
          builder, reserve,
          names.get((tfg::getNodeName(reserve) + "/capacity").str()),
          DenseElementsAttr::get(type, int32_t(*capacity)));
      reserve->setOperand(1, length->getResult(0));
      for (Operation *write : writes)
        write->setAttr("resize_if_index_out_of_bounds",
                       builder.getBoolAttr(false));
    } else {
      reserve->setAttr(kListCapacityAttr, builder.getI64IntegerAttr(*capacity));
    }
    ++bounded;
  }
  for (Operation &node : body)
    if (tfg::isNode(&node) && isGrowingTensorArray(&node) &&
        failed(boundTensorArray(&node, bounded)))
      return failure();
  return success();
}

FailureOr<int64_t> Bounder::capacityOf(int64_t made,
                                       ArrayRef<Operation *> writes) {
  int64_t capacity = std::max<int64_t>(made, 0);
  for (Operation *write : writes) {
    FailureOr<std::optional<int64_t>> largest = largestIndex(write);
    if (failed(largest))
      return failure();
    if (*largest)
      capacity = std::max(capacity, **largest + 1);
  }
  return capacity;
}

LogicalResult Bounder::boundTensorArray(Operation *array, unsigned &bounded) {
  // Its writes (element by element; scatters and splits into an array of
  // dynamic size are not followed), and what needs its length static.
  SmallVector<Operation *> writes, others;
  for (Operation &node : body) {
    if (!tfg::isNode(&node) || !isTensorArrayOp(&node) || &node == array ||
        tensorArrayOf(tfg::getDataOperands(&node)[0]) != array)
      continue;
    OpKind kind = opKindOf(&node);
    if (kind == OpKind::TensorArrayWriteV3)
      writes.push_back(&node);
    else if (kind == OpKind::TensorArrayScatterV3 ||
             kind == OpKind::TensorArraySplitV3)
      return tfg::nodeError(&node)
             << "fills a TensorArray of dynamic size, which tfc follows "
                "only through TensorArrayWriteV3";
    else if (kind == OpKind::TensorArrayConcatV3 ||
             kind == OpKind::TensorArrayGradV3)
      others.push_back(&node);
  }
  std::optional<int64_t> made =
      scalarConstant(tfg::getDataOperands(array)[0]);
  if (!made)
    return tfg::nodeError(array)
           << "a TensorArray of dynamic size must be made of a constant size";
  FailureOr<int64_t> capacity = capacityOf(*made, writes);
  if (failed(capacity))
    return failure();
  // TensorArrayWriteV3(handle, index, value, flow_in): the flow is what
  // the loop carries; its sizes (TensorArraySizeV3, of the flow the loop
  // leaves with) are the capacity then.
  SmallVector<Operation *> sizes;
  bool exact = lengthIsCapacity(tfg::getDataResults(array)[1], writes, 3);
  for (Operation &node : body)
    if (exact && tfg::isNode(&node) &&
        opKindOf(&node) == OpKind::TensorArraySizeV3 &&
        tensorArrayOf(tfg::getDataOperands(&node)[0]) == array) {
      Operation *flow = tfg::getDataOperands(&node)[1].getDefiningOp();
      exact = flow && tfg::isNode(flow) && opKindOf(flow) == OpKind::Exit &&
              throughForwarding(tfg::getDataOperands(flow)[0]) ==
                  throughForwarding(tfg::getDataOperands(writes.front())[3]);
      sizes.push_back(&node);
    }
  if (!exact) {
    // Planned for its capacity; the runtime follows its length, and
    // tfc-bound-dynamic-rows makes its stack rows of that count.
    if (!others.empty())
      return tfg::nodeError(others.front())
             << "needs the length of a TensorArray of dynamic size that its "
                "loop's data decides (tfc follows its reads, gathers, stacks "
                "and size)";
    array->setAttr(kListCapacityAttr, builder.getI64IntegerAttr(*capacity));
    ++bounded;
    return success();
  }
  // The fixed array it is.
  builder.setInsertionPoint(array);
  auto type = RankedTensorType::get({}, builder.getI32Type());
  Operation *size = createConstLike(
      builder, array, names.get((tfg::getNodeName(array) + "/capacity").str()),
      DenseElementsAttr::get(type, int32_t(*capacity)));
  array->setOperand(0, size->getResult(0));
  array->setAttr("dynamic_size", builder.getBoolAttr(false));
  for (Operation *read : sizes) {
    builder.setInsertionPoint(read);
    Operation *known = createConstLike(
        builder, read, names.get(tfg::getNodeName(read).str() + "/known"),
        DenseElementsAttr::get(type, int32_t(*capacity)),
        tfg::getControlOperands(read));
    tfg::getDataResults(read)[0].replaceAllUsesWith(known->getResult(0));
  }
  ++bounded;
  return success();
}

struct BoundGrowableListsPass
    : public impl::BoundGrowableListsPassBase<BoundGrowableListsPass> {
  PassCounter numBounded{this, "bounded", "growing lists given a capacity"};

  void runOnOperation() override {
    unsigned bounded = 0;
    for (Block *body : getBodies(getOperation())) {
      if (llvm::none_of(*body, [](Operation &node) {
            return tfg::isNode(&node) &&
                   (growsList(&node) || isGrowingTensorArray(&node));
          }))
        continue;
      FailureOr<std::unique_ptr<FrameInfo>> frames = FrameInfo::analyze(*body);
      if (failed(frames) || failed(Bounder(*body, **frames).run(bounded)))
        return signalPassFailure();
    }
    numBounded = bounded;
  }
};

} // namespace
} // namespace tfc
