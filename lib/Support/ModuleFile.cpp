//===- ModuleFile.cpp - writing IR files from the tools -------------------===//

#include "tfc/Support/ModuleFile.h"
#include "tfc/Support/Diagnostics.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

namespace tfc {

int writeModuleFile(mlir::ModuleOp module, llvm::StringRef path) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> out = mlir::openOutputFile(path, &error);
  if (!out) {
    llvm::errs() << path << ": error: " << error << "\n";
    return kExitFailure;
  }
  module.print(out->os());
  out->keep();
  return kExitSuccess;
}

} // namespace tfc
