//===- ClusterProgram.cpp - one program per task of a cluster -------------===//

#include "tfc/Target/ClusterProgram.h"
#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Variables.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;

namespace tfc {

OwningOpRef<ModuleOp> extractTaskModule(ModuleOp module, const TaskName &task,
                                        const ClusterSpec &cluster) {
  OwningOpRef<ModuleOp> result(cast<ModuleOp>(module->clone()));
  // The partitions (step and init graphs) of other tasks go, with their
  // step functions; what only those called goes with symbol DCE below.
  SymbolTable symbols(*result);
  llvm::DenseSet<int64_t> heldVariables;
  for (auto graph : llvm::make_early_inc_range(result->getOps<tfg::GraphOp>())) {
    auto device = graph->getAttrOfType<StringAttr>(kPartitionDeviceAttr);
    if (!device || !graph->hasAttr(kEntryAttr))
      continue;
    std::optional<TaskName> owner = TaskName::ofDevice(device.str());
    const ClusterSpec::Job *job = owner ? cluster.job(owner->job) : nullptr;
    if (!job || size_t(owner->index) >= job->tasks.size()) {
      emitError(graph.getLoc()) << "partition on " << device.getValue()
                                << ": the device is of no task of the cluster";
      return nullptr;
    }
    if (*owner == task) {
      for (Operation &node : graph.getBody())
        if (isVariableNode(&node))
          if (auto offset = node.getAttrOfType<IntegerAttr>(kStateOffsetAttr))
            heldVariables.insert(offset.getInt());
      continue;
    }
    if (auto function = graph->getAttrOfType<StringAttr>(kStepFunctionAttr))
      if (Operation *op = symbols.lookup(function.getValue()))
        op->erase();
    graph->erase();
  }
  // Checkpoints save and restore the variables the task holds.
  if (auto table = (*result)->getAttrOfType<ArrayAttr>(kVariablesAttr)) {
    SmallVector<Attribute> kept;
    for (auto entry : table.getAsRange<DictionaryAttr>())
      if (heldVariables.contains(entry.getAs<IntegerAttr>("offset").getInt()))
        kept.push_back(entry);
    (*result)->setAttr(kVariablesAttr,
                       ArrayAttr::get(module.getContext(), kept));
  }
  // The checkpoint's object graph is written once, with the chief's shard.
  if (!(cluster.chief() == task))
    (*result)->removeAttr(kObjectGraphAttr);
  (*result)->setAttr(kTaskAttr, StringAttr::get(module.getContext(), task.str()));
  PassManager pm(module.getContext(), ModuleOp::getOperationName());
  pm.addPass(createSymbolDCEPass());
  if (failed(pm.run(*result)))
    return nullptr;
  return result;
}

void addTaskIdentity(llvm::Module &module, const TaskName &task,
                     const ClusterSpec &cluster) {
  llvm::LLVMContext &context = module.getContext();
  auto addString = [&](StringRef name, StringRef text) {
    llvm::Constant *value = llvm::ConstantDataArray::getString(context, text);
    new llvm::GlobalVariable(module, value->getType(), /*isConstant=*/true,
                             llvm::GlobalValue::ExternalLinkage, value, name);
  };
  addString("tfc_task_job", task.job);
  addString("tfc_cluster_spec", cluster.toJson());
  new llvm::GlobalVariable(
      module, llvm::Type::getInt32Ty(context), /*isConstant=*/true,
      llvm::GlobalValue::ExternalLinkage,
      llvm::ConstantInt::get(llvm::Type::getInt32Ty(context), task.index),
      "tfc_task_index");
}

namespace {

LogicalResult fail(Location loc, const Twine &message) {
  return emitError(loc) << message;
}

/// Compiles the part of `module` that `runs` to an executable at `path`
/// for task `task` (the template replica's part, for a worker of
/// between-graph replication).
LogicalResult writeTaskProgram(ModuleOp module, const TaskName &task,
                               const TaskName &runs,
                               const ClusterSpec &cluster, StringRef path,
                               const TargetOptions &options,
                               bool betweenGraph) {
  OwningOpRef<ModuleOp> taskModule = extractTaskModule(module, runs, cluster);
  if (!taskModule)
    return failure();
  // The partitions' device types, whose targets the link asks (lowering
  // drops the partitions).
  std::vector<std::string> deviceTypes = partitionDeviceTypes(*taskModule);
  Location loc = taskModule->getLoc();
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateToLLVM(*taskModule, llvmContext, options);
  if (!llvmModule)
    return failure();
  addTaskIdentity(*llvmModule, task, cluster);
  if (betweenGraph) {
    llvm::Type *i32 = llvm::Type::getInt32Ty(llvmContext);
    new llvm::GlobalVariable(*llvmModule, i32, /*isConstant=*/true,
                             llvm::GlobalValue::ExternalLinkage,
                             llvm::ConstantInt::get(i32, 1),
                             "tfc_between_graph");
  }
  return linkProgram(*llvmModule, path, loc, options, deviceTypes,
                     ProgramMain::ClusterTask);
}

} // namespace

LogicalResult checkClusterProgram(ModuleOp module, const ClusterSpec &cluster) {
  Location loc = module.getLoc();
  std::optional<TaskName> chief = cluster.chief();
  if (!chief)
    return fail(loc, "the cluster has no chief (no job 'chief' or 'worker') "
                     "to drive the steps");
  // The chief's program takes the feeds and gives the fetches.
  for (auto graph : module.getOps<tfg::GraphOp>()) {
    auto device = graph->getAttrOfType<StringAttr>(kPartitionDeviceAttr);
    std::optional<TaskName> owner =
        device ? TaskName::ofDevice(device.str()) : std::nullopt;
    if (!owner || *owner == *chief)
      continue;
    for (Operation &node : graph.getBody()) {
      OpKind kind = opKindOf(&node);
      if (kind != OpKind::InternalArg && kind != OpKind::InternalRetval)
        continue;
      bool feed = kind == OpKind::InternalArg;
      auto names =
          module->getAttrOfType<ArrayAttr>(feed ? kFeedsAttr : kFetchesAttr);
      int64_t index = node.getAttrOfType<IntegerAttr>("index").getInt();
      StringRef name = names && index < int64_t(names.size())
                           ? cast<StringAttr>(names[index]).getValue()
                           : tfg::getNodeName(&node);
      return fail(node.getLoc(),
                  Twine(feed ? "feed" : "fetch") + " '" + name +
                      "' is placed on " +
                      owner->str() + ", and the chief " + chief->str() +
                      " takes the feeds and gives the fetches");
    }
  }

  return success();
}

std::optional<ClusterSpec> templateCluster(const ClusterSpec &cluster) {
  ClusterSpec result = cluster;
  for (ClusterSpec::Job &job : result.jobs)
    if (job.name == kTemplateReplica.job) {
      job.tasks.resize(1);
      return result;
    }
  return std::nullopt;
}

bool isBetweenGraphCluster(const ClusterSpec &cluster) {
  const ClusterSpec::Job *workers = cluster.job(kTemplateReplica.job);
  const ClusterSpec::Job *ps = cluster.job("ps");
  return workers && workers->tasks.size() > 1 && ps && !cluster.job("chief");
}

LogicalResult writeClusterPrograms(ModuleOp module, const ClusterSpec &spec,
                                   StringRef outDir,
                                   const TargetOptions &options,
                                   std::optional<ManifestOptions> manifests,
                                   bool betweenGraph) {
  Location loc = module.getLoc();
  // The shorthand gives no addresses: loopback ones, to be replaced at
  // deploy time (--cluster or TF_CONFIG at run time win over them).
  ClusterSpec cluster = spec;
  cluster.addLoopbackAddresses(2222);
  if (failed(checkClusterProgram(module, cluster)))
    return failure();
  // Everything is made in a directory beside OUTDIR, then moved in.
  SmallString<256> absolute(outDir);
  llvm::sys::fs::make_absolute(absolute);
  llvm::sys::path::remove_dots(absolute, /*remove_dot_dot=*/true);
  while (absolute.size() > 1 && llvm::sys::path::is_separator(absolute.back()))
    absolute.pop_back();
  if (llvm::sys::fs::exists(absolute) && !llvm::sys::fs::is_directory(absolute))
    return fail(loc, "-o " + outDir +
                         ": a cluster compiles to a directory of programs, "
                         "and this is a file");
  StringRef parent = llvm::sys::path::parent_path(absolute);
  if (std::error_code ec = llvm::sys::fs::create_directories(parent))
    return fail(loc, "-o " + outDir + ": " + ec.message());
  SmallString<256> staging(parent);
  llvm::sys::path::append(staging,
                          "." + llvm::sys::path::filename(absolute) + "-%%%%%%");
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory(staging, staging))
    return fail(loc, "-o " + outDir + ": " + ec.message());
  auto removeStaging =
      llvm::make_scope_exit([&] { llvm::sys::fs::remove_directories(staging); });
  auto inStaging = [&](StringRef name) {
    SmallString<256> path(staging);
    llvm::sys::path::append(path, name);
    return std::string(path);
  };

