//===- TfcOps.td - tfc's operations ------------------------*- tablegen -*-===//
//
// The operations passes put into graphs for later passes: a fusion group
// holds the nodes code generation computes as one (IREE's dispatch
// regions, for TensorFlow graphs), so that what is fused is the IR's
// structure rather than attributes pointing from node to node.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_DIALECT_TFC_TFCOPS_TD
#define TFC_DIALECT_TFC_TFCOPS_TD

include "tfc/Dialect/Tfc/TfcDialect.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Tfc_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tfc_Dialect, mnemonic, traits>;

def Tfc_FusionGroupOp : Tfc_Op<"fusion_group", [
    IsolatedFromAbove, SingleBlock,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getDefaultDialect"]>]> {
  let summary = "nodes computed as one: a loop nest or one kernel call";
  let description = [{
    Written by `tfc-fuse-elementwise` into a graph, in place of the nodes it
    groups: a chain of elementwise nodes (one loop nest computes them all,
    element by element), a convolution with the bias, residual and
    activation its kernel applies as it writes, or a max pooling gradient
    with the ReluGrad its kernel applies. The group is one node of its
    graph: it runs where its *root* ran, the node whose values leave the
    group, and the values inside it never exist in memory.

    It is laid out as a node: its operands are the group's data inputs and
    then the control inputs of its members (control tokens), its results
    the root's data results and then the group's control token (the type of
    the root's). The region is isolated from above: one block argument per
    data input, the member nodes in dependency order, and `tfc.yield` of the
    root's data results.

    ```mlir
    %r:2 = tfc.fusion_group(%x#0, %b#0)
        : (tensor<2x4xf32>, tensor<4xf32>) -> (tensor<2x4xf32>, !tfg.control) {
    ^bb0(%in: tensor<2x4xf32>, %bias: tensor<4xf32>):
      %add:2 = BiasAdd(%in, %bias) name("add") {T = f32}
          : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
      %relu:2 = Relu(%add#0) name("relu") {T = f32}
          : (tensor<2x4xf32>) -> tensor<2x4xf32>
      tfc.yield %relu#0 : tensor<2x4xf32>
    }
    ```

    The graph's verifier checks each member as a node of the graph (its
    name unique there, and no control inputs of its own: they are the
    group's).
  }];
  let arguments = (ins Variadic<AnyType>:$inputs);
  let results = (outs Variadic<AnyType>:$outputs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` attr-dict `:` functional-type($inputs, $outputs) $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The group's tfc.yield; null while the block lacks it (before
    /// verification).
    YieldOp getYield();
    /// The node whose data results the group yields.
    ::mlir::Operation *getRoot();
    /// The member nodes in dependency order, the root last.
    ::mlir::Block &getMembers() { return getBody().front(); }
    /// The control token's type (the root's): control operands have it too.
    ::mlir::Type getControlType() { return getOutputs().back().getType(); }
    /// Data inputs (one per block argument) and control inputs.
    ::mlir::OperandRange getDataInputs();
    ::mlir::OperandRange getControlInputs();
    /// The data input a block argument of the region stands for.
    ::mlir::Value getInputOf(::mlir::BlockArgument argument) {
      return getInputs()[argument.getArgNumber()];
    }
  }];
}

def Tfc_YieldOp : Tfc_Op<"yield", [
    Pure, Terminator, HasParent<"FusionGroupOp">]> {
  let summary = "the data results of a fusion group's root";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

#endif // TFC_DIALECT_TFC_TFCOPS_TD
