//===- TfgAttributes.td - attributes of the tfg dialect ----*- tablegen -*-===//
//
// AttrValue kinds with no builtin counterpart: shapes, function references,
// function attr placeholders, version stamps, and tensors kept as serialized
// TensorProtos.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_DIALECT_TFG_TFGATTRIBUTES_TD
#define TFC_DIALECT_TFG_TFGATTRIBUTES_TD

include "tfc/Dialect/Tfg/TfgDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

class Tfg_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Tfg_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Tfg_ShapeAttr : Tfg_Attr<"Shape", "shape"> {
  let summary = "a TensorShapeProto: dims (-1 unknown) or unknown rank";
  let description = [{
    `#tfg.shape<2x?x3>`, `#tfg.shape<>` (a scalar), `#tfg.shape<*>` (unknown
    rank).
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$dims, "bool":$unranked);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    bool hasRank() const { return !getUnranked(); }
  }];
}

def Tfg_FuncAttr : Tfg_Attr<"Func", "func"> {
  let summary = "a function reference with bound attrs (NameAttrList)";
  let parameters = (ins "::mlir::SymbolRefAttr":$name,
                        "::mlir::DictionaryAttr":$attrs);
  let assemblyFormat = "`<` $name `,` $attrs `>`";
}

def Tfg_PlaceholderAttr : Tfg_Attr<"Placeholder", "placeholder"> {
  let summary = "inside a function: the value of the function's attr NAME";
  let parameters = (ins StringRefParameter<"attr name">:$name);
  let assemblyFormat = "`<` $name `>`";
}

def Tfg_VersionAttr : Tfg_Attr<"Version", "version"> {
  let summary = "a VersionDef: producer and consumer versions";
  let parameters = (ins "int32_t":$producer, "int32_t":$minConsumer,
                        OptionalArrayRefParameter<"int32_t">:$badConsumers);
  let assemblyFormat = [{
    `<` `producer` `=` $producer `,` `min_consumer` `=` $minConsumer
    (`,` `bad_consumers` `=` `[` $badConsumers^ `]`)? `>`
  }];
}

def Tfg_TensorProtoAttr : Tfg_Attr<"TensorProto", "tensor_proto"> {
  let summary = "a tensor kept as its serialized TensorProto";
  let description = [{
    Tensors whose dtype has no dense MLIR form (resource, variant, quantized
    and sub-byte types) are carried as the bytes of their TensorProto, so that
    they export unchanged.
  }];
  let parameters = (ins StringRefParameter<"serialized TensorProto">:$bytes);
  let assemblyFormat = "`<` $bytes `>`";
}

#endif // TFC_DIALECT_TFG_TFGATTRIBUTES_TD
