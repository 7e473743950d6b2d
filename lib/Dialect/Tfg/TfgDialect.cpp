//===- TfgDialect.cpp - the TensorFlow graph dialect ----------------------===//
//
// Dialect registration and the parse/print hooks of unregistered node
// operations.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Dialect/Tfc/TfcDialect.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"

#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace tfc::tfg;

#include "tfc/Dialect/Tfg/TfgDialect.cpp.inc"

namespace tfc::tfg {
// Defined in NodeSyntax.cpp.
ParseResult parseNode(OpAsmParser &parser, OperationState &state);
void printNode(Operation *op, OpAsmPrinter &printer);
bool hasPrintableNodeName(StringRef opName);
} // namespace tfc::tfg

void TfgDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tfc/Dialect/Tfg/TfgOps.cpp.inc"
      >();
  registerTypes();
  registerAttributes();
  // One operation per TensorFlow op type, known or not, is created on import;
  // the registry, not MLIR's op registration, decides what is valid.
  allowUnknownOperations();
}

std::optional<Dialect::ParseOpHook>
TfgDialect::getParseOperationHook(StringRef opName) const {
  if (auto registered = Dialect::getParseOperationHook(opName))
    return registered;
  return ParseOpHook(parseNode);
}

llvm::unique_function<void(Operation *, OpAsmPrinter &)>
TfgDialect::getOperationPrinter(Operation *op) const {
  if (op->isRegistered())
    return Dialect::getOperationPrinter(op);
  // Op types that are not MLIR identifiers (e.g. "Addons>Foo") keep the
  // generic form, which quotes the name.
  if (!hasPrintableNodeName(op->getName().getStringRef()))
    return {};
  return printNode;
}
