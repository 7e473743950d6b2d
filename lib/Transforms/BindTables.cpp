//===- BindTables.cpp - static tables' contents from their initializers ---===//
//
// A static lookup table (HashTableV2: tf.lookup.StaticHashTable, the
// vocabulary of Keras' StringLookup and TextVectorization) gets its
// contents once, from an initializer that the graph runs before any step:
// a LookupTableImportV2 or InitializeTableV2 of keys and values, or an
// InitializeTableFromTextFileV2 of a vocabulary file (TextFileInitializer;
// StringLookup(vocabulary=path)). Where the keys and values are constants,
// or the file is one the compiler can name, the table is a constant too,
// and its lookups a search of sorted keys in the program's data: no table
// at run time, no initializer to run and no file to ship. The file is read
// when compiling, as TensorFlow reads it when the table is initialized.
// This pass runs before tfc-prune, on the whole graph (the initializers
// are not what a step fetches), and records each table's keys and values
// on its node (tfc.table_keys, tfc.table_values), where tfc-prune and
// tfc-inline carry it into the step.
//
// It finds initializers in the graph (TF1's tables_initializer) and in the
// bodies of the functions that a call of the graph runs (a TF2
// SavedModel's __saved_model_init_op calls one per table), following the
// table, keys and values from the body's arguments to the call's inputs.
// Two initializers of one table, or a key given two values (TensorFlow's
// "HashTable has different value for same key"), are errors naming the
// table. A file is named by a string Const, or by the node a SavedModel's
// loader feeds with the path of one of its assets (asset_file_def; TF2
// passes it through a variable that its init op assigns). A file that
// TensorFlow would not read (missing, an empty line, too few columns, a
// field that is not a number, fewer lines than vocab_size) is an error
// naming the initializer, with TensorFlow's message. A table whose
// contents are not constants keeps no attributes: tfc-verify-supported
// refuses its lookups.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Dialect/Tfg/DataType.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdlib>
#include <map>

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_BINDTABLESPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

bool isStaticTable(Operation *node) {
  return tfg::isNode(node) && opKindOf(node) == OpKind::HashTableV2;
}

bool isFileInitializer(Operation *node) {
  return tfg::getOpType(node) == "InitializeTableFromTextFileV2";
}

