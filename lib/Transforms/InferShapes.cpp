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

/// The more precise of two shapes of one value; failure if they conflict.
FailureOr<Shape> refine(const Shape &current, const Shape &inferred) {
  if (!inferred.ranked)
    return current;
  if (!current.ranked)
    return inferred;
  if (current.rank() != inferred.rank())
    return failure();
  Shape out = current;
  for (auto [d, e] : llvm::zip(out.dims, inferred.dims)) {
    if (ShapedType::isDynamic(d))
      d = e;
    else if (!ShapedType::isDynamic(e) && d != e)
      return failure();
  }
  return out;
}

class ShapeInferrer {
public:
  explicit ShapeInferrer(Block &body) : body(body) {}

  LogicalResult run(unsigned &refined, KnownValues *knownValues) {
    // The original types, to restart from.
    llvm::DenseMap<Value, Type> original;
    for (Operation &op : body)
      for (Value result : op.getResults())
        original[result] = result.getType();
    SmallVector<Operation *> order = topologicalOrder(body);
    for (int round = 0;; ++round) {
      values.clear();
      for (Operation *node : order)
        if (tfg::isNode(node) && failed(visit(node)))
          return failure();
      // Merges whose back edges brought other shapes than assumed.
      bool changed = false;
      for (Operation *node : order) {
        if (!tfg::isNode(node) || !isMerge(node))
          continue;
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
    return success();
  }

private:
  LogicalResult visit(Operation *node);
  LogicalResult setShape(Operation *node, unsigned index, const Shape &shape);

  Block &body;
  KnownValues values;
  llvm::DenseMap<Operation *, Shape> pinned;
};

LogicalResult ShapeInferrer::setShape(Operation *node, unsigned index,
                                      const Shape &shape) {
  Value result = node->getResult(index);
  auto type = cast<TensorType>(result.getType());
  Shape current = Shape::fromType(type);
  FailureOr<Shape> better = refine(current, shape);
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
    return setShape(node, 1, Shape::scalar());
  }

  const OpInfo *op = lookupOp(node);
  if (!op || !op->shape)
    return success();
  ShapeContext context(node, [&](Value v) -> const SmallVector<int64_t> * {
    auto it = values.find(v);
    return it == values.end() ? nullptr : &it->second;
  });
  if (failed(op->shape(context)))
    return failure();
  for (unsigned i = 0; i < context.numOutputs(); ++i) {
    if (failed(setShape(node, i, context.output(i))))
      return failure();
    if (const auto &value = context.outputValue(i))
      values[node->getResult(i)] = *value;
  }
  return success();
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

LogicalResult inferShapes(Block &body, unsigned &refined, KnownValues *values) {
  return ShapeInferrer(body).run(refined, values);
}
} // namespace tfc
