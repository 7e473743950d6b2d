//===- tfc-opt.cpp - run tfc passes on tfg IR -----------------------------===//
//
// MLIR's opt driver with the tfg dialect, every tfc pass, and the named
// pipelines that `tfc compile` runs (tfc-graph, tfc-codegen,
// tfc-lower-to-llvm), with the dialects code generation makes.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Target/EvaluateConstants.h"
#include "tfc/Transforms/Passes.h"
#include "tfc/Transforms/Pipeline.h"

#include "tfc/Support/PassCounters.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  tfc::registerTfcPasses();
  tfc::registerTfcPipelines();
  mlir::DialectRegistry registry;
  // What tfc-codegen and tfc-lower-to-llvm write, so their output replays.
  registry.insert<tfc::tfg::TfgDialect, mlir::affine::AffineDialect,
                  mlir::arith::ArithDialect, mlir::complex::ComplexDialect,
                  mlir::cf::ControlFlowDialect,
                  mlir::func::FuncDialect, mlir::linalg::LinalgDialect,
                  mlir::LLVM::LLVMDialect, mlir::math::MathDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect,
                  mlir::vector::VectorDialect>();
  // As in tfc: numeric subgraphs of constants fold by running compiled code.
  tfc::registerConstantEvaluator(registry);
  auto [inputPath, outputPath] = mlir::registerAndParseCLIOptions(
      argc, argv, "tfc optimizer driver\n", registry);
  bool statistics = tfc::takePassStatisticsFlag();

  std::string error;
  auto input = mlir::openInputFile(inputPath, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return 1;
  }
  auto output = mlir::openOutputFile(outputPath, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return 1;
  }
  llvm::LogicalResult result =
      mlir::MlirOptMain(output->os(), std::move(input), registry,
                        mlir::MlirOptMainConfig::createFromCLOptions());
  if (statistics)
    tfc::printPassCounters(llvm::errs());
  if (mlir::succeeded(result))
    output->keep();
  return mlir::asMainReturnCode(result);
}
