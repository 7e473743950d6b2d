//===- ModuleFile.h - writing IR files from the tools -----------*- C++ -*-===//

#ifndef TFC_SUPPORT_MODULEFILE_H
#define TFC_SUPPORT_MODULEFILE_H

#include "mlir/IR/BuiltinOps.h"

namespace tfc {

/// Prints `module` to `path` ("-" is stdout). The file appears only once it
/// is complete. Returns the tool's exit status.
int writeModuleFile(mlir::ModuleOp module, llvm::StringRef path);

} // namespace tfc

#endif // TFC_SUPPORT_MODULEFILE_H
