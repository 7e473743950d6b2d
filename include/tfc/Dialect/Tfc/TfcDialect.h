//===- TfcDialect.h - the attributes tfc's passes hand each other -*- C++ -*-===//
//
// The tfc dialect owns the `tfc.*` attribute namespace and verifies it
// (TfcDialect.td; the names are in TfcAttributes.h), and holds the
// operations passes put into graphs for later ones (TfcOps.td: the fusion
// group). The tfg dialect depends on it, so every context that holds a
// graph verifies these attributes and knows these operations.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_DIALECT_TFC_TFCDIALECT_H
#define TFC_DIALECT_TFC_TFCDIALECT_H

#include "tfc/Dialect/Tfc/TfcAttributes.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tfc/Dialect/Tfc/TfcDialect.h.inc"

#define GET_OP_CLASSES
#include "tfc/Dialect/Tfc/TfcOps.h.inc"

namespace tfc {

/// The value outside a fusion group that `value` stands for: a block
/// argument of a group is the group's input, a result of its root the
/// group's result; any other value is itself.
mlir::Value valueOutsideGroup(mlir::Value value);

} // namespace tfc

#endif // TFC_DIALECT_TFC_TFCDIALECT_H
