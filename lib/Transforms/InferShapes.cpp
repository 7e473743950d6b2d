//===- InferShapes.cpp - propagate static shapes --------------------------===//
//
// Visits each graph and function body in topological order and refines the
// result types of every node with what its shape function infers from the
// (already refined) input types, attrs and known integer inputs. A refined
// type is never less precise than the imported one; an inferred shape that
// contradicts a known one is an error naming the node.
//
// TF1 loops: a Merge first takes the shapes of its forward inputs (its
// NextIteration inputs are not visited yet), as TensorFlow's shape inference
// does. After a sweep, a Merge whose back-edge inputs disagree with what it
// assumed is pinned to the join of all its inputs, and the sweep restarts
// from the original types; this converges in a few rounds, because pinned
// shapes only lose precision.
//
// Element types come from the op registry at import and are not changed.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/Passes.h"
#include "tfc/Transforms/ShapeInference.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_INFERSHAPESPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

/// Rounds of loop re-inference before loop shapes are given up on.
constexpr int kMaxLoopRounds = 8;

bool isMerge(Operation *node) {
  return plainOpKindOf(node) == OpKind::Merge;
}

bool isBackEdge(Value value) {
  Operation *producer = value.getDefiningOp();
  return producer && tfg::isNode(producer) &&
         plainOpKindOf(producer) == OpKind::NextIteration;
}

class ShapeInferrer {
public:
  explicit ShapeInferrer(Block &body) : body(body) {}

  LogicalResult run(unsigned &refined, KnownValues *knownValues,
                    ListShapes *knownLists) {
    // The original types, to restart from.
    llvm::DenseMap<Value, Type> original;
    for (Operation &op : body)
      for (Value result : op.getResults())
        original[result] = result.getType();
    SmallVector<Operation *> order = topologicalOrder(body);
    for (int round = 0;; ++round) {
      values.clear();
      previousLists = std::move(lists);
      lists.clear();
      for (Operation *node : order)
        if (tfg::isNode(node) && failed(visit(node)))
          return failure();
      // Merges whose back edges brought other shapes than assumed.
      bool changed = false;
      for (Operation *node : order) {
        if (!tfg::isNode(node) || !isMerge(node))
          continue;
        if (isVariant(node->getResult(0).getType())) {
          // A list's elements as the back edges now know them.
          Shape met;
          for (auto [k, input] : llvm::enumerate(tfg::getDataOperands(node)))
            met = k == 0 ? listOf(input) : meetListShapes(met, listOf(input));
          changed |= !(met == listOf(node->getResult(0))) &&
                     round + 1 < kMaxLoopRounds;
        }
        Shape assumed = Shape::fromType(node->getResult(0).getType());
        Shape joined = assumed;
        for (Value input : tfg::getDataOperands(node))
          joined = joinShapes(joined, Shape::fromType(input.getType()));
        if (joined == assumed)
          continue;
        // Pin only to less precise shapes, so that rounds converge.
        Shape pin = round + 1 >= kMaxLoopRounds ? Shape::unknown() : joined;
        auto it = pinned.find(node);
        if (it != pinned.end())
          pin = joinShapes(it->second, pin);
        pinned[node] = pin;
        changed = true;
      }
      if (!changed)
        break;
      for (auto &[value, type] : original)
        value.setType(type);
    }
    for (auto &[value, type] : original)
      if (value.getType() != type)
        ++refined;
    if (knownValues)
      *knownValues = std::move(values);
    if (knownLists)
      *knownLists = std::move(lists);
    return success();
  }

private:
  LogicalResult visit(Operation *node);
  Shape listOf(Value value) const {
    auto it = lists.find(value);
    return it == lists.end() ? Shape::unknown() : it->second;
  }
  /// A Merge's list: its forward inputs' this round, its back edges' as
  /// the previous round left them.
  Shape mergedList(Operation *merge) const;
  LogicalResult setShape(Operation *node, unsigned index, const Shape &shape);

