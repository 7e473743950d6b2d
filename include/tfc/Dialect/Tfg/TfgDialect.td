//===- TfgDialect.td - the TensorFlow graph dialect --------*- tablegen -*-===//
//
// The tfg dialect holds a TensorFlow graph as it is serialized: one operation
// per NodeDef, in regions where order does not matter.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_DIALECT_TFG_TFGDIALECT_TD
#define TFC_DIALECT_TFG_TFGDIALECT_TD

include "mlir/IR/OpBase.td"

def Tfg_Dialect : Dialect {
  let name = "tfg";
  let cppNamespace = "::tfc::tfg";
  let summary = "TensorFlow dataflow graphs, one operation per NodeDef";
  let description = [{
    The `tfg` dialect represents a TensorFlow `GraphDef` and its function
    library without loss, so that tfc can import a graph, transform it, and
    export a `GraphDef` that TensorFlow loads again.

    * A graph is a `tfg.graph` operation whose single block is a *graph
      region*: the order of its operations carries no meaning and cycles are
      allowed (TF1 loops close through `NextIteration`).
    * Every `NodeDef` becomes one operation named `tfg.<op type>`, e.g.
      `tfg.MatMul`. Its results are the node's data outputs followed by one
      `!tfg.control` token; its operands are the data inputs followed by the
      control inputs (tokens of other nodes). Inside a graph or function the
      dialect prefix is omitted when printing:

      ```mlir
      %2:2 = MatMul(%0#0, %1#0) [%3] name("dense/MatMul")
          device("/device:CPU:0") {T = f32, transpose_a = false}
          : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      ```

      Here `%2#0` is the product and `%2#1` the node's control token.

    * The node's name, requested device and assigned device are the
      attributes `tfg.name`, `tfg.device` and `tfg.assigned_device`; every
      attr of the NodeDef is an attribute of the same name.
    * Node operations are not registered with MLIR one by one. The dialect
      carries an op registry (TensorFlow OpDefs) and verifies each node against
      it: operand and result counts and dtypes, attr kinds, required attrs,
      allowed values. Node types that the registry does not know import,
      print, and export like any other node, and are only rejected by
      `tfc compile`.
    * A `FunctionDef` becomes a `tfg.func`; functional ops (`If`, `While`,
      `PartitionedCall`, ...) refer to functions by symbol in `#tfg.func`
      attributes.
  }];

  // The attributes tfc's passes put on graphs and nodes are verified by
  // the tfc dialect, loaded with this one.
  let dependentDialects = ["::tfc::TfcDialect"];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let usePropertiesForAttributes = 0;

  let extraClassDeclaration = [{
    /// Node operations are unregistered; the dialect parses and prints them.
    std::optional<ParseOpHook>
    getParseOperationHook(::llvm::StringRef opName) const override;
    ::llvm::unique_function<void(::mlir::Operation *, ::mlir::OpAsmPrinter &)>
    getOperationPrinter(::mlir::Operation *op) const override;

  private:
    void registerTypes();
    void registerAttributes();
  }];
}

/// Base class of the dialect's operations.
class Tfg_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tfg_Dialect, mnemonic, traits>;

#endif // TFC_DIALECT_TFG_TFGDIALECT_TD
