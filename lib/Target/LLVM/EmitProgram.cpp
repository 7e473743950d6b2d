//===- EmitProgram.cpp - from the lowered step to objects and programs ----===//

#include "tfc/Target/Program.h"
#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Dialect/Tfg/DataType.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Runtime/tfc_runtime.h"
#include "tfc/Target/Library.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Partition.h"
#include "tfc/Transforms/Pipeline.h"
#include "tfc/Transforms/Queues.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/Utils/SplitModule.h"

using namespace mlir;

namespace tfc {
namespace {

TensorInfo infoOf(StringRef name, Type type) {
  auto tensor = cast<RankedTensorType>(type);
  return {name.str(), tfg::typeToDataType(tensor.getElementType()),
          SmallVector<int64_t>(tensor.getShape())};
}

/// tfc_step(runtime, arena, inputs[], outputs[]) -> tfc_step_impl(...), and
/// the tfc_compiled_model descriptor.
void addAbi(llvm::Module &m, const ModelInterface &interface) {
  llvm::LLVMContext &ctx = m.getContext();
  llvm::IRBuilder<> b(ctx);
  llvm::Type *ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type *i32 = b.getInt32Ty(), *i64 = b.getInt64Ty();

  // One wrapper per partition: unpack the pointer arrays and call the
  // partition's function with its part of the arena.
  auto *stepType =
      llvm::FunctionType::get(b.getVoidTy(), {ptr, ptr, ptr, ptr, ptr}, false);
  // The partitions' functions take `takesInputs` input pointers and the
  // rest output pointers: those the entry has, and null for the others.
  auto entryPoint = [&](ArrayRef<ModelInterface::Partition> partitions,
                        StringRef name, size_t numInputs, size_t numOutputs,
                        size_t takesInputs) -> llvm::Constant * {
    if (partitions.empty()) {
      if (interface.task.empty())
        return llvm::ConstantPointerNull::get(cast<llvm::PointerType>(ptr));
      // A cluster task without partitions of the entry takes part in its
      // steps doing nothing.
      auto *nothing = llvm::Function::Create(
          stepType, llvm::Function::InternalLinkage, name, m);
      b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", nothing));
      b.CreateRetVoid();
      return nothing;
    }
    SmallVector<llvm::Constant *> wrappers;
    for (auto [k, partition] : llvm::enumerate(partitions)) {
      auto *wrapper = llvm::Function::Create(
          stepType, llvm::Function::InternalLinkage,
          name + "_partition_" + std::to_string(k), m);
      // The wrapper only loads pointers and calls: optimizing it gains
      // nothing, and for a step of thousands of outputs (the constant
      // evaluator's program of a large graph) its one block of loads took
      // the instruction schedulers time quadratic in their number.
      wrapper->addFnAttr(llvm::Attribute::OptimizeNone);
      wrapper->addFnAttr(llvm::Attribute::NoInline);
      b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", wrapper));
      SmallVector<llvm::Value *> args = {
          wrapper->getArg(0),
          b.CreateConstGEP1_64(b.getInt8Ty(), wrapper->getArg(1),
                               partition.arenaOffset),
          wrapper->getArg(2)};
      llvm::Function *function = m.getFunction(partition.function);
      size_t takesOutputs = function->arg_size() - 3 - takesInputs;
      for (auto [array, count, taken] :
           {std::make_tuple(wrapper->getArg(3), numInputs, takesInputs),
            std::make_tuple(wrapper->getArg(4), numOutputs, takesOutputs)})
        for (size_t i = 0; i < std::max(count, taken); ++i)
          args.push_back(
              i < count
                  ? static_cast<llvm::Value *>(b.CreateLoad(
                        ptr, b.CreateConstGEP1_64(ptr, array, i)))
                  : llvm::ConstantPointerNull::get(cast<llvm::PointerType>(ptr)));
      b.CreateCall(function, args);
      b.CreateRetVoid();
      wrappers.push_back(wrapper);
    }
    if (wrappers.size() == 1)
      return wrappers.front();
    // Several devices: the runtime runs the partitions concurrently.
    auto *arrayType = llvm::ArrayType::get(ptr, wrappers.size());
    auto *table = new llvm::GlobalVariable(
        m, arrayType, true, llvm::GlobalValue::PrivateLinkage,
        llvm::ConstantArray::get(arrayType, wrappers), name + "_partitions");
    auto *entry = llvm::Function::Create(
        stepType, llvm::Function::InternalLinkage, name, m);
    b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", entry));
    auto *runType = llvm::FunctionType::get(
        b.getVoidTy(), {ptr, i32, ptr, ptr, ptr, ptr, ptr}, false);
    llvm::FunctionCallee run =
        m.getOrInsertFunction("tfc_run_partitions", runType);
    b.CreateCall(run, {entry->getArg(0),
                       llvm::ConstantInt::get(i32, wrappers.size()), table,
                       entry->getArg(1), entry->getArg(2), entry->getArg(3),
                       entry->getArg(4)});
    b.CreateRetVoid();
    return entry;
  };
  llvm::Constant *step = entryPoint(
      interface.partitions, "tfc_step", interface.inputs.size(),
      interface.outputs.size(), interface.stepFeeds);
  llvm::Constant *init =
      entryPoint(interface.initPartitions, "tfc_init", 0, 0, 0);
  llvm::Constant *localInit =
      entryPoint(interface.localInitPartitions, "tfc_local_init", 0, 0, 0);
  llvm::Constant *chiefInit =
      entryPoint(interface.chiefInitPartitions, "tfc_chief_init", 0, 0, 0);

  // struct tfc_tensor_info { const char *name; i32 dtype; i32 rank; const i64 *dims; }
  auto *infoType = llvm::StructType::get(ctx, {ptr, i32, i32, ptr});
  // A shape as a private constant array of i64.
  auto dimsGlobal = [&](ArrayRef<int64_t> shape, const Twine &name) {
    auto *dimsType = llvm::ArrayType::get(i64, shape.size());
    SmallVector<llvm::Constant *> dims;
    for (int64_t d : shape)
      dims.push_back(llvm::ConstantInt::get(i64, d));
    return new llvm::GlobalVariable(m, dimsType, true,
                                    llvm::GlobalValue::PrivateLinkage,
                                    llvm::ConstantArray::get(dimsType, dims), name);
  };
  auto tensorInfos = [&](ArrayRef<TensorInfo> tensors, StringRef prefix) {
    SmallVector<llvm::Constant *> infos;
    for (auto [i, t] : llvm::enumerate(tensors)) {
      llvm::Constant *name = b.CreateGlobalStringPtr(t.name, (prefix + "_name").str(), 0, &m);
      infos.push_back(llvm::ConstantStruct::get(
          infoType, {name, llvm::ConstantInt::get(i32, t.dtype),
                     llvm::ConstantInt::get(i32, t.dims.size()),
                     dimsGlobal(t.dims, prefix + "_dims")}));
    }
    auto *arrayType = llvm::ArrayType::get(infoType, infos.size());
    return new llvm::GlobalVariable(m, arrayType, true,
                                    llvm::GlobalValue::PrivateLinkage,
                                    llvm::ConstantArray::get(arrayType, infos),
                                    prefix.str());
  };
  llvm::Constant *inputs = tensorInfos(interface.inputs, "tfc_inputs");
  llvm::Constant *outputs = tensorInfos(interface.outputs, "tfc_outputs");
  // struct tfc_variable_info { const char *name, *key; i32 dtype, rank;
  //                             const i64 *dims; i64 offset, flag_offset;
  //                             const char *slice; }
  auto *variableType =
      llvm::StructType::get(ctx, {ptr, ptr, i32, i32, ptr, i64, i64, ptr});
  SmallVector<llvm::Constant *> variableInfos;
  for (const ModelInterface::Variable &v : interface.variables) {
    variableInfos.push_back(llvm::ConstantStruct::get(
        variableType,
        {b.CreateGlobalStringPtr(v.name, "tfc_variable_name", 0, &m),
         b.CreateGlobalStringPtr(v.key, "tfc_variable_key", 0, &m),
         llvm::ConstantInt::get(i32, v.dtype),
         llvm::ConstantInt::get(i32, v.dims.size()),
         dimsGlobal(v.dims, "tfc_variable_dims"),
         llvm::ConstantInt::get(i64, v.offset),
         llvm::ConstantInt::get(i64, v.flag),
         b.CreateGlobalStringPtr(v.slice, "tfc_variable_slice", 0, &m)}));
  }
  auto *variablesType = llvm::ArrayType::get(variableType, variableInfos.size());
  auto *variables = new llvm::GlobalVariable(
      m, variablesType, true, llvm::GlobalValue::PrivateLinkage,
      llvm::ConstantArray::get(variablesType, variableInfos), "tfc_variables");

  llvm::Constant *objectGraph = llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(ptr));
  if (!interface.objectGraph.empty())
    objectGraph = new llvm::GlobalVariable(
        m, llvm::ArrayType::get(llvm::Type::getInt8Ty(ctx), interface.objectGraph.size()),
        true, llvm::GlobalValue::PrivateLinkage,
        llvm::ConstantDataArray::getString(ctx, interface.objectGraph, false),
        "tfc_object_graph");

