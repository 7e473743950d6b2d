//===- TfgTypes.cpp - types of the tfg dialect ----------------------------===//

#include "tfc/Dialect/Tfg/TfgDialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tfc::tfg;

#define GET_TYPEDEF_CLASSES
#include "tfc/Dialect/Tfg/TfgTypes.cpp.inc"

void TfgDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tfc/Dialect/Tfg/TfgTypes.cpp.inc"
      >();
}
