//===- Pipeline.h - the named pipelines of tfc compile ----------*- C++ -*-===//
//
// `tfc compile` runs three stages, each built by one function here and
// registered in `tfc-opt` under its name, so that any point of a compile
// can be replayed and inspected (`tfc compile --stop-after STAGE --emit
// mlir` writes the IR after a stage; `tfc-opt --tfc-<next stage>` goes on
// from there):
//
//   tfc-graph          the graph-level passes: prune, inline, shapes,
//                      folding, simplification, placement, partitioning
//   tfc-codegen        from the optimized graph to the step functions on
//                      memrefs: frames, fusion, memory plan, code generation
//   tfc-lower-to-llvm  from the step functions to the LLVM dialect
//
// A compile records its configuration (the interface, the devices, the
// placement strategy, ...) on the module, so a dump replays as it ran; the
// pipeline's options, forwarded to its passes, override that record.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TRANSFORMS_PIPELINE_H
#define TFC_TRANSFORMS_PIPELINE_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace tfc {

struct TfcGraphPipelineOptions
    : public mlir::PassPipelineOptions<TfcGraphPipelineOptions> {
  ListOption<std::string> devices{
      *this, "devices",
      llvm::cl::desc("Devices placement may use (default: the module's "
                     "tfc.devices, else one CPU)")};
  Option<std::string> placement{
      *this, "placement",
      llvm::cl::desc("Placement strategy: cost, first, round-robin or parameter-server")};
  Option<bool> softPlacement{
      *this, "soft-placement",
      llvm::cl::desc("Relax device requests no available device meets"),
      llvm::cl::init(false)};
  Option<std::string> costFile{
      *this, "cost-file",
      llvm::cl::desc("JSON file overriding the placer's cost model")};
  Option<std::string> compressTransfers{
      *this, "compress-transfers",
      llvm::cl::desc("bf16: float32 transfers between tasks as 16 bits")};
  Option<bool> recvScheduling{
      *this, "recv-scheduling",
      llvm::cl::desc("Delay each _Recv to just before its consumers"),
      llvm::cl::init(true)};
  Option<bool> partition{
      *this, "partition",
      llvm::cl::desc("Cut the placed graph into a graph per device (false: "
                     "stop after placement, as `tfc viz --after place` does)"),
      llvm::cl::init(true)};
};

/// Adds the passes before tfc-verify-supported to `pm` (on builtin.module):
/// the step (and init entry) cut down to what tfc compiles, static tables
/// bound, calls inlined, padded splits made dense. `tfc info` runs them to
/// say what a compile would refuse.
void buildTfcImportPipeline(mlir::OpPassManager &pm);

/// Adds the graph-level passes of `tfc compile` to `pm` (on builtin.module).
void buildTfcGraphPipeline(mlir::OpPassManager &pm,
                           const TfcGraphPipelineOptions &options);

/// Adds the code generator's first passes (the start of tfc-codegen): shapes
/// checked static, frames raised, elementwise groups formed. `tfc viz
/// --after fuse` draws the graph they leave.
void buildTfcFusionPipeline(mlir::OpPassManager &pm);

/// Adds the passes from an optimized module to `tfc_step_impl` (and
/// `tfc_init_impl`) on memrefs: shapes checked static, frames raised,
/// elementwise groups, state and memory plans, loops and kernel calls.
/// `tfc compile` and the constant evaluator run it; `tracePoints`: each
/// node's code bracketed by trace points (a program's --trace).
void buildTfcCodegenPipeline(mlir::OpPassManager &pm, bool tracePoints = true);

/// Adds the passes that lower the step functions to the LLVM dialect
/// (loops, memrefs with the bare-pointer calling convention, math through
/// LLVM or the C library).
void buildTfcLowerToLLVMPipeline(mlir::OpPassManager &pm);

/// Registers the three pipelines under their names.
void registerTfcPipelines();

} // namespace tfc

#endif // TFC_TRANSFORMS_PIPELINE_H