  // An i32 array, or NULL when empty.
  auto int32s = [&](ArrayRef<int32_t> values, StringRef name) -> llvm::Constant * {
    if (values.empty())
      return llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(ptr));
    auto *type = llvm::ArrayType::get(i32, values.size());
    SmallVector<llvm::Constant *> entries;
    for (int32_t k : values)
      entries.push_back(llvm::ConstantInt::get(i32, k));
    return new llvm::GlobalVariable(m, type, true,
                                    llvm::GlobalValue::PrivateLinkage,
                                    llvm::ConstantArray::get(type, entries), name);
  };
  llvm::Constant *rowsOutputs = int32s(interface.rowsOutputs, "tfc_rows_outputs");
  llvm::Constant *rowsOutputAxes =
      int32s(interface.rowsOutputAxes, "tfc_rows_output_axes");
  llvm::Constant *rowsInputs = int32s(interface.rowsInputs, "tfc_rows_inputs");
  llvm::Constant *rowsInputAxes =
      int32s(interface.rowsInputAxes, "tfc_rows_input_axes");
  SmallVector<int32_t> summaryOutputs(interface.summaryOutputs);
  if (!summaryOutputs.empty())
    summaryOutputs.resize(interface.outputs.size());
  llvm::Constant *summaries = int32s(summaryOutputs, "tfc_summary_outputs");

