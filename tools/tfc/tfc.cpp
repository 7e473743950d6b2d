//===- tfc.cpp - the tfc compiler driver ----------------------------------===//
//
//   tfc compile MODEL -o OUT [--feed NAME[:PORT][=D0,D1,...]]... [--fetch ...]
//               [--target NODE]... [--init NODE]... [--signature KEY]
//               [--emit exe|obj|llvm|mlir] [--target-cpu/-triple/-features]
//               [pass-manager options]
//   tfc info MODEL
//
// `compile` imports the model, runs the graph-level pipeline (the same one
// `tfc-opt --tfc-pipeline` runs) and writes the result. MLIR's pass-manager
// options (--print-ir-after-all, --mlir-timing, ...) apply to the pipeline.
// `info` prints what a model contains.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/OpRegistry.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Support/Diagnostics.h"
#include "tfc/Support/ModuleFile.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Target/GraphDef.h"
#include "tfc/Target/Program.h"
#include "tfc/Transforms/CompileInterface.h"
#include "tfc/Transforms/Passes.h"
#include "tfc/Transforms/Pipeline.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"

#include <map>

using namespace mlir;
namespace cl = llvm::cl;

namespace {

cl::opt<std::string> modelPath(cl::Positional, cl::desc("<model>"),
                               cl::Required);
cl::opt<std::string> outputPath("o", cl::desc("Output file ('-' is stdout)"),
                                cl::value_desc("file"));
cl::opt<std::string> emit(
    "emit", cl::desc("What to emit: exe (default), obj, llvm or mlir"),
    cl::init("exe"));
cl::opt<std::string> targetCpu("target-cpu",
                               cl::desc("CPU to generate code for (default: host)"));
cl::opt<std::string> targetTriple(
    "target-triple", cl::desc("Target triple (default: host)"));
cl::opt<std::string> targetFeatures(
    "target-features", cl::desc("CPU features, e.g. +avx2,-avx512f"));
cl::opt<std::string> signature(
    "signature",
    cl::desc("SavedModel signature (default: serving_default)"));
cl::list<std::string> tags("saved-model-tags", cl::CommaSeparated,
                           cl::desc("SavedModel tag set (default: serve)"));
cl::list<std::string> feeds(
    "feed", cl::desc("Tensor the caller provides: NAME[:PORT][=D0,D1,...]"),
    cl::value_desc("tensor"));
cl::list<std::string> fetches("fetch",
                              cl::desc("Tensor a step returns: NAME[:PORT]"),
                              cl::value_desc("tensor"));
cl::list<std::string> targets("target",
                              cl::desc("Node a step runs for its effects"),
                              cl::value_desc("node"));
cl::list<std::string> initNodes(
    "init", cl::desc("Node run once before the first step"),
    cl::value_desc("node"));

const char *kUsage = "usage: tfc compile MODEL -o OUT [options]\n"
                     "       tfc info MODEL\n"
                     "       tfc <command> --help\n";

OwningOpRef<ModuleOp> load(MLIRContext &context) {
  return tfc::importModel(modelPath, &context,
                          tfc::ModelImportOptions::fromFlags(tags, signature));
}

/// From the optimized graph to LLVM IR, an object file or a program.
int generateCode(MLIRContext &context, ModuleOp module) {
  PassManager pm(&context, ModuleOp::getOperationName());
  pm.addPass(tfc::createDecomposeBatchNormPass());
  pm.addPass(tfc::createVerifyStaticShapesPass());
  pm.addPass(tfc::createFuseElementwisePass());
  pm.addPass(tfc::createPlanMemoryPass());
  pm.addPass(tfc::createConvertTfgToMemrefPass());
  if (failed(pm.run(module)))
    return tfc::kExitBadInput;
  tfc::TargetOptions target{targetTriple, targetCpu, targetFeatures};
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      tfc::buildLLVMModule(module, llvmContext, target);
  if (!llvmModule)
    return tfc::kExitBadInput;
  if (emit == "llvm")
    return succeeded(tfc::writeLLVMIR(*llvmModule, outputPath))
               ? tfc::kExitSuccess
               : tfc::kExitFailure;
  if (emit == "obj")
    return succeeded(tfc::writeObject(*llvmModule, outputPath, target))
               ? tfc::kExitSuccess
               : tfc::kExitFailure;
  // A program: the object in a temporary file, linked with the runtime.
  SmallString<128> object;
  if (llvm::sys::fs::createTemporaryFile("tfc-model", "o", object)) {
    llvm::errs() << "tfc: error: cannot create a temporary file\n";
    return tfc::kExitFailure;
  }
  auto removeObject =
      llvm::make_scope_exit([&] { llvm::sys::fs::remove(object); });
  if (failed(tfc::writeObject(*llvmModule, object, target)) ||
      failed(tfc::linkProgram(object, outputPath, module.getLoc(), target)))
    return tfc::kExitFailure;
  return tfc::kExitSuccess;
}

int compile(MLIRContext &context) {
  if (outputPath.empty()) {
    llvm::errs() << "tfc: error: compile needs -o OUT\n";
    return tfc::kExitBadInput;
  }
  if (emit != "mlir" && emit != "llvm" && emit != "obj" && emit != "exe") {
    llvm::errs() << "tfc: error: --emit=" << emit
                 << ": expected exe, obj, llvm or mlir\n";
    return tfc::kExitBadInput;
  }
  OwningOpRef<ModuleOp> module = load(context);
  if (!module)
    return tfc::kExitBadInput;
  tfc::CompileFlags flags{{feeds.begin(), feeds.end()},
                          {fetches.begin(), fetches.end()},
                          {targets.begin(), targets.end()},
                          {initNodes.begin(), initNodes.end()}};
  if (failed(tfc::setCompileInterface(*module, flags)))
    return tfc::kExitBadInput;

  bool statistics = tfc::takePassStatisticsFlag();
  PassManager pm(&context, ModuleOp::getOperationName());
  if (failed(applyPassManagerCLOptions(pm)))
    return tfc::kExitBadInput;
  DefaultTimingManager timing;
  applyDefaultTimingManagerCLOptions(timing);
  TimingScope rootTiming = timing.getRootScope();
  pm.enableTiming(rootTiming);
  tfc::buildTfcPipeline(pm, tfc::TfcPipelineOptions());
  LogicalResult result = pm.run(*module);
  if (statistics)
    tfc::printPassCounters(llvm::errs());
  if (failed(result))
    return tfc::kExitBadInput;

  if (emit == "mlir")
    return tfc::writeModuleFile(*module, outputPath);
  return generateCode(context, *module);
}

/// Prints the contents of a model: graph and functions, op types, and what
/// tfc does not support.
int info(MLIRContext &context) {
  OwningOpRef<ModuleOp> module = load(context);
  if (!module)
    return tfc::kExitBadInput;
  llvm::raw_ostream &os = llvm::outs();
  std::map<std::string, int> histogram;
  llvm::MapVector<StringRef, StringRef> unsupported;
  int graphNodes = 0, functionNodes = 0, functions = 0;
  module->walk([&](Operation *op) {
    if (isa<tfc::tfg::FuncOp>(op))
      ++functions;
    if (!tfc::tfg::isNode(op))
      return;
    (isa<tfc::tfg::GraphOp>(op->getParentOp()) ? graphNodes : functionNodes)++;
    histogram[tfc::tfg::getOpType(op).str()]++;
    if (!tfc::OpRegistry::get().lookup(tfc::tfg::getOpType(op)))
      unsupported.insert({tfc::tfg::getOpType(op), tfc::tfg::getNodeName(op)});
  });
  os << "model: " << modelPath << "\n";
  module->walk([&](tfc::tfg::GraphOp graph) {
    os << "producer version: " << graph.getVersion().getProducer() << "\n";
  });
  os << "graph nodes: " << graphNodes << "\n";
  os << "functions: " << functions << " (" << functionNodes << " nodes)\n";
  auto printMap = [&](StringRef title, StringRef attr) {
    auto dict = (*module)->getAttrOfType<DictionaryAttr>(attr);
    if (!dict)
      return;
    os << title << ":";
    for (NamedAttribute entry : dict)
      os << " " << entry.getName().getValue() << "="
         << cast<StringAttr>(entry.getValue()).getValue();
    os << "\n";
  };
  if (auto savedModel =
          (*module)->getAttrOfType<DictionaryAttr>(tfc::kSavedModelAttr))
    if (auto key = savedModel.getAs<StringAttr>("signature"))
      os << "signature: " << key.getValue() << "\n";
  printMap("feeds", tfc::kSignatureFeedsAttr);
  printMap("fetches", tfc::kSignatureFetchesAttr);
  os << "op types (" << histogram.size() << "):\n";
  for (const auto &[type, count] : histogram)
    os << "  " << type << " " << count << "\n";
  if (unsupported.empty()) {
    os << "unsupported op types: none\n";
  } else {
    os << "unsupported op types:";
    for (const auto &[type, node] : unsupported)
      os << " " << type << " (node '" << node << "')";
    os << "\n";
  }
  return tfc::kExitSuccess;
}

/// The contract's short spellings of MLIR's IR-printing options:
/// --print-ir-after-all is --mlir-print-ir-after-all, and so on.
void addPrintIrAliases() {
  llvm::StringMap<cl::Option *> &options = cl::getRegisteredOptions();
  for (const char *name : {"print-ir-after-all", "print-ir-before-all",
                           "print-ir-after", "print-ir-before",
                           "print-ir-after-change", "print-ir-after-failure"}) {
    auto it = options.find((llvm::Twine("mlir-") + name).str());
    if (it == options.end())
      continue;
    // Options live as long as the program; so do their aliases, and the
    // strings they refer to.
    auto *help = new std::string("Alias for --mlir-" + std::string(name));
    new cl::alias(StringRef(name), cl::desc(*help), cl::aliasopt(*it->second));
  }
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  if (argc < 2 || StringRef(argv[1]).starts_with("-")) {
    bool help = argc >= 2 && (StringRef(argv[1]) == "--help" ||
                              StringRef(argv[1]) == "-h");
    (help ? llvm::outs() : llvm::errs()) << kUsage;
    return help ? tfc::kExitSuccess : tfc::kExitBadInput;
  }
  StringRef command = argv[1];
  if (command != "compile" && command != "info") {
    llvm::errs() << "tfc: error: unknown command '" << command << "'\n"
                 << kUsage;
    return tfc::kExitBadInput;
  }

  // Passes are registered so that options such as --print-ir-after=PASS
  // can name them.
  tfc::registerTfcPasses();
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  addPrintIrAliases();
  // The command takes the place of the program name for option parsing.
  std::string program = ("tfc " + command).str();
  std::vector<const char *> args = {program.c_str()};
  args.insert(args.end(), argv + 2, argv + argc);
  if (!cl::ParseCommandLineOptions(static_cast<int>(args.size()), args.data(),
                                   "tfc: TensorFlow graph compiler\n",
                                   &llvm::errs()))
    return tfc::kExitBadInput;

  MLIRContext context;
  context.getOrLoadDialect<tfc::tfg::TfgDialect>();
  tfc::OneLineDiagnostics diagnostics(&context, "tfc");
  return command == "compile" ? compile(context) : info(context);
}