bool isInitializer(Operation *node) {
  StringRef type = tfg::getOpType(node);
  return type == "LookupTableImportV2" || type == "InitializeTableV2" ||
         isFileInitializer(node);
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
  auto vector =
      RankedTensorType::get({type.getNumElements()}, type.getElementType());
  if (auto strings = dyn_cast<DenseStringElementsAttr>(elements))
    return DenseStringElementsAttr::get(vector, strings.getRawStringData());
  if (auto dense = dyn_cast<DenseElementsAttr>(elements))
    return dense.reshape(vector);
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

/// The path of the file that `value` names, or "" where the compiler
/// cannot tell: a string Const, or a node that a SavedModel's loader feeds
/// with an asset's path (`assets`), directly or through a variable that
/// `graph` assigns it to (TF2 keeps each asset's path in one).
std::string filePath(Value value, ArrayRef<Value> callInputs,
                     tfg::GraphOp graph, DictionaryAttr assets) {
  Operation *node = resolve(value, callInputs).getDefiningOp();
  if (node && tfg::isNode(node) && tfg::getOpType(node) == "ReadVariableOp") {
    Operation *variable =
        resolve(tfg::getDataOperands(node)[0], {}).getDefiningOp();
    node = nullptr;
    for (Operation &assign : graph.getBody())
      if (tfg::getOpType(&assign) == "AssignVariableOp" &&
          resolve(tfg::getDataOperands(&assign)[0], {}).getDefiningOp() ==
              variable) {
        if (node)
          return ""; // assigned twice: which path a step sees is not static
        node = resolve(tfg::getDataOperands(&assign)[1], {}).getDefiningOp();
      }
  }
  if (!node || !tfg::isNode(node))
    return "";
  if (auto asset = assets ? assets.getAs<StringAttr>(tfg::getNodeName(node))
                          : StringAttr())
    return asset.str();
  auto strings = opKindOf(node) == OpKind::Const
                     ? node->getAttrOfType<DenseStringElementsAttr>("value")
                     : DenseStringElementsAttr();
  if (!strings || strings.getNumElements() != 1)
    return "";
  return strings.getRawStringData()[0].str();
}

/// A number field of a table file, as TensorFlow's safe_strto* read it:
/// white space around it allowed, nothing else.
bool parseInteger(StringRef field, int64_t bits, int64_t &out) {
  field = field.trim(" \t\n\v\f\r");
  bool negative = field.consume_front("-");
  if (!negative)
    field.consume_front("+");
  APInt magnitude;
  if (field.empty() || !llvm::all_of(field, llvm::isDigit) ||
      field.getAsInteger(10, magnitude) || magnitude.getActiveBits() > 64)
    return false;
  uint64_t limit = (uint64_t(1) << (bits - 1)) - (negative ? 0 : 1);
  if (magnitude.getZExtValue() > limit)
    return false;
  out = negative ? int64_t(0 - magnitude.getZExtValue())
                 : int64_t(magnitude.getZExtValue());
  return true;
}

bool parseReal(StringRef field, double &out) {
  std::string text = field.trim(" \t\n\v\f\r").str();
  if (text.empty())
    return false;
  char *end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

/// What column `index` of a line gives a table of element type `type`:
/// the line's number (plus offset), the whole line, or one field.
/// TensorFlow's TextFileLineIterator::SetValue, its messages included.
LogicalResult fieldValue(StringRef line, ArrayRef<StringRef> fields,
                         int64_t index, int64_t lineNumber, int64_t offset,
                         Type type, SmallVectorImpl<std::string> &strings,
                         SmallVectorImpl<Attribute> &numbers,
                         std::string &error) {
  if (index == -1) {
    numbers.push_back(IntegerAttr::get(type, lineNumber + offset));
    return success();
  }
  StringRef field = index == -2 ? line : fields[index];
  if (isa<tfg::StringType>(type)) {
    strings.push_back(field.str());
    return success();
  }
  auto invalid = [&](StringRef what) {
    error = ("Field " + field + " in line " + Twine(lineNumber) +
             " is not a valid " + what + ".")
                .str();
    return failure();
  };
  if (type.isInteger(32) || type.isInteger(64)) {
    int64_t bits = type.getIntOrFloatBitWidth(), value;
    if (!parseInteger(field, bits, value))
      return invalid(bits == 32 ? "int32" : "int64");
    // TensorFlow adds the offset to int32 fields, not to int64 ones.
    numbers.push_back(IntegerAttr::get(type, bits == 32 ? value + offset : value));
    return success();
  }
  if (type.isF32() || type.isF64()) {
    double value;
    if (!parseReal(field, value))
      return invalid(type.isF32() ? "float" : "double");
    numbers.push_back(FloatAttr::get(type, value));
    return success();
  }
  error = "Data type " + tfg::elementTypeName(type) + " not supported.";
  return failure();
}

/// The keys and values that an InitializeTableFromTextFileV2 (`init`)
/// reads from `path` into a table of `keyType` to `valueType`, as
/// TensorFlow's lookup::InitializeTableFromTextFile does; false with
/// TensorFlow's message in `error` where TensorFlow fails.
LogicalResult readTableFile(Operation *init, StringRef path, Type keyType,
                            Type valueType, ElementsAttr &keys,
                            ElementsAttr &values, std::string &error) {
  int64_t keyIndex = intAttr(init, "key_index", -2);
  int64_t valueIndex = intAttr(init, "value_index", -1);
  int64_t vocabSize = intAttr(init, "vocab_size", -1);
  int64_t offset = intAttr(init, "offset", 0);
  auto delimiterAttr = init->getAttrOfType<StringAttr>("delimiter");
  char delimiter = delimiterAttr && !delimiterAttr.getValue().empty()
                       ? delimiterAttr.getValue()[0]
                       : '\t';
  if (keyIndex == -1 && !keyType.isInteger(64))
    error = "Key index for line number requires table key dtype of int64, "
            "got " + tfg::elementTypeName(keyType);
  else if (keyIndex == -2 && !keyType.isInteger() &&
           !isa<tfg::StringType>(keyType))
    error = "Key index for whole line requires string or integer table key, "
            "got " + tfg::elementTypeName(keyType);
  else if (valueIndex == -1 && !valueType.isInteger(64))
    error = "Value index for line number requires table value dtype of "
            "int64, got " + tfg::elementTypeName(valueType);
  else if (valueIndex == -2 && !valueType.isInteger() &&
           !isa<tfg::StringType>(valueType))
    error = "Value index for whole line requires table value dtype of "
            "integer or string, got " + tfg::elementTypeName(valueType);
  if (!error.empty())
    return failure();

  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    error = path.str() + "; " + buffer.getError().message();
    return failure();
  }
  StringRef rest = (*buffer)->getBuffer();
  int64_t position = 0, lineNumber = 0;
  size_t columns = std::max<int64_t>(std::max(keyIndex, valueIndex) + 1, 0);
  SmallVector<std::string> keyStrings, valueStrings;
  SmallVector<Attribute> keyNumbers, valueNumbers;
  while (!rest.empty()) {
    if (vocabSize != -1 && lineNumber >= vocabSize)
      break; // TensorFlow stops reading at vocab_size lines
    auto [line, next] = rest.split('\n');
    position += rest.size() - next.size();
    rest = next;
    line.consume_back("\r");
    if (line.empty()) {
      error = ("Invalid content in " + path + ": empty line found at position " +
               Twine(position) + ".")
                  .str();
      return failure();
    }
    SmallVector<StringRef> fields;
    if (columns > 0) {
      line.split(fields, delimiter);
      if (fields.size() < columns) {
        error = ("Invalid number of columns in " + path + " line " +
                 Twine(lineNumber) + " (" + line + ") : expected at least " +
                 Twine(columns) + " got " + Twine(fields.size()))
                    .str();
        return failure();
      }
    }
    if (failed(fieldValue(line, fields, keyIndex, lineNumber, offset, keyType,
                          keyStrings, keyNumbers, error)) ||
        failed(fieldValue(line, fields, valueIndex, lineNumber, offset,
                          valueType, valueStrings, valueNumbers, error)))
      return failure();
    ++lineNumber;
  }
  if (vocabSize != -1 && lineNumber != vocabSize) {
    error = ("Invalid vocab_size in " + path + ": expected " +
             Twine(vocabSize) + " but got " + Twine(lineNumber))
                .str();
    return failure();
  }
  auto elements = [&](Type type, ArrayRef<std::string> strings,
                      ArrayRef<Attribute> numbers) -> ElementsAttr {
    auto shape = RankedTensorType::get({lineNumber}, type);
    if (isa<tfg::StringType>(type))
      return DenseStringElementsAttr::get(
          shape, SmallVector<StringRef>(strings.begin(), strings.end()));
    return DenseElementsAttr::get(shape, numbers);
  };
  keys = elements(keyType, keyStrings, keyNumbers);
  values = elements(valueType, valueStrings, valueNumbers);
  return success();
}

struct BindTablesPass : public impl::BindTablesPassBase<BindTablesPass> {
  PassCounter numBound{this, "bound", "tables whose contents are constants"};
  /// A SavedModel's assets: the node that takes each file's path, and the path.
  DictionaryAttr assets;

  void runOnOperation() override {
    numBound = 0;
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    if (auto savedModel =
            module->getAttrOfType<DictionaryAttr>("tfg.saved_model"))
      assets = savedModel.getAs<DictionaryAttr>("assets");
    for (auto graph : module.getOps<tfg::GraphOp>())
      for (Operation &node : graph.getBody()) {
        if (isInitializer(&node) && failed(bind(&node, {}, graph)))
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
          if (isInitializer(&inner) && failed(bind(&inner, inputs, graph)))
            return signalPassFailure();
      }
  }

  /// Records what `init` puts in its table, where the table is static and
  /// its keys and values are constants or a file's (`graph` holds `init`,
  /// or the call of the function that does).
  LogicalResult bind(Operation *init, ArrayRef<Value> callInputs,
                     tfg::GraphOp graph) {
    OperandRange operands = tfg::getDataOperands(init);
    Operation *table = resolve(operands[0], callInputs).getDefiningOp();
    if (!table || !isStaticTable(table))
      return success();
    ElementsAttr keys, values;
    if (isFileInitializer(init)) {
      std::string path = filePath(operands[1], callInputs, graph, assets);
      auto keyType = table->getAttrOfType<TypeAttr>("key_dtype");
      auto valueType = table->getAttrOfType<TypeAttr>("value_dtype");
      if (path.empty() || !keyType || !valueType)
        return success();
      std::string error;
      if (failed(readTableFile(init, path, keyType.getValue(),
                               valueType.getValue(), keys, values, error)))
        return init->emitError() << tfg::nodeLabel(init) << ", which fills "
                                 << tfg::nodeLabel(table) << ": " << error;
    } else {
      keys = constantVector(resolve(operands[1], callInputs));
      values = constantVector(resolve(operands[2], callInputs));
    }
    if (!keys || !values)
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