  // The queue runners: struct tfc_runner_thread { const char *node;
  // tfc_step_fn entry; i64 arena_bytes; } and struct tfc_queue_runner {
  // const char *queue; i64 queue_slot; i32 num_threads; const
  // tfc_runner_thread *threads; i32 chief; }.
  auto *threadType = llvm::StructType::get(ctx, {ptr, ptr, i64});
  auto *runnerType = llvm::StructType::get(ctx, {ptr, i64, i32, ptr, i32});
  SmallVector<llvm::Constant *> runnerInfos;
  for (const ModelInterface::QueueRunner &runner : interface.queueRunners) {
    SmallVector<llvm::Constant *> threads;
    for (const ModelInterface::RunnerThread &thread : runner.threads)
      threads.push_back(llvm::ConstantStruct::get(
          threadType,
          {b.CreateGlobalStringPtr(thread.node, "tfc_runner_node", 0, &m),
           entryPoint(thread.entry, "tfc_runner", 0, 0, 0),
           llvm::ConstantInt::get(i64, thread.arenaBytes)}));
    auto *threadsType = llvm::ArrayType::get(threadType, threads.size());
    runnerInfos.push_back(llvm::ConstantStruct::get(
        runnerType,
        {b.CreateGlobalStringPtr(runner.queue, "tfc_runner_queue", 0, &m),
         llvm::ConstantInt::get(i64, runner.queueSlot),
         llvm::ConstantInt::get(i32, threads.size()),
         new llvm::GlobalVariable(m, threadsType, true,
                                  llvm::GlobalValue::PrivateLinkage,
                                  llvm::ConstantArray::get(threadsType, threads),
                                  "tfc_runner_threads"),
         llvm::ConstantInt::get(i32, runner.chief)}));
  }
  auto *runnersType = llvm::ArrayType::get(runnerType, runnerInfos.size());
  auto *runners = new llvm::GlobalVariable(
      m, runnersType, true, llvm::GlobalValue::PrivateLinkage,
      llvm::ConstantArray::get(runnersType, runnerInfos), "tfc_queue_runners");

  // struct tfc_model, laid out as the C compiler lays it out.
  auto *modelType = llvm::StructType::get(
      ctx, {i32, ptr, i32, ptr, i32, ptr, i64, i64, ptr, ptr, i64, i32, ptr, ptr,
            i64, i64, ptr, ptr, ptr, ptr, i32, ptr, ptr, ptr, ptr, i32});
  llvm::Constant *model = llvm::ConstantStruct::get(
      modelType,
      {llvm::ConstantInt::get(i32, TFC_RUNTIME_ABI_VERSION),
       b.CreateGlobalStringPtr("model", "tfc_model_name", 0, &m),
       llvm::ConstantInt::get(i32, interface.inputs.size()), inputs,
       llvm::ConstantInt::get(i32, interface.outputs.size()), outputs,
       llvm::ConstantInt::get(i64, interface.arenaBytes),
       llvm::ConstantInt::get(i64, interface.arenaAlignment), step, init,
       llvm::ConstantInt::get(i64, interface.stateBytes),
       llvm::ConstantInt::get(i32, interface.variables.size()), variables,
       objectGraph, llvm::ConstantInt::get(i64, interface.objectGraph.size()),
       llvm::ConstantInt::get(i64, interface.batchTile), rowsOutputs,
       rowsOutputAxes, rowsInputs, rowsInputAxes,
       llvm::ConstantInt::get(i32, interface.queueRunners.size()), runners,
       localInit, chiefInit, summaries,
       llvm::ConstantInt::get(i32, interface.numSummaryWriters)});
  new llvm::GlobalVariable(m, modelType, true,
                           llvm::GlobalValue::ExternalLinkage, model,
                           "tfc_compiled_model");
}

} // namespace

std::unique_ptr<llvm::TargetMachine>
makeTargetMachine(const TargetOptions &options, std::string &error) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  std::string triple = options.triple.empty()
                           ? llvm::sys::getDefaultTargetTriple()
                           : options.triple;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) {
    error = "--target-triple " + triple + ": " + error;
    return nullptr;
  }
  std::string cpu = options.cpu.empty() ? llvm::sys::getHostCPUName().str()
                                        : options.cpu;
  // LLVM only warns of a processor it does not know, then fails an
  // assertion deep in code generation: name it here instead.
  std::unique_ptr<llvm::MCSubtargetInfo> subtargets(
      target->createMCSubtargetInfo(triple, "", ""));
  if (!options.cpu.empty() && subtargets && !subtargets->isCPUStringValid(cpu)) {
    error = "--target-cpu " + cpu + ": not a processor LLVM knows for " + triple +
            " (llc -mtriple=" + triple + " -mcpu=help lists them)";
    return nullptr;
  }
  std::string features = options.features;
  if (features.empty() && options.cpu.empty())
    for (auto &feature : llvm::sys::getHostCPUFeatures())
      features += (features.empty() ? "" : ",") +
                  std::string(feature.second ? "+" : "-") +
                  feature.first().str();
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, cpu, features, llvm::TargetOptions(), llvm::Reloc::PIC_,
      std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!machine)
    error = "cannot create a target machine for " + triple + " (" + cpu + ")";
  return machine;
}


