//===- Program.h - from the lowered step to objects and programs -*- C++ -*-===//
//
// The last stage of `tfc compile`: the module holding `tfc_step_impl` (from
// convert-tfg-to-memref) is lowered to LLVM IR, given the C ABI's step
// wrapper and model descriptor (tfc_runtime.h), optimized for the target
// CPU, emitted as an object file by LLVM's TargetMachine in-process, and
// linked into a program with the system C++ driver.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TARGET_PROGRAM_H
#define TFC_TARGET_PROGRAM_H

#include "mlir/IR/BuiltinOps.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace tfc {

struct TargetOptions {
  /// Empty: the host's.
  std::string triple, cpu, features;
};

/// Lowers `module` (after convert-tfg-to-memref) to an LLVM module with
/// `tfc_step` and `tfc_compiled_model`, optimized at O3 for the target.
/// The module's tfg graphs describe the interface and are dropped.
std::unique_ptr<llvm::Module>
buildLLVMModule(mlir::ModuleOp module, llvm::LLVMContext &context,
                const TargetOptions &options);

/// Writes `module` as an object file, or as LLVM IR text.
mlir::LogicalResult writeObject(llvm::Module &module, llvm::StringRef path,
                                const TargetOptions &options);
mlir::LogicalResult writeLLVMIR(llvm::Module &module, llvm::StringRef path);

/// The file name of the kernel library built for the target's ISA level
/// (AVX-512, AVX2 or baseline on x86-64; see runtime/kernels/cpu).
std::string kernelLibraryFor(const TargetOptions &options);

/// Links an object file holding a model into a program with the runtime's
/// main, runtime and kernel libraries (the kernels of the target's ISA).
mlir::LogicalResult linkProgram(llvm::StringRef object, llvm::StringRef output,
                                mlir::Location loc, const TargetOptions &options);

} // namespace tfc

#endif // TFC_TARGET_PROGRAM_H
