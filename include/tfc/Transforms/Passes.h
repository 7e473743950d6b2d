//===- Passes.h - tfc graph passes ------------------------------*- C++ -*-===//

#ifndef TFC_TRANSFORMS_PASSES_H
#define TFC_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tfc {

#define GEN_PASS_DECL
#include "tfc/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tfc/Transforms/Passes.h.inc"

} // namespace tfc

#endif // TFC_TRANSFORMS_PASSES_H
