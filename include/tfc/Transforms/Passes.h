//===- Passes.h - tfc graph passes ------------------------------*- C++ -*-===//

#ifndef TFC_TRANSFORMS_PASSES_H
#define TFC_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tfc {

#define GEN_PASS_DECL
#include "tfc/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tfc/Transforms/Passes.h.inc"

} // namespace tfc

#endif // TFC_TRANSFORMS_PASSES_H
