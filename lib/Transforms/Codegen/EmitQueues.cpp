//===- EmitQueues.cpp - TensorFlow's queues and accumulators --------------===//
//
// Calls of the runtime's queue ops (tfc_runtime.h) on the queue's number,
// which the pass gives every queue node by the queue's name
// (kQueueSlotAttr); an op finds its queue through the handle at compile
// time. A queue node makes its queue the first time it runs, with its
// components' sizes per element (their shapes must be known); enqueues
// and dequeues pass a table of their components' addresses and the number
// of elements they move.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Queues.h"

using namespace mlir;

namespace tfc {

namespace {

class QueueOpPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    Location loc = node->getLoc();
    OpKind kind = opKindOf(node);
    Operation *queue =
        isQueueNode(node) ? node : queueNodeOf(tfg::getDataOperands(node)[0]);
    auto slot =
        queue ? queue->getAttrOfType<IntegerAttr>(kQueueSlotAttr) : nullptr;
    if (!slot)
      return step.error(node)
             << "cannot trace its handle to the queue node that made it";
    if (isQueueNode(node))
      return makeQueue(node, slot.getInt());
    // The node's name, for the runtime's messages.
    Value name = step.stringPointer(loc, tfg::getNodeName(node));
    switch (kind) {
    case OpKind::QueueEnqueueV2:
    case OpKind::QueueEnqueueManyV2: {
      OperandRange components = tfg::getDataOperands(node).drop_front();
      SmallVector<Value> buffers;
      for (Value component : components) {
        Value buffer = step.memrefFor(component);
        if (!buffer)
          return step.error(node) << "a component has no buffer";
        buffers.push_back(buffer);
      }
      int64_t count = 1;
      if (kind == OpKind::QueueEnqueueManyV2) {
        auto first = dyn_cast<RankedTensorType>(components[0].getType());
        if (!first || first.getRank() == 0 || !first.hasStaticShape())
          return step.error(node) << "its components need a known first "
                                     "dimension (the elements they hold)";
        count = first.getDimSize(0);
      }
      step.callKernel(loc, "tfc_queue_enqueue",
                      {step.addressTable(loc, buffers), name},
                      {slot.getInt(), count});
      return success();
    }
    case OpKind::QueueDequeueV2:
    case OpKind::QueueDequeueManyV2: {
      SmallVector<Value> buffers;
      for (unsigned k = 0; k < tfg::getDataResults(node).size(); ++k) {
        FailureOr<Value> out = step.outputFor(node, k);
        if (failed(out))
          return failure();
        buffers.push_back(*out);
      }
      int64_t count = 1;
      if (kind == OpKind::QueueDequeueManyV2)
        count = cast<RankedTensorType>(tfg::getDataResults(node)[0].getType())
                    .getDimSize(0);
      step.callKernel(loc, "tfc_queue_dequeue",
                      {step.addressTable(loc, buffers), name},
                      {slot.getInt(), count});
      return success();
    }
    case OpKind::QueueDequeueUpToV2: {
      // Planned for n rows, their count in the last result
      // (tfc-bound-dynamic-rows): the kernel fills the rows past the
      // count with copies of the first.
      auto types = node->getAttrOfType<ArrayAttr>("component_types");
      ResultRange results = tfg::getDataResults(node);
      if (!types || results.size() != types.size() + 1)
        return step.error(node)
               << "its rows were not planned for a bound (nothing counts "
                  "them: tfc-bound-dynamic-rows did not run on its graph)";
      SmallVector<Value> buffers;
      for (unsigned k = 0; k < types.size(); ++k) {
        FailureOr<Value> out = step.outputFor(node, k);
        if (failed(out))
          return failure();
        buffers.push_back(*out);
      }
      FailureOr<Value> count = step.outputFor(node, types.size());
      if (failed(count))
        return failure();
      int64_t bound =
          cast<RankedTensorType>(results[0].getType()).getDimSize(0);
      step.callKernel(loc, "tfc_queue_dequeue_up_to",
                      {step.addressTable(loc, buffers), step.pointerTo(*count),
                       name},
                      {slot.getInt(), bound});
      return success();
    }
    case OpKind::QueueCloseV2: {
      auto cancel = node->getAttrOfType<BoolAttr>("cancel_pending_enqueues");
      step.callKernel(loc, "tfc_queue_close", {name},
                      {slot.getInt(), cancel && cancel.getValue()});
      return success();
    }
    default: {
      // QueueSizeV2, QueueIsClosedV2: a scalar out.
      FailureOr<Value> out = step.outputFor(node);
      if (failed(out))
        return failure();
      step.callKernel(loc,
                      kind == OpKind::QueueSizeV2 ? "tfc_queue_size"
                                                  : "tfc_queue_is_closed",
                      {step.pointerTo(*out), name}, {slot.getInt()});
      return success();
    }
    }
  }

private:
  /// tfc_queue_make with the bytes of each component of an element.
  LogicalResult makeQueue(Operation *queue, int64_t slot) const {
    Location loc = queue->getLoc();
    auto types = queue->getAttrOfType<ArrayAttr>("component_types");
    if (!types)
      return step.error(queue) << "has no component_types";
    SmallVector<int64_t> bytes, isString;
    for (auto [k, attr] : llvm::enumerate(types)) {
      Type element = cast<TypeAttr>(attr).getValue();
      std::optional<Shape> shape = queueComponentShape(queue, k);
      int64_t size = shape && shape->isStatic()
                         ? tensorBytes(shape->toType(element))
                         : -1;
      if (size < 0)
        return step.error(queue)
               << "component " << k << " has shape "
               << (shape ? shape->str() : std::string("<unknown>"))
               << ": tfc needs every component's shape (give the queue its "
                  "`shapes`)";
      bytes.push_back(size);
      isString.push_back(isa<tfg::StringType>(element));
    }
    auto capacity = queue->getAttrOfType<IntegerAttr>("capacity");
    // A FIFO queue: -1; a shuffle queue: what it keeps, and its seeds.
    int64_t minAfterDequeue = -1;
    if (opKindOf(queue) == OpKind::RandomShuffleQueueV2) {
      minAfterDequeue = std::max<int64_t>(intAttr(queue, "min_after_dequeue"), 0);
      if (capacity && capacity.getInt() >= 0 &&
          minAfterDequeue >= capacity.getInt())
        return step.error(queue)
               << "min_after_dequeue " << minAfterDequeue
               << " must be < capacity " << capacity.getInt();
    }
    step.callKernel(loc, "tfc_queue_make",
                    {step.stringPointer(loc, queueName(queue)),
                     step.pointerTo(step.constantTable(loc, bytes)),
                     step.pointerTo(step.constantTable(loc, isString))},
                    {slot, capacity ? capacity.getInt() : -1,
                     int64_t(bytes.size()), minAfterDequeue,
                     intAttr(queue, "seed"), intAttr(queue, "seed2")});
    return success();
  }
};

