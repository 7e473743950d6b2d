//===- Diagnostics.cpp - one-line errors for the tfc tools ----------------===//

#include "tfc/Support/Diagnostics.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace tfc {

/// The file position of a location: "file", "file:line:col", or "".
static std::string describe(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc)) {
    std::string text = file.getFilename().str();
    if (file.getLine() != 0)
      text += ":" + std::to_string(file.getLine()) + ":" +
              std::to_string(file.getColumn());
    return text;
  }
  if (auto name = dyn_cast<NameLoc>(loc))
    return describe(name.getChildLoc());
  if (auto call = dyn_cast<CallSiteLoc>(loc))
    return describe(call.getCallee());
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location inner : fused.getLocations()) {
      std::string text = describe(inner);
      if (!text.empty())
        return text;
    }
  }
  return "";
}

OneLineDiagnostics::OneLineDiagnostics(MLIRContext *context, StringRef tool)
    : context(context) {
  id = context->getDiagEngine().registerHandler(
      [tool = tool.str()](Diagnostic &diag) {
        const char *severity = nullptr;
        switch (diag.getSeverity()) {
        case DiagnosticSeverity::Error: severity = "error"; break;
        case DiagnosticSeverity::Warning: severity = "warning"; break;
        default: return success();
        }
        std::string where = describe(diag.getLocation());
        std::string message = diag.str();
        std::replace(message.begin(), message.end(), '\n', ' ');
        llvm::errs() << (where.empty() ? tool : where) << ": " << severity
                     << ": " << message << "\n";
        return success();
      });
}

OneLineDiagnostics::~OneLineDiagnostics() {
  context->getDiagEngine().eraseHandler(id);
}

} // namespace tfc
