//===- NodeUtils.cpp - reading and building node operations ---------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfc/TfcDialect.h"
#include "tfc/Dialect/Tfg/AttrConversion.h"
#include "tfc/Dialect/Tfg/DataType.h"
#include "tfc/Dialect/Tfg/OpRegistry.h"

#include "graph.pb.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace tfc::tfg {

bool isNode(Operation *op) {
  return !op->isRegistered() &&
         op->getName().getDialectNamespace() == TfgDialect::getDialectNamespace();
}

StringRef getOpType(Operation *node) {
  return node->getName().getStringRef().drop_front(
      TfgDialect::getDialectNamespace().size() + 1);
}

static StringRef getStringAttr(Operation *node, StringRef name) {
  if (auto attr = node->getAttrOfType<StringAttr>(name))
    return attr.getValue();
  return {};
}

StringRef getNodeName(Operation *node) {
  // A fusion group is known by its root's name.
  if (auto group = dyn_cast<FusionGroupOp>(node))
    node = group.getRoot();
  return node ? getStringAttr(node, kNameAttr) : StringRef();
}
std::string nodeLabel(Operation *node) {
  return ("node '" + getNodeName(node) + "' (" + getOpType(node) + ")").str();
}
InFlightDiagnostic nodeError(Operation *node) {
  return node->emitError() << nodeLabel(node) << ": ";
}
StringRef getRequestedDevice(Operation *node) {
  return getStringAttr(node, kDeviceAttr);
}
StringRef getAssignedDevice(Operation *node) {
  return getStringAttr(node, kAssignedDeviceAttr);
}

bool isControl(Type type) { return isa<ControlType>(type); }

Value getControlToken(Operation *node) {
  return node->getResult(node->getNumResults() - 1);
}

ResultRange getDataResults(Operation *node) {
  return node->getResults().drop_back();
}

/// Index of the first control operand (operands are data then control).
static unsigned firstControlOperand(Operation *node) {
  unsigned n = node->getNumOperands();
  while (n > 0 && isControl(node->getOperand(n - 1)))
    --n;
  return n;
}

OperandRange getDataOperands(Operation *node) {
  return node->getOperands().take_front(firstControlOperand(node));
}

OperandRange getControlOperands(Operation *node) {
  return node->getOperands().drop_front(firstControlOperand(node));
}

SmallVector<NamedAttribute> getNodeAttrs(Operation *node) {
  // TensorFlow attr names never contain a '.': dialect-prefixed attributes
  // (tfg.name, compiler annotations such as tfc.offsets) are not attrs.
  SmallVector<NamedAttribute> attrs;
  for (NamedAttribute attr : node->getAttrs())
    if (!attr.getName().getValue().contains('.'))
      attrs.push_back(attr);
  return attrs;
}

/// The value of attr `name` given on the node or defaulted by the OpDef.
static Attribute lookupAttr(MLIRContext *context, const proto::OpDef &opDef,
                            DictionaryAttr attrs, StringRef name) {
  if (attrs)
    if (Attribute attr = attrs.get(name))
      return attr;
  for (const proto::OpDef::AttrDef &def : opDef.attr()) {
    if (def.name() != name || !def.has_default_value())
      continue;
    std::string error;
    return importAttrValue(context, def.default_value(), error);
  }
  return {};
}

ArgExpansion expandArgTypes(MLIRContext *context, const proto::OpDef &opDef,
                            bool outputs, DictionaryAttr attrs,
                            SmallVectorImpl<Type> &elementTypes,
                            std::string &error,
                            SmallVectorImpl<unsigned> *argSizes) {
  const auto &args = outputs ? opDef.output_arg() : opDef.input_arg();
  // The value of attr `name`; null with `error` set when it is missing.
  auto get = [&](const std::string &name) -> Attribute {
    Attribute attr = lookupAttr(context, opDef, attrs, name);
    if (!attr)
      error = "missing attr '" + name + "'";
    return attr;
  };

  for (const proto::OpDef::ArgDef &arg : args) {
    SmallVector<Type> types;
    if (!arg.type_list_attr().empty()) {
      Attribute list = get(arg.type_list_attr());
      if (!list)
        return ArgExpansion::Failed;
      if (isa<PlaceholderAttr>(list))
        return ArgExpansion::DependsOnPlaceholder;
      auto array = dyn_cast<ArrayAttr>(list);
      if (!array || !llvm::all_of(array, llvm::IsaPred<TypeAttr>)) {
        error = "attr '" + arg.type_list_attr() + "' is not a list of types";
        return ArgExpansion::Failed;
      }
      for (Attribute element : array)
        types.push_back(cast<TypeAttr>(element).getValue());
    } else {
      Type type;
      if (arg.type() != proto::DT_INVALID) {
        type = dataTypeToType(context, arg.type());
      } else {
        Attribute attr = get(arg.type_attr());
        if (!attr)
          return ArgExpansion::Failed;
        if (auto typeAttr = dyn_cast<TypeAttr>(attr)) {
          type = typeAttr.getValue();
        } else if (!isa<PlaceholderAttr>(attr)) {
          error = "attr '" + arg.type_attr() + "' is not a type";
          return ArgExpansion::Failed;
        }
      }
      int64_t count = 1;
      if (!arg.number_attr().empty()) {
        Attribute attr = get(arg.number_attr());
        if (!attr)
          return ArgExpansion::Failed;
        if (isa<PlaceholderAttr>(attr))
          return ArgExpansion::DependsOnPlaceholder;
        auto intAttr = dyn_cast<IntegerAttr>(attr);
        if (!intAttr || intAttr.getType().isInteger(1)) {
          error = "attr '" + arg.number_attr() + "' is not an int";
          return ArgExpansion::Failed;
        }
        count = intAttr.getInt();
        // A count is a list length in a graph: bound it so that a corrupt
        // value cannot make us allocate without limit.
        if (count < 0 || count > (1 << 20)) {
          error = "attr '" + arg.number_attr() + "' is out of range";
          return ArgExpansion::Failed;
        }
      }
      types.append(count, type);
    }
    for (Type type : types)
      elementTypes.push_back(arg.is_ref() && type ? RefType::get(type) : type);
    if (argSizes)
      argSizes->push_back(types.size());
  }
  return ArgExpansion::Expanded;
}

Operation *createNode(OpBuilder &builder, Location loc, StringRef opType,
                      TypeRange dataResultTypes, ValueRange dataOperands,
                      ValueRange controlOperands,
                      ArrayRef<NamedAttribute> attrs) {
  OperationState state(loc, (TfgDialect::getDialectNamespace() + "." + opType).str());
  state.addOperands(dataOperands);
  state.addOperands(controlOperands);
  state.addTypes(dataResultTypes);
  state.addTypes(ControlType::get(builder.getContext()));
  state.addAttributes(attrs);
  return builder.create(state);
}

} // namespace tfc::tfg
