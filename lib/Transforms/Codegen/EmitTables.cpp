//===- EmitTables.cpp - lookups in tables that are constants --------------===//
//
// LookupTableFindV2 and LookupTableSizeV2 of a static table whose keys and
// values tfc-bind-tables found (tfc.table_keys, tfc.table_values on its
// HashTableV2). The table becomes data of the program, sorted by key here:
// integer keys as int64s, string keys and values as string objects in one
// block each, found by their offsets. A lookup is one call of the
// runtime's binary search (LookupTables.cpp); the size is a constant.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Variables.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <cstring>
#include <numeric>

using namespace mlir;

namespace tfc {

namespace {

/// The HashTableV2 a handle comes from, through the nodes that pass a
/// handle on (Identity, TF1 control flow), or null.
Operation *tableOf(Value handle) {
  return sourceNodeOf(handle, [](Operation *node) {
    return opKindOf(node) == OpKind::HashTableV2;
  });
}

/// An element of a table's keys or values: its text (strings), or its
/// integer or float value.
struct Element {
  std::string text;
  int64_t integer = 0;
  double real = 0;
};

SmallVector<Element> elementsOf(ElementsAttr attr) {
  SmallVector<Element> out;
  if (auto strings = dyn_cast<DenseStringElementsAttr>(attr)) {
    ArrayRef<StringRef> raw = strings.getRawStringData();
    for (int64_t i = 0; i < attr.getNumElements(); ++i)
      out.push_back({raw[strings.isSplat() ? 0 : i].str()});
    return out;
  }
  for (Attribute a : cast<DenseElementsAttr>(attr).getValues<Attribute>()) {
    Element e;
    if (auto integer = dyn_cast<IntegerAttr>(a))
      e.integer = integer.getType().isInteger(1) ? integer.getValue().getZExtValue()
                                                 : integer.getValue().getSExtValue();
    else
      e.real = cast<FloatAttr>(a).getValueAsDouble();
    out.push_back(e);
  }
  return out;
}

/// Appends `text` as a string object, 8-aligned; returns its offset.
int64_t appendObject(SmallVectorImpl<int8_t> &block, StringRef text) {
  int64_t offset = block.size();
  appendStringObject(block, text);
  while (block.size() % 8)
    block.push_back(0);
  return offset;
}

/// Appends `bytes` little-endian bytes of an element of `type`.
void appendValue(SmallVectorImpl<int8_t> &block, const Element &e, Type type,
                 int64_t bytes) {
  uint64_t bits;
  if (type.isF32()) {
    float f = float(e.real);
    uint32_t b32;
    std::memcpy(&b32, &f, 4);
    bits = b32;
  } else if (type.isF64()) {
    std::memcpy(&bits, &e.real, 8);
  } else {
    bits = uint64_t(e.integer);
  }
  for (int64_t i = 0; i < bytes; ++i)
    block.push_back(int8_t(bits >> (8 * i)));
}

class TableFindPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    Operation *table = tableOf(tfg::getDataOperands(node)[0]);
    auto keysAttr = table ? table->getAttrOfType<ElementsAttr>(kTableKeysAttr)
                          : ElementsAttr();
    auto valuesAttr = table ? table->getAttrOfType<ElementsAttr>(kTableValuesAttr)
                            : ElementsAttr();
    if (!keysAttr || !valuesAttr)
      return step.error(node) << "reads a table whose contents are not "
                                 "constants of the graph";
    Location loc = node->getLoc();
    OpBuilder &b = step.builder;
    FailureOr<Value> out = step.outputFor(node);
    if (failed(out))
      return failure();
    Type keyType = keysAttr.getShapedType().getElementType();
    Type valueType = valuesAttr.getShapedType().getElementType();
    bool stringKeys = isa<tfg::StringType>(keyType);
    bool stringValues = isa<tfg::StringType>(valueType);
    if (!(stringKeys || keyType.isInteger(32) || keyType.isInteger(64)))
      return step.error(node) << "reads a table of " << keyType
                              << " keys (tfc's tables have int32, int64 or "
                                 "string keys)";

