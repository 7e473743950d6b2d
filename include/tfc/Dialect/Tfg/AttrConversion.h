//===- AttrConversion.h - AttrValue <-> MLIR attributes ---------*- C++ -*-===//
//
// The lossless mapping between TensorFlow attr values and MLIR attributes:
//
//   s -> StringAttr          i -> IntegerAttr (i64)   f -> FloatAttr (f32)
//   b -> BoolAttr            type -> TypeAttr         shape -> #tfg.shape
//   tensor -> DenseElementsAttr / DenseStringElementsAttr, or
//             #tfg.tensor_proto for dtypes without a dense MLIR form
//   func -> #tfg.func        placeholder -> #tfg.placeholder
//   list -> ArrayAttr of the above; an unset value -> UnitAttr
//
// TensorProto decoding follows TensorFlow: tensor_content holds raw
// little-endian elements; a typed *_val field with fewer values than elements
// repeats its last value (one value is a splat).
//
//===----------------------------------------------------------------------===//

#ifndef TFC_DIALECT_TFG_ATTRCONVERSION_H
#define TFC_DIALECT_TFG_ATTRCONVERSION_H

#include "tfc/Dialect/Tfg/TfgDialect.h"

#include <string>

namespace tfc {
namespace proto {
class AttrValue;
class TensorProto;
class TensorShapeProto;
} // namespace proto

namespace tfg {

/// Whether `name` is a valid TensorFlow attr name: a letter or '_', then
/// letters, digits and '_'.
bool isValidAttrName(llvm::StringRef name);

/// Converts an attr value; returns null and sets `error` on failure.
mlir::Attribute importAttrValue(mlir::MLIRContext *context,
                                const proto::AttrValue &value,
                                std::string &error);

/// Converts an attribute back; returns false and sets `error` when the
/// attribute has no AttrValue form.
bool exportAttrValue(mlir::Attribute attr, proto::AttrValue &value,
                     std::string &error);

mlir::Attribute importTensor(mlir::MLIRContext *context,
                             const proto::TensorProto &tensor,
                             std::string &error);
bool exportTensor(mlir::Attribute attr, proto::TensorProto &tensor,
                  std::string &error);

ShapeAttr importShape(mlir::MLIRContext *context,
                      const proto::TensorShapeProto &shape);
void exportShape(ShapeAttr attr, proto::TensorShapeProto &shape);

/// The tensor type of a shape and element type: ranked or unranked.
mlir::TensorType shapeToTensorType(ShapeAttr shape, mlir::Type elementType);

} // namespace tfg
} // namespace tfc

#endif // TFC_DIALECT_TFG_ATTRCONVERSION_H
