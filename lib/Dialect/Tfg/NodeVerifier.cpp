//===- NodeVerifier.cpp - checking nodes against the op registry ----------===//
//
// A node is valid when its layout is (data results, one control token; data
// operands before control operands), it has a name, and - if its op type is
// in the registry - its attrs have the kinds the OpDef declares, with allowed
// values and minimums, and its operands and results have the counts and
// dtypes the OpDef derives from those attrs.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/DataType.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/OpRegistry.h"

#include "graph.pb.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace tfc::tfg {
namespace {

Type elementTypeOf(Type type) {
  if (auto tensor = dyn_cast<TensorType>(type))
    return tensor.getElementType();
  return type;
}

/// Whether a value of element type `actual` may feed an input expecting
/// `expected`. A ref may feed a non-ref input (it is read); a non-ref may not
/// feed a ref input. Unknown element types match anything.
bool isCompatible(Type actual, Type expected) {
  if (!expected || isa<OpaqueType>(actual) || isa<OpaqueType>(expected))
    return true;
  if (isa<RefType>(expected))
    return actual == expected ||
           (isa<RefType>(actual) &&
            isa<OpaqueType>(cast<RefType>(actual).getElementType()));
  if (auto ref = dyn_cast<RefType>(actual))
    actual = ref.getElementType();
  return actual == expected;
}

/// Whether `attr` has the kind of a scalar attr type ("int", "type", ...).
bool hasScalarKind(Attribute attr, StringRef kind) {
  if (kind == "string")
    return isa<StringAttr>(attr);
  if (kind == "int") {
    auto i = dyn_cast<IntegerAttr>(attr);
    return i && !i.getType().isInteger(1);
  }
  if (kind == "float")
    return isa<FloatAttr>(attr);
  if (kind == "bool")
    return isa<BoolAttr>(attr);
  if (kind == "type")
    return isa<TypeAttr>(attr);
  if (kind == "shape")
    return isa<ShapeAttr>(attr);
  if (kind == "tensor")
    return isa<ElementsAttr, TensorProtoAttr>(attr);
  if (kind == "func")
    return isa<FuncAttr>(attr);
  // "any" (and kinds this version does not know) accept every value.
  return true;
}

/// The allowed values of an attr as strings or types, for membership tests.
bool isAllowed(Attribute attr, const proto::AttrValue &allowed,
               MLIRContext *context) {
  if (!allowed.has_list())
    return true;
  const proto::AttrValue::ListValue &list = allowed.list();
  if (auto type = dyn_cast<TypeAttr>(attr)) {
    for (int dtype : list.type())
      if (dataTypeToType(context, dtype) == type.getValue())
        return true;
    return list.type().empty();
  }
  if (auto str = dyn_cast<StringAttr>(attr)) {
    for (const std::string &value : list.s())
      if (value == str.getValue())
        return true;
    return list.s().empty();
  }
  return true;
}

std::string describeAllowed(const proto::AttrValue &allowed) {
  std::vector<std::string> names;
  for (int dtype : allowed.list().type())
    names.push_back(dataTypeName(dtype));
  for (const std::string &value : allowed.list().s())
    names.push_back("\"" + value + "\"");
  return llvm::join(names, ", ");
}

LogicalResult verifyAttrs(Operation *node, const proto::OpDef &opDef) {
  for (const proto::OpDef::AttrDef &def : opDef.attr()) {
    Attribute attr = node->getAttr(def.name());
    if (!attr) {
      if (def.has_default_value())
        continue;
      return nodeError(node) << "missing required attr '" << def.name()
                             << "' of type " << def.type();
    }
    // Inside a generic function an attr may name the function's attr; it is
    // checked when the function is instantiated.
    if (isa<PlaceholderAttr>(attr))
      continue;

    StringRef kind = def.type();
    bool isList = kind.consume_front("list(") && kind.consume_back(")");
    SmallVector<Attribute> values;
    if (isList) {
      auto array = dyn_cast<ArrayAttr>(attr);
      if (!array)
        return nodeError(node) << "attr '" << def.name() << "' must be a "
                               << def.type() << ", got " << attr;
      llvm::append_range(values, array.getValue());
      if (def.has_minimum() &&
          static_cast<int64_t>(values.size()) < def.minimum())
        return nodeError(node)
               << "attr '" << def.name() << "' has " << values.size()
               << " elements, fewer than the minimum " << def.minimum();
    } else {
      values.push_back(attr);
    }
    for (Attribute value : values) {
      if (isa<PlaceholderAttr>(value))
        continue;
      if (!hasScalarKind(value, kind))
        return nodeError(node) << "attr '" << def.name() << "' must be a "
                               << def.type() << ", got " << value;
      if (!isAllowed(value, def.allowed_values(), node->getContext()))
        return nodeError(node)
               << "attr '" << def.name() << "' is " << value
               << ", which is not one of the allowed values ("
               << describeAllowed(def.allowed_values()) << ")";
      if (!isList && def.has_minimum() && kind == "int" &&
          cast<IntegerAttr>(value).getInt() < def.minimum())
        return nodeError(node) << "attr '" << def.name() << "' is "
                               << cast<IntegerAttr>(value).getInt()
                               << ", less than the minimum " << def.minimum();
    }
  }
  return success();
}

/// Compares actual values (operands or results) against the OpDef's args.
LogicalResult verifyArgs(Operation *node, const proto::OpDef &opDef,
                         bool outputs, TypeRange actualTypes) {
  SmallVector<Type> expected;
  std::string error;
  switch (expandArgTypes(node->getContext(), opDef, outputs,
                         node->getAttrDictionary(), expected, error)) {
  case ArgExpansion::DependsOnPlaceholder:
    return success();
  case ArgExpansion::Failed:
    return nodeError(node) << error;
  case ArgExpansion::Expanded:
    break;
  }
  StringRef what = outputs ? "outputs" : "data inputs";
  if (expected.size() != actualTypes.size())
    return nodeError(node) << "expects " << expected.size() << " " << what
                           << ", has " << actualTypes.size();
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(actualTypes, expected))) {
    auto [actual, want] = pair;
    Type element = elementTypeOf(actual);
    // Results are produced by this node: their dtype must be exactly what
    // the OpDef says. Inputs may read refs.
    bool ok = outputs ? (!want || element == want || isa<OpaqueType>(element))
                      : isCompatible(element, want);
    if (!ok)
      return nodeError(node)
             << (outputs ? "output " : "input ") << index << " has dtype "
             << elementTypeName(element) << " but " << getOpType(node)
             << " expects " << elementTypeName(want);
  }
  return success();
}

} // namespace