    // Sorted by key; the values follow their keys.
    SmallVector<Element> keys = elementsOf(keysAttr), values = elementsOf(valuesAttr);
    SmallVector<int64_t> order(keys.size());
    std::iota(order.begin(), order.end(), 0);
    auto less = [&](int64_t a, int64_t b) {
      return stringKeys ? StringRef(keys[a].text) < StringRef(keys[b].text)
                        : keys[a].integer < keys[b].integer;
    };
    llvm::stable_sort(order, less);
    // A key given twice (with one value: tfc-bind-tables checked) is one.
    order.erase(std::unique(order.begin(), order.end(),
                            [&](int64_t a, int64_t b) {
                              return !less(a, b) && !less(b, a);
                            }),
                order.end());
    int64_t size = order.size();
    if (opKindOf(node) == OpKind::LookupTableSizeV2) {
      b.create<memref::StoreOp>(
          loc, b.create<arith::ConstantIntOp>(loc, size, 64), *out, ValueRange{});
      return success();
    }
    Value queries = tfg::getDataOperands(node)[1];
    Type queryType = cast<TensorType>(queries.getType()).getElementType();
    if (queryType != keyType)
      return step.error(node) << "looks up " << queryType
                              << " keys in a table of " << keyType << " keys";
    int64_t valueBytes = stringValues ? 0 : elementBytes(valueType);
    SmallVector<int64_t> keyWords, valueOffsets;
    SmallVector<int8_t> keyBlock, valueBlock;
    for (int64_t i : order) {
      keyWords.push_back(stringKeys ? appendObject(keyBlock, keys[i].text)
                                    : keys[i].integer);
      if (stringValues)
        valueOffsets.push_back(appendObject(valueBlock, values[i].text));
      else
        appendValue(valueBlock, values[i], valueType, valueBytes);
    }
    Value keysPointer = step.pointerTo(step.constantTable(
        loc, keyWords.empty() ? ArrayRef<int64_t>{0} : ArrayRef<int64_t>(keyWords)));
    Value keyData = step.pointerTo(bytesGlobal(loc, keyBlock));
    Value valuesPointer =
        stringValues
            ? step.pointerTo(step.constantTable(
                  loc, valueOffsets.empty() ? ArrayRef<int64_t>{0}
                                            : ArrayRef<int64_t>(valueOffsets)))
            : step.pointerTo(bytesGlobal(loc, valueBlock));
    Value valueData = step.pointerTo(bytesGlobal(loc, valueBlock));
    int64_t count = memrefOf(queries).getNumElements();
    step.callKernel(loc, "tfc_table_find",
                    {keysPointer, keyData, valuesPointer, valueData,
                     step.pointerTo(step.memrefFor(queries)),
                     step.pointerTo(step.memrefFor(tfg::getDataOperands(node)[2])),
                     step.pointerTo(*out)},
                    {size, count, stringKeys ? 0 : elementBytes(keyType),
                     valueBytes});
    return success();
  }

private:
  /// A private global of `bytes` (one zero byte when empty), 8-aligned.
  Value bytesGlobal(Location loc, ArrayRef<int8_t> bytes) const {
    SmallVector<int8_t> data(bytes.begin(), bytes.end());
    if (data.empty())
      data.push_back(0);
    OpBuilder &b = step.builder;
    auto type = MemRefType::get({int64_t(data.size())}, b.getI8Type());
    std::string name = step.addGlobal(
        loc, "tfc_table_data_", type,
        DenseElementsAttr::get(RankedTensorType::get(type.getShape(), b.getI8Type()),
                               ArrayRef<int8_t>(data)),
        b.getI64IntegerAttr(8));
    return b.create<memref::GetGlobalOp>(loc, type, name);
  }
};

} // namespace

void populateTablePatterns(CodegenPatterns &patterns) {
  patterns.add<TableFindPattern>("TableFind");
}

} // namespace tfc
