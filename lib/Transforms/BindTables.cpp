//===- BindTables.cpp - static tables' contents from their initializers ---===//
//
// A static lookup table (HashTableV2: tf.lookup.StaticHashTable, the
// vocabulary of Keras' StringLookup and TextVectorization) gets its
// contents once, from an initializer that the graph runs before any step:
// a LookupTableImportV2 or InitializeTableV2 of keys and values. Where
// those are constants, the table is a constant too, and its lookups a
// search of sorted keys in the program's data: no table at run time and no
// initializer to run. This pass runs before tfc-prune, on the whole graph
// (the initializers are not what a step fetches), and records each table's
// keys and values on its node (tfc.table_keys, tfc.table_values), where
// tfc-prune and tfc-inline carry it into the step.
//
// It finds initializers in the graph (TF1's tables_initializer) and in the
// bodies of the functions that a call of the graph runs (a TF2
// SavedModel's __saved_model_init_op calls one per table), following the
// table, keys and values from the body's arguments to the call's inputs.
// Two initializers of one table, or a key given two values (TensorFlow's
// "HashTable has different value for same key"), are errors naming the
// table. A table whose contents are not constants keeps no attributes:
// tfc-verify-supported refuses its lookups.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"

#include <map>

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_BINDTABLESPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

bool isStaticTable(Operation *node) {
  return tfg::isNode(node) && opKindOf(node) == OpKind::HashTableV2;
}

bool isInitializer(Operation *node) {
  StringRef type = tfg::getOpType(node);
  return type == "LookupTableImportV2" || type == "InitializeTableV2";
}

/// `value` through Identity nodes and, inside a function body, from an
/// argument to the call's input (`callInputs`; empty in the graph).
Value resolve(Value value, ArrayRef<Value> callInputs) {
  while (true) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (callInputs.empty() || arg.getArgNumber() >= callInputs.size())
        return value;
      value = callInputs[arg.getArgNumber()];
      callInputs = {};
      continue;
    }
    Operation *node = value.getDefiningOp();
    if (!node || !tfg::isNode(node) || opKindOf(node) != OpKind::Identity)
      return value;
    value = tfg::getDataOperands(node)[0];
  }
}

/// The elements of the Const that `value` is, as a vector, or null.
ElementsAttr constantVector(Value value) {
  Operation *node = value.getDefiningOp();
  if (!node || !tfg::isNode(node) || opKindOf(node) != OpKind::Const)
    return {};
  auto elements = node->getAttrOfType<ElementsAttr>("value");
  if (!elements)
    return {};
  auto type = elements.getShapedType();
  if (type.getRank() == 1)
    return elements;
  if (auto dense = dyn_cast<DenseElementsAttr>(elements))
    return dense.reshape(
        RankedTensorType::get({type.getNumElements()}, type.getElementType()));
  return {};
}

/// An element as text, for comparing keys and naming them in errors.
std::string elementText(ElementsAttr elements, int64_t i) {
  if (auto strings = dyn_cast<DenseStringElementsAttr>(elements))
    return strings.getRawStringData()[strings.isSplat() ? 0 : i].str();
  auto dense = cast<DenseElementsAttr>(elements);
  std::string text;
  llvm::raw_string_ostream os(text);
  Attribute value = dense.getValues<Attribute>()[i];
  if (auto integer = dyn_cast<IntegerAttr>(value))
    os << integer.getValue();
  else if (auto real = dyn_cast<FloatAttr>(value))
    os << real.getValueAsDouble();
  else
    os << value;
  return text;
}

struct BindTablesPass : public impl::BindTablesPassBase<BindTablesPass> {
  PassCounter numBound{this, "bound", "tables whose contents are constants"};

  void runOnOperation() override {
    numBound = 0;
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (auto graph : module.getOps<tfg::GraphOp>())
      for (Operation &node : graph.getBody()) {
        if (isInitializer(&node) && failed(bind(&node, {})))
          return signalPassFailure();
        auto callee = node.getAttrOfType<tfg::FuncAttr>("f");
        if (!callee)
          continue;
        auto func = symbols.lookup<tfg::FuncOp>(
            callee.getName().getRootReference().getValue());
        if (!func)
          continue;
        SmallVector<Value> inputs(tfg::getDataOperands(&node));
        for (Operation &inner : func.getBody().front())
          if (isInitializer(&inner) && failed(bind(&inner, inputs)))
            return signalPassFailure();
      }
  }

  /// Records what `init` puts in its table, where table, keys and values
  /// are a static table and constants.
  LogicalResult bind(Operation *init, ArrayRef<Value> callInputs) {
    OperandRange operands = tfg::getDataOperands(init);
    Operation *table = resolve(operands[0], callInputs).getDefiningOp();
    ElementsAttr keys = constantVector(resolve(operands[1], callInputs));
    ElementsAttr values = constantVector(resolve(operands[2], callInputs));
    if (!table || !isStaticTable(table) || !keys || !values)
      return success();
    if (keys.getNumElements() != values.getNumElements())
      return init->emitError()
             << tfg::nodeLabel(init) << " gives table " << tfg::nodeLabel(table)
             << " " << keys.getNumElements() << " keys and "
             << values.getNumElements() << " values";
    if (table->hasAttr(kTableKeysAttr))
      return init->emitError() << tfg::nodeLabel(init) << " initializes table "
                               << tfg::nodeLabel(table)
                               << ", which another initializer fills already";
    // A key given twice must have one value, as TensorFlow's insert checks.
    std::map<std::string, std::string> seen;
    for (int64_t i = 0; i < keys.getNumElements(); ++i) {
      std::string key = elementText(keys, i), value = elementText(values, i);
      auto [it, inserted] = seen.try_emplace(key, value);
      if (!inserted && it->second != value)
        return init->emitError()
               << tfg::nodeLabel(init) << ": HashTable has different value for "
               << "same key. Key " << key << " has " << it->second
               << " and trying to add value " << value;
    }
    table->setAttr(kTableKeysAttr, keys);
    table->setAttr(kTableValuesAttr, values);
    ++numBound;
    return success();
  }
};

} // namespace
} // namespace tfc
