//===- CompileInterface.h - feeds, fetches, targets of a compile -*- C++ -*-===//
//
// Turns `tfc compile`'s --feed/--fetch/--target/--init flags (or a
// SavedModel signature, or the graph itself) into the module attributes that
// tfc-prune reads (see GraphUtils.h).
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TRANSFORMS_COMPILEINTERFACE_H
#define TFC_TRANSFORMS_COMPILEINTERFACE_H

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace tfc {

struct CompileFlags {
  /// NAME[:PORT][=D0,D1,...]: D is a size, or -1 / ? for unknown.
  std::vector<std::string> feeds;
  /// NAME[:PORT].
  std::vector<std::string> fetches;
  std::vector<std::string> targets;
  std::vector<std::string> init;
  /// Placement: the devices it may use (full or partial names, default one
  /// CPU), its strategy (cost, first, round-robin), soft placement, and a
  /// cost file.
  std::vector<std::string> devices;
  std::string placement;
  bool softPlacement = false;
  std::string costFile;
  /// Lossy transfers between tasks: "bf16" or empty.
  std::string compressTransfers;
  /// Leave each _Recv where partitioning put it (as early as possible).
  bool noRecvScheduling = false;
  /// Rows per run of the step for a batch of unknown size (tfc-tile-batch);
  /// 0: an unknown batch is an error.
  int64_t batchTile = 1;
  /// The budget of tfc-split-batch's micro-batches in bytes (0: no
  /// micro-batches); -1 leaves the pass's default.
  int64_t microBatchBytes = -1;
  /// NAME[:PORT]:DIM=BOUND: dimension DIM of a feed is at most BOUND, and
  /// the program takes any size up to it (tfc-bound-dynamic-rows).
  std::vector<std::string> maxDims;
  /// Queue runners: ENQUEUE_NODE[,ENQUEUE_NODE...] each, one thread per
  /// name (TensorFlow's QueueRunner runs each of its enqueue ops on a
  /// thread of its own, for as long as the steps run).
  std::vector<std::string> queueRunners;
  /// Chief queue runners, alike (--chief-queue-runner): in the chief's
  /// job only, from its chief init until its steps end.
  std::vector<std::string> chiefQueueRunners;
  /// Nodes every worker runs once after the init (--local-init), and the
  /// chief after them (--chief-init). Without these and chief queue
  /// runners, a SyncReplicasOptimizer's parts (SyncReplicas.h).
  std::vector<std::string> localInit, chiefInit;
  /// Under between-graph replication, the workers that each run the
  /// template replica's step against the ps tasks' state (1 otherwise).
  int64_t replicas = 1;
};

/// Records the interface on `module`. With no --fetch and no --target, a
/// SavedModel's signature gives the feeds and fetches; a plain graph feeds
/// every Placeholder and fetches the outputs of every node whose outputs no
/// node consumes (a warning lists them). Emits an error and fails on a malformed flag.
mlir::LogicalResult setCompileInterface(mlir::ModuleOp module,
                                        const CompileFlags &flags);

} // namespace tfc

#endif // TFC_TRANSFORMS_COMPILEINTERFACE_H
