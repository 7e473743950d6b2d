//===- tfc.cpp - the tfc compiler driver ----------------------------------===//
//
//   tfc compile MODEL -o OUT [--feed NAME[:PORT][=D0,D1,...]]... [--fetch ...]
//               [--target NODE]... [--init NODE]... [--signature KEY]
//               [--emit exe|lib|obj|llvm|mlir] [--lib-name NAME]
//               [--header PATH] [--target-cpu/-triple/-features]
//               [pass-manager options]
//   tfc info MODEL
//   tfc run-cluster OUTDIR [flags]
//   tfc costs-from-trace TRACE.json -o COSTS.json
//
// `compile` imports the model, runs the named pipelines (tfc-graph,
// tfc-codegen, tfc-lower-to-llvm: Pipeline.h; `tfc-opt` replays each) and
// writes the result: a program, a static library with its C header
// (docs/Library.md), an object file, LLVM IR, or the IR after a stage
// (--emit mlir, with --stop-after). MLIR's pass-manager options (--print-ir-after-all,
// --mlir-timing, ...) apply to the pipeline.
// `info` prints what a model contains. `run-cluster` runs the programs a
// compile for a cluster wrote, every task on this machine (Launcher.h).
// `costs-from-trace` turns a program's --trace into per-node times for
// --cost-file (CostsFromTrace.h).
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Distributed/Launcher.h"
#include "tfc/Runtime/Checkpoint.h"
#include "tfc/Runtime/EventFile.h"

#include "graph.pb.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Support/Diagnostics.h"
#include "tfc/Support/ModuleFile.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Target/EvaluateConstants.h"
#include "tfc/Target/GraphDef.h"
#include "tfc/Target/GraphViz.h"
#include "tfc/Target/Library.h"
#include "tfc/Target/Program.h"
#include "tfc/Target/ClusterProgram.h"
#include "tfc/Target/ClusterSpec.h"
#include "tfc/Transforms/CompileInterface.h"
#include "tfc/Transforms/CostsFromTrace.h"
#include "tfc/Transforms/SyncReplicas.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"
#include "tfc/Transforms/Pipeline.h"
#include "tfc/Transforms/Placement.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Dialect/Tfg/DataType.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <map>
#include <set>

using namespace mlir;
namespace cl = llvm::cl;

