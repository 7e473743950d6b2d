//===- Queues.h - TensorFlow's queues in the graph --------------*- C++ -*-===//
//
// A queue node (FIFOQueueV2, PaddingFIFOQueueV2, RandomShuffleQueueV2)
// makes a queue that
// outlives the step: the init entry may fill it and the steps drain it
// (tfc_runtime.h). These functions find the queue behind a handle and
// what its elements are.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TRANSFORMS_QUEUES_H
#define TFC_TRANSFORMS_QUEUES_H

#include "tfc/Transforms/ShapeInference.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace tfc {

/// FIFOQueueV2, PaddingFIFOQueueV2 or RandomShuffleQueueV2.
bool isQueueNode(mlir::Operation *node);

/// The queue node that made `handle`, seen through Identity, Enter,
/// Switch, Exit and Merge; null if it cannot be traced.
mlir::Operation *queueNodeOf(mlir::Value handle);

/// ConditionalAccumulator or ResourceConditionalAccumulator: a resource
/// of the runtime like a queue, numbered the same way.
bool isAccumulatorNode(mlir::Operation *node);
/// The accumulator node that made `handle`; null if it cannot be traced.
mlir::Operation *accumulatorNodeOf(mlir::Value handle);

/// The SparseAccumulatorApplyGradients of a SparseConditionalAccumulator
/// in the program: of any of its graphs, to an accumulator of its name.
llvm::SmallVector<mlir::Operation *> sparseApplies(mlir::Operation *accumulator);

/// The dimensions of one row of a SparseConditionalAccumulator: its
/// `shape` past the first dimension when that knows them, else those its
/// applies' values agree on; nullopt when neither says.
std::optional<llvm::SmallVector<int64_t>>
sparseRowShape(mlir::Operation *accumulator);

/// What names a queue (or an accumulator) in the program: its
/// shared_name, or its node's name when that is empty (one per name, as
/// in a TensorFlow session).
std::string queueName(mlir::Operation *queue);

/// The shape of one element's component `k`: the queue's `shapes` attr
/// when it has one, else the shape its enqueues in the same graph agree
/// on (an Enqueue's component, an EnqueueMany's without the first
/// dimension); nullopt when neither says.
std::optional<Shape> queueComponentShape(mlir::Operation *queue, unsigned k);

} // namespace tfc

#endif // TFC_TRANSFORMS_QUEUES_H
