//===- TfgOps.td - structural operations of tfg ------------*- tablegen -*-===//
//
// The registered operations of the dialect: the graph, functions, and the
// function terminator. Node operations (one per NodeDef) are not declared
// here; see the dialect description.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_DIALECT_TFG_TFGOPS_TD
#define TFC_DIALECT_TFG_TFGOPS_TD

include "tfc/Dialect/Tfg/TfgDialect.td"
include "tfc/Dialect/Tfg/TfgTypes.td"
include "tfc/Dialect/Tfg/TfgAttributes.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"

def Tfg_GraphOp : Tfg_Op<"graph", [
    HasOnlyGraphRegion, NoTerminator, SingleBlock,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getDefaultDialect"]>,
    DeclareOpInterfaceMethods<RegionKindInterface>]> {
  let summary = "a TensorFlow graph: the nodes of a GraphDef";
  let description = [{
    Holds one node operation per NodeDef in a graph region: operation order is
    the GraphDef's node order and has no meaning. Verification checks every
    node against the op registry and that node names are unique.
  }];
  let arguments = (ins Tfg_VersionAttr:$version);
  let regions = (region SizedRegion<1>:$nodes);
  let assemblyFormat = "$version attr-dict-with-keyword $nodes";
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Block &getBody() { return getNodes().front(); }
  }];
}

def Tfg_FuncOp : Tfg_Op<"func", [
    HasOnlyGraphRegion, IsolatedFromAbove, Symbol, FunctionOpInterface,
    DeclareOpInterfaceMethods<OpAsmOpInterface,
                              ["getDefaultDialect", "getAsmBlockArgumentNames"]>,
    DeclareOpInterfaceMethods<RegionKindInterface>]> {
  let summary = "a FunctionDef of the graph's function library";
  let description = [{
    Arguments and results follow the signature's input and output args; their
    names are the `tfg.name` argument and result attributes. The body is a
    graph region of node operations ended by `tfg.return`. The FunctionDef's
    attrs are attributes of the function; per-argument attrs are argument
    attributes.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// FunctionOpInterface.
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
  }];
}

def Tfg_ReturnOp : Tfg_Op<"return", [Terminator, HasParent<"FuncOp">]> {
  let summary = "the results of a function";
  let description = [{
    Data operands are the function's results in signature order; control
    operands are its control outputs, named by `control_names`.
  }];
  let arguments = (ins Variadic<AnyType>:$operands,
                       StrArrayAttr:$control_names);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Data results, then control tokens.
    ::mlir::OperandRange getDataOperands();
    ::mlir::OperandRange getControlOperands();
  }];
}

#endif // TFC_DIALECT_TFG_TFGOPS_TD
