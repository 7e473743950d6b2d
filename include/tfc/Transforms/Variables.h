//===- Variables.h - what nodes do to variables -----------------*- C++ -*-===//
//
// A variable is the node that owns it (VariableV2 for TF1 reference
// variables, VarHandleOp for resource variables) and is identified across
// entries and partitions by its container and shared name (or node name
// when that is empty): two nodes with the same identity are one variable,
// as in TensorFlow's resource manager. Other nodes reach a variable through
// a ref or resource operand; they read it (Identity of a ref,
// ReadVariableOp, ResourceGather, VarIsInitializedOp, ...) or write it
// (Assign*, the optimizers' Apply ops, scatters).
//
// The ordering pass, the state plan and code generation share these
// queries.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TRANSFORMS_VARIABLES_H
#define TFC_TRANSFORMS_VARIABLES_H

#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace tfc {

/// VariableV2, Variable or VarHandleOp.
bool isVariableNode(mlir::Operation *node);

/// Whether values of `type` point to a variable: a ref tensor or a
/// resource handle.
bool isVariableReference(mlir::Type type);

/// The variable node a ref or handle value comes from, seen through the
/// nodes that pass a reference on (Identity of a handle, RefIdentity, the
/// ref outputs of Assign and the Apply ops, and Enter, Switch, Exit and a
/// Merge whose inputs agree); null if it cannot be traced.
mlir::Operation *variableNodeOf(mlir::Value reference);

/// The node `isSource` accepts that made the ref or handle `reference`
/// (a variable, a stack), seen through the same nodes as variableNodeOf;
/// null if it cannot be traced.
mlir::Operation *
sourceNodeOf(mlir::Value reference,
             llvm::function_ref<bool(mlir::Operation *)> isSource);

/// The identity of a variable node: "container/name" where name is the
/// shared name, or the node name when that is empty (no container: name).
std::string variableId(mlir::Operation *variableNode);

/// The key checkpoints store the variable under: the key it had in the
/// checkpoint it was loaded from (kCheckpointKeyAttr), else the one a TF1
/// Saver uses: its shared name, or the node name when that is empty.
std::string checkpointKey(mlir::Operation *variableNode);

/// Whether `node` writes the variables of its ref/handle operands
/// (assignments, optimizer updates, scatters, DestroyResourceOp).
bool writesVariables(mlir::Operation *node);

/// The operand position of the row indices of a scatter or sparse
/// optimizer update (the ops that write a variable and take indices); -1
/// for other nodes.
int scatterIndicesOperand(mlir::Operation *node);

/// Whether output 0 of `node` is the variable's value itself, without a
/// copy: Identity of a ref, ReadVariableOp.
bool isVariableRead(mlir::Operation *node);

} // namespace tfc

#endif // TFC_TRANSFORMS_VARIABLES_H
