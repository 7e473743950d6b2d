//===- TfgTypes.td - types of the tfg dialect --------------*- tablegen -*-===//
//
// Element types of TensorFlow tensors that have no builtin MLIR counterpart,
// the reference type of TF1 ref variables, and the control token.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_DIALECT_TFG_TFGTYPES_TD
#define TFC_DIALECT_TFG_TFGTYPES_TD

include "tfc/Dialect/Tfg/TfgDialect.td"
include "mlir/IR/AttrTypeBase.td"

class Tfg_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Tfg_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Tfg_ControlType : Tfg_Type<"Control", "control"> {
  let summary = "control token: ordering without data";
  let description = [{
    The last result of every node. A node that lists it as an operand (a
    control input, `^name` in a NodeDef) runs after the producer.
  }];
}

def Tfg_StringType : Tfg_Type<"String", "string"> {
  let summary = "DT_STRING: byte strings";
}
def Tfg_ResourceType : Tfg_Type<"Resource", "resource"> {
  let summary = "DT_RESOURCE: a handle to a stateful resource";
}
def Tfg_VariantType : Tfg_Type<"Variant", "variant"> {
  let summary = "DT_VARIANT: a type-erased value (e.g. a TensorList)";
}
def Tfg_Qint8Type : Tfg_Type<"Qint8", "qint8"> {
  let summary = "DT_QINT8: quantized signed 8-bit";
}
def Tfg_Quint8Type : Tfg_Type<"Quint8", "quint8"> {
  let summary = "DT_QUINT8: quantized unsigned 8-bit";
}
def Tfg_Qint16Type : Tfg_Type<"Qint16", "qint16"> {
  let summary = "DT_QINT16: quantized signed 16-bit";
}
def Tfg_Quint16Type : Tfg_Type<"Quint16", "quint16"> {
  let summary = "DT_QUINT16: quantized unsigned 16-bit";
}
def Tfg_Qint32Type : Tfg_Type<"Qint32", "qint32"> {
  let summary = "DT_QINT32: quantized signed 32-bit";
}
def Tfg_Float4E2M1FNType : Tfg_Type<"Float4E2M1FN", "float4_e2m1fn"> {
  let summary = "DT_FLOAT4_E2M1FN: 4-bit float (no builtin type in MLIR 19)";
}
def Tfg_OpaqueType : Tfg_Type<"Opaque", "opaque"> {
  let summary = "an element type not known at import";
  let description = [{
    The element type of outputs of nodes whose op type is not in the
    registry, and of function arguments typed by an attr of a generic
    function. It is compatible with every dtype in verification.
  }];
}

def Tfg_RefType : Tfg_Type<"Ref", "ref"> {
  let summary = "a reference to a mutable tensor (DT_*_REF)";
  let description = [{
    TF1 ref variables (`VariableV2`) output references: consumers such as
    `Assign` mutate the variable's buffer through them; any other consumer
    reads the current value.
  }];
  let parameters = (ins "::mlir::Type":$elementType);
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$elementType), [{
      return $_get(elementType.getContext(), elementType);
    }]>
  ];
  let assemblyFormat = "`<` $elementType `>`";
}

#endif // TFC_DIALECT_TFG_TFGTYPES_TD
