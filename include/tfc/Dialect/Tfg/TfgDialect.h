//===- TfgDialect.h - the TensorFlow graph dialect --------------*- C++ -*-===//
//
// Declares the tfg dialect, its types, attributes and structural operations.
// Node operations are unregistered operations named `tfg.<op type>`; see
// NodeUtils.h for the helpers that read them.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_DIALECT_TFG_TFGDIALECT_H
#define TFC_DIALECT_TFG_TFGDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "tfc/Dialect/Tfg/TfgDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tfc/Dialect/Tfg/TfgTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tfc/Dialect/Tfg/TfgAttributes.h.inc"

#define GET_OP_CLASSES
#include "tfc/Dialect/Tfg/TfgOps.h.inc"

#endif // TFC_DIALECT_TFG_TFGDIALECT_H
