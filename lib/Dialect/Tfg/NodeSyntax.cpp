//===- NodeSyntax.cpp - custom assembly of node operations ----------------===//
//
// Node operations print as a call of the op type on their data operands,
// followed by control operands in brackets, the node identity, the node
// attrs, and the data types:
//
//   %add, %ctl = AddV2(%x, %y) [%init] name("add") device("/cpu:0")
//       {T = f32} : (tensor<*xf32>, tensor<*xf32>) -> (tensor<*xf32>)
//
// The control token is always the last result and every control operand has
// type !tfg.control, so neither appears in the type list. A node with no data
// operands and no data results omits the type list.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"

#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace tfc::tfg {

/// Whether an op type can be printed as a bare identifier.
bool hasPrintableNodeName(StringRef opName) {
  StringRef type = opName;
  if (!type.consume_front("tfg.") || type.empty())
    return false;
  if (!llvm::isAlpha(type.front()) && type.front() != '_')
    return false;
  return llvm::all_of(type, [](char c) {
    return llvm::isAlnum(c) || c == '_';
  });
}

/// Parses `keyword("value")` into attribute `attrName` if the keyword is
/// present.
static ParseResult parseOptionalIdentity(OpAsmParser &parser,
                                         OperationState &state,
                                         StringRef keyword,
                                         StringRef attrName) {
  if (failed(parser.parseOptionalKeyword(keyword)))
    return success();
  std::string value;
  if (parser.parseLParen() || parser.parseString(&value) ||
      parser.parseRParen())
    return failure();
  state.addAttribute(attrName, parser.getBuilder().getStringAttr(value));
  return success();
}

ParseResult parseNode(OpAsmParser &parser, OperationState &state) {
  SmallVector<OpAsmParser::UnresolvedOperand> data, control;
  if (parser.parseOperandList(data, OpAsmParser::Delimiter::OptionalParen) ||
      parser.parseOperandList(control,
                              OpAsmParser::Delimiter::OptionalSquare) ||
      parseOptionalIdentity(parser, state, "name", kNameAttr) ||
      parseOptionalIdentity(parser, state, "device", kDeviceAttr) ||
      parseOptionalIdentity(parser, state, "assigned_device",
                            kAssignedDeviceAttr) ||
      parser.parseOptionalAttrDict(state.attributes))
    return failure();

  SmallVector<Type> operandTypes, resultTypes;
  llvm::SMLoc typesLoc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalColon())) {
    FunctionType type;
    if (parser.parseType(type))
      return failure();
    llvm::append_range(operandTypes, type.getInputs());
    llvm::append_range(resultTypes, type.getResults());
  }
  if (operandTypes.size() != data.size())
    return parser.emitError(typesLoc)
           << "node has " << data.size() << " data operands but "
           << operandTypes.size() << " operand types";

  Type controlType = ControlType::get(parser.getContext());
  if (parser.resolveOperands(data, operandTypes, typesLoc, state.operands) ||
      parser.resolveOperands(control, controlType, state.operands))
    return failure();
  state.addTypes(resultTypes);
  state.addTypes(controlType);
  return success();
}

void printNode(Operation *op, OpAsmPrinter &printer) {
  OperandRange data = getDataOperands(op);
  OperandRange control = getControlOperands(op);
  raw_ostream &os = printer.getStream();
  if (!data.empty()) {
    os << '(';
    printer.printOperands(data);
    os << ')';
  }
  if (!control.empty()) {
    os << " [";
    printer.printOperands(control);
    os << ']';
  }
  auto printIdentity = [&](StringRef keyword, StringRef attrName) {
    if (auto value = op->getAttrOfType<StringAttr>(attrName)) {
      os << ' ' << keyword << '(';
      printer.printString(value.getValue());
      os << ')';
    }
  };
  printIdentity("name", kNameAttr);
  printIdentity("device", kDeviceAttr);
  printIdentity("assigned_device", kAssignedDeviceAttr);

  // Identity attributes that are not strings (invalid, but printable) stay
  // in the dictionary so that nothing is lost.
  SmallVector<StringRef, 3> elided;
  for (StringRef name : {StringRef(kNameAttr), StringRef(kDeviceAttr),
                         StringRef(kAssignedDeviceAttr)})
    if (op->getAttrOfType<StringAttr>(name))
      elided.push_back(name);
  printer.printOptionalAttrDict(op->getAttrs(), elided);

  ResultRange results = getDataResults(op);
  if (data.empty() && results.empty())
    return;
  os << " : ";
  printer.printFunctionalType(data.getTypes(), results.getTypes());
}

} // namespace tfc::tfg
