//===- OpClasses.h - the kinds of op code generation knows ------*- C++ -*-===//
//
// Code generation treats ops by class: elementwise ops fuse into loops,
// aliases are views of their input's memory, data-movement ops are loops
// that read their input through index maps. Fusion, the memory plan and
// the emitter must agree on these classes, so they live here.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TRANSFORMS_OPCLASSES_H
#define TFC_TRANSFORMS_OPCLASSES_H

#include "mlir/IR/Operation.h"

namespace tfc {

/// Whether `node` computes each output element from the elements at the
/// same (broadcast) position of its inputs: arithmetic, comparisons,
/// activations, Cast, BiasAdd, Select. Such nodes fuse into loops.
bool isElementwise(mlir::Operation *node);

/// Whether output i of `node` is input i itself, maybe with another shape
/// (Identity, Reshape, Squeeze, ...), or both outputs of a Switch its data
/// input: no code, no buffer of its own.
bool isAlias(mlir::Operation *node);

/// Whether `node` is a TF1 control-flow primitive (Switch, Merge, Enter,
/// Exit, NextIteration, LoopCond, ControlTrigger): never folded or
/// forwarded, whatever its inputs.
bool isControlFlow(mlir::Operation *node);

/// The input whose memory output `port` of an alias node is.
mlir::Value aliasedInput(mlir::Operation *node, unsigned port);

/// Whether `node` moves or replicates elements (Transpose, slices, Concat,
/// Pad, Tile, Gather, ...) or makes a tensor from scalars (Fill, Range).
bool isDataMovement(mlir::Operation *node);

/// Whether `node` is the gradient of a convolution or a pooling
/// (Conv2DBackpropInput/Filter and depthwise, MaxPoolGrad, AvgPoolGrad).
bool isWindowGradient(mlir::Operation *node);

/// Whether `node` is FusedBatchNorm or FusedBatchNormGrad (any version).
bool isBatchNorm(mlir::Operation *node);

/// Whether code generation knows `node`'s op (the classes above, the
/// kernels' ops, _Arg/_Retval, Const, NoOp).
bool hasCodeGeneration(mlir::Operation *node);

} // namespace tfc

#endif // TFC_TRANSFORMS_OPCLASSES_H