  std::vector<std::string> files;
  for (const ClusterSpec::Job &job : cluster.jobs)
    for (size_t index = 0; index < job.tasks.size(); ++index) {
      TaskName task{job.name, int(index)};
      // With between-graph replication every worker runs the template's
      // partitions.
      TaskName runs =
          betweenGraph && job.name == kTemplateReplica.job ? kTemplateReplica
                                                           : task;
      std::string name = job.name + "-" + std::to_string(index);
      if (failed(writeTaskProgram(module, task, runs, cluster, inStaging(name),
                                  options, betweenGraph)))
        return failure();
      files.push_back(name);
    }
  {
    std::error_code ec;
    llvm::raw_fd_ostream json(inStaging("cluster.json"), ec);
    if (ec)
      return fail(loc, "cannot write cluster.json: " + ec.message());
    json << cluster.toJson() << "\n";
  }
  files.push_back("cluster.json");
  if (betweenGraph) {
    std::error_code ec;
    llvm::raw_fd_ostream marker(inStaging(kReplicationFile), ec);
    if (ec)
      return fail(loc, Twine("cannot write ") + kReplicationFile + ": " +
                           ec.message());
    marker << "between-graph\n";
    files.push_back(kReplicationFile);
  }
  std::string runTask = runtimeLibraryDir() + "/tfc-run-task";
  if (std::error_code ec = llvm::sys::fs::copy_file(runTask, inStaging("run-task")))
    return fail(loc, "cannot copy " + runTask + ": " + ec.message());
  llvm::sys::fs::setPermissions(inStaging("run-task"),
                                llvm::sys::fs::all_read | llvm::sys::fs::all_exe |
                                    llvm::sys::fs::owner_write);
  files.push_back("run-task");
  if (manifests) {
    if (manifests->name.empty())
      manifests->name =
          manifestJobName(llvm::sys::path::filename(absolute).str());
    if (std::error_code ec = llvm::sys::fs::create_directory(inStaging("k8s")))
      return fail(loc, "cannot make k8s/: " + ec.message());
    for (auto [name, text] :
         {std::make_pair("k8s/tfjob.yaml", tfJobManifest(cluster, *manifests)),
          std::make_pair("k8s/pods.yaml", podManifests(cluster, *manifests))}) {
      std::error_code ec;
      llvm::raw_fd_ostream file(inStaging(name), ec);
      if (ec)
        return fail(loc, Twine("cannot write ") + name + ": " + ec.message());
      file << text;
    }
    files.push_back("k8s");
  }

  if (std::error_code ec = llvm::sys::fs::create_directories(absolute))
    return fail(loc, "-o " + outDir + ": " + ec.message());
  for (const std::string &name : files) {
    SmallString<256> target(absolute);
    llvm::sys::path::append(target, name);
    // A directory of an earlier compile (k8s/) is replaced whole.
    if (llvm::sys::fs::is_directory(target))
      llvm::sys::fs::remove_directories(target);
    if (std::error_code ec = llvm::sys::fs::rename(inStaging(name), target))
      return fail(loc, "cannot move " + name + " into " + outDir + ": " +
                           ec.message());
  }
  return success();
}

} // namespace tfc
