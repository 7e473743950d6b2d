//===- Pipeline.cpp - the graph-level pipeline of tfc compile -------------===//

#include "tfc/Transforms/Pipeline.h"
#include "tfc/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"

namespace tfc {

void buildTfcPipeline(mlir::OpPassManager &pm, const TfcPipelineOptions &) {
  pm.addPass(createVerifyAcyclicPass());
  // Keep what the step (and the init entry) needs.
  pm.addPass(createPrunePass());
  pm.addPass(createRemoveDeadNodesPass());
  // Keras SavedModels are mostly calls: see through them.
  pm.addPass(createInlinePass());
  pm.addPass(createRemoveDeadNodesPass());
  // Refuse what nothing lowers, all at once, before any other work.
  pm.addPass(createVerifySupportedPass());
  // Inference compiles of SavedModels: variables become constants.
  pm.addPass(createFreezeVariablesPass());
  pm.addPass(createRemoveDeadNodesPass());
  // Unique's data-dependent size: bounded where TF1 optimizers use it.
  pm.addPass(createBoundUniquePass());
  pm.addPass(createInferShapesPass());
  // Inference batch norms as arithmetic, computed where constant, then
  // moved onto the weights of the convolutions before them.
  pm.addPass(createDecomposeBatchNormPass());
  pm.addPass(createFoldConstantsPass());
  pm.addPass(createRemoveDeadNodesPass());
  // TensorLists of known length, now that their shapes are constants.
  pm.addPass(createLowerOptionalsPass());
  pm.addPass(createLowerTensorListsPass());
  pm.addPass(createInferShapesPass());
  pm.addPass(createFoldScalesPass());
  pm.addPass(createFoldConstantsPass());
  pm.addPass(createRemoveDeadNodesPass());
  // Simplify, then merge what became identical; clean up after each.
  pm.addPass(createCanonicalizePass());
  pm.addPass(createRemoveDeadNodesPass());
  pm.addPass(createCommonSubexpressionEliminationPass());
  pm.addPass(createRemoveDeadNodesPass());
  // Reads of a variable before the writes they do not depend on.
  pm.addPass(createOrderVariableAccessesPass());
  // Placement and partitioning last: the graph they cut is final.
  pm.addPass(createPlacePass());
  pm.addPass(createPartitionPass());
  pm.addPass(createCompressTransfersPass());
  pm.addPass(createScheduleRecvsPass());
}

void buildCodegenPipeline(mlir::OpPassManager &pm) {
  pm.addPass(createVerifyStaticShapesPass());
  pm.addPass(createRaiseFramesPass());
  pm.addPass(createFuseElementwisePass());
  pm.addPass(createPlanStatePass());
  pm.addPass(createPlanMemoryPass());
  pm.addPass(createConvertTfgToMemrefPass());
}

void registerTfcPipeline() {
  mlir::PassPipelineRegistration<TfcPipelineOptions>(
      "tfc-pipeline", "The graph-level pipeline of `tfc compile`",
      buildTfcPipeline);
}

} // namespace tfc
