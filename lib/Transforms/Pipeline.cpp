//===- Pipeline.cpp - the named pipelines of tfc compile ------------------===//

#include "tfc/Transforms/Pipeline.h"
#include "tfc/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ComplexToLLVM/ComplexToLLVM.h"
#include "mlir/Conversion/ComplexToStandard/ComplexToStandard.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"

namespace tfc {

void buildTfcImportPipeline(mlir::OpPassManager &pm) {
  pm.addPass(createVerifyAcyclicPass());
  // Static tables' contents, from initializers that pruning drops.
  pm.addPass(createBindTablesPass());
  // Keep what the step (and the init entry) needs.
  pm.addPass(createPrunePass());
  pm.addPass(createRemoveDeadNodesPass());
  // Keras SavedModels are mostly calls: see through them.
  pm.addPass(createInlinePass());
  // Splits padded to a constant width: dense before anything refuses them.
  pm.addPass(createDensifyRaggedPass());
  pm.addPass(createRemoveDeadNodesPass());
}

void buildTfcGraphPipeline(mlir::OpPassManager &pm,
                           const TfcGraphPipelineOptions &options) {
  buildTfcImportPipeline(pm);
  // Refuse what nothing lowers, all at once, before any other work.
  pm.addPass(createVerifySupportedPass());
  // Inference compiles of SavedModels: variables become constants.
  pm.addPass(createFreezeVariablesPass());
  pm.addPass(createRemoveDeadNodesPass());
  // Unique's data-dependent size: bounded where TF1 optimizers use it.
  pm.addPass(createBoundUniquePass());
  // TensorArrays of dynamic size: planned for the most their loops write.
  pm.addPass(createBoundGrowableListsPass());
  pm.addPass(createInferShapesPass());
  // Where's data-dependent rows: planned for their bound, the count in the
  // graph.
  pm.addPass(createBoundDynamicRowsPass());
  // A batch of unknown size: tiles of static shape, when rows stay apart.
  pm.addPass(createTileBatchPass());
  // Feed dimensions --max-dim bounds: planned for the bound, the size fed.
  pm.addPass(createBoundDynamicRowsPass({/*feeds=*/true}));
  // Inference batch norms as arithmetic, computed where constant, then
  // moved onto the weights of the convolutions before them.
  pm.addPass(createDecomposeBatchNormPass());
  // Grouped convolutions as one per group (their filters' splits fold).
  pm.addPass(createSplitGroupedConvolutionsPass());
  pm.addPass(createFoldConstantsPass());
  pm.addPass(createRemoveDeadNodesPass());
  // TensorLists of known length, now that their shapes are constants.
  pm.addPass(createLowerOptionalsPass());
  pm.addPass(createForwardInvariantPushesPass());
  pm.addPass(createLowerTensorListsPass());
  pm.addPass(createInferShapesPass());
  pm.addPass(createFoldScalesPass());
  // Zero padding into the convolution that reads it.
  pm.addPass(createFoldPadsPass());
  // A 1x1 pooling of a crop or a Pad as one strided read.
  pm.addPass(createFoldSubsamplesPass());
  // A concatenation's ReLU onto its pieces, for CSE and fusion to take.
  pm.addPass(createSinkActivationsPass());
  pm.addPass(createFoldConstantsPass());
  pm.addPass(createRemoveDeadNodesPass());
  // Simplify, then merge what became identical; clean up after each.
  pm.addPass(createCanonicalizePass());
  pm.addPass(createRemoveDeadNodesPass());
  pm.addPass(createCommonSubexpressionEliminationPass());
  pm.addPass(createRemoveDeadNodesPass());
  // A large batch's front (its tensors larger than the caches) in
  // micro-batches.
  pm.addPass(createSplitBatchPass());
  pm.addPass(createRemoveDeadNodesPass());
  // Reads of a variable before the writes they do not depend on.
  pm.addPass(createOrderVariableAccessesPass());
  // Placement and partitioning last: the graph they cut is final.
  PlacePassOptions place;
  place.devices = options.devices;
  place.strategy = options.placement;
  place.softPlacement = options.softPlacement;
  place.costFile = options.costFile;
  pm.addPass(createPlacePass(place));
  if (!options.partition)
    return;
  pm.addPass(createPartitionPass());
  pm.addPass(createCompressTransfersPass({options.compressTransfers}));
  if (options.recvScheduling)
    pm.addPass(createScheduleRecvsPass());
}

void buildTfcFusionPipeline(mlir::OpPassManager &pm) {
  pm.addPass(createVerifyStaticShapesPass());
  pm.addPass(createRaiseFramesPass());
  pm.addPass(createFuseElementwisePass());
}

void buildTfcCodegenPipeline(mlir::OpPassManager &pm, bool tracePoints) {
  buildTfcFusionPipeline(pm);
  pm.addPass(createPlanStatePass());
  pm.addPass(createPlanMemoryPass());
  pm.addPass(createConvertTfgToMemrefPass({tracePoints}));
}

void buildTfcLowerToLLVMPipeline(mlir::OpPassManager &pm) {
  pm.addPass(createStripGraphsPass());
  pm.addPass(createSplitStepsPass());
  pm.addPass(createCollapseLoopsPass());
  pm.addPass(createParallelizeLoopsPass());
  // The passes that work inside one function at a time run on the
  // functions side by side (MLIR's pass manager runs a nested pipeline on
  // its functions on the context's threads); those that add declarations
  // to the module run on it.
  mlir::OpPassManager &beforeLibm = pm.nest<mlir::func::FuncOp>();
  beforeLibm.addPass(mlir::createConvertLinalgToLoopsPass());
  beforeLibm.addPass(mlir::memref::createExpandStridedMetadataPass());
  beforeLibm.addPass(mlir::createLowerAffinePass());
  beforeLibm.addPass(mlir::createConvertSCFToCFPass());
  // floordivsi and friends have no LLVM lowering of their own.
  beforeLibm.addPass(mlir::arith::createArithExpandOpsPass());
  // Complex arithmetic as formulas on the parts (which may call math
  // functions), before the math lowerings.
  beforeLibm.addPass(mlir::createConvertComplexToStandardPass());
  beforeLibm.addPass(mlir::createConvertMathToLLVMPass());
  pm.addPass(mlir::createConvertMathToLibmPass());
  mlir::OpPassManager &afterLibm = pm.nest<mlir::func::FuncOp>();
  afterLibm.addPass(mlir::createConvertComplexToLLVMPass());
  afterLibm.addPass(mlir::createArithToLLVMConversionPass());
  pm.addPass(mlir::createFinalizeMemRefToLLVMConversionPass());
  mlir::ConvertFuncToLLVMPassOptions funcOptions;
  funcOptions.useBarePtrCallConv = true;
  pm.addPass(mlir::createConvertFuncToLLVMPass(funcOptions));
  pm.addPass(mlir::createConvertControlFlowToLLVMPass());
  pm.addPass(mlir::createReconcileUnrealizedCastsPass());
}

void registerTfcPipelines() {
  mlir::PassPipelineRegistration<TfcGraphPipelineOptions>(
      "tfc-graph", "The graph-level pipeline of `tfc compile`",
      buildTfcGraphPipeline);
  mlir::PassPipelineRegistration<>(
      "tfc-codegen",
      "From the optimized graph to the step functions on memrefs",
      [](mlir::OpPassManager &pm) { buildTfcCodegenPipeline(pm); });
  mlir::PassPipelineRegistration<>(
      "tfc-lower-to-llvm", "From the step functions to the LLVM dialect",
      buildTfcLowerToLLVMPipeline);
}

} // namespace tfc
