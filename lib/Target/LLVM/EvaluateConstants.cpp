//===- EvaluateConstants.cpp - constant subgraphs computed by a program ---===//
//
// The ConstantEvaluator of the tools: the module tfc-fold-constants made
// (a step without feeds) is compiled for the host exactly as `tfc compile`
// compiles a model, linked into a program, and run once; its outputs come
// back through .npy files. A folded constant is so the value the compiled
// code computes, kernels included, and nothing of the code generator is
// duplicated to get it. Costs one link and one process, only when a graph
// has something to fold.
//
//===----------------------------------------------------------------------===//

#include "tfc/Target/EvaluateConstants.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Runtime/Npy.h"
#include "tfc/Target/Program.h"
#include "tfc/Transforms/ConstantEvaluator.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Pipeline.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace mlir;

namespace tfc {

/// The attribute of `type` holding the bytes of `array`.
static DenseElementsAttr toAttr(RankedTensorType type, const rt::NpyArray &array) {
  if (type.getElementType().isInteger(1)) {
    SmallVector<bool> bits(array.data.begin(), array.data.end());
    return DenseElementsAttr::get(type, bits);
  }
  ArrayRef<char> raw(reinterpret_cast<const char *>(array.data.data()),
                     array.data.size());
  return DenseElementsAttr::getFromRawBuffer(type, raw);
}

FailureOr<SmallVector<DenseElementsAttr>> evaluateConstants(ModuleOp module) {
  Location loc = module.getLoc();
  // The outputs' types, by index, before lowering drops the graph.
  SmallVector<RankedTensorType> types;
  for (auto graph : module.getOps<tfg::GraphOp>())
    for (Operation &op : graph.getBody())
      if (opKindOf(&op) == OpKind::InternalRetval) {
        int64_t index = op.getAttrOfType<IntegerAttr>("index").getInt();
        types.resize(std::max<size_t>(types.size(), index + 1));
        types[index] = cast<RankedTensorType>(tfg::getDataOperands(&op)[0].getType());
      }
  auto fetches = module->getAttrOfType<ArrayAttr>(kFetchesAttr);

  PassManager pm(module.getContext(), ModuleOp::getOperationName());
  buildTfcCodegenPipeline(pm);
  if (failed(pm.run(module)))
    return failure();
  TargetOptions host;
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> llvmModule = translateToLLVM(module, context, host);
  if (!llvmModule)
    return failure();

  SmallString<128> dir;
  if (llvm::sys::fs::createUniqueDirectory("tfc-constants", dir))
    return emitError(loc, "cannot create a temporary directory to evaluate constants");
  auto removeDir = llvm::make_scope_exit([&] { llvm::sys::fs::remove_directories(dir); });
  auto inDir = [&](const Twine &name) {
    SmallString<128> path(dir);
    llvm::sys::path::append(path, name);
    return std::string(path);
  };
  std::string program = inDir("constants");
  if (failed(linkProgram(*llvmModule, program, loc, host, {"CPU"})))
    return failure();
  SmallVector<std::string> args = {program};
  for (auto [i, fetch] : llvm::enumerate(fetches)) {
    args.push_back("--output");
    args.push_back((cast<StringAttr>(fetch).getValue() + "=" +
                    inDir(std::to_string(i) + ".npy"))
                       .str());
  }
  SmallVector<StringRef> argRefs(args.begin(), args.end());
  std::string error;
  if (llvm::sys::ExecuteAndWait(program, argRefs, std::nullopt, {}, 0, 0, &error))
    return emitError(loc) << "evaluating constants failed"
                          << (error.empty() ? "" : ": " + error);
  SmallVector<DenseElementsAttr> values;
  for (auto [i, type] : llvm::enumerate(types)) {
    rt::NpyArray array;
    if (!rt::readNpy(inDir(std::to_string(i) + ".npy"), array, error))
      return emitError(loc) << "evaluating constants: " << error;
    values.push_back(toAttr(type, array));
  }
  return values;
}

} // namespace tfc

namespace tfc {
namespace {
/// The tools' evaluator: a compiled program per folded subgraph.
struct CompiledConstantEvaluator : public ConstantEvaluatorInterface {
  using ConstantEvaluatorInterface::ConstantEvaluatorInterface;
  FailureOr<SmallVector<DenseElementsAttr>>
  evaluate(ModuleOp module) const override {
    return evaluateConstants(module);
  }
};
} // namespace

void registerConstantEvaluator(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *, tfg::TfgDialect *dialect) {
    dialect->addInterfaces<CompiledConstantEvaluator>();
  });
}
} // namespace tfc
