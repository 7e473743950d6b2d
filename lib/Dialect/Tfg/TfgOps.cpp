//===- TfgOps.cpp - structural operations of tfg --------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfc/TfcDialect.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace tfc::tfg;

#define GET_OP_CLASSES
#include "tfc/Dialect/Tfg/TfgOps.cpp.inc"

/// Verifies every node of a graph or function body, the members of its
/// fusion groups too, and that node names are unique there. Other
/// operations may not appear, except the terminator.
static LogicalResult verifyNodes(Block &body, Operation *terminator) {
  llvm::DenseMap<StringRef, Operation *> byName;
  auto verifyOne = [&](Operation *node) -> LogicalResult {
    if (failed(verifyNode(node)))
      return failure();
    auto [it, inserted] = byName.try_emplace(getNodeName(node), node);
    if (!inserted)
      return node->emitError() << "duplicate node name '" << getNodeName(node)
                               << "'";
    return success();
  };
  for (Operation &op : body) {
    if (&op == terminator)
      continue;
    if (auto group = dyn_cast<tfc::FusionGroupOp>(op)) {
      // Members are nodes of the graph whose control inputs are the
      // group's.
      for (Operation &member : group.getMembers().without_terminator()) {
        if (!isNode(&member))
          return member.emitError("only TensorFlow node operations may "
                                  "appear in a fusion group, found '")
                 << member.getName() << "'";
        if (!getControlOperands(&member).empty())
          return member.emitError()
                 << "node '" << getNodeName(&member)
                 << "' in a fusion group has control inputs of its own";
        if (failed(verifyOne(&member)))
          return failure();
      }
      if (!isControl(group.getControlType()))
        return group.emitOpError("has no control token (its last result)");
      continue;
    }
    if (!isNode(&op))
      return op.emitError("only TensorFlow node operations may appear in a "
                          "graph or function body, found '")
             << op.getName() << "'";
    if (failed(verifyOne(&op)))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// GraphOp
//===----------------------------------------------------------------------===//

StringRef GraphOp::getDefaultDialect() { return "tfg"; }

RegionKind GraphOp::getRegionKind(unsigned) { return RegionKind::Graph; }

LogicalResult GraphOp::verifyRegions() {
  return verifyNodes(getBody(), /*terminator=*/nullptr);
}

//===----------------------------------------------------------------------===//
// FuncOp
//===----------------------------------------------------------------------===//

StringRef FuncOp::getDefaultDialect() { return "tfg"; }

RegionKind FuncOp::getRegionKind(unsigned) { return RegionKind::Graph; }

/// Names block arguments after the signature's input args.
void FuncOp::getAsmBlockArgumentNames(Region &region,
                                      OpAsmSetValueNameFn setNameFn) {
  if (region.empty())
    return;
  for (BlockArgument arg : region.getArguments())
    if (auto name = getArgAttrOfType<StringAttr>(arg.getArgNumber(), kNameAttr))
      setNameFn(arg, name.getValue());
}

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType = [](Builder &builder, ArrayRef<Type> argTypes,
                          ArrayRef<Type> results,
                          function_interface_impl::VariadicFlag,
                          std::string &) {
    return builder.getFunctionType(argTypes, results);
  };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void FuncOp::print(OpAsmPrinter &printer) {
  function_interface_impl::printFunctionOp(
      printer, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult FuncOp::verifyRegions() {
  Block &body = getBody().front();
  auto ret = dyn_cast<ReturnOp>(body.getTerminator());
  if (!ret)
    return emitOpError("body must end with tfg.return");
  if (body.getNumArguments() != getNumArguments())
    return emitOpError("body has ") << body.getNumArguments()
                                    << " arguments, signature has "
                                    << getNumArguments();
  ArrayRef<Type> results = getResultTypes();
  OperandRange data = ret.getDataOperands();
  if (data.size() != results.size())
    return ret.emitOpError("returns ") << data.size()
                                       << " values, function has "
                                       << results.size() << " results";
  return verifyNodes(body, ret);
}

//===----------------------------------------------------------------------===//
// ReturnOp
//===----------------------------------------------------------------------===//

OperandRange ReturnOp::getDataOperands() {
  unsigned n = getNumOperands();
  while (n > 0 && isControl(getOperand(n - 1)))
    --n;
  return getOperands().take_front(n);
}

OperandRange ReturnOp::getControlOperands() {
  return getOperands().drop_front(getDataOperands().size());
}

LogicalResult ReturnOp::verify() {
  for (Value value : getDataOperands())
    if (isControl(value))
      return emitOpError("control operands must follow data operands");
  if (getControlOperands().size() != getControlNames().size())
    return emitOpError("has ") << getControlOperands().size()
                               << " control operands but "
                               << getControlNames().size() << " control names";
  return success();
}

// tfg.return(%a, %b) [%ctl] {control_names = ["x"]} : tensor<..>, tensor<..>
ParseResult ReturnOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> data, control;
  SmallVector<Type> types;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOperandList(data, OpAsmParser::Delimiter::OptionalParen) ||
      parser.parseOperandList(control,
                              OpAsmParser::Delimiter::OptionalSquare) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  if (succeeded(parser.parseOptionalColon()) && parser.parseTypeList(types))
    return failure();
  Type controlType = ControlType::get(parser.getContext());
  if (parser.resolveOperands(data, types, loc, result.operands) ||
      parser.resolveOperands(control, controlType, result.operands))
    return failure();
  StringAttr namesAttr = getControlNamesAttrName(result.name);
  if (!result.attributes.get(namesAttr))
    result.addAttribute(namesAttr, parser.getBuilder().getStrArrayAttr({}));
  return success();
}

void ReturnOp::print(OpAsmPrinter &printer) {
  OperandRange data = getDataOperands();
  OperandRange control = getControlOperands();
  if (!data.empty()) {
    printer << '(';
    printer.printOperands(data);
    printer << ')';
  }
  if (!control.empty()) {
    printer << " [";
    printer.printOperands(control);
    printer << ']';
  }
  SmallVector<StringRef, 1> elided;
  if (getControlNames().empty())
    elided.push_back(getControlNamesAttrName());
  printer.printOptionalAttrDict((*this)->getAttrs(), elided);
  if (!data.empty()) {
    printer << " : ";
    llvm::interleaveComma(data.getTypes(), printer);
  }
}
