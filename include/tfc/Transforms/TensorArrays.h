//===- TensorArrays.h - TF1 TensorArrays ------------------------*- C++ -*-===//
//
// A TF1 TensorArray (TensorArrayV3) is storage that ops reach through its
// handle, which enters loops like any value; a gradient array
// (TensorArrayGradV3) is keyed by its forward array and its `source`.
// These functions find the array behind a handle and what code generation
// needs of it: its size and its elements' static shape.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TRANSFORMS_TENSORARRAYS_H
#define TFC_TRANSFORMS_TENSORARRAYS_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace tfc {

/// Whether `node` works on a TF1 TensorArray (TensorArray*V3).
bool isTensorArrayOp(mlir::Operation *node);

/// The TensorArrayV3 or TensorArrayGradV3 node that made `handle`, seen
/// through Enter, Identity, Switch, Exit and Merge; null if untraceable.
mlir::Operation *tensorArrayOf(mlir::Value handle);

/// The forward TensorArrayV3 of an array node (itself, or the array a
/// gradient array is of); null if untraceable.
mlir::Operation *forwardArrayOf(mlir::Operation *array);

/// The number of elements of a forward array, when a constant (of one of
/// dynamic size: its capacity, tfc.list_capacity).
std::optional<int64_t> tensorArraySize(mlir::Operation *forward);

/// The length of each part a TensorArraySplitV3 splits into, when its
/// lengths are constants and all equal.
std::optional<int64_t> splitLength(mlir::Operation *split);

/// The static shape of a forward array's elements: its element_shape
/// attr, or the shape of what its writes, scatters and splits (and those
/// of its gradient arrays) store.
std::optional<llvm::SmallVector<int64_t>>
tensorArrayElementShape(mlir::Operation *forward);

} // namespace tfc

#endif // TFC_TRANSFORMS_TENSORARRAYS_H