namespace {

cl::OptionCategory tfcOptions("tfc options");
cl::OptionCategory pipelineOptions(
    "Pass manager options (MLIR's, for the graph-level pipeline)");

cl::opt<std::string> modelPath(cl::Positional, cl::desc("<model>"),
                               cl::Required, cl::cat(tfcOptions));
cl::opt<std::string> outputPath("o", cl::desc("Output file ('-' is stdout)"),
                                cl::value_desc("file"), cl::cat(tfcOptions));
cl::opt<std::string> emit(
    "emit",
    cl::desc("What to emit: exe (a program, the default), lib (a static "
             "library and its C header), obj, llvm, mlir, or tensorboard "
             "(the optimized step as a TensorBoard event file in the -o "
             "directory)"),
    cl::init("exe"), cl::cat(tfcOptions));
cl::opt<std::string> vizAfter(
    "after",
    cl::desc("tfc viz: the stage whose graph to draw: prune (the step as "
             "imported and pruned), place (optimized and placed), partition "
             "(placed and cut per device, the default) or fuse (with the "
             "code generator's fusion groups)"),
    cl::init("partition"), cl::cat(tfcOptions));
/// `tfc viz`: compile's flags, a picture for output.
bool vizCommand = false;
cl::opt<std::string> libName(
    "lib-name",
    cl::desc("--emit lib: prefix of the library's C functions (default: the "
             "-o file's stem without 'lib', e.g. mlp for libmlp.a)"),
    cl::value_desc("name"), cl::cat(tfcOptions));
cl::opt<std::string> headerPath(
    "header",
    cl::desc("--emit lib: where to write the C header (default: beside -o, "
             "e.g. mlp.h for libmlp.a)"),
    cl::value_desc("file"), cl::cat(tfcOptions));
cl::opt<std::string> targetCpu("target-cpu",
                               cl::desc("CPU to generate code for (default: host)"), cl::cat(tfcOptions));
cl::opt<unsigned> codegenThreads(
    "codegen-threads",
    cl::desc("Threads that optimize and emit a program's code in parts "
             "(default 0: one per hardware thread; at most 64)"),
    cl::init(0), cl::cat(tfcOptions));
cl::opt<std::string> targetTriple(
    "target-triple", cl::desc("Target triple (default: host)"), cl::cat(tfcOptions));
cl::opt<std::string> targetFeatures(
    "target-features", cl::desc("CPU features, e.g. +avx2,-avx512f"), cl::cat(tfcOptions));
cl::opt<std::string> signature(
    "signature",
    cl::desc("SavedModel signature (default: serving_default)"), cl::cat(tfcOptions));
cl::list<std::string> tags("saved-model-tags", cl::CommaSeparated,
                           cl::desc("SavedModel tag set (default: serve)"), cl::cat(tfcOptions));
cl::list<std::string> feeds(
    "feed", cl::desc("Tensor the caller provides: NAME[:PORT][=D0,D1,...]"),
    cl::value_desc("tensor"), cl::cat(tfcOptions));
cl::list<std::string> maxDims(
    "max-dim",
    cl::desc("A feed's dimension that the data sizes, at most BOUND: "
             "NAME[:PORT]:DIM=BOUND (e.g. --max-dim x:1=512)"),
    cl::value_desc("feed"), cl::cat(tfcOptions));
cl::list<std::string> fetches("fetch",
                              cl::desc("Tensor a step returns: NAME[:PORT]"),
                              cl::value_desc("tensor"), cl::cat(tfcOptions));
cl::list<std::string> targets("target",
                              cl::desc("Node a step runs for its effects"),
                              cl::value_desc("node"), cl::cat(tfcOptions));
cl::list<std::string> initNodes(
    "init", cl::desc("Node run once before the first step"),
    cl::value_desc("node"), cl::cat(tfcOptions));
cl::list<std::string> localInitNodes(
    "local-init",
    cl::desc("Node every worker runs once after the init or a restore "
             "(TensorFlow's Scaffold.local_init_op)"),
    cl::value_desc("node"), cl::cat(tfcOptions));
cl::list<std::string> chiefInitNodes(
    "chief-init",
    cl::desc("Node the chief runs once after the local init "
             "(SyncReplicasOptimizer's chief_init_op, init_tokens_op)"),
    cl::value_desc("node"), cl::cat(tfcOptions));
cl::list<std::string> queueRunners(
    "queue-runner",
    cl::desc("A queue runner: enqueue nodes run on threads of their own "
             "while the steps run, one thread per name: NODE[,NODE...]"),
    cl::value_desc("nodes"), cl::cat(tfcOptions));
cl::list<std::string> chiefQueueRunners(
    "chief-queue-runner",
    cl::desc("A queue runner of the chief's job only, from the chief init "
             "until the chief's steps end (SyncReplicasOptimizer's): "
             "NODE[,NODE...]"),
    cl::value_desc("nodes"), cl::cat(tfcOptions));

cl::list<std::string> devices(
    "devices", cl::CommaSeparated,
    cl::desc("Devices placement may use, e.g. /cpu:0,/cpu:1 (default: one CPU)"),
    cl::value_desc("device,..."), cl::cat(tfcOptions));
cl::opt<std::string> cluster(
    "cluster",
    cl::desc("The cluster's tasks: JOB=TASKS,... (e.g. worker=2,ps=1), a "
             "TF_CONFIG JSON file, a ClusterDef text file, or env (TF_CONFIG); "
             "--devices then lists each task's devices"),
    cl::value_desc("spec"), cl::cat(tfcOptions));
cl::opt<bool> singleProcess(
    "single-process",
    cl::desc("With --cluster: compile every task's partitions into one "
             "program (the default for a cluster of several tasks is one "
             "program per task in the -o directory)"),
    cl::cat(tfcOptions));
cl::opt<std::string> replication(
    "replication",
    cl::desc("With --cluster: between-graph (every worker runs the graph "
             "built for worker 0 as its own client, its variables on the ps "
             "tasks; the default for a cluster with a ps job, several "
             "workers and no chief job) or in-graph (the chief drives every "
             "task's part of one graph)"),
    cl::value_desc("between-graph|in-graph"), cl::cat(tfcOptions));
cl::opt<bool> k8sManifests(
    "k8s-manifests",
    cl::desc("With --cluster: also write OUTDIR/k8s/, a Kubeflow TFJob and "
             "plain Services and Pods running the tasks' programs "
             "(docs/Distributed.md)"),
    cl::cat(tfcOptions));
cl::opt<std::string> k8sImage(
    "k8s-image",
    cl::desc("--k8s-manifests: the container image holding OUTDIR at /tfc "
             "(default tfc-job:latest)"),
    cl::value_desc("image"), cl::init("tfc-job:latest"), cl::cat(tfcOptions));
cl::opt<std::string> k8sVolume(
    "k8s-volume",
    cl::desc("--k8s-manifests: the PersistentVolumeClaim the tasks share at "
             "/checkpoints (default tfc-checkpoints)"),
    cl::value_desc("claim"), cl::init("tfc-checkpoints"), cl::cat(tfcOptions));
cl::opt<std::string> placement(
    "placement",
    cl::desc("Placement strategy: cost (the simulated-execution placer, "
             "default), first, round-robin, or parameter-server (variables "
             "dealt to the ps tasks, the rest on the chief, as TF1's "
             "replica_device_setter places them)"),
    cl::cat(tfcOptions));
cl::opt<bool> softPlacement(
    "soft-placement",
    cl::desc("Relax device requests that no available device meets"),
    cl::cat(tfcOptions));
cl::opt<std::string> compressTransfers(
    "compress-transfers",
    cl::desc("bf16: send float32 tensors between tasks as their high 16 "
             "bits (lossy, the paper's mantissa truncation)"),
    cl::value_desc("format"), cl::cat(tfcOptions));
cl::opt<bool> noRecvScheduling(
    "no-recv-scheduling",
    cl::desc("Do not delay each _Recv to just before its consumers need it"),
    cl::cat(tfcOptions));
cl::opt<bool> noTracePoints(
    "no-trace-points",
    cl::desc("Programs without trace points: --trace records only the "
             "steps (to measure what the points cost when not tracing)"),
    cl::cat(tfcOptions));
cl::opt<unsigned> batchTile(
    "batch-tile",
    cl::desc("For a feed of unknown batch size: rows the step computes per "
             "run; the program runs it over any batch, tile by tile "
             "(default 1)"),
    cl::init(1), cl::cat(tfcOptions));
cl::opt<int64_t> microBatchBytes(
    "micro-batch-bytes",
    cl::desc("A batch's front whose tensors pass the caches runs in micro-"
             "batches whose largest tensor takes at most this many bytes "
             "(default 8 MiB; 0: the whole batch at once)"),
    cl::init(-1), cl::cat(tfcOptions));
cl::opt<std::string> costFile(
    "cost-file", cl::desc("JSON file overriding the placer's cost model"),
    cl::value_desc("file"), cl::cat(tfcOptions));
/// --stop-after STAGE. LLVM's code generator registers an option of that
/// name for its own passes, which tfc does not offer: main unregisters it
/// before this one is made.
cl::opt<std::string> &stopAfterOption() {
  static cl::opt<std::string> option(
      "stop-after",
      cl::desc("With --emit mlir: the stage after which to write the IR: "
               "graph (the default), codegen or lower-to-llvm (tfc-opt "
               "replays the next stage with --tfc-codegen or "
               "--tfc-lower-to-llvm)"),
      cl::value_desc("stage"), cl::init("graph"), cl::cat(tfcOptions));
  return option;
}

const char *kUsage = "usage: tfc compile MODEL -o OUT [options]\n"
                     "       tfc info MODEL\n"
                     "       tfc viz MODEL -o GRAPH.svg|GRAPH.html|GRAPH.dot "
                     "[--after prune|place|partition|fuse] [compile's "
                     "options]\n"
                     "       tfc run-cluster OUTDIR [flags]\n"
                     "       tfc costs-from-trace TRACE.json -o COSTS.json\n"
                     "       tfc <command> --help\n";

OwningOpRef<ModuleOp> load(MLIRContext &context) {
  return tfc::importModel(modelPath, &context,
                          tfc::ModelImportOptions::fromFlags(tags, signature));
}

/// Why a file cannot be made at `path` for want of its folder; "" when
/// the folder is there (or `path` has none).
std::string missingFolder(StringRef path) {
  StringRef folder = llvm::sys::path::parent_path(path);
  if (folder.empty() || llvm::sys::fs::is_directory(folder))
    return "";
  if (llvm::sys::fs::exists(folder))
    return folder.str() + " is not a folder";
  return "no such folder " + folder.str();
}

/// What --emit lib is to call its functions and where its header goes.
struct LibraryOutput {
  std::string name, headerPath;
};

/// The library's name and header path from the flags; none, after a
/// one-line error, when the flags do not fit.
std::optional<LibraryOutput> libraryOutput() {
  auto error = [](const Twine &message) {
    llvm::errs() << "tfc: error: " << message << "\n";
    return std::nullopt;
  };
  if (outputPath == "-")
    return error("--emit lib writes a library and a header; -o - cannot "
                 "hold them");
  LibraryOutput result{libName.getNumOccurrences()
                           ? libName.getValue()
                           : tfc::defaultLibraryName(outputPath),
                       headerPath.getNumOccurrences()
                           ? headerPath.getValue()
                           : tfc::defaultHeaderPath(outputPath)};
  std::string why = tfc::checkLibraryName(result.name);
  if (!why.empty()) {
    if (libName.getNumOccurrences())
      return error("--lib-name '" + result.name + "': " + why);
    return error("-o " + outputPath + ": the name '" + result.name +
                 "' does not fit: " + why + "; give --lib-name NAME");
  }
  auto absolute = [](StringRef path) {
    SmallString<128> result(path);
    llvm::sys::fs::make_absolute(result);
    llvm::sys::path::remove_dots(result, /*remove_dot_dot=*/true);
    return std::string(result);
  };
  if (absolute(result.headerPath) == absolute(outputPath) ||
      llvm::sys::fs::equivalent(result.headerPath, outputPath))
    return error("--header " + result.headerPath +
                 ": the header and the library cannot be one file");
  return result;
}

/// From the optimized graph to LLVM IR, an object file, a program or a
/// library (when `library` is given), or one program per task of
/// `taskPrograms` (ClusterProgram.h), with between-graph replication when
/// `betweenGraph`.
int generateCode(MLIRContext &context, ModuleOp module,
                 const std::optional<LibraryOutput> &library,
                 const std::optional<tfc::ClusterSpec> &taskPrograms,
                 bool betweenGraph, TimingScope &timing) {
  PassManager pm(&context, ModuleOp::getOperationName());
  // --print-ir-after=PASS and friends reach the code generation passes too.
  if (failed(applyPassManagerCLOptions(pm)))
    return tfc::kExitBadInput;
  TimingScope codegenTiming = timing.nest("Code generation");
  pm.enableTiming(codegenTiming);
  tfc::buildTfcCodegenPipeline(pm, /*tracePoints=*/!noTracePoints);
  if (failed(pm.run(module)))
    return tfc::kExitBadInput;
  codegenTiming.stop();
  const std::string &stopAfter = stopAfterOption();
  if (stopAfter == "codegen")
    return tfc::writeModuleFile(module, outputPath);
  if (stopAfter == "lower-to-llvm")
    return succeeded(tfc::lowerToLLVMDialect(module, &timing))
               ? tfc::writeModuleFile(module, outputPath)
               : tfc::kExitBadInput;
  tfc::TargetOptions target{targetTriple, targetCpu, targetFeatures,
                            codegenThreads};
  if (taskPrograms) {
    std::optional<tfc::ManifestOptions> manifests;
    if (k8sManifests) {
      manifests.emplace();
      manifests->image = k8sImage;
      manifests->volumeClaim = k8sVolume;
    }
    return succeeded(tfc::writeClusterPrograms(module, *taskPrograms,
                                               outputPath, target, manifests,
                                               betweenGraph))
               ? tfc::kExitSuccess
               : tfc::kExitFailure;
  }
  // A library's header describes the interface, which lowering drops.
  std::string header;
  if (library) {
    FailureOr<tfc::ModelInterface> interface = tfc::readModelInterface(module);
    if (failed(interface))
      return tfc::kExitBadInput;
    FailureOr<std::string> text = tfc::renderLibraryHeader(
        *interface, library->name, llvm::sys::path::filename(outputPath),
        module.getLoc());
    if (failed(text))
      return tfc::kExitBadInput;
    header = std::move(*text);
  }
  // The partitions' device types, whose targets the link asks (lowering
  // drops the partitions).
  std::vector<std::string> deviceTypes = tfc::partitionDeviceTypes(module);
  Location loc = module.getLoc();
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule = tfc::translateToLLVM(
      module, llvmContext, target, library ? library->name : "", &timing);
  if (!llvmModule)
    return tfc::kExitBadInput;
  // A program is optimized in parts as it is linked; the other outputs are
  // one module.
  if (library || emit == "llvm" || emit == "obj")
    if (failed(tfc::optimizeLLVMModule(*llvmModule, target, &timing)))
      return tfc::kExitFailure;
  if (library) {
    FailureOr<tfc::TargetLinkInputs> inputs =
        tfc::targetLinkInputs(deviceTypes, target, loc);
    if (failed(inputs))
      return tfc::kExitBadInput;
    SmallString<0> object;
    llvm::raw_svector_ostream os(object);
    if (failed(tfc::emitObject(*llvmModule, target, os, &timing)) ||
        failed(tfc::writeLibrary(object, library->name, outputPath, header,
                                 library->headerPath,
                                 inputs->kernelArchives)))
      return tfc::kExitFailure;
    return tfc::kExitSuccess;
  }
  if (emit == "llvm")
    return succeeded(tfc::writeLLVMIR(*llvmModule, outputPath))
               ? tfc::kExitSuccess
               : tfc::kExitFailure;
  if (emit == "obj")
    return succeeded(
               tfc::writeObject(*llvmModule, outputPath, target, &timing))
               ? tfc::kExitSuccess
               : tfc::kExitFailure;
  // A program, linked with the runtime.
  return succeeded(tfc::linkProgram(*llvmModule, outputPath, loc, target,
                                    deviceTypes, tfc::ProgramMain::Standalone,
                                    &timing))
             ? tfc::kExitSuccess
             : tfc::kExitFailure;
}

/// --emit tensorboard: the optimized step, every partition's nodes in one
/// GraphDef (each with its device, which TensorBoard colours by, and the
/// _Send/_Recv pairs between them), as the graph event of an event file
/// in the -o directory.
int writeTensorBoardGraph(ModuleOp module) {
  tfc::proto::GraphDef merged;
  for (auto graph : module.getOps<tfc::tfg::GraphOp>()) {
    auto entry = graph->getAttrOfType<StringAttr>(tfc::kEntryAttr);
    auto device = graph->getAttrOfType<StringAttr>(tfc::kPartitionDeviceAttr);
    if (!entry || entry.getValue() != "step" || !device)
      continue;
    tfc::proto::GraphDef part;
    if (failed(tfc::exportGraphDef(module, part, "step", device.getValue())))
      return tfc::kExitBadInput;
    if (!merged.has_versions())
      *merged.mutable_versions() = part.versions();
    for (tfc::proto::NodeDef &node : *part.mutable_node())
      *merged.add_node() = std::move(node);
    merged.mutable_library()->MergeFrom(part.library());
  }
  std::string path, error;
  if (!tfc::writeGraphEventFile(outputPath, merged.SerializeAsString(), path,
                                error)) {
    llvm::errs() << "tfc: error: " << error << "\n";
    return tfc::kExitFailure;
  }
  llvm::outs() << "wrote " << path << " (" << merged.node_size()
               << " nodes): tensorboard --logdir " << outputPath << "\n";
  return 0;
}

/// `tfc viz`: the step's DOT graph (Target/GraphViz.h) to -o FILE.dot, laid
/// out by Graphviz's `dot` program to -o FILE.svg, or the page whose scopes
/// open to -o FILE.html.
int writePicture(ModuleOp module) {
  StringRef out = outputPath;
  std::string text, error;
  bool drawn = true;
  if (out.ends_with(".dot"))
    text = tfc::stepToDot(module);
  else if (out.ends_with(".svg"))
    drawn = tfc::runDot("svg", tfc::stepToDot(module), text, error);
  else
    drawn = tfc::stepToHtml(
        module,
        (llvm::sys::path::filename(modelPath) + ", after " + vizAfter).str(),
        text, error);
  if (!drawn) {
    llvm::errs() << "tfc: error: viz -o " << out << ": " << error << "\n";
    return tfc::kExitFailure;
  }
  if (!tfc::rt::writeFileAtomically(out.str(), text, error)) {
    llvm::errs() << "tfc: error: " << error << "\n";
    return tfc::kExitFailure;
  }
  return tfc::kExitSuccess;
}

int compile(MLIRContext &context) {
  if (outputPath.empty()) {
    llvm::errs() << "tfc: error: " << (vizCommand ? "viz" : "compile")
                 << " needs -o OUT\n";
    return tfc::kExitBadInput;
  }
  if (vizCommand) {
    if (!StringRef(outputPath).ends_with(".svg") &&
        !StringRef(outputPath).ends_with(".html") &&
        !StringRef(outputPath).ends_with(".dot")) {
      llvm::errs() << "tfc: error: viz -o " << outputPath
                   << ": expected a FILE.svg, FILE.html or FILE.dot\n";
      return tfc::kExitBadInput;
    }
    if (vizAfter != "prune" && vizAfter != "place" &&
        vizAfter != "partition" && vizAfter != "fuse") {
      llvm::errs() << "tfc: error: --after=" << vizAfter
                   << ": expected prune, place, partition or fuse\n";
      return tfc::kExitBadInput;
    }
    if (emit.getNumOccurrences()) {
      llvm::errs() << "tfc: error: viz draws a picture; --emit goes with "
                      "compile\n";
      return tfc::kExitBadInput;
    }
  } else if (vizAfter.getNumOccurrences()) {
    llvm::errs() << "tfc: error: --after goes with viz\n";
    return tfc::kExitBadInput;
  }
  if (emit != "mlir" && emit != "llvm" && emit != "obj" && emit != "exe" &&
      emit != "lib" && emit != "tensorboard") {
    llvm::errs() << "tfc: error: --emit=" << emit
                 << ": expected exe, lib, obj, llvm, mlir or tensorboard\n";
    return tfc::kExitBadInput;
  }
  if (emit == "tensorboard" && outputPath == "-") {
    llvm::errs() << "tfc: error: --emit tensorboard writes an event file "
                    "into the -o directory; -o - cannot hold it\n";
    return tfc::kExitBadInput;
  }
  const std::string &stopAfter = stopAfterOption();
  if (stopAfter != "graph" && stopAfter != "codegen" &&
      stopAfter != "lower-to-llvm") {
    llvm::errs() << "tfc: error: --stop-after=" << stopAfter
                 << ": expected graph, codegen or lower-to-llvm\n";
    return tfc::kExitBadInput;
  }
  if (stopAfterOption().getNumOccurrences() && emit != "mlir") {
    llvm::errs() << "tfc: error: --stop-after goes with --emit mlir\n";
    return tfc::kExitBadInput;
  }
  std::optional<LibraryOutput> library;
  if (emit == "lib") {
    library = libraryOutput();
    if (!library)
      return tfc::kExitBadInput;
  } else if (libName.getNumOccurrences() || headerPath.getNumOccurrences()) {
    llvm::errs() << "tfc: error: --lib-name and --header go with --emit lib\n";
    return tfc::kExitBadInput;
  }
  OwningOpRef<ModuleOp> module = load(context);
  if (!module)
    return tfc::kExitBadInput;
  // With a cluster, every task gets the devices --devices lists.
  std::vector<std::string> deviceNames(devices.begin(), devices.end());
  // A cluster of several tasks compiles to a program per task.
  std::optional<tfc::ClusterSpec> taskPrograms;
  bool betweenGraph = false;
  // Under between-graph replication: the workers, each the template's.
  int64_t replicas = 1;
  bool manifestFlags = k8sManifests || k8sImage.getNumOccurrences() ||
                       k8sVolume.getNumOccurrences();
  if (manifestFlags && !cluster.getNumOccurrences()) {
    llvm::errs() << "tfc: error: --k8s-manifests, --k8s-image and "
                    "--k8s-volume go with --cluster\n";
    return tfc::kExitBadInput;
  }
  if (singleProcess && !cluster.getNumOccurrences()) {
    llvm::errs() << "tfc: error: --single-process goes with --cluster\n";
    return tfc::kExitBadInput;
  }
  if (cluster.getNumOccurrences()) {
    std::string error;
    std::optional<tfc::ClusterSpec> spec = tfc::ClusterSpec::parse(cluster, error);
    if (!spec) {
      llvm::errs() << "tfc: error: " << error << "\n";
      return tfc::kExitBadInput;
    }
    if (spec->numTasks() > 1 && !singleProcess) {
      if (library) {
        llvm::errs() << "tfc: error: --emit lib of a cluster of "
                     << spec->numTasks()
                     << " tasks is not supported yet (a library is one "
                        "process); give --single-process\n";
        return tfc::kExitBadInput;
      }
      if (emit == "exe") {
        if (outputPath == "-") {
          llvm::errs() << "tfc: error: a cluster of " << spec->numTasks()
                       << " tasks compiles to a directory of programs; -o - "
                          "cannot hold them\n";
          return tfc::kExitBadInput;
        }
        taskPrograms = spec;
      }
    }
    if (manifestFlags && !taskPrograms) {
      llvm::errs() << "tfc: error: --k8s-manifests goes with the programs of "
                      "a cluster of several tasks (--emit exe, without "
                      "--single-process)\n";
      return tfc::kExitBadInput;
    }
    if (replication.getNumOccurrences() && replication != "between-graph" &&
        replication != "in-graph") {
      llvm::errs() << "tfc: error: --replication '" << replication
                   << "': expected between-graph or in-graph\n";
      return tfc::kExitBadInput;
    }
    if (replication == "between-graph" && !taskPrograms) {
      llvm::errs() << "tfc: error: --replication between-graph goes with the "
                      "programs of a cluster of several tasks (--emit exe, "
                      "without --single-process)\n";
      return tfc::kExitBadInput;
    }
    // Between-graph replication: placement sees the template replica,
    // worker 0, as the only worker.
    std::optional<tfc::ClusterSpec> placed = spec;
    if (taskPrograms && (replication == "between-graph" ||
                         (!replication.getNumOccurrences() &&
                          tfc::isBetweenGraphCluster(*spec)))) {
      placed = tfc::templateCluster(*spec);
      if (!placed || spec->job("chief")) {
        llvm::errs() << "tfc: error: --replication between-graph needs a "
                        "cluster of workers (worker 0 the chief) and no "
                        "chief job\n";
        return tfc::kExitBadInput;
      }
      betweenGraph = true;
      if (const tfc::ClusterSpec::Job *workers = spec->job("worker"))
        replicas = int64_t(workers->tasks.size());
    }
    std::vector<tfc::DeviceName> perTask;
    for (const std::string &name : deviceNames) {
      std::string error;
      std::optional<tfc::DeviceName> device = tfc::DeviceName::parseTyped(name, error);
      if (!device) {
        llvm::errs() << "tfc: error: --devices: " << error << "\n";
        return tfc::kExitBadInput;
      }
      perTask.push_back(*device);
    }
    deviceNames.clear();
    for (const tfc::DeviceName &device : tfc::clusterDevices(*placed, perTask))
      deviceNames.push_back(device.str());
  }
  // The files -o (and --header) name go into folders that must be there
  // (a cluster's programs and --emit tensorboard make their -o folder
  // themselves): said now, before the compile, not by the linker after it.
  if (outputPath != "-" && !taskPrograms && emit != "tensorboard") {
    std::vector<std::pair<std::string, std::string>> files = {{"-o", outputPath}};
    if (library)
      files.push_back({"--header", library->headerPath});
    for (const auto &[flag, file] : files) {
      std::string why = missingFolder(file);
      if (!why.empty()) {
        llvm::errs() << "tfc: error: " << flag << " " << file << ": " << why << "\n";
        return tfc::kExitBadInput;
      }
    }
  }
  tfc::CompileFlags flags{{feeds.begin(), feeds.end()},
                          {fetches.begin(), fetches.end()},
                          {targets.begin(), targets.end()},
                          {initNodes.begin(), initNodes.end()},
                          deviceNames,
                          placement,
                          softPlacement,
                          costFile,
                          compressTransfers,
                          noRecvScheduling,
                          batchTile};
  if (microBatchBytes.getNumOccurrences() && microBatchBytes < 0) {
    llvm::errs() << "tfc: error: --micro-batch-bytes " << microBatchBytes
                 << ": not a number of bytes (0 or more)\n";
    return tfc::kExitBadInput;
  }
  flags.microBatchBytes = microBatchBytes;
  flags.maxDims.assign(maxDims.begin(), maxDims.end());
  flags.queueRunners.assign(queueRunners.begin(), queueRunners.end());
  flags.chiefQueueRunners.assign(chiefQueueRunners.begin(),
                                 chiefQueueRunners.end());
  flags.localInit.assign(localInitNodes.begin(), localInitNodes.end());
  flags.chiefInit.assign(chiefInitNodes.begin(), chiefInitNodes.end());
  // A cluster's tasks run each step once, for the whole batch.
  if (taskPrograms)
    flags.batchTile = 0;
  flags.replicas = replicas;
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
  // The configuration is on the module (setCompileInterface), where dumps
  // keep it; the pipeline's options stay at their defaults.
  if (vizCommand && vizAfter == "prune") {
    tfc::buildTfcImportPipeline(pm);
  } else {
    tfc::TfcGraphPipelineOptions graphOptions;
    graphOptions.partition = !(vizCommand && vizAfter == "place");
    tfc::buildTfcGraphPipeline(pm, graphOptions);
    // The code generator's first passes, up to its fusion groups.
    if (vizCommand && vizAfter == "fuse")
      tfc::buildTfcFusionPipeline(pm);
  }
  LogicalResult result = pm.run(*module);
  if (statistics)
    tfc::printPassCounters(llvm::errs());
  if (failed(result))
    return tfc::kExitBadInput;

  if (vizCommand)
    return writePicture(*module);
  if (emit == "mlir" && stopAfter == "graph")
    return tfc::writeModuleFile(*module, outputPath);
  if (emit == "tensorboard")
    return writeTensorBoardGraph(*module);
  if (taskPrograms && failed(tfc::checkClusterProgram(*module, *taskPrograms)))
    return tfc::kExitBadInput;
  return generateCode(context, *module, library, taskPrograms,
                      betweenGraph, rootTiming);
}

/// "1.23 M", "244 B", "3.63 KB": a count (of `unit`) with the decimal
/// prefix a person reads at once.
std::string readableCount(double count, StringRef unit = "") {
  const char *prefixes[] = {"", "K", "M", "G", "T"};
  int prefix = 0;
  while (count >= 1000 && prefix < 4) {
    count /= 1000;
    ++prefix;
  }
  std::string text;
  llvm::raw_string_ostream(text)
      << llvm::format(prefix == 0 ? "%.0f" : "%.3g", count);
  std::string suffix = (prefixes[prefix] + unit).str();
  return suffix.empty() ? text : text + " " + suffix;
}

/// What a user wants to know before compiling (`tfc info`): the model's
/// parameters, and, from `step` (the model's step as the import pipeline
/// and shape inference leave it; null when they failed), its feeds and
/// fetches with their types and an estimate of the FLOPs of one step.
void printModelFacts(ModuleOp model, ModuleOp step, llvm::raw_ostream &os) {
  // Parameters: the variables' elements; a frozen graph has none, and its
  // floating-point constants of more than one element are its weights.
  int64_t variables = 0;
  double parameters = 0, parameterBytes = 0;
  double constants = 0, constantBytes = 0;
  model->walk([&](tfc::tfg::GraphOp graph) {
    for (Operation &node : graph.getBody().getOperations()) {
      if (!tfc::tfg::isNode(&node))
        continue;
      StringRef type = tfc::tfg::getOpType(&node);
      if (type == "VarHandleOp" || type == "VariableV2" || type == "Variable") {
        auto shape = node.getAttrOfType<tfc::tfg::ShapeAttr>("shape");
        auto dtype = node.getAttrOfType<TypeAttr>("dtype");
        if (!shape || shape.getUnranked() || !dtype)
          continue;
        double count = 1;
        for (int64_t d : shape.getDims())
          count *= std::max<int64_t>(d, 0);
        ++variables;
        parameters += count;
        parameterBytes += count * tfc::elementBytes(dtype.getValue());
      } else if (type == "Const") {
        auto value = node.getAttrOfType<ElementsAttr>("value");
        if (value && isa<FloatType>(value.getElementType()) &&
            value.getNumElements() > 1) {
          constants += value.getNumElements();
          constantBytes += value.getNumElements() *
                           tfc::elementBytes(value.getElementType());
        }
      }
    }
  });
  if (variables > 0)
    os << "parameters: " << readableCount(parameters) << " in "
       << variables << " variable" << (variables == 1 ? "" : "s") << ", "
       << readableCount(parameterBytes, "B") << "\n";
  else
    os << "parameters: none in variables; floating-point constants hold "
       << readableCount(constants) << " values, "
       << readableCount(constantBytes, "B") << " (a frozen graph's weights)\n";
  if (!step)
    return;
  // The step entry's _Args and _Retvals, in their order; the FLOPs of its
  // nodes by the placer's cost model.
  SmallVector<std::string> feeds, fetches;
  auto names = [](Attribute list) {
    SmallVector<StringRef> out;
    if (auto array = dyn_cast_or_null<ArrayAttr>(list))
      for (Attribute name : array)
        out.push_back(cast<StringAttr>(name).getValue());
    return out;
  };
  SmallVector<StringRef> feedNames = names(step->getAttr(tfc::kFeedsAttr));
  SmallVector<StringRef> fetchNames = names(step->getAttr(tfc::kFetchesAttr));
  double flops = 0;
  bool unknownDims = false, loops = false;
  step->walk([&](tfc::tfg::GraphOp graph) {
    auto entry = graph->getAttrOfType<StringAttr>(tfc::kEntryAttr);
    if (!entry || entry.getValue() != "step")
      return;
    for (Operation &node : graph.getBody().getOperations()) {
      if (!tfc::tfg::isNode(&node))
        continue;
      auto index = node.getAttrOfType<IntegerAttr>("index");
      tfc::OpKind kind = tfc::opKindOf(&node);
      if (kind == tfc::OpKind::InternalArg && index &&
          index.getInt() < int64_t(feedNames.size()))
        feeds.push_back("feed " + feedNames[index.getInt()].str() + ": " +
                        tfc::tfg::tensorTypeName(tfc::tfg::getDataResults(&node)[0].getType()));
      else if (kind == tfc::OpKind::InternalRetval && index &&
               index.getInt() < int64_t(fetchNames.size()))
        fetches.push_back("fetch " + fetchNames[index.getInt()].str() + ": " +
                          tfc::tfg::tensorTypeName(tfc::tfg::getDataOperands(&node)[0].getType()));
      else
        flops += tfc::CostModel::flops(&node);
      loops |= tfc::plainOpKindOf(&node) == tfc::OpKind::Enter;
      for (Value result : tfc::tfg::getDataResults(&node))
        if (auto tensor = dyn_cast<TensorType>(result.getType()))
          unknownDims |= !tensor.hasStaticShape();
    }
  });
  // (Without a signature or flags a compile fetches every unconsumed
  // output, which in a training graph is many: the first few are shown.)
  const size_t shown = 8;
  for (const std::string &line : feeds)
    os << line << "\n";
  for (size_t i = 0; i < fetches.size() && i < shown; ++i)
    os << fetches[i] << "\n";
  if (fetches.size() > shown)
    os << "fetch ... and " << fetches.size() - shown
       << " more: every unconsumed output, as a compile without --fetch "
          "(give --fetch)\n";
  os << "FLOPs per step: about " << readableCount(flops)
     << " (multiply-adds count 2; other ops an operation per element they "
        "touch"
     << (unknownDims ? "; each unknown dimension counts 1" : "")
     << (loops ? "; a loop's body counts once" : "") << ")\n";
}

/// Prints the contents of a model: graph and functions, op types, and what
/// tfc does not support.
int info(MLIRContext &context) {
  OwningOpRef<ModuleOp> module = load(context);
  if (!module)
    return tfc::kExitBadInput;
  llvm::raw_ostream &os = llvm::outs();
  std::map<std::string, int> histogram;
  int graphNodes = 0, functionNodes = 0, functions = 0;
  module->walk([&](Operation *op) {
    if (isa<tfc::tfg::FuncOp>(op))
      ++functions;
    if (!tfc::tfg::isNode(op))
      return;
    (isa<tfc::tfg::GraphOp>(op->getParentOp()) ? graphNodes : functionNodes)++;
    histogram[tfc::tfg::getOpType(op).str()]++;
  });
  // What a compile with no flag but -o refuses: the graph as it reaches
  // tfc-verify-supported (pruned to the step, tables bound, calls inlined,
  // padded splits dense), on a copy, and that pass's findings, each group
  // with its first node. A refusal on the way there is said as it is.
  llvm::MapVector<std::string, std::string, std::map<std::string, unsigned>>
      unsupported, unhandled;
  std::string refusal;
  OwningOpRef<ModuleOp> shaped;
  {
    OwningOpRef<ModuleOp> step = module->clone();
    ScopedDiagnosticHandler quiet(&context, [&](Diagnostic &diagnostic) {
      if (diagnostic.getSeverity() == DiagnosticSeverity::Error &&
          refusal.empty())
        refusal = diagnostic.str();
      return success();
    });
    PassManager pm(&context, ModuleOp::getOperationName());
    tfc::buildTfcImportPipeline(pm);
    if (succeeded(tfc::setCompileInterface(*step, tfc::CompileFlags())) &&
        succeeded(pm.run(*step))) {
      tfc::Refusals refused = tfc::findRefusals(*step);
      for (auto &[group, nodes] : refused.unsupported)
        unsupported.insert({group, tfc::tfg::getNodeName(nodes.front()).str()});
      for (auto &[group, nodes] : refused.unhandled)
        unhandled.insert({group, tfc::tfg::getNodeName(nodes.front()).str()});
      // The step's shapes, for the facts below.
      PassManager shapes(&context, ModuleOp::getOperationName());
      shapes.addPass(tfc::createInferShapesPass());
      if (succeeded(shapes.run(*step)))
        shaped = std::move(step);
    }
  }
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
  // A MetaGraph's queue runners: what --queue-runner would say.
  if (auto runners = (*module)->getAttrOfType<ArrayAttr>(
          tfc::kMetaGraphQueueRunnersAttr))
    for (Attribute runner : runners)
      os << "queue runner: " << cast<StringAttr>(runner).getValue() << "\n";
  // A MetaGraph's partitioned variables: what checkpoints save them as.
  if (auto parts = (*module)->getAttrOfType<DictionaryAttr>(
          tfc::kVariableSlicesAttr))
    for (NamedAttribute part : parts) {
      auto info = cast<DictionaryAttr>(part.getValue());
      os << "partitioned: " << part.getName().getValue() << " is slice "
         << info.getAs<StringAttr>("slice").getValue() << " of '"
         << info.getAs<StringAttr>("key").getValue() << "'\n";
    }
  // A SyncReplicasOptimizer's parts: what a compile runs without flags.
  {
    std::string notUnderstood;
    ScopedDiagnosticHandler quiet(&context, [&](Diagnostic &diagnostic) {
      notUnderstood = diagnostic.str();
      return success();
    });
    FailureOr<std::optional<tfc::SyncReplicasParts>> sync =
        tfc::findSyncReplicas(*module, /*addInitTokens=*/false);
    if (failed(sync)) {
      os << "sync replicas: not understood: " << notUnderstood << "\n";
    } else if (*sync) {
      const tfc::SyncReplicasParts &parts = **sync;
      os << "sync replicas: " << parts.replicasToAggregate
         << " gradients per update, " << parts.tokensPerStep
         << " tokens back per update\n";
      os << "  sync local init: " << parts.localInit << "\n";
      os << "  sync chief init: " << parts.chiefInit << "\n";
      if (parts.initTokens.empty())
        os << "  sync initial tokens: none in the graph; a compile makes "
           << parts.replicasToAggregate << " (the session hook's default)\n";
      else
        os << "  sync initial tokens: " << parts.initTokens << "\n";
      os << "  sync chief queue runner: " << parts.chiefQueueRunner << "\n";
    }
  }
  printModelFacts(*module, shaped ? *shaped : ModuleOp(), os);
  os << "op types (" << histogram.size() << "):\n";
  for (const auto &[type, count] : histogram)
    os << "  " << type << " " << count << "\n";
  // "TITLE: none", or each refused thing with its first node.
  auto printRefused = [&](StringRef title, const auto &refused) {
    os << title << ":";
    if (refused.empty())
      os << " none";
    for (const auto &[what, node] : refused)
      os << " " << what << " (node '" << node << "')";
    os << "\n";
  };
  printRefused("unsupported op types", unsupported);

  // What tfc-verify-supported refuses once every op is lowered.
  printRefused("unsupported attribute values", unhandled);
  if (!refusal.empty())
    os << "refused: " << refusal << "\n";
  // Feeds of unknown shape: the compile needs --feed NAME=SHAPE for them
  // (a batch of one suggested for each unknown size).
  // A SavedModel's are its signature's inputs; a GraphDef's its
  // placeholders.
  std::set<std::string> signatureFeeds;
  if (auto feeds = (*module)->getAttrOfType<DictionaryAttr>(
          tfc::kSignatureFeedsAttr))
    for (NamedAttribute entry : feeds)
      signatureFeeds.insert(
          cast<StringAttr>(entry.getValue()).getValue().split(':').first.str());
  std::map<std::string, std::string> unshaped, anyBatch;
  module->walk([&](tfc::tfg::GraphOp graph) {
    for (Operation &node : graph.getBody().getOperations()) {
      if (!tfc::tfg::isNode(&node) || tfc::tfg::getOpType(&node) != "Placeholder")
        continue;
      auto shape = node.getAttrOfType<tfc::tfg::ShapeAttr>("shape");
      std::string name = tfc::tfg::getNodeName(&node).str();
      if (!signatureFeeds.empty() && !signatureFeeds.count(name))
        continue;
      if (!shape || shape.getUnranked()) {
        unshaped[name] = "of unknown rank: give --feed " + name + "=SHAPE";
        continue;
      }
      if (llvm::none_of(shape.getDims(), [](int64_t d) { return d < 0; }))
        continue;
      SmallVector<std::string> dims, hint;
      for (int64_t d : shape.getDims()) {
        dims.push_back(d < 0 ? "?" : std::to_string(d));
        hint.push_back(d < 0 ? "1" : std::to_string(d));
      }
      // Only the batch unknown: tfc-tile-batch compiles it for any batch
      // when the rows stay apart, else asks for the shape.
      ArrayRef<int64_t> known = shape.getDims().drop_front();
      std::string what = "[" + llvm::join(dims, ",") + "]: e.g. --feed " +
                         name + "=" + llvm::join(hint, ",");
      // A size past the batch that the data decides (a sequence's length)
      // may take a bound instead.
      auto later = llvm::find_if(known, [](int64_t d) { return d < 0; });
      if (later != known.end())
        what += ", or --max-dim " + name + ":" +
                std::to_string(later - known.begin() + 1) + "=512";
      (shape.getDims()[0] < 0 && later == known.end() ? anyBatch
                                                      : unshaped)[name] = what;
    }
  });
  SmallVector<std::string> needs;
  for (const auto &[name, what] : unshaped)
    needs.push_back(name + " " + what);
  os << "feeds that need a shape: "
     << (needs.empty() ? std::string("none") : llvm::join(needs, "; "))
     << "\n";
  // Compiled for any batch size where each row is computed on its own
  // (inference, as a rule), else refused with the node that mixes rows.
  SmallVector<std::string> batches;
  for (const auto &[name, what] : anyBatch)
    batches.push_back(name + " " + what.substr(0, what.find(':')));
  if (!batches.empty())
    os << "feeds of unknown batch (one program for any batch if rows stay "
          "apart, else give the shape): "
       << llvm::join(batches, "; ") << "\n";
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

/// `tfc costs-from-trace TRACE.json -o COSTS.json` (CostsFromTrace.h).
static int costsFromTraceCommand(int argc, char **argv) {
  const char *usage =
      "usage: tfc costs-from-trace TRACE.json -o COSTS.json (- for stdout)";
  auto fail = [](const Twine &message, int status) {
    llvm::errs() << "tfc costs-from-trace: error: " << message << "\n";
    return status;
  };
  std::string input, output;
  for (int i = 0; i < argc; ++i) {
    StringRef arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      llvm::outs() << usage << "\n";
      return tfc::kExitSuccess;
    }
    if (arg == "-o" && i + 1 < argc)
      output = argv[++i];
    else if (arg.starts_with("-o") && arg.size() > 2)
      output = arg.drop_front(2).str();
    else if (!arg.starts_with("-") && input.empty())
      input = arg.str();
    else
      return fail("unexpected argument '" + arg + "'; " + usage,
                  tfc::kExitBadInput);
  }
  if (input.empty() || output.empty())
    return fail(usage, tfc::kExitBadInput);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
      llvm::MemoryBuffer::getFileOrSTDIN(input);
  if (!text)
    return fail(input + ": " + text.getError().message(), tfc::kExitBadInput);
  std::string costs, error;
  size_t nodes = 0;
  if (!tfc::costsFromTrace((*text)->getBuffer(), costs, nodes, error))
    return fail(input + ": " + error, tfc::kExitBadInput);
  if (output == "-") {
    llvm::outs() << costs;
  } else if (!tfc::rt::writeFileAtomically(output, costs, error)) {
    return fail(error, tfc::kExitFailure);
  }
  llvm::errs() << "tfc costs-from-trace: " << nodes << " nodes timed\n";
  return tfc::kExitSuccess;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  if (argc < 2 || StringRef(argv[1]).starts_with("-")) {
    bool help = argc >= 2 && (StringRef(argv[1]) == "--help" ||
                              StringRef(argv[1]) == "-h");
    (help ? llvm::outs() : llvm::errs()) << kUsage;
    return help ? tfc::kExitSuccess : tfc::kExitBadInput;
  }
  StringRef command = argv[1];
  // The launcher reads its own flags: the rest are the tasks'.
  if (command == "run-cluster") {
    std::string name = "tfc run-cluster";
    argv[1] = name.data();
    return tfc::runCluster(argc - 1, argv + 1);
  }
  if (command == "costs-from-trace")
    return costsFromTraceCommand(argc - 2, argv + 2);
  if (command != "compile" && command != "info" && command != "viz") {
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
  llvm::StringMap<cl::Option *> &registered = cl::getRegisteredOptions();
  if (auto llvmStopAfter = registered.find("stop-after");
      llvmStopAfter != registered.end())
    llvmStopAfter->second->removeArgument();
  stopAfterOption();
  // --help lists tfc's options and the pass manager's, not every option
  // LLVM's libraries register.
  for (auto &entry : cl::getRegisteredOptions()) {
    StringRef name = entry.first();
    if (name.starts_with("mlir-") || name.starts_with("print-ir-") ||
        name == "pass-pipeline-crash-reproducer")
      entry.second->addCategory(pipelineOptions);
  }
  cl::HideUnrelatedOptions({&tfcOptions, &pipelineOptions});
  // The command takes the place of the program name for option parsing.
  std::string program = ("tfc " + command).str();
  std::vector<const char *> args = {program.c_str()};
  args.insert(args.end(), argv + 2, argv + argc);
  if (!cl::ParseCommandLineOptions(static_cast<int>(args.size()), args.data(),
                                   "tfc: TensorFlow graph compiler\n",
                                   &llvm::errs()))
    return tfc::kExitBadInput;

  // Numeric subgraphs of constants fold by running compiled code.
  DialectRegistry registry;
  registry.insert<tfc::tfg::TfgDialect>();
  tfc::registerConstantEvaluator(registry);
  MLIRContext context(registry);
  context.getOrLoadDialect<tfc::tfg::TfgDialect>();
  tfc::OneLineDiagnostics diagnostics(&context, "tfc");
  vizCommand = command == "viz";
  return command == "info" ? info(context) : compile(context);
}