/// The queue runners whose entries `module` holds, with the queue each
/// fills (tfc.queue_runners, tfc.chief_queue_runners; an entry's graph is
/// named by its node).
LogicalResult readQueueRunners(ModuleOp module, ModelInterface &result) {
  llvm::StringMap<tfg::GraphOp> entries;
  for (auto graph : module.getOps<tfg::GraphOp>())
    if (StringRef node = runnerEntryNode(graph); !node.empty())
      entries[node] = graph;
  for (const QueueRunnerSpec &spec : queueRunnersOf(module)) {
    ModelInterface::QueueRunner runner;
    runner.chief = spec.chief;
    for (StringRef node : spec.nodes) {
      tfg::GraphOp graph = entries.lookup(node);
      if (!graph)
        continue;
      Operation *enqueue = nullptr;
      for (Operation &op : graph.getBody())
        if (tfg::isNode(&op) && tfg::getNodeName(&op) == node)
          enqueue = &op;
      Operation *queue =
          enqueue ? queueNodeOf(tfg::getDataOperands(enqueue)[0]) : nullptr;
      auto slot = queue ? queue->getAttrOfType<IntegerAttr>(kQueueSlotAttr)
                        : IntegerAttr();
      if (!slot)
        return graph.emitError()
               << "queue runner node '" << node
               << "': its queue has no number (convert-tfg-to-memref gives one)";
      runner.queue = queueName(queue);
      runner.queueSlot = slot.getInt();
      ModelInterface::RunnerThread thread;
      thread.node = node.str();
      thread.entry.function =
          graph->getAttrOfType<StringAttr>(kStepFunctionAttr).str();
      if (auto device = graph->getAttrOfType<StringAttr>(kPartitionDeviceAttr))
        thread.entry.device = device.str();
      thread.arenaBytes =
          graph->getAttrOfType<IntegerAttr>(kArenaBytesAttr).getInt();
      runner.threads.push_back(thread);
    }
    if (!runner.threads.empty())
      result.queueRunners.push_back(runner);
  }
  return success();
}

FailureOr<ModelInterface> readModelInterface(ModuleOp module) {
  ModelInterface result;
  auto feeds = module->getAttrOfType<ArrayAttr>(kFeedsAttr);
  auto fetches = module->getAttrOfType<ArrayAttr>(kFetchesAttr);
  // Each entry's partitions lay out their arena parts one after another,
  // aligned; the step and the once-run entries share the arena.
  llvm::StringMap<int64_t> entryBytes;
  for (auto graph : module.getOps<tfg::GraphOp>()) {
    auto entry = graph->getAttrOfType<StringAttr>(kEntryAttr);
    if (!entry || (entry.getValue() != "step" && !isOnceEntry(graph)))
      continue;
    bool isStep = entry.getValue() == "step";
    int64_t &bytes = entryBytes[entry.getValue()];
    ModelInterface::Partition partition;
    if (auto function = graph->getAttrOfType<StringAttr>(kStepFunctionAttr))
      partition.function = function.str();
    if (auto device = graph->getAttrOfType<StringAttr>(kPartitionDeviceAttr))
      partition.device = device.str();
    partition.arenaOffset = bytes;
    llvm::StringMap<SmallVector<ModelInterface::Partition> *> lists = {
        {"step", &result.partitions},
        {"init", &result.initPartitions},
        {"local_init", &result.localInitPartitions},
        {"chief_init", &result.chiefInitPartitions}};
    lists.lookup(entry.getValue())->push_back(partition);
    bytes += llvm::alignTo(
        graph->getAttrOfType<IntegerAttr>(kArenaBytesAttr).getInt(),
        result.arenaAlignment);
    if (!isStep)
      continue;
    if (auto feeds = graph->getAttrOfType<IntegerAttr>(kNumInputsAttr))
      result.stepFeeds = feeds.getInt();
    for (Operation &op : graph.getBody()) {
      OpKind kind = opKindOf(&op);
      auto index = op.getAttrOfType<IntegerAttr>("index");
      if (kind == OpKind::InternalArg) {
        result.inputs.resize(std::max<size_t>(result.inputs.size(), index.getInt() + 1));
        result.inputs[index.getInt()] = infoOf(
            cast<StringAttr>(feeds[index.getInt()]).getValue(),
            op.getResult(0).getType());
      } else if (kind == OpKind::InternalRetval) {
        result.outputs.resize(std::max<size_t>(result.outputs.size(), index.getInt() + 1));
        result.outputs[index.getInt()] = infoOf(
            cast<StringAttr>(fetches[index.getInt()]).getValue(),
            op.getOperand(0).getType());
        // A fetched summary: a summary op's output, through Identities.
        Operation *producer = op.getOperand(0).getDefiningOp();
        while (producer && opKindOf(producer) == OpKind::Identity)
          producer = producer->getOperand(0).getDefiningOp();
        const OpInfo *info = producer ? lookupOp(producer) : nullptr;
        if (info && info->family == OpFamily::Summaries) {
          result.summaryOutputs.resize(result.outputs.size());
          result.summaryOutputs[index.getInt()] = 1;
        }
      }
    }
  }
  for (const auto &bytes : entryBytes)
    result.arenaBytes = std::max(result.arenaBytes, bytes.getValue());
  if (failed(readQueueRunners(module, result)))
    return failure();
  module.walk([&](Operation *op) {
    if (auto slot = op->getAttrOfType<IntegerAttr>(kSummaryWriterSlotAttr))
      result.numSummaryWriters =
          std::max<int32_t>(result.numSummaryWriters, slot.getInt() + 1);
  });

  // A cluster task's module may hold none of the step's partitions (its
  // program then serves the others' transfers only); any other needs one.
  if (auto task = module->getAttrOfType<StringAttr>(kTaskAttr))
    result.task = task.str();
  if (result.partitions.empty() && result.task.empty())
    return emitError(module.getLoc(), "no step entry to compile");
  if (auto bytes = module->getAttrOfType<IntegerAttr>(kStateBytesAttr))
    result.stateBytes = bytes.getInt();
  if (auto table = module->getAttrOfType<ArrayAttr>(kVariablesAttr))
    for (auto entry : table.getAsRange<DictionaryAttr>()) {
      auto type = cast<RankedTensorType>(entry.getAs<TypeAttr>("type").getValue());
      result.variables.push_back(
          {entry.getAs<StringAttr>("name").str(),
           entry.getAs<StringAttr>("key").str(),
           entry.getAs<StringAttr>("slice") ? entry.getAs<StringAttr>("slice").str()
                                            : std::string(),
           tfg::typeToDataType(type.getElementType()),
           SmallVector<int64_t>(type.getShape()),
           entry.getAs<IntegerAttr>("offset").getInt(),
           entry.getAs<IntegerAttr>("flag").getInt()});
    }
  if (auto graph = module->getAttrOfType<StringAttr>(kObjectGraphAttr))
    result.objectGraph = graph.str();
  if (auto counts = module->getAttrOfType<DenseI64ArrayAttr>(kRowCountsAttr))
    for (int64_t k : counts.asArrayRef())
      result.rowsOutputs.push_back(int32_t(k));
  if (auto axes = module->getAttrOfType<DenseI64ArrayAttr>(kRowAxesAttr))
    for (int64_t a : axes.asArrayRef())
      result.rowsOutputAxes.push_back(int32_t(a));
  if (auto counts = module->getAttrOfType<DenseI64ArrayAttr>(kFeedRowCountsAttr)) {
    auto maxDims = module->getAttrOfType<ArrayAttr>(kFeedMaxDimsAttr);
    for (auto [i, k] : llvm::enumerate(counts.asArrayRef())) {
      auto given = maxDims && i < maxDims.size()
                       ? dyn_cast<DenseI64ArrayAttr>(maxDims[i])
                       : DenseI64ArrayAttr();
      result.rowsInputs.push_back(int32_t(k));
      result.rowsInputAxes.push_back(
          given && given.size() == 2 ? int32_t(given[0]) : 0);
    }
  }
  if (auto batch = module->getAttrOfType<DictionaryAttr>(kBatchAttr)) {
    result.batchTile = batch.getAs<IntegerAttr>("tile").getInt();
    for (auto [key, tensors] : {std::pair{"feeds", &result.inputs},
                                std::pair{"fetches", &result.outputs}})
      for (auto index : batch.getAs<ArrayAttr>(key).getAsRange<IntegerAttr>())
        (*tensors)[index.getInt()].dims[0] = -1;
  }
  return result;
}

