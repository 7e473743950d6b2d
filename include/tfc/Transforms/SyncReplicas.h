//===- SyncReplicas.h - SyncReplicasOptimizer's parts in a graph -*- C++ -*-===//
//
// Synchronous replicas (OSDI §4.4) as TensorFlow's tf.compat.v1
// SyncReplicasOptimizer builds them: each worker applies its gradients to
// per-variable accumulators on the ps and takes a token from the token
// queue; the chief queue runner takes the mean of the first
// replicas_to_aggregate gradients of each accumulator, applies it and puts
// a token per worker back. TensorFlow's session hook runs the rest: every
// worker's local-step init, the chief's init and initial tokens, and the
// chief queue runner. A user who compiles such a graph gives none of
// these: tfc finds them from the graph's structure (docs/Distributed.md
// says how), and makes the initial tokens when the graph lacks them.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TRANSFORMS_SYNCREPLICAS_H
#define TFC_TRANSFORMS_SYNCREPLICAS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"

#include <optional>
#include <string>

namespace tfc {

/// The node names of a SyncReplicasOptimizer's parts.
struct SyncReplicasParts {
  /// local_step_init_op: the worker's local step set to the global step.
  std::string localInit;
  /// chief_init_op: the group of the local step init and the accumulators'
  /// SetGlobalStep.
  std::string chiefInit;
  /// get_init_tokens_op's: an enqueue of initial tokens, or its
  /// "no_init_tokens" NoOp.
  std::string initTokens;
  /// The chief queue runner's enqueue (the optimizer's sync_op).
  std::string chiefQueueRunner;
  /// replicas_to_aggregate (the take's num_required) and the tokens each
  /// update puts back (max(total_num_replicas, replicas_to_aggregate)).
  int64_t replicasToAggregate = 0, tokensPerStep = 0;
  /// Whether tfc made `initTokens` (replicas_to_aggregate tokens, the
  /// hook's default), the graph having none.
  bool madeInitTokens = false;
};

/// The parts of the SyncReplicasOptimizer in `module`'s graph, nullopt if
/// it has none (no token queue, shared_name "sync_token_q"). With
/// `addInitTokens`, a graph without an initial tokens op gets one. Fails
/// with an error naming what is missing when the token queue is there but
/// the rest does not fit the optimizer's structure.
mlir::FailureOr<std::optional<SyncReplicasParts>>
findSyncReplicas(mlir::ModuleOp module, bool addInitTokens);

} // namespace tfc

#endif // TFC_TRANSFORMS_SYNCREPLICAS_H