/// The accumulator ops: calls of tfc_accumulator_* on the accumulator's
/// number, its node making it with its elements and reduction.
class AccumulatorOpPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    Location loc = node->getLoc();
    bool made = isAccumulatorNode(node);
    Operation *accumulator =
        made ? node : accumulatorNodeOf(tfg::getDataOperands(node)[0]);
    auto slot = accumulator ? accumulator->getAttrOfType<IntegerAttr>(
                                  kAccumulatorSlotAttr)
                            : nullptr;
    if (!slot)
      return step.error(node)
             << "cannot trace its handle to the accumulator node that made it";
    auto dtype = accumulator->getAttrOfType<TypeAttr>("dtype");
    auto shape = accumulator->getAttrOfType<tfg::ShapeAttr>("shape");
    if (!dtype || !dtype.getValue().isF32())
      return step.error(node) << "accumulates float32 gradients only";
    bool sparse = opKindOf(accumulator) == OpKind::SparseConditionalAccumulator;
    // (The ref forms of the count and the global step serve both kinds.)
    OpKind kind = opKindOf(node);
    bool eitherKind = kind == OpKind::AccumulatorNumAccumulated ||
                      kind == OpKind::AccumulatorSetGlobalStep;
    if (!eitherKind && sparse != isSparseOp(node))
      return step.error(node) << "takes a " << (sparse ? "sparse" : "dense")
                              << " accumulator's handle, which it cannot use";
    if (!eitherKind && sparse)
      return lowerSparse(node, accumulator, slot.getInt());
    if (!sparse && (!shape || shape.getUnranked() ||
                    llvm::any_of(shape.getDims(), ShapedType::isDynamic)))
      return step.error(node)
             << "its accumulator's shape must be known (give it `shape`)";
    if (made) {
      auto reduction = accumulator->getAttrOfType<StringAttr>("reduction_type");
      bool mean = !reduction || reduction.getValue() == "MEAN";
      step.callKernel(loc, "tfc_accumulator_make",
                      {step.stringPointer(loc, queueName(accumulator))},
                      {slot.getInt(), ShapedType::getNumElements(shape.getDims()),
                       mean});
      return success();
    }
    Value name = step.stringPointer(loc, tfg::getNodeName(node));
    OperandRange operands = tfg::getDataOperands(node);
    auto buffer = [&](unsigned i) { return step.pointerTo(step.memrefFor(operands[i])); };
    switch (opKindOf(node)) {
    case OpKind::AccumulatorApplyGradient:
    case OpKind::ResourceAccumulatorApplyGradient:
      step.callKernel(loc, "tfc_accumulator_apply", {buffer(1), buffer(2), name},
                      {slot.getInt()});
      return success();
    case OpKind::AccumulatorTakeGradient:
    case OpKind::ResourceAccumulatorTakeGradient: {
      FailureOr<Value> out = step.outputFor(node);
      if (failed(out))
        return failure();
      step.callKernel(loc, "tfc_accumulator_take",
                      {buffer(1), step.pointerTo(*out), name}, {slot.getInt()});
      return success();
    }
    case OpKind::AccumulatorNumAccumulated:
    case OpKind::ResourceAccumulatorNumAccumulated: {
      FailureOr<Value> out = step.outputFor(node);
      if (failed(out))
        return failure();
      step.callKernel(loc, "tfc_accumulator_num_accumulated",
                      {step.pointerTo(*out), name}, {slot.getInt()});
      return success();
    }
    default: // AccumulatorSetGlobalStep and its Resource form.
      step.callKernel(loc, "tfc_accumulator_set_global_step", {buffer(1), name},
                      {slot.getInt()});
      return success();
    }
  }