/// LLVM tunes Intel's AVX-512 processors (Skylake-SP to Sapphire Rapids)
/// to prefer 256-bit vectors, against the clock drop that 512-bit
/// instructions brought on the first of them; AMD's Zen 4 is not so
/// tuned. A generated elementwise loop (GELU's erfc, swish's exponential)
/// then ran at half the width of the kernels it sits between, which are
/// built for 512 bits (docs/benchmarks.md: the Intel AVX-512 machine).
/// Every function of a program for an AVX-512 target prefers the
/// full width (as -mprefer-vector-width=512 would); a target without
/// AVX-512 is left as LLVM tunes it.
static void preferFullVectorWidth(llvm::Module &module,
                                  const llvm::TargetMachine &machine) {
  if (!machine.getMCSubtargetInfo()->checkFeatures("+avx512f"))
    return;
  for (llvm::Function &function : module)
    if (!function.isDeclaration() &&
        !function.hasFnAttribute("prefer-vector-width"))
      function.addFnAttr("prefer-vector-width", "512");
}

/// LLVM's O3 pipeline without loop unrolling. The generated loop nests are
/// vectorized along their innermost dimension, which is the contiguous
/// one; fully unrolling a short innermost loop (32 channels, say) first
/// would leave the vectorizer the next loop out, strided, to do with
/// gathers. The vectorizer still interleaves what it vectorizes.
static void optimize(llvm::Module &module, llvm::TargetMachine &machine) {
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = false;
  tuning.LoopInterleaving = true;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(&machine, tuning);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3)
      .run(module, modules);
}

/// Appends the bytes of a constant made of arrays of numbers (nested as
/// multi-dimensional memrefs lower), as they lie in memory; false for
/// anything else.
static bool appendRawBytes(const llvm::DataLayout &layout,
                           llvm::Constant *constant, std::string &bytes) {
  if (auto *data = llvm::dyn_cast<llvm::ConstantDataArray>(constant)) {
    llvm::Type *element = data->getElementType();
    if (layout.getTypeAllocSizeInBits(element) !=
        element->getPrimitiveSizeInBits())
      return false; // padded elements (i1, x86_fp80): not as stored
    bytes += data->getRawDataValues();
    return true;
  }
  if (auto *array = llvm::dyn_cast<llvm::ConstantArray>(constant)) {
    for (llvm::Value *operand : array->operands())
      if (!appendRawBytes(layout, llvm::cast<llvm::Constant>(operand), bytes))
        return false;
    return true;
  }
  if (llvm::isa<llvm::ConstantAggregateZero>(constant) &&
      constant->getType()->isArrayTy()) {
    bytes.append(layout.getTypeAllocSize(constant->getType()), '\0');
    return true;
  }
  return false;
}

