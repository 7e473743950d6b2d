//===- Passes.td - tfc graph passes ------------------------*- tablegen -*-===//

#ifndef TFC_TRANSFORMS_PASSES_TD
#define TFC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def VerifySupportedPass : Pass<"tfc-verify-supported", "mlir::ModuleOp"> {
  let summary = "Rejects graphs that use op types tfc does not know";
  let description = [{
    Node operations whose op type is not in tfc's op registry import and
    export without loss, but cannot be compiled. This pass fails with one
    error that names every unsupported op type and one node of each, in the
    order they first appear (graph first, then functions).
  }];
}

def VerifyAcyclicPass : Pass<"tfc-verify-acyclic", "mlir::ModuleOp"> {
  let summary = "Rejects cycles that do not pass through NextIteration";
  let description = [{
    A TensorFlow graph may only contain cycles that close through a
    `NextIteration` node (the back edge of a TF1 while loop). Any other cycle
    of data or control edges can never run. This pass fails on the first such
    cycle in the graph or a function body and prints it as a chain of node
    names.
  }];
}

def PrunePass : Pass<"tfc-prune", "mlir::ModuleOp"> {
  let summary = "Keeps what one step needs: feeds, fetches, targets, init";
  let description = [{
    Partial execution (white paper §4.2, Figure 6) at compile time. The
    module's `tfc.feeds` tensors are replaced, for all their data consumers,
    by `_Arg` nodes (index = feed position, shape from `tfc.feed_shapes`, the
    Placeholder's `shape`, or the IR); each `tfc.fetches` tensor gets a
    `_Retval` node (index = fetch position); then every node that the
    `_Retval`s and the `tfc.targets` do not need, through data and control
    edges, is removed, stateful nodes included. A fetch of a fed tensor
    returns the fed value. Feeding a tensor computed inside a TF1 while loop
    is an error, as in TensorFlow.

    If `tfc.init` names nodes, they are pruned from a copy of the original
    graph into a second `tfg.graph` whose `tfg.entry` is "init" (run once
    before the first step); the main graph's `tfg.entry` becomes "step".
    Without feeds, fetches, targets or init the pass does nothing.
  }];
}

def RemoveDeadNodesPass : Pass<"tfc-remove-dead-nodes", "mlir::ModuleOp"> {
  let summary = "Erases nodes whose results nobody uses";
  let description = [{
    Dead code elimination, run after each rewrite: a node none of whose
    results (data or control) is used is erased, unless it is stateful (or
    of an op type the registry does not know), or a root: `_Retval`,
    `_Send`, `_HostSend`, a target or an init node. Graphs are cleaned only
    once pruned to an entry (`tfg.entry`); function bodies always.
  }];
  let statistics = [
    Statistic<"numRemoved", "removed", "Number of nodes removed">
  ];
}

#endif // TFC_TRANSFORMS_PASSES_TD
