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

/// Whether output 0 of `node` is the variable's value itself, without a
/// copy: Identity of a ref, ReadVariableOp.
bool isVariableRead(mlir::Operation *node);

/// On variable nodes loaded from a SavedModel's checkpoint: the key of
/// their tensor there (tfc-freeze-variables).
inline constexpr llvm::StringLiteral kCheckpointKeyAttr = "tfc.checkpoint_key";

/// On a scatter or sparse optimizer update whose indices are the values of
/// a bounded Unique: negative indices, its padding, select no row
/// (tfc-bound-unique).
inline constexpr llvm::StringLiteral kSkipNegativeIndicesAttr =
    "tfc.skip_negative_indices";

/// A variable read marked by tfc-order-variable-accesses to copy the value
/// (a snapshot), because a write may run before all its users.
inline constexpr llvm::StringLiteral kSnapshotAttr = "tfc.snapshot";

/// On variable nodes and random ops after tfc-plan-state: the byte offset
/// of their state (a variable's value; a random op's generator position),
/// and for variables the offset of the byte saying it is initialized.
inline constexpr llvm::StringLiteral kStateOffsetAttr = "tfc.state_offset";
inline constexpr llvm::StringLiteral kFlagOffsetAttr = "tfc.flag_offset";

} // namespace tfc

#endif // TFC_TRANSFORMS_VARIABLES_H