/// The bytes of `global` when it is a constant array of numbers of 4096
/// bytes or more (the weights; smaller ones stay as they are, their loads
/// foldable), as they lie in memory.
static std::optional<std::string> weightBytes(const llvm::DataLayout &layout,
                                              llvm::GlobalVariable &global) {
  if (!global.isConstant() || !global.hasDefinitiveInitializer() ||
      !global.getValueType()->isArrayTy() ||
      layout.getTypeAllocSize(global.getValueType()) < 4096)
    return std::nullopt;
  std::string bytes;
  if (!appendRawBytes(layout, global.getInitializer(), bytes))
    return std::nullopt;
  return bytes;
}

/// Constant arrays of numbers (the weights) become arrays of bytes with
/// the same contents and alignment. LLVM's asm printer writes an array of
/// floats one element at a time, each through an APFloat, and an array of
/// bytes in one piece: for ResNet-50's 25M weights that was about a third
/// of the compile. Done after optimization, which may fold loads of them.
static void emitConstantsAsBytes(llvm::Module &module) {
  const llvm::DataLayout &layout = module.getDataLayout();
  llvm::Type *byte = llvm::Type::getInt8Ty(module.getContext());
  for (llvm::GlobalVariable &global :
       llvm::make_early_inc_range(module.globals())) {
    std::optional<std::string> bytes = weightBytes(layout, global);
    if (!bytes)
      continue;
    llvm::Constant *raw =
        llvm::ConstantDataArray::getRaw(*bytes, bytes->size(), byte);
    auto *replacement = new llvm::GlobalVariable(
        module, raw->getType(), /*isConstant=*/true, global.getLinkage(), raw,
        "", &global, global.getThreadLocalMode(), global.getAddressSpace());
    replacement->copyAttributesFrom(&global);
    replacement->setAlignment(layout.getPreferredAlign(&global));
    replacement->takeName(&global);
    global.replaceAllUsesWith(replacement);
    global.eraseFromParent();
  }
}

/// A phase of the compile timed in `parent` (--mlir-timing), or untimed.
static TimingScope timePhase(TimingScope *parent, StringRef name) {
  return parent ? parent->nest(name) : TimingScope();
}

FailureOr<ModelInterface> lowerToLLVMDialect(ModuleOp module,
                                             TimingScope *timing) {
  // The interface is read from the graphs, which the pipeline then drops.
  FailureOr<ModelInterface> interface = readModelInterface(module);
  if (failed(interface))
    return failure();
  PassManager pm(module.getContext());
  TimingScope lowering = timePhase(timing, "Lowering to the LLVM dialect");
  if (timing)
    pm.enableTiming(lowering);
  buildTfcLowerToLLVMPipeline(pm);
  if (failed(pm.run(module)))
    return failure();
  return interface;
}

std::unique_ptr<llvm::Module> translateToLLVM(ModuleOp module,
                                             llvm::LLVMContext &context,
                                             const TargetOptions &options,
                                             StringRef libraryName,
                                             TimingScope *timing) {
  FailureOr<ModelInterface> interface = lowerToLLVMDialect(module, timing);
  if (failed(interface))
    return nullptr;

  TimingScope translation = timePhase(timing, "Translation to LLVM IR");
  registerBuiltinDialectTranslation(*module.getContext());
  registerLLVMDialectTranslation(*module.getContext());
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context, "tfc_model");
  if (!llvmModule) {
    emitError(module.getLoc(), "translation to LLVM IR failed");
    return nullptr;
  }
  addAbi(*llvmModule, *interface);
  // Before optimization: what a library does not export becomes internal,
  // for the optimizer to inline or drop.
  if (!libraryName.empty())
    addLibraryEntryPoints(*llvmModule, *interface, libraryName);

  std::string error;
  std::unique_ptr<llvm::TargetMachine> machine = makeTargetMachine(options, error);
  if (!machine) {
    emitError(module.getLoc()) << error;
    return nullptr;
  }
  llvmModule->setDataLayout(machine->createDataLayout());
  llvmModule->setTargetTriple(machine->getTargetTriple().str());
  preferFullVectorWidth(*llvmModule, *machine);
  return llvmModule;
}

LogicalResult optimizeLLVMModule(llvm::Module &module,
                                 const TargetOptions &options,
                                 TimingScope *timing) {
  TimingScope optimization = timePhase(timing, "LLVM optimization");
  std::string error;
  std::unique_ptr<llvm::TargetMachine> machine = makeTargetMachine(options, error);
  if (!machine) {
    llvm::errs() << "tfc: error: " << error << "\n";
    return failure();
  }
  optimize(module, *machine);
  emitConstantsAsBytes(module);
  return success();
}

/// `module`'s object code for `machine`'s target into `os`; false when the
/// target cannot emit object files.
static bool emitObjectFor(llvm::Module &module, llvm::TargetMachine &machine,
                          llvm::raw_pwrite_stream &os) {
  llvm::legacy::PassManager pm;
  if (machine.addPassesToEmitFile(pm, os, nullptr,
                                  llvm::CodeGenFileType::ObjectFile))
    return false;
  pm.run(module);
  return true;
}

