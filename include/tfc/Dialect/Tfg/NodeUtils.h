//===- NodeUtils.h - reading and building node operations -------*- C++ -*-===//
//
// A node operation is an unregistered operation `tfg.<op type>` inside a
// `tfg.graph` or `tfg.func`: data results then one `!tfg.control` result,
// data operands then control operands, and the attributes `tfg.name`,
// `tfg.device`, `tfg.assigned_device` beside the node's own attrs. These
// helpers are the one place that knows this layout. (A `tfc.fusion_group`
// is laid out as a node too, so the operand and result helpers read it.)
//
//===----------------------------------------------------------------------===//

#ifndef TFC_DIALECT_TFG_NODEUTILS_H
#define TFC_DIALECT_TFG_NODEUTILS_H

#include "tfc/Dialect/Tfg/TfgDialect.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"

#include <optional>
#include <string>

namespace tfc {
namespace proto {
class OpDef;
} // namespace proto

namespace tfg {

/// Attribute names of a node's identity.
inline constexpr llvm::StringLiteral kNameAttr = "tfg.name";
inline constexpr llvm::StringLiteral kDeviceAttr = "tfg.device";
inline constexpr llvm::StringLiteral kAssignedDeviceAttr = "tfg.assigned_device";

/// True for node operations: operations of the tfg dialect other than the
/// structural ones (graph, func, return).
bool isNode(mlir::Operation *op);

/// The op type of a node: its operation name without the `tfg.` prefix.
llvm::StringRef getOpType(mlir::Operation *node);

/// The node's name (`tfg.name`), or "" if it has none; a fusion group's is
/// its root's.
llvm::StringRef getNodeName(mlir::Operation *node);
/// "node 'NAME' (OpType)": how errors, at compile and at run time, name a
/// node.
std::string nodeLabel(mlir::Operation *node);
/// Starts an error on `node` that names it: "node 'x' (MatMul): ...".
mlir::InFlightDiagnostic nodeError(mlir::Operation *node);
llvm::StringRef getRequestedDevice(mlir::Operation *node);
llvm::StringRef getAssignedDevice(mlir::Operation *node);

/// The control token of a node (its last result).
mlir::Value getControlToken(mlir::Operation *node);

/// Data results (all but the control token).
mlir::ResultRange getDataResults(mlir::Operation *node);

/// Data operands (before the first control operand) and control operands.
mlir::OperandRange getDataOperands(mlir::Operation *node);
mlir::OperandRange getControlOperands(mlir::Operation *node);

/// True for a `!tfg.control` typed value or type.
bool isControl(mlir::Type type);
inline bool isControl(mlir::Value value) { return isControl(value.getType()); }

/// The node attrs proper: every attribute whose name has no '.' (not the
/// node identity, not compiler annotations).
llvm::SmallVector<mlir::NamedAttribute> getNodeAttrs(mlir::Operation *node);

/// How expandArgTypes ended.
enum class ArgExpansion {
  /// `elementTypes` holds one element type per tensor.
  Expanded,
  /// A count (number attr or type list) is a function attr placeholder: the
  /// tensors are known only once the function is instantiated.
  DependsOnPlaceholder,
  /// A needed attr is missing or has the wrong kind; `error` says which.
  Failed,
};

/// Expands a list of OpDef args (inputs or outputs) into one element type per
/// tensor, reading the type/number/type-list attrs from `attrs` or the OpDef
/// defaults. Ref args give `!tfg.ref<T>`; a type given by a function attr
/// placeholder is null. If `argSizes` is given, it receives the number of
/// tensors of each arg.
ArgExpansion expandArgTypes(mlir::MLIRContext *context,
                            const proto::OpDef &opDef, bool outputs,
                            mlir::DictionaryAttr attrs,
                            llvm::SmallVectorImpl<mlir::Type> &elementTypes,
                            std::string &error,
                            llvm::SmallVectorImpl<unsigned> *argSizes = nullptr);

/// Checks a node against the op registry and the node layout: operand and
/// result counts and dtypes, attr kinds, required attrs, allowed values and
/// minimums. Emits an error on the node and fails if anything is wrong.
mlir::LogicalResult verifyNode(mlir::Operation *node);

/// Creates a node operation `tfg.<opType>` at the builder's insertion point.
/// `dataResultTypes` excludes the control token, which is appended.
mlir::Operation *createNode(mlir::OpBuilder &builder, mlir::Location loc,
                            llvm::StringRef opType,
                            mlir::TypeRange dataResultTypes,
                            mlir::ValueRange dataOperands,
                            mlir::ValueRange controlOperands,
                            llvm::ArrayRef<mlir::NamedAttribute> attrs);

} // namespace tfg
} // namespace tfc

#endif // TFC_DIALECT_TFG_NODEUTILS_H
