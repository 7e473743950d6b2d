//===- DataType.cpp - TensorFlow dtypes as MLIR types ---------------------===//

#include "tfc/Dialect/Tfg/DataType.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"

#include "graph.pb.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace tfc::tfg {

/// The DataType offset of reference types: DT_FLOAT_REF = DT_FLOAT + 100.
static constexpr int kRefOffset = 100;

Type dataTypeToType(MLIRContext *context, int dtype) {
  // One level of reference only: DT_FLOAT_REF is 101, nothing is 201.
  if (dtype > kRefOffset && dtype < 2 * kRefOffset) {
    Type base = dataTypeToType(context, dtype - kRefOffset);
    return base ? RefType::get(base) : Type();
  }
  Builder b(context);
  switch (dtype) {
  case proto::DT_FLOAT: return b.getF32Type();
  case proto::DT_DOUBLE: return b.getF64Type();
  case proto::DT_HALF: return b.getF16Type();
  case proto::DT_BFLOAT16: return b.getBF16Type();
  case proto::DT_INT8: return b.getIntegerType(8);
  case proto::DT_INT16: return b.getIntegerType(16);
  case proto::DT_INT32: return b.getIntegerType(32);
  case proto::DT_INT64: return b.getIntegerType(64);
  case proto::DT_UINT8: return b.getIntegerType(8, /*isSigned=*/false);
  case proto::DT_UINT16: return b.getIntegerType(16, false);
  case proto::DT_UINT32: return b.getIntegerType(32, false);
  case proto::DT_UINT64: return b.getIntegerType(64, false);
  case proto::DT_BOOL: return b.getI1Type();
  case proto::DT_COMPLEX64: return ComplexType::get(b.getF32Type());
  case proto::DT_COMPLEX128: return ComplexType::get(b.getF64Type());
  case proto::DT_STRING: return StringType::get(context);
  case proto::DT_RESOURCE: return ResourceType::get(context);
  case proto::DT_VARIANT: return VariantType::get(context);
  case proto::DT_QINT8: return Qint8Type::get(context);
  case proto::DT_QUINT8: return Quint8Type::get(context);
  case proto::DT_QINT16: return Qint16Type::get(context);
  case proto::DT_QUINT16: return Quint16Type::get(context);
  case proto::DT_QINT32: return Qint32Type::get(context);
  case proto::DT_FLOAT8_E5M2: return b.getFloat8E5M2Type();
  case proto::DT_FLOAT8_E4M3FN: return b.getFloat8E4M3FNType();
  case proto::DT_FLOAT8_E4M3FNUZ: return b.getFloat8E4M3FNUZType();
  case proto::DT_FLOAT8_E4M3B11FNUZ: return b.getFloat8E4M3B11FNUZType();
  case proto::DT_FLOAT8_E5M2FNUZ: return b.getFloat8E5M2FNUZType();
  case proto::DT_INT4: return b.getIntegerType(4);
  case proto::DT_UINT4: return b.getIntegerType(4, false);
  case proto::DT_INT2: return b.getIntegerType(2);
  case proto::DT_UINT2: return b.getIntegerType(2, false);
  case proto::DT_FLOAT4_E2M1FN: return Float4E2M1FNType::get(context);
  default: return {};
  }
}

int typeToDataType(Type type) {
  if (auto ref = dyn_cast<RefType>(type)) {
    int base = typeToDataType(ref.getElementType());
    return base && base < kRefOffset ? base + kRefOffset : 0;
  }
  // Rather than a second table, search the first: dtypes are few.
  MLIRContext *context = type.getContext();
  for (int dtype = 1; dtype <= proto::DataType_MAX && dtype < kRefOffset;
       ++dtype)
    if (proto::DataType_IsValid(dtype) &&
        dataTypeToType(context, dtype) == type)
      return dtype;
  return proto::DT_INVALID;
}

std::string dataTypeName(int dtype) {
  if (!proto::DataType_IsValid(dtype))
    return "dtype " + std::to_string(dtype);
  // DT_FLOAT_REF -> "float_ref", TensorFlow's spelling.
  std::string name = proto::DataType_Name(static_cast<proto::DataType>(dtype));
  name = name.substr(3);
  for (char &c : name)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (name == "half")
    return "float16";
  return name;
}

std::string elementTypeName(Type type) {
  if (!type)
    return "<unknown>";
  if (int dtype = typeToDataType(type))
    return dataTypeName(dtype);
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

std::string tensorTypeName(Type type) {
  auto tensor = dyn_cast<TensorType>(type);
  if (!tensor)
    return "?";
  std::string text = elementTypeName(tensor.getElementType());
  if (!tensor.hasRank())
    return text + " of unknown rank";
  text += " [";
  for (auto [i, d] : llvm::enumerate(tensor.getShape()))
    text += (i ? "," : "") + (d < 0 ? std::string("?") : std::to_string(d));
  return text + "]";
}

} // namespace tfc::tfg
