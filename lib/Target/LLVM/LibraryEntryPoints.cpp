//===- LibraryEntryPoints.cpp - the exported functions of a tfc library ---===//
//
// For `--emit lib` the model's object exports only what NAME.h declares:
//
//   int64_t NAME_arena_bytes(void);
//   NAME_ctx *NAME_create(int32_t threads, void *arena);
//   void NAME_destroy(NAME_ctx *ctx);
//   int NAME_run(NAME_ctx *ctx, [int64_t batch,] <one pointer per feed>,
//                <one per fetch>);
//
// (`batch` for a model compiled for any batch size only.)
// Each is a few instructions forwarding to the runtime (tfc_library.h) with
// the model's descriptor; NAME_run gathers its pointer arguments into the
// arrays the step takes. Everything else the object defines (the
// descriptor, the step, constants) becomes internal: two libraries may
// then share a program, whatever the models.
//
//===----------------------------------------------------------------------===//

#include "tfc/Target/Library.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

namespace tfc {

void addLibraryEntryPoints(llvm::Module &module, const ModelInterface &model,
                           llvm::StringRef name) {
  llvm::LLVMContext &context = module.getContext();
  llvm::IRBuilder<> b(context);
  llvm::Type *ptr = b.getPtrTy(), *i32 = b.getInt32Ty(), *i64 = b.getInt64Ty();
  llvm::GlobalVariable *descriptor =
      module.getGlobalVariable("tfc_compiled_model");
  assert(descriptor && "the C ABI's descriptor comes first");

  auto define = [&](llvm::StringRef suffix, llvm::Type *result,
                    llvm::ArrayRef<llvm::Type *> params) {
    auto *function = llvm::Function::Create(
        llvm::FunctionType::get(result, params, false),
        llvm::Function::ExternalLinkage, (name + "_" + suffix).str(), module);
    b.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", function));
    return function;
  };
  auto runtime = [&](llvm::StringRef callee, llvm::Type *result,
                     llvm::ArrayRef<llvm::Type *> params) {
    return module.getOrInsertFunction(
        callee, llvm::FunctionType::get(result, params, false));
  };
  // The exported functions, then the rest is made internal.
  llvm::SmallVector<llvm::GlobalValue *> exported;

  llvm::Function *arenaBytes = define("arena_bytes", i64, {});
  b.CreateRet(b.getInt64(model.arenaBytes));
  exported.push_back(arenaBytes);

  llvm::Function *create = define("create", ptr, {i32, ptr});
  b.CreateRet(b.CreateCall(runtime("tfc_library_create", ptr, {ptr, i32, ptr}),
                           {descriptor, create->getArg(0), create->getArg(1)}));
  exported.push_back(create);

  llvm::Function *destroy = define("destroy", b.getVoidTy(), {ptr});
  b.CreateCall(runtime("tfc_library_destroy", b.getVoidTy(), {ptr}),
               {destroy->getArg(0)});
  b.CreateRetVoid();
  exported.push_back(destroy);

  size_t numInputs = model.inputs.size(), numOutputs = model.outputs.size();
  size_t first = model.batchTile > 0 ? 2 : 1;
  llvm::SmallVector<llvm::Type *> params(first + numInputs + numOutputs, ptr);
  if (model.batchTile > 0)
    params[1] = i64;
  llvm::Function *run = define("run", i32, params);
  auto gather = [&](size_t first, size_t count) {
    llvm::Value *array =
        b.CreateAlloca(llvm::ArrayType::get(ptr, count), nullptr);
    for (size_t i = 0; i < count; ++i)
      b.CreateStore(run->getArg(first + i),
                    b.CreateConstGEP1_64(ptr, array, i));
    return array;
  };
  llvm::Value *inputs = gather(first, numInputs);
  llvm::Value *outputs = gather(first + numInputs, numOutputs);
  llvm::Value *batch = model.batchTile > 0 ? static_cast<llvm::Value *>(run->getArg(1))
                                           : b.getInt64(0);
  b.CreateRet(b.CreateCall(
      runtime("tfc_library_run", i32, {ptr, ptr, i64, ptr, ptr}),
      {descriptor, run->getArg(0), batch, inputs, outputs}));
  exported.push_back(run);

  // (LLVM's own globals, such as llvm.global_ctors, keep their linkage.)
  for (llvm::GlobalValue &value : module.global_values())
    if (!value.isDeclaration() && !value.hasLocalLinkage() &&
        !value.getName().starts_with("llvm.") &&
        !llvm::is_contained(exported, &value))
      value.setLinkage(llvm::GlobalValue::InternalLinkage);
}

} // namespace tfc
