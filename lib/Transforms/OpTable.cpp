//===- OpTable.cpp - the rows of the op table and the queries on it -------===//
//
// The rows are generated from OpTable.td (scripts/gen_op_table.py); this
// file indexes them by op type and answers the questions passes share.
//
//===----------------------------------------------------------------------===//

#include "tfc/Transforms/OpTable.h"
#include "tfc/Dialect/Tfg/AttrConversion.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/OpRegistry.h"

#include "graph.pb.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;

namespace tfc {

// The functions the rows name: shapes in ShapeFunctions.cpp, costs in
// CostModel.cpp. A name the table gives that nothing defines fails to link.
namespace shapes {
#define GET_SHAPE_FUNCTIONS
#include "tfc/Transforms/OpTable.inc"
} // namespace shapes
namespace costs {
#define GET_COST_FUNCTIONS
#include "tfc/Transforms/OpTable.inc"
} // namespace costs

namespace {

const OpInfo rows[] = {
#define GET_OP_ROWS
#include "tfc/Transforms/OpTable.inc"
};

const llvm::StringMap<const OpInfo *> &byType() {
  static const llvm::StringMap<const OpInfo *> index = [] {
    llvm::StringMap<const OpInfo *> map;
    for (const OpInfo &row : rows)
      map[row.type] = &row;
    return map;
  }();
  return index;
}

} // namespace

const OpInfo *lookupOp(StringRef opType) { return byType().lookup(opType); }

const OpInfo *lookupOp(Operation *node) {
  return tfg::isNode(node) ? lookupOp(tfg::getOpType(node)) : nullptr;
}

OpKind opKindOf(Operation *node) {
  const OpInfo *op = lookupOp(node);
  return op ? op->kind : OpKind::Unknown;
}

OpKind plainOpKindOf(Operation *node) {
  const OpInfo *op = lookupOp(node);
  return op ? op->plainKind : OpKind::Unknown;
}

llvm::ArrayRef<OpInfo> opTable() { return rows; }

StringRef familyName(OpFamily family) {
  switch (family) {
#define GET_OP_FAMILIES
#define TFC_OP_FAMILY(name, summary)                                           \
  case OpFamily::name:                                                         \
    return #name;
#include "tfc/Transforms/OpTable.inc"
  }
  return "";
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

AttrDeclaration attrDeclaration(const OpInfo &op, StringRef name) {
  AttrDeclaration declaration;
  SmallVector<StringRef> entries;
  op.attrs.split(entries, ';', -1, /*KeepEmpty=*/false);
  for (StringRef entry : entries) {
    auto [entryName, values] = entry.split('=');
    if (entryName.consume_back(":ignored")) {
      if (entryName == name)
        declaration.use = AttrDeclaration::Ignored;
    } else if (entryName == name) {
      declaration.use = values.empty() ? AttrDeclaration::Any
                                       : AttrDeclaration::Only;
      values.split(declaration.values, '|');
    }
    if (declaration.use != AttrDeclaration::DefaultOnly)
      break;
  }
  return declaration;
}

std::string attrValueText(Attribute value) {
  if (auto flag = dyn_cast<BoolAttr>(value))
    return flag.getValue() ? "true" : "false";
  if (auto integer = dyn_cast<IntegerAttr>(value))
    return std::to_string(integer.getInt());
  if (auto text = dyn_cast<StringAttr>(value))
    return text.getValue().str();
  if (auto list = dyn_cast<ArrayAttr>(value))
    if (llvm::all_of(list, llvm::IsaPred<IntegerAttr>))
      return llvm::join(llvm::map_range(list,
                                        [](Attribute element) {
                                          return std::to_string(
                                              cast<IntegerAttr>(element)
                                                  .getInt());
                                        }),
                        ",");
  std::string text;
  llvm::raw_string_ostream os(text);
  value.print(os);
  return text;
}

/// The attributes of `opDef` that a node's types carry: types, and the
/// lengths and type lists of its arguments.
static llvm::StringSet<> carriedByTypes(const proto::OpDef &opDef) {
  llvm::StringSet<> carried;
  for (const auto *args : {&opDef.input_arg(), &opDef.output_arg()})
    for (const proto::OpDef::ArgDef &arg : *args) {
      if (!arg.number_attr().empty())
        carried.insert(arg.number_attr());
      if (!arg.type_list_attr().empty())
        carried.insert(arg.type_list_attr());
    }
  for (const proto::OpDef::AttrDef &def : opDef.attr())
    if (def.type() == "type" || def.type() == "list(type)")
      carried.insert(def.name());
  return carried;
}

std::string unhandledAttr(const OpInfo &op, DictionaryAttr attrs) {
  const proto::OpDef *opDef = OpRegistry::get().lookup(op.type);
  if (!opDef || !attrs)
    return "";
  llvm::StringSet<> carried = carriedByTypes(*opDef);
  for (const proto::OpDef::AttrDef &def : opDef->attr()) {
    Attribute value = attrs.get(def.name());
    // A placeholder of a generic function is checked where it is given.
    if (!value || carried.contains(def.name()) ||
        isa<tfg::PlaceholderAttr>(value))
      continue;
    AttrDeclaration declaration = attrDeclaration(op, def.name());
    if (declaration.use == AttrDeclaration::Any ||
        declaration.use == AttrDeclaration::Ignored)
      continue;
    std::string text = attrValueText(value);
    std::string handled;
    if (declaration.use == AttrDeclaration::Only) {
      if (llvm::is_contained(declaration.values, text))
        continue;
      handled = llvm::join(declaration.values, ", ");
    } else {
      // Only the default: a required attribute has none, and the table
      // generator makes every lowered op declare those.
      if (!def.has_default_value())
        return def.name() + ": the op table declares nothing for it";
      std::string error;
      Attribute defaultValue =
          tfg::importAttrValue(value.getContext(), def.default_value(), error);
      if (defaultValue == value)
        continue;
      handled = defaultValue ? attrValueText(defaultValue) : "its default";
    }
    return def.name() + "=" + text + ": tfc handles only " + handled;
  }
  return "";
}

/// The lowered row of `node`, or null.
static const OpInfo *loweredOp(Operation *node) {
  const OpInfo *op = lookupOp(node);
  return op && op->isLowered() ? op : nullptr;
}

bool isElementwise(Operation *node) {
  const OpInfo *op = loweredOp(node);
  return op && op->family == OpFamily::Elementwise &&
         tfg::getDataResults(node).size() == 1;
}

bool isPerElement(Operation *node) {
  switch (opKindOf(node)) {
  case OpKind::LookupTableFindV2:
  case OpKind::StringLower:
  case OpKind::StringUpper:
  case OpKind::StringStrip:
  case OpKind::StringLength:
  case OpKind::StaticRegexReplace:
  case OpKind::StaticRegexFullMatch:
  case OpKind::StringToHashBucketFast:
  case OpKind::StringToNumber:
  case OpKind::AsString:
    return true;
  default:
    return isElementwise(node);
  }
}

bool isAlias(Operation *node) {
  const OpInfo *op = loweredOp(node);
  return op && op->alias;
}

Value aliasedInput(Operation *node, unsigned port) {
  const OpInfo *op = lookupOp(node);
  int operand = op && op->aliasOperand >= 0 ? op->aliasOperand : int(port);
  return tfg::getDataOperands(node)[operand];
}

bool isControlFlow(Operation *node) {
  const OpInfo *op = lookupOp(node);
  return op && op->family == OpFamily::ControlFlow;
}

bool isWindowGradient(Operation *node) {
  const OpInfo *op = loweredOp(node);
  return op && op->family == OpFamily::WindowGradient;
}

bool isBatchNorm(Operation *node) {
  const OpInfo *op = loweredOp(node);
  return op && op->family == OpFamily::BatchNorm;
}

} // namespace tfc
