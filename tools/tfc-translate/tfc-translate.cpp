//===- tfc-translate.cpp - GraphDef <-> tfg IR ----------------------------===//
//
//   tfc-translate --graphdef-to-mlir MODEL.pb|MODEL.pbtxt|SAVED_MODEL_DIR -o OUT.mlir
//   tfc-translate --mlir-to-graphdef IN.mlir -o OUT.pbtxt|OUT.pb
//
// Bad input gives one line on stderr, exit status 2, and no output file.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Support/Diagnostics.h"
#include "tfc/Support/ModuleFile.h"
#include "tfc/Target/GraphDef.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {
enum class Direction { None, GraphDefToMlir, MlirToGraphDef };

cl::opt<Direction> direction(
    cl::desc("Translation:"), cl::init(Direction::None),
    cl::values(clEnumValN(Direction::GraphDefToMlir, "graphdef-to-mlir",
                          "GraphDef (.pb/.pbtxt) or SavedModel directory to "
                          "tfg IR"),
               clEnumValN(Direction::MlirToGraphDef, "mlir-to-graphdef",
                          "tfg IR to GraphDef (binary if OUT ends in .pb)")));
cl::opt<std::string> inputPath(cl::Positional, cl::desc("<input>"),
                               cl::init("-"));
cl::opt<std::string> outputPath("o", cl::desc("Output file ('-' is stdout)"),
                                cl::value_desc("file"), cl::init("-"));
cl::opt<std::string> entry(
    "entry",
    cl::desc("--mlir-to-graphdef of a pruned module: the graph to export "
             "(step or init)"));
cl::opt<std::string> device(
    "device",
    cl::desc("--mlir-to-graphdef of a partitioned module: the partition to "
             "export, by its device (full or partial name)"));
cl::list<std::string> tags("saved-model-tags", cl::CommaSeparated,
                           cl::desc("SavedModel tag set (default: serve)"));
cl::opt<std::string> signature(
    "saved-model-signature",
    cl::desc("SavedModel signature for feeds/fetches (default: "
             "serving_default)"));

int graphDefToMlir(MLIRContext &context) {
  OwningOpRef<ModuleOp> module = tfc::importModel(
      inputPath, &context, tfc::ModelImportOptions::fromFlags(tags, signature));
  if (!module)
    return tfc::kExitBadInput;
  return tfc::writeModuleFile(*module, outputPath);
}

int mlirToGraphDef(MLIRContext &context) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input = openInputFile(inputPath, &error);
  if (!input) {
    llvm::errs() << inputPath << ": error: " << error << "\n";
    return tfc::kExitBadInput;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return tfc::kExitBadInput;
  if (failed(tfc::writeGraphDef(*module, outputPath, entry, device)))
    return tfc::kExitBadInput;
  return tfc::kExitSuccess;
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "tfc-translate: GraphDef <-> tfg IR\n",
                                   &llvm::errs()))
    return tfc::kExitBadInput;
  if (direction == Direction::None) {
    llvm::errs() << "tfc-translate: error: choose --graphdef-to-mlir or "
                    "--mlir-to-graphdef\n";
    return tfc::kExitBadInput;
  }
  MLIRContext context;
  context.getOrLoadDialect<tfc::tfg::TfgDialect>();
  tfc::OneLineDiagnostics diagnostics(&context, "tfc-translate");
  return direction == Direction::GraphDefToMlir ? graphDefToMlir(context)
                                                : mlirToGraphDef(context);
}
