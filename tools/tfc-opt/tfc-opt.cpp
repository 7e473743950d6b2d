//===- tfc-opt.cpp - run tfc passes on tfg IR -----------------------------===//
//
// MLIR's opt driver with the tfg dialect, every tfc pass, and the
// `tfc-pipeline` that `tfc compile` runs.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Transforms/Passes.h"
#include "tfc/Transforms/Pipeline.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  tfc::registerTfcPasses();
  tfc::registerTfcPipeline();
  mlir::DialectRegistry registry;
  registry.insert<tfc::tfg::TfgDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tfc optimizer driver\n", registry));
}
