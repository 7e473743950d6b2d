//===- Pipeline.h - the graph-level pipeline of tfc compile -----*- C++ -*-===//
//
// One function builds the pipeline that `tfc compile` runs; `tfc-opt`
// registers it as `--tfc-pipeline` so that any stage of a compile can be
// replayed on IR saved with --print-ir-after.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TRANSFORMS_PIPELINE_H
#define TFC_TRANSFORMS_PIPELINE_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace tfc {

struct TfcPipelineOptions : public mlir::PassPipelineOptions<TfcPipelineOptions> {
};

/// Adds the graph-level passes of `tfc compile` to `pm` (on builtin.module).
void buildTfcPipeline(mlir::OpPassManager &pm,
                      const TfcPipelineOptions &options);

/// Adds the passes that prepare an optimized module for lowering: from the
/// graph to `tfc_step_impl` on memrefs (shapes checked static,
/// elementwise groups, memory plan, loops and kernel calls). `tfc compile` and the constant evaluator run it.
void buildCodegenPipeline(mlir::OpPassManager &pm);

/// Registers the pipeline as `tfc-pipeline`.
void registerTfcPipeline();

} // namespace tfc

#endif // TFC_TRANSFORMS_PIPELINE_H
