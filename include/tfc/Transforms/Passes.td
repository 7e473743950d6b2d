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

#endif // TFC_TRANSFORMS_PASSES_TD
