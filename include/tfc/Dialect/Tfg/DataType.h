//===- DataType.h - TensorFlow dtypes as MLIR types -------------*- C++ -*-===//
//
// The one mapping between TensorFlow's DataType enum and MLIR element types:
// float -> f32, int32 -> i32, uint8 -> ui8, bool -> i1, complex64 ->
// complex<f32>, string -> !tfg.string, ..., and DT_*_REF -> !tfg.ref<T>.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_DIALECT_TFG_DATATYPE_H
#define TFC_DIALECT_TFG_DATATYPE_H

#include "mlir/IR/Types.h"

#include <string>

namespace tfc::tfg {

/// The element type of TensorFlow DataType `dtype` (a proto::DataType enum
/// value), or null for DT_INVALID and unknown values.
mlir::Type dataTypeToType(mlir::MLIRContext *context, int dtype);

/// The DataType enum value of an element type; 0 (DT_INVALID) if it has none.
int typeToDataType(mlir::Type elementType);

/// TensorFlow's name of a dtype: "float", "int32", "float_ref", ...
std::string dataTypeName(int dtype);

/// A short user-facing name of an element type: its TensorFlow dtype name if
/// it has one, otherwise the MLIR spelling.
std::string elementTypeName(mlir::Type elementType);

/// A tensor type as the programs print one: "float [2,?]", "int32 []",
/// "float of unknown rank".
std::string tensorTypeName(mlir::Type type);

} // namespace tfc::tfg

#endif // TFC_DIALECT_TFG_DATATYPE_H
