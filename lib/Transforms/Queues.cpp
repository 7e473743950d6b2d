//===- Queues.cpp - TensorFlow's queues in the graph ----------------------===//

#include "tfc/Transforms/Queues.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Variables.h"

using namespace mlir;

namespace tfc {

bool isQueueNode(Operation *node) {
  if (!tfg::isNode(node))
    return false;
  OpKind kind = opKindOf(node);
  return kind == OpKind::FIFOQueueV2 || kind == OpKind::PaddingFIFOQueueV2 ||
         kind == OpKind::RandomShuffleQueueV2;
}

Operation *queueNodeOf(Value handle) { return sourceNodeOf(handle, isQueueNode); }

bool isAccumulatorNode(Operation *node) {
  if (!tfg::isNode(node))
    return false;
  OpKind kind = opKindOf(node);
  return kind == OpKind::ConditionalAccumulator ||
         kind == OpKind::ResourceConditionalAccumulator ||
         kind == OpKind::SparseConditionalAccumulator;
}

Operation *accumulatorNodeOf(Value handle) {
  return sourceNodeOf(handle, isAccumulatorNode);
}

SmallVector<Operation *> sparseApplies(Operation *accumulator) {
  // The program's entries are graphs of their own (the chief queue
  // runner's takes what the step applies): the accumulator is its name.
  std::string name = queueName(accumulator);
  Operation *top = accumulator;
  while (Operation *parent = top->getParentOp())
    top = parent;
  SmallVector<Operation *> applies;
  top->walk([&](Operation *op) {
    if (!tfg::isNode(op) ||
        opKindOf(op) != OpKind::SparseAccumulatorApplyGradient)
      return;
    Operation *made = accumulatorNodeOf(tfg::getDataOperands(op)[0]);
    if (made && queueName(made) == name)
      applies.push_back(op);
  });
  return applies;
}

std::optional<SmallVector<int64_t>> sparseRowShape(Operation *accumulator) {
  auto shape = accumulator->getAttrOfType<tfg::ShapeAttr>("shape");
  if (shape && !shape.getUnranked() && !shape.getDims().empty() &&
      llvm::none_of(shape.getDims().drop_front(), ShapedType::isDynamic))
    return SmallVector<int64_t>(shape.getDims().drop_front());
  // Gradient values are [rows, row...]: the applies' row dimensions.
  std::optional<Shape> agreed;
  for (Operation *apply : sparseApplies(accumulator)) {
    Shape values =
        Shape::fromType(tfg::getDataOperands(apply)[3].getType());
    if (!values.ranked || values.dims.empty())
      continue;
    values.dims.erase(values.dims.begin());
    agreed = agreed ? joinShapes(*agreed, values) : values;
  }
  if (!agreed || !agreed->isStatic())
    return std::nullopt;
  return SmallVector<int64_t>(agreed->dims.begin(), agreed->dims.end());
}

std::string queueName(Operation *queue) {
  auto shared = queue->getAttrOfType<StringAttr>("shared_name");
  return shared && !shared.getValue().empty() ? shared.str()
                                              : tfg::getNodeName(queue).str();
}

std::optional<Shape> queueComponentShape(Operation *queue, unsigned k) {
  auto shapes = queue->getAttrOfType<ArrayAttr>("shapes");
  if (shapes && k < shapes.size())
    if (auto shape = dyn_cast<tfg::ShapeAttr>(shapes[k]))
      return shape.getUnranked() ? Shape::unknown() : Shape::of(shape.getDims());
  std::optional<Shape> agreed;
  for (Operation &op : *queue->getBlock()) {
    OpKind kind = opKindOf(&op);
    if (!tfg::isNode(&op) ||
        (kind != OpKind::QueueEnqueueV2 && kind != OpKind::QueueEnqueueManyV2) ||
        queueNodeOf(tfg::getDataOperands(&op)[0]) != queue ||
        k + 1 >= tfg::getDataOperands(&op).size())
      continue;
    Shape each = Shape::fromType(tfg::getDataOperands(&op)[k + 1].getType());
    if (kind == OpKind::QueueEnqueueManyV2 && each.ranked) {
      if (each.dims.empty())
        continue;
      each.dims.erase(each.dims.begin());
    }
    agreed = agreed ? joinShapes(*agreed, each) : each;
  }
  return agreed;
}

} // namespace tfc