private:
  static bool isSparseOp(Operation *node) {
    OpKind kind = opKindOf(node);
    return kind == OpKind::SparseConditionalAccumulator ||
           kind == OpKind::SparseAccumulatorApplyGradient ||
           kind == OpKind::SparseAccumulatorTakeGradient;
  }

  /// A SparseConditionalAccumulator's own ops: its make, applies and takes
  /// (its count and global step lower as the dense ones').
  LogicalResult lowerSparse(Operation *node, Operation *accumulator,
                            int64_t slot) const {
    Location loc = node->getLoc();
    std::optional<SmallVector<int64_t>> row = sparseRowShape(accumulator);
    if (!row)
      return step.error(node)
             << "the rows of its accumulator '" << queueName(accumulator)
             << "' have no known shape (give it `shape`, or apply gradients "
                "of a static shape)";
    int64_t rowElements = ShapedType::getNumElements(*row);
    // The dense shape TensorFlow states: the accumulator's, -1 unknown.
    auto shape = accumulator->getAttrOfType<tfg::ShapeAttr>("shape");
    bool ranked = shape && !shape.getUnranked();
    SmallVector<int64_t> dense;
    if (ranked)
      for (int64_t d : shape.getDims())
        dense.push_back(ShapedType::isDynamic(d) ? -1 : d);
    Value name = step.stringPointer(loc, tfg::getNodeName(node));
    OperandRange operands = tfg::getDataOperands(node);
    auto buffer = [&](unsigned i) {
      return step.pointerTo(step.memrefFor(operands[i]));
    };
    auto table = [&](ArrayRef<int64_t> values) {
      SmallVector<int64_t> padded(values);
      if (padded.empty())
        padded.push_back(0); // (Never read: an empty table.)
      return step.pointerTo(step.constantTable(loc, padded));
    };
    switch (opKindOf(node)) {
    case OpKind::SparseConditionalAccumulator: {
      auto reduction = accumulator->getAttrOfType<StringAttr>("reduction_type");
      bool mean = !reduction || reduction.getValue() == "MEAN";
      step.callKernel(loc, "tfc_sparse_accumulator_make",
                      {step.stringPointer(loc, queueName(accumulator)),
                       table(dense)},
                      {slot, ranked ? int64_t(dense.size()) : -1, rowElements,
                       mean});
      return success();
    }
    case OpKind::SparseAccumulatorApplyGradient: {
      Shape values = Shape::fromType(operands[3].getType());
      Shape indices = Shape::fromType(operands[2].getType());
      SmallVector<int64_t> want{indices.ranked ? indices.dims[0] : -1};
      llvm::append_range(want, *row);
      if (!indices.isStatic() || indices.rank() != 1 || !values.isStatic() ||
          ArrayRef<int64_t>(values.dims) != ArrayRef<int64_t>(want))
        return step.error(node)
               << "applies values of shape " << values.str() << " at indices "
               << indices.str() << ": the accumulator '"
               << queueName(accumulator) << "' takes rows of shape "
               << Shape::of(*row).str() << ", one per index";
      auto known = node->getAttrOfType<BoolAttr>("has_known_shape");
      Shape stated = Shape::fromType(operands[4].getType());
      int64_t shapeElements = known && known.getValue() && stated.isStatic()
                                  ? stated.numElements()
                                  : -1;
      step.callKernel(loc, "tfc_sparse_accumulator_apply",
                      {buffer(1), buffer(2), buffer(3),
                       shapeElements >= 0 ? buffer(4) : table({}), name},
                      {slot, indices.dims[0], shapeElements});
      return success();
    }
    default: { // SparseAccumulatorTakeGradient.
      ResultRange results = tfg::getDataResults(node);
      if (results.size() != 4)
        return step.error(node)
               << "its rows were not planned for a bound (nothing counts "
                  "them: tfc-bound-dynamic-rows did not run on its graph)";
      SmallVector<Value> out;
      for (unsigned k = 0; k < 4; ++k) {
        FailureOr<Value> buffer = step.outputFor(node, k);
        if (failed(buffer))
          return failure();
        out.push_back(step.pointerTo(*buffer));
      }
      // TensorFlow's dense shape: the accumulator's rows (-1 when it
      // does not know them), then a row's dimensions.
      SmallVector<int64_t> stated{ranked && !dense.empty() ? dense[0] : -1};
      llvm::append_range(stated, *row);
      int64_t bound = cast<RankedTensorType>(results[0].getType()).getDimSize(0);
      step.callKernel(loc, "tfc_sparse_accumulator_take",
                      {buffer(1), out[0], out[1], out[2], out[3], table(stated),
                       name},
                      {slot, bound, int64_t(stated.size())});
      return success();
    }
    }
  }
};

} // namespace

void populateQueuePatterns(CodegenPatterns &patterns) {
  patterns.add<QueueOpPattern>("QueueOp");
  patterns.add<AccumulatorOpPattern>("AccumulatorOp");
}

} // namespace tfc