LogicalResult emitObject(llvm::Module &module, const TargetOptions &options,
                         llvm::raw_pwrite_stream &os, TimingScope *timing) {
  TimingScope objectCode = timePhase(timing, "Object code");
  std::string error;
  std::unique_ptr<llvm::TargetMachine> machine = makeTargetMachine(options, error);
  if (!machine) {
    llvm::errs() << "tfc: error: " << error << "\n";
    return failure();
  }
  if (!emitObjectFor(module, *machine, os)) {
    llvm::errs() << "tfc: error: the target cannot emit object files\n";
    return failure();
  }
  return success();
}

LogicalResult writeObject(llvm::Module &module, StringRef path,
                          const TargetOptions &options, TimingScope *timing) {
  std::error_code ec;
  llvm::ToolOutputFile out(path, ec, llvm::sys::fs::OF_None);
  if (ec) {
    llvm::errs() << path << ": error: " << ec.message() << "\n";
    return failure();
  }
  if (failed(emitObject(module, options, out.os(), timing)))
    return failure();
  out.os().flush();
  out.keep();
  return success();
}

LogicalResult writeLLVMIR(llvm::Module &module, StringRef path) {
  std::error_code ec;
  llvm::ToolOutputFile out(path, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    llvm::errs() << path << ": error: " << ec.message() << "\n";
    return failure();
  }
  module.print(out.os(), nullptr);
  out.keep();
  return success();
}

/// The most parts a program's code is cut into: past the cores of any
/// machine tfc runs on, each part only adds a module's fixed costs.
constexpr unsigned kMaxCodegenParts = 64;

/// Moves the weights (weightBytes) out of `module` into a module in `context`,
/// as arrays of bytes of the same contents and alignment; in `module` each
/// becomes a declaration, hidden in the program. They are most of a model's
/// size and need no optimization; the code's parts would otherwise carry
/// them through bitcode. Each array's bytes are copied once and released
/// on this thread, before the next, so the allocator reuses them.
static std::unique_ptr<llvm::Module> takeConstantData(llvm::Module &module,
                                                      llvm::LLVMContext &context) {
  auto data = std::make_unique<llvm::Module>("tfc_model_data", context);
  data->setDataLayout(module.getDataLayout());
  data->setTargetTriple(module.getTargetTriple());
  const llvm::DataLayout &layout = module.getDataLayout();
  llvm::Type *byte = llvm::Type::getInt8Ty(context);
  for (llvm::GlobalVariable &global : module.globals()) {
    std::optional<std::string> bytes = weightBytes(layout, global);
    if (!bytes)
      continue;
    if (!global.hasName())
      global.setName("tfc_constant_data");
    llvm::Align align = layout.getPreferredAlign(&global);
    global.setInitializer(nullptr);
    global.setLinkage(llvm::GlobalValue::ExternalLinkage);
    global.setVisibility(llvm::GlobalValue::HiddenVisibility);
    global.setDSOLocal(true);
    global.setAlignment(align);
    llvm::Constant *raw =
        llvm::ConstantDataArray::getRaw(*bytes, bytes->size(), byte);
    auto *copy = new llvm::GlobalVariable(
        *data, raw->getType(), /*isConstant=*/true,
        llvm::GlobalValue::ExternalLinkage, raw, global.getName());
    copy->setVisibility(llvm::GlobalValue::HiddenVisibility);
    copy->setDSOLocal(true);
    copy->setAlignment(align);
  }
  return data;
}

/// How many parts writeObjectsInParts cuts a module into: --codegen-threads,
/// else one per hardware thread; at most kMaxCodegenParts.
static unsigned codegenParts(const TargetOptions &options) {
  unsigned threads = options.codegenThreads > 0
                         ? options.codegenThreads
                         : llvm::hardware_concurrency().compute_thread_count();
  return std::clamp(threads, 1u, kMaxCodegenParts);
}

