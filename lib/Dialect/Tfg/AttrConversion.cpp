//===- AttrConversion.cpp - AttrValue <-> MLIR attributes -----------------===//

#include "tfc/Dialect/Tfg/AttrConversion.h"
#include "tfc/Dialect/Tfg/DataType.h"

#include "graph.pb.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringExtras.h"

#include <cstring>

using namespace mlir;

namespace tfc::tfg {

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

ShapeAttr importShape(MLIRContext *context,
                      const proto::TensorShapeProto &shape) {
  if (shape.unknown_rank())
    return ShapeAttr::get(context, {}, /*unranked=*/true);
  SmallVector<int64_t> dims;
  for (const auto &dim : shape.dim())
    dims.push_back(dim.size() < 0 ? ShapedType::kDynamic : dim.size());
  return ShapeAttr::get(context, dims, /*unranked=*/false);
}

void exportShape(ShapeAttr attr, proto::TensorShapeProto &shape) {
  shape.Clear();
  if (attr.getUnranked()) {
    shape.set_unknown_rank(true);
    return;
  }
  for (int64_t dim : attr.getDims())
    shape.add_dim()->set_size(ShapedType::isDynamic(dim) ? -1 : dim);
}

TensorType shapeToTensorType(ShapeAttr shape, Type elementType) {
  if (!shape || shape.getUnranked())
    return UnrankedTensorType::get(elementType);
  return RankedTensorType::get(shape.getDims(), elementType);
}

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

namespace {

/// Bytes per element of the dtypes that become DenseIntOrFPElementsAttr
/// (bool excepted: MLIR packs i1), or 0 for dtypes kept as TensorProto bytes.
size_t denseElementBytes(int dtype) {
  switch (dtype) {
  case proto::DT_INT8:
  case proto::DT_UINT8:
    return 1;
  case proto::DT_HALF:
  case proto::DT_BFLOAT16:
  case proto::DT_INT16:
  case proto::DT_UINT16:
    return 2;
  case proto::DT_FLOAT:
  case proto::DT_INT32:
  case proto::DT_UINT32:
    return 4;
  case proto::DT_DOUBLE:
  case proto::DT_INT64:
  case proto::DT_UINT64:
  case proto::DT_COMPLEX64:
    return 8;
  case proto::DT_COMPLEX128:
    return 16;
  default:
    return 0;
  }
}

/// Number of values in the typed field of `dtype`.
int64_t typedValueCount(const proto::TensorProto &t, int dtype) {
  switch (dtype) {
  case proto::DT_FLOAT: return t.float_val_size();
  case proto::DT_DOUBLE: return t.double_val_size();
  case proto::DT_INT8:
  case proto::DT_INT16:
  case proto::DT_INT32:
  case proto::DT_UINT8:
  case proto::DT_UINT16:
    return t.int_val_size();
  case proto::DT_INT64: return t.int64_val_size();
  case proto::DT_UINT32: return t.uint32_val_size();
  case proto::DT_UINT64: return t.uint64_val_size();
  case proto::DT_HALF:
  case proto::DT_BFLOAT16:
    return t.half_val_size();
  case proto::DT_COMPLEX64: return t.scomplex_val_size() / 2;
  case proto::DT_COMPLEX128: return t.dcomplex_val_size() / 2;
  case proto::DT_BOOL: return t.bool_val_size();
  case proto::DT_STRING: return t.string_val_size();
  default: return 0;
  }
}

/// Writes value `i` of the typed field as little-endian bytes to `out`.
void writeTypedValue(const proto::TensorProto &t, int dtype, int64_t i,
                     char *out) {
  auto put = [&](auto value) { std::memcpy(out, &value, sizeof(value)); };
  switch (dtype) {
  case proto::DT_FLOAT: return put(t.float_val(i));
  case proto::DT_DOUBLE: return put(t.double_val(i));
  case proto::DT_INT8:
  case proto::DT_UINT8:
    return put(static_cast<uint8_t>(t.int_val(i)));
  case proto::DT_INT16:
  case proto::DT_UINT16:
    return put(static_cast<uint16_t>(t.int_val(i)));
  case proto::DT_HALF:
  case proto::DT_BFLOAT16:
    return put(static_cast<uint16_t>(t.half_val(i)));
  case proto::DT_INT32: return put(t.int_val(i));
  case proto::DT_INT64: return put(t.int64_val(i));
  case proto::DT_UINT32: return put(t.uint32_val(i));
  case proto::DT_UINT64: return put(t.uint64_val(i));
  case proto::DT_COMPLEX64:
    put(t.scomplex_val(2 * i));
    out += 4;
    return put(t.scomplex_val(2 * i + 1));
  case proto::DT_COMPLEX128:
    put(t.dcomplex_val(2 * i));
    out += 8;
    return put(t.dcomplex_val(2 * i + 1));
  default:
    return;
  }
}

/// Appends one element given as little-endian bytes to the typed field.
void addTypedValue(proto::TensorProto &t, int dtype, const char *in) {
  auto get = [&](auto value) {
    std::memcpy(&value, in, sizeof(value));
    return value;
  };
  switch (dtype) {
  case proto::DT_FLOAT: t.add_float_val(get(float())); return;
  case proto::DT_DOUBLE: t.add_double_val(get(double())); return;
  case proto::DT_INT8: t.add_int_val(get(int8_t())); return;
  case proto::DT_UINT8: t.add_int_val(get(uint8_t())); return;
  case proto::DT_INT16: t.add_int_val(get(int16_t())); return;
  case proto::DT_UINT16: t.add_int_val(get(uint16_t())); return;
  case proto::DT_HALF:
  case proto::DT_BFLOAT16:
    t.add_half_val(get(uint16_t()));
    return;
  case proto::DT_INT32: t.add_int_val(get(int32_t())); return;
  case proto::DT_INT64: t.add_int64_val(get(int64_t())); return;
  case proto::DT_UINT32: t.add_uint32_val(get(uint32_t())); return;
  case proto::DT_UINT64: t.add_uint64_val(get(uint64_t())); return;
  case proto::DT_COMPLEX64:
    t.add_scomplex_val(get(float()));
    in += 4;
    t.add_scomplex_val(get(float()));
    return;
  case proto::DT_COMPLEX128:
    t.add_dcomplex_val(get(double()));
    in += 8;
    t.add_dcomplex_val(get(double()));
    return;
  default:
    return;
  }
}

Attribute opaqueTensor(MLIRContext *context, const proto::TensorProto &t) {
  return TensorProtoAttr::get(context, t.SerializeAsString());
}

} // namespace

Attribute importTensor(MLIRContext *context, const proto::TensorProto &t,
                       std::string &error) {
  int dtype = t.dtype();
  Type elementType = dataTypeToType(context, dtype);
  if (!elementType || dtype > 100) {
    error = "tensor has invalid dtype " + std::to_string(dtype);
    return {};
  }
  bool isBool = dtype == proto::DT_BOOL;
  bool isString = dtype == proto::DT_STRING;
  size_t elementBytes = denseElementBytes(dtype);
  // Dtypes without a dense MLIR form, and the rare versioned tensors, are
  // carried as their bytes.
  if ((!elementBytes && !isBool && !isString) || t.version_number() != 0)
    return opaqueTensor(context, t);

  if (t.tensor_shape().unknown_rank()) {
    error = "tensor has unknown rank";
    return {};
  }
  SmallVector<int64_t> dims;
  int64_t numElements = 1;
  for (const auto &dim : t.tensor_shape().dim()) {
    // Bound sizes so that the product cannot overflow.
    if (dim.size() < 0 || dim.size() > (int64_t(1) << 40)) {
      error = "tensor has invalid dimension " + std::to_string(dim.size());
      return {};
    }
    dims.push_back(dim.size());
    if (numElements && dim.size() > (int64_t(1) << 40) / numElements) {
      error = "tensor has more than 2^40 elements";
      return {};
    }
    numElements *= dim.size();
  }
  auto type = RankedTensorType::get(dims, elementType);

  int64_t count = typedValueCount(t, dtype);
  if (!t.tensor_content().empty()) {
    if (isString) {
      error = "string tensor has tensor_content";
      return {};
    }
    size_t bytes = isBool ? 1 : elementBytes;
    if (t.tensor_content().size() != bytes * numElements) {
      error = "tensor_content has " + std::to_string(t.tensor_content().size()) +
              " bytes, expected " + std::to_string(bytes * numElements);
      return {};
    }
    const std::string &content = t.tensor_content();
    if (isBool) {
      SmallVector<bool> values(content.begin(), content.end());
      return DenseElementsAttr::get(type, ArrayRef<bool>(values));
    }
    return DenseElementsAttr::getFromRawBuffer(
        type, ArrayRef<char>(content.data(), content.size()));
  }

  if (count > numElements) {
    error = "tensor has " + std::to_string(count) + " values for " +
            std::to_string(numElements) + " elements";
    return {};
  }
  // TensorFlow repeats the last typed value to fill the tensor (zero when
  // there is none); one value, or none, is a splat.
  int64_t stored = count <= 1 ? std::min<int64_t>(numElements, 1) : numElements;
  if (isString) {
    SmallVector<StringRef> values;
    for (int64_t i = 0; i < stored; ++i)
      values.push_back(count ? StringRef(t.string_val(std::min(i, count - 1)))
                             : StringRef());
    return DenseStringElementsAttr::get(type, values);
  }
  if (isBool) {
    SmallVector<bool> values;
    for (int64_t i = 0; i < stored; ++i)
      values.push_back(count ? t.bool_val(std::min(i, count - 1)) : false);
    return DenseElementsAttr::get(type, ArrayRef<bool>(values));
  }
  std::vector<char> buffer(stored * elementBytes, 0);
  for (int64_t i = 0; count && i < stored; ++i)
    writeTypedValue(t, dtype, std::min(i, count - 1),
                    buffer.data() + i * elementBytes);
  return DenseElementsAttr::getFromRawBuffer(type, buffer);
}

bool exportTensor(Attribute attr, proto::TensorProto &t, std::string &error) {
  t.Clear();
  if (auto opaque = dyn_cast<TensorProtoAttr>(attr)) {
    if (!t.ParseFromString(opaque.getBytes().str())) {
      error = "#tfg.tensor_proto does not hold a TensorProto";
      return false;
    }
    return true;
  }
  auto elements = dyn_cast<DenseElementsAttr>(attr);
  if (!elements) {
    error = "tensor attribute is not a dense elements attribute";
    return false;
  }
  ShapedType type = elements.getType();
  int dtype = typeToDataType(type.getElementType());
  if (!dtype || dtype > 100) {
    error = "tensor element type has no TensorFlow dtype";
    return false;
  }
  t.set_dtype(static_cast<proto::DataType>(dtype));
  t.mutable_tensor_shape(); // Present even for scalars, as TensorFlow writes.
  for (int64_t dim : type.getShape())
    t.mutable_tensor_shape()->add_dim()->set_size(dim);
  int64_t numElements = type.getNumElements();
  if (numElements == 0)
    return true;

  // A splat is one typed value, which TensorFlow repeats; anything else is
  // raw tensor_content (strings, which have none, list every value).
  if (auto strings = dyn_cast<DenseStringElementsAttr>(elements)) {
    ArrayRef<StringRef> values = strings.getRawStringData();
    for (StringRef value : values)
      t.add_string_val(value.str());
    return true;
  }
  if (dtype == proto::DT_BOOL) {
    if (elements.isSplat()) {
      t.add_bool_val(elements.getSplatValue<bool>());
      return true;
    }
    std::string content;
    for (bool value : elements.getValues<bool>())
      content.push_back(value ? 1 : 0);
    t.set_tensor_content(content);
    return true;
  }
  ArrayRef<char> raw = elements.getRawData();
  if (elements.isSplat()) {
    addTypedValue(t, dtype, raw.data());
    return true;
  }
  t.set_tensor_content(std::string(raw.data(), raw.size()));
  return true;
}

//===----------------------------------------------------------------------===//
// Attr values
//===----------------------------------------------------------------------===//

bool isValidAttrName(StringRef name) {
  if (name.empty() || !(llvm::isAlpha(name.front()) || name.front() == '_'))
    return false;
  return llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

Attribute importAttrValue(MLIRContext *context, const proto::AttrValue &value,
                          std::string &error) {
  Builder b(context);
  auto importType = [&](int dtype) -> Attribute {
    Type type = dataTypeToType(context, dtype);
    if (!type) {
      error = "invalid dtype " + std::to_string(dtype);
      return {};
    }
    return TypeAttr::get(type);
  };
  auto importFunc = [&](const proto::NameAttrList &func) -> Attribute {
    // Sort by name: protobuf maps have no order, dictionaries do.
    SmallVector<NamedAttribute> attrs;
    for (const auto &[name, attrValue] : func.attr()) {
      if (!isValidAttrName(name)) {
        error = "function '" + func.name() + "' has invalid attr name '" +
                name + "'";
        return {};
      }
      Attribute attr = importAttrValue(context, attrValue, error);
      if (!attr)
        return {};
      attrs.push_back(b.getNamedAttr(name, attr));
    }
    return FuncAttr::get(context, SymbolRefAttr::get(context, func.name()),
                         b.getDictionaryAttr(attrs));
  };

  switch (value.value_case()) {
  case proto::AttrValue::kS:
    return b.getStringAttr(value.s());
  case proto::AttrValue::kI:
    return b.getI64IntegerAttr(value.i());
  case proto::AttrValue::kF:
    return b.getFloatAttr(b.getF32Type(), llvm::APFloat(value.f()));
  case proto::AttrValue::kB:
    return b.getBoolAttr(value.b());
  case proto::AttrValue::kType:
    return importType(value.type());
  case proto::AttrValue::kShape:
    return importShape(context, value.shape());
  case proto::AttrValue::kTensor:
    return importTensor(context, value.tensor(), error);
  case proto::AttrValue::kFunc:
    return importFunc(value.func());
  case proto::AttrValue::kPlaceholder:
    return PlaceholderAttr::get(context, value.placeholder());
  case proto::AttrValue::VALUE_NOT_SET:
    return b.getUnitAttr();
  case proto::AttrValue::kList:
    break;
  }

  const proto::AttrValue::ListValue &list = value.list();
  int kinds = (list.s_size() > 0) + (list.i_size() > 0) + (list.f_size() > 0) +
              (list.b_size() > 0) + (list.type_size() > 0) +
              (list.shape_size() > 0) + (list.tensor_size() > 0) +
              (list.func_size() > 0);
  if (kinds > 1) {
    error = "attr list mixes value kinds";
    return {};
  }
  SmallVector<Attribute> elements;
  for (const std::string &s : list.s())
    elements.push_back(b.getStringAttr(s));
  for (int64_t i : list.i())
    elements.push_back(b.getI64IntegerAttr(i));
  for (float f : list.f())
    elements.push_back(b.getFloatAttr(b.getF32Type(), llvm::APFloat(f)));
  for (bool v : list.b())
    elements.push_back(b.getBoolAttr(v));
  for (int dtype : list.type())
    elements.push_back(importType(dtype));
  for (const auto &shape : list.shape())
    elements.push_back(importShape(context, shape));
  for (const auto &tensor : list.tensor())
    elements.push_back(importTensor(context, tensor, error));
  for (const auto &func : list.func())
    elements.push_back(importFunc(func));
  if (llvm::any_of(elements, [](Attribute a) { return !a; }))
    return {};
  return b.getArrayAttr(elements);
}

bool exportAttrValue(Attribute attr, proto::AttrValue &value,
                     std::string &error) {
  value.Clear();
  auto exportFunc = [&](FuncAttr func, proto::NameAttrList &out) {
    out.set_name(func.getName().getRootReference().str());
    for (NamedAttribute named : func.getAttrs())
      if (!exportAttrValue(named.getValue(),
                           (*out.mutable_attr())[named.getName().str()], error))
        return false;
    return true;
  };
  auto exportType = [&](Type type) -> int {
    int dtype = typeToDataType(type);
    if (!dtype)
      error = "type has no TensorFlow dtype";
    return dtype;
  };

  if (auto s = dyn_cast<StringAttr>(attr)) {
    value.set_s(s.getValue().str());
  } else if (auto b = dyn_cast<BoolAttr>(attr)) {
    value.set_b(b.getValue());
  } else if (auto i = dyn_cast<IntegerAttr>(attr)) {
    value.set_i(i.getValue().getSExtValue());
  } else if (auto f = dyn_cast<FloatAttr>(attr)) {
    value.set_f(f.getValue().convertToFloat());
  } else if (auto type = dyn_cast<TypeAttr>(attr)) {
    int dtype = exportType(type.getValue());
    if (!dtype)
      return false;
    value.set_type(static_cast<proto::DataType>(dtype));
  } else if (auto shape = dyn_cast<ShapeAttr>(attr)) {
    exportShape(shape, *value.mutable_shape());
  } else if (isa<ElementsAttr, TensorProtoAttr>(attr)) {
    return exportTensor(attr, *value.mutable_tensor(), error);
  } else if (auto func = dyn_cast<FuncAttr>(attr)) {
    return exportFunc(func, *value.mutable_func());
  } else if (auto placeholder = dyn_cast<PlaceholderAttr>(attr)) {
    value.set_placeholder(placeholder.getName().str());
  } else if (isa<UnitAttr>(attr)) {
    // An AttrValue with no value set.
  } else if (auto array = dyn_cast<ArrayAttr>(attr)) {
    proto::AttrValue::ListValue &list = *value.mutable_list();
    for (Attribute element : array) {
      if (auto s = dyn_cast<StringAttr>(element)) {
        list.add_s(s.getValue().str());
      } else if (auto b = dyn_cast<BoolAttr>(element)) {
        list.add_b(b.getValue());
      } else if (auto i = dyn_cast<IntegerAttr>(element)) {
        list.add_i(i.getValue().getSExtValue());
      } else if (auto f = dyn_cast<FloatAttr>(element)) {
        list.add_f(f.getValue().convertToFloat());
      } else if (auto type = dyn_cast<TypeAttr>(element)) {
        int dtype = exportType(type.getValue());
        if (!dtype)
          return false;
        list.add_type(static_cast<proto::DataType>(dtype));
      } else if (auto shape = dyn_cast<ShapeAttr>(element)) {
        exportShape(shape, *list.add_shape());
      } else if (isa<ElementsAttr, TensorProtoAttr>(element)) {
        if (!exportTensor(element, *list.add_tensor(), error))
          return false;
      } else if (auto func = dyn_cast<FuncAttr>(element)) {
        if (!exportFunc(func, *list.add_func()))
          return false;
      } else {
        error = "list element has no AttrValue form";
        return false;
      }
    }
    int kinds = (list.s_size() > 0) + (list.i_size() > 0) +
                (list.f_size() > 0) + (list.b_size() > 0) +
                (list.type_size() > 0) + (list.shape_size() > 0) +
                (list.tensor_size() > 0) + (list.func_size() > 0);
    if (kinds > 1) {
      error = "list mixes value kinds";
      return false;
    }
  } else {
    error = "attribute has no AttrValue form";
    return false;
  }
  return true;
}

} // namespace tfc::tfg
