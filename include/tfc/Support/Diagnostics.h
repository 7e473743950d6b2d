//===- Diagnostics.h - one-line errors for the tfc tools --------*- C++ -*-===//
//
// The command-line tools print every diagnostic as exactly one line,
// "FILE[:LINE:COL]: error: MESSAGE", so that a bad model gives one clear
// error and scripts can match it. Exit statuses are shared by all tools.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_SUPPORT_DIAGNOSTICS_H
#define TFC_SUPPORT_DIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"

namespace tfc {

/// Exit statuses of tfc's tools.
enum ExitStatus : int {
  kExitSuccess = 0,
  /// A failure while running (cannot write a file, ...).
  kExitFailure = 1,
  /// Bad usage or bad input: flags, files, graphs.
  kExitBadInput = 2,
};

/// Prints diagnostics of `context` as single lines on stderr while alive.
/// `tool` prefixes diagnostics that have no file location.
class OneLineDiagnostics {
public:
  OneLineDiagnostics(mlir::MLIRContext *context, llvm::StringRef tool);
  ~OneLineDiagnostics();

private:
  mlir::MLIRContext *context;
  mlir::DiagnosticEngine::HandlerID id;
};

} // namespace tfc

#endif // TFC_SUPPORT_DIAGNOSTICS_H