/// Optimizes `module` (translated, not optimized) and writes its object
/// code into temporary files appended to `objects`, on several threads:
/// its functions in codegenParts parts of about equal size (LLVM's
/// SplitModule, which makes what one part uses of another's external and
/// hidden), each carried to a context of its own as bitcode, and its
/// weights in one more, as bytes. The generated functions call one another
/// only through pointers or calls LLVM would not inline (tfc-split-steps'
/// parts are noinline, tfc-parallelize-loops' bodies go through the
/// runtime), so the parts' code is what one module's would be. One part:
/// one module, as optimizeLLVMModule and writeObject make it.
static LogicalResult writeObjectsInParts(llvm::Module &module,
                                         const TargetOptions &options,
                                         Location loc,
                                         SmallVectorImpl<std::string> &objects,
                                         TimingScope *timing) {
  auto newObject = [&]() -> std::optional<std::string> {
    SmallString<128> path;
    if (llvm::sys::fs::createTemporaryFile("tfc-model", "o", path))
      return std::nullopt;
    objects.push_back(path.str().str());
    return objects.back();
  };
  unsigned parts = codegenParts(options);
  if (parts == 1) {
    if (failed(optimizeLLVMModule(module, options, timing)))
      return failure();
    std::optional<std::string> path = newObject();
    if (!path)
      return emitError(loc, "cannot create a temporary file");
    return writeObject(module, *path, options, timing);
  }

  TimingScope phase = timePhase(
      timing,
      ("LLVM optimization and object code (" + Twine(parts) + " parts)").str());
  llvm::LLVMContext dataContext;
  std::unique_ptr<llvm::Module> data = takeConstantData(module, dataContext);
  std::vector<std::string> bitcodes;
  llvm::SplitModule(
      module, parts,
      [&](std::unique_ptr<llvm::Module> part) {
        std::string bitcode;
        llvm::raw_string_ostream os(bitcode);
        llvm::WriteBitcodeToFile(*part, os);
        os.flush();
        bitcodes.push_back(std::move(bitcode));
      },
      /*PreserveLocals=*/false, /*RoundRobin=*/true);
  // The parts hold the code now: the module's copy would only double the
  // memory the parts' optimization needs.
  for (llvm::Function &function : module)
    function.deleteBody();

  // Every job's file first, so that a failure leaves nothing to remove
  // but what `objects` lists.
  SmallVector<std::string> paths;
  for (size_t i = 0; i <= bitcodes.size(); ++i) {
    std::optional<std::string> path = newObject();
    if (!path)
      return emitError(loc, "cannot create a temporary file");
    paths.push_back(*path);
  }
  std::vector<std::string> errors(bitcodes.size() + 1);
  // A target machine per job, made here: LLVM's target registry is set up
  // on first use, not for threads.
  std::vector<std::unique_ptr<llvm::TargetMachine>> machines;
  for (size_t job = 0; job <= bitcodes.size(); ++job) {
    std::string error;
    machines.push_back(makeTargetMachine(options, error));
    if (!machines.back())
      return emitError(loc) << error;
  }
  auto writeModule = [&](llvm::Module &part, size_t job) {
    std::error_code ec;
    llvm::raw_fd_ostream out(paths[job], ec, llvm::sys::fs::OF_None);
    if (ec)
      errors[job] = paths[job] + ": " + ec.message();
    else if (!emitObjectFor(part, *machines[job], out))
      errors[job] = "the target cannot emit object files";
  };
  {
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency(parts));
    // The weights first: a large model's take as long as a part of its
    // code, and queued last they would run after the code.
    pool.async([&] { writeModule(*data, bitcodes.size()); });
    for (size_t job = 0; job < bitcodes.size(); ++job)
      pool.async([&, job] {
        llvm::LLVMContext context;
        llvm::Expected<std::unique_ptr<llvm::Module>> part =
            llvm::parseBitcodeFile(
                llvm::MemoryBufferRef(bitcodes[job], "tfc_model_part"),
                context);
        if (!part) {
          errors[job] = llvm::toString(part.takeError());
          return;
        }
        optimize(**part, *machines[job]);
        writeModule(**part, job);
        std::string().swap(bitcodes[job]);
      });
    pool.wait();
  }
  for (const std::string &error : errors)
    if (!error.empty())
      return emitError(loc) << "object code: " << error;
  return success();
}

LogicalResult linkProgram(llvm::Module &module, StringRef output, Location loc,
                          const TargetOptions &options,
                          ArrayRef<std::string> deviceTypes, ProgramMain main,
                          TimingScope *timing) {
  llvm::ErrorOr<std::string> driver = llvm::sys::findProgramByName("c++");
  if (!driver)
    return emitError(loc, "no C++ compiler driver (c++) to link with");
  FailureOr<TargetLinkInputs> inputs =
      targetLinkInputs(deviceTypes, options, loc);
  if (failed(inputs))
    return failure();
  // The system libraries that the runtime functions the module calls need,
  // before the module is cut into parts.
  std::vector<std::string> runtimeLibraries = runtimeSystemLibraries(module);
  SmallVector<std::string> objects;
  auto removeObjects = llvm::make_scope_exit([&] {
    for (const std::string &object : objects)
      llvm::sys::fs::remove(object);
  });
  if (failed(writeObjectsInParts(module, options, loc, objects, timing)))
    return failure();
  TimingScope link = timePhase(timing, "Link");
  // The program's main, each partition's target's kernels, the runtime,
  // then the system libraries the kernels and the main need.
  TargetLinkInputs mainInputs = programMainLinkInputs(main);
  const std::string &libDir = runtimeLibraryDir();
  SmallVector<std::string> args = {*driver};
  llvm::append_range(args, objects);
  llvm::append_range(args, SmallVector<std::string>{"-o", output.str()});
  for (const std::string &archive : mainInputs.kernelArchives)
    args.push_back(libDir + "/" + archive);
  for (const std::string &archive : inputs->kernelArchives)
    args.push_back(libDir + "/" + archive);
  args.push_back(libDir + "/libTfcRuntime.a");
  llvm::append_range(args, runtimeLibraries);
  llvm::append_range(args, inputs->systemLibraries);
  llvm::append_range(args, mainInputs.systemLibraries);
  llvm::append_range(args, SmallVector<std::string>{"-lpthread", "-lm"});
  SmallVector<StringRef> argRefs(args.begin(), args.end());
  std::string error;
  int status = llvm::sys::ExecuteAndWait(*driver, argRefs, std::nullopt, {}, 0,
                                         0, &error);
  if (status != 0)
    return emitError(loc) << "linking " << output << " failed"
                          << (error.empty() ? "" : ": " + error);
  return success();
}

} // namespace tfc