  Block &body;
  KnownValues values;
  /// The dense shapes of the lists this round, and the last round's.
  ListShapes lists, previousLists;
  llvm::DenseMap<Operation *, Shape> pinned;
};

LogicalResult ShapeInferrer::setShape(Operation *node, unsigned index,
                                      const Shape &shape) {
  Value result = node->getResult(index);
  auto type = cast<TensorType>(result.getType());
  Shape current = Shape::fromType(type);
  FailureOr<Shape> better = refineShape(current, shape);
  if (failed(better))
    return node->emitError()
           << "node '" << tfg::getNodeName(node) << "' (" << tfg::getOpType(node)
           << "): output " << index << " has shape " << shape.str()
           << " by its inputs but " << current.str() << " in the graph";
  if (!(*better == current))
    result.setType(better->toType(type.getElementType()));
  return success();
}

LogicalResult ShapeInferrer::visit(Operation *node) {
  // Merge: forward inputs only, or the pinned shape (see the file comment).
  if (isMerge(node)) {
    auto it = pinned.find(node);
    Shape shape;
    bool first = true;
    if (it != pinned.end()) {
      shape = it->second;
    } else {
      for (Value input : tfg::getDataOperands(node)) {
        if (isBackEdge(input))
          continue;
        Shape s = Shape::fromType(input.getType());
        shape = first ? s : joinShapes(shape, s);
        first = false;
      }
    }
    // A Merge's type is replaced, not refined: later rounds may generalize.
    auto result = node->getResult(0);
    result.setType(shape.toType(cast<TensorType>(result.getType()).getElementType()));
    if (isVariant(result.getType()))
      lists[result] = mergedList(node);
    return setShape(node, 1, Shape::scalar());
  }

  const OpInfo *op = lookupOp(node);
  if (!op || !op->shape)
    return success();
  ShapeContext context(
      node,
      [&](Value v) -> const SmallVector<int64_t> * {
        auto it = values.find(v);
        return it == values.end() ? nullptr : &it->second;
      },
      [&](Value v) -> const Shape * {
        auto it = lists.find(v);
        return it == lists.end() ? nullptr : &it->second;
      });
  if (failed(op->shape(context)))
    return failure();
  OpKind kind = opKindOf(node);
  auto inputs = tfg::getDataOperands(node);
  for (unsigned i = 0; i < context.numOutputs(); ++i) {
    if (failed(setShape(node, i, context.output(i))))
      return failure();
    Value result = node->getResult(i);
    if (const auto &value = context.outputValue(i))
      values[result] = *value;
    if (const auto &list = context.outputList(i))
      lists[result] = *list;
    else if (isVariant(result.getType()) && !inputs.empty() &&
             (carriesVariant(kind) || mapsVariant(kind)))
      // Identity, Enter, Switch, ...: their input's list; AddN and
      // ZerosLike: lists of the same shape.
      lists[result] = listOf(inputs[0]);
  }
  return success();
}

Shape ShapeInferrer::mergedList(Operation *merge) const {
  Shape met = Shape::unknown();
  bool first = true;
  for (Value input : tfg::getDataOperands(merge)) {
    Shape list;
    if (!isBackEdge(input)) {
      list = listOf(input);
    } else if (auto it = previousLists.find(input); it != previousLists.end()) {
      list = it->second;
    } else {
      continue; // Not known yet: the forward inputs decide.
    }
    met = first ? list : meetListShapes(met, list);
    first = false;
  }
  return met;
}

struct InferShapesPass : public impl::InferShapesPassBase<InferShapesPass> {
  PassCounter numRefined{this, "refined", "results whose type became more precise"};
  void runOnOperation() override {
    numRefined = 0; // Reported even when nothing happens.
    unsigned refined = 0;
    for (Block *body : getBodies(getOperation()))
      if (failed(inferShapes(*body, refined)))
        return signalPassFailure();
    numRefined = refined;
  }
};

} // namespace

LogicalResult inferShapes(Block &body, unsigned &refined, KnownValues *values,
                          ListShapes *lists) {
  return ShapeInferrer(body).run(refined, values, lists);
}
} // namespace tfc