LogicalResult verifyNode(Operation *node) {
  if (node->getNumResults() == 0 || !isControl(getControlToken(node)))
    return node->emitError("node must have a !tfg.control token as its last "
                           "result");
  for (Value result : getDataResults(node))
    if (isControl(result) || !isa<TensorType>(result.getType()))
      return node->emitError("node data results must be tensors, before the "
                             "control token");
  for (Value operand : getDataOperands(node))
    if (!isa<TensorType>(operand.getType()))
      return node->emitError("node data operands must be tensors, before "
                             "all control operands");
  if (!node->getAttrOfType<StringAttr>(kNameAttr))
    return node->emitError() << "node of type '" << getOpType(node)
                             << "' has no '" << kNameAttr << "' string attr";
  for (StringRef attr : {StringRef(kDeviceAttr), StringRef(kAssignedDeviceAttr)})
    if (node->hasAttr(attr) && !node->getAttrOfType<StringAttr>(attr))
      return nodeError(node) << "'" << attr << "' must be a string";

  const proto::OpDef *opDef = OpRegistry::get().lookup(getOpType(node));
  if (!opDef)
    return success();
  TypeRange results = getDataResults(node).getTypes();
  // A QueueDequeueUpToV2 or SparseAccumulatorTakeGradient whose rows
  // tfc-bound-dynamic-rows planned for their bound has one result more
  // than its OpDef: their count.
  if (getOpType(node) == "QueueDequeueUpToV2")
    if (auto components = node->getAttrOfType<ArrayAttr>("component_types");
        components && results.size() == components.size() + 1)
      results = results.drop_back();
  if (getOpType(node) == "SparseAccumulatorTakeGradient" && results.size() == 4)
    results = results.drop_back();
  // A batch norm (or its gradient) that computes a MaxPool of its y (or
  // the BiasAddGrad of its x gradient) tfc-fuse-elementwise folded into it
  // has that op's result last, and then a batch norm may have the record
  // of the pooling windows' maxima after it.
  // So has a Mean that computes its variance too.
  if ((getOpType(node).starts_with("FusedBatchNorm") ||
       getOpType(node) == "Mean") &&
      int64_t(results.size()) == opDef->output_arg_size() + 1)
    results = results.drop_back();
  // A gradient may have the filter gradient of the convolution before the
  // batch norm folded in too, as its last result.
  if (getOpType(node).starts_with("FusedBatchNorm") &&
      int64_t(results.size()) == opDef->output_arg_size() + 2)
    results = results.drop_back(2);
  // A batch norm gradient that took in the gradient of a max pooling of y
  // reads y too (or the record of its windows' maxima), as one more data
  // operand, and then the input of the convolution whose filter gradient
  // it took in.
  TypeRange operands = getDataOperands(node).getTypes();
  if (getOpType(node).starts_with("FusedBatchNormGrad")) {
    int64_t extra = int64_t(operands.size()) - opDef->input_arg_size();
    if (extra == 1 || extra == 2)
      operands = operands.drop_back(extra);
  }
  if (failed(verifyAttrs(node, *opDef)) ||
      failed(verifyArgs(node, *opDef, /*outputs=*/false, operands)) ||
      failed(verifyArgs(node, *opDef, /*outputs=*/true, results)))
    return failure();
  return success();
}

} // namespace tfc::tfg
