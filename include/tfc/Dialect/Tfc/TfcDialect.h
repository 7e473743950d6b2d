//===- TfcDialect.h - the attributes tfc's passes hand each other -*- C++ -*-===//
//
// The tfc dialect owns the `tfc.*` attribute namespace and verifies it
// (TfcDialect.td; the names are in TfcAttributes.h). It has no operations
// yet. The tfg dialect depends on it, so every context that holds a graph
// verifies these attributes.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_DIALECT_TFC_TFCDIALECT_H
#define TFC_DIALECT_TFC_TFCDIALECT_H

#include "tfc/Dialect/Tfc/TfcAttributes.h"

#include "mlir/IR/Dialect.h"

#include "tfc/Dialect/Tfc/TfcDialect.h.inc"

#endif // TFC_DIALECT_TFC_TFCDIALECT_H
