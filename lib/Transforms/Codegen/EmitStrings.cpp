//===- EmitStrings.cpp - the string ops of savers -------------------------===//
//
// StringJoin and ShardedFilename, the elementwise string ops (StringLength,
// StringLower/Upper, StringStrip, AsString, StringToNumber, Substr,
// StringToHashBucketFast), tfc's dense StringSplitV2 and UnicodeDecode, and the regular
// expression ones (RE2's, as
// TensorFlow's): calls of the runtime's
// string ops on handles (tfc_runtime.h). Strings that other ops
// only pass on (Identity, Pack, Select, ...) need nothing here: a handle
// is a 64-bit element like any other.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "tfc/Dialect/Tfg/DataType.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/OpTable.h"

using namespace mlir;

namespace tfc {

namespace {

/// AsString's printf format, composed as TensorFlow's kernel composes it
/// from the attributes: fill and width, precision, then e (scientific), g
/// (shortest) or f for floats, d for integers.
FailureOr<std::string> asStringFormat(Operation *node) {
  Type element =
      cast<TensorType>(tfg::getDataOperands(node)[0].getType()).getElementType();
  auto fill = node->getAttrOfType<StringAttr>("fill");
  int64_t width = intAttr(node, "width", -1), precision = intAttr(node, "precision", -1);
  bool scientific = boolAttr(node, "scientific"), shortest = boolAttr(node, "shortest");
  bool isFloat = isa<FloatType>(element);
  if (fill && fill.getValue().size() > 1)
    return node->emitError() << tfg::nodeLabel(node) << ": fill must be one character";
  if (!isFloat && (precision > -1 || scientific || shortest))
    return node->emitError() << tfg::nodeLabel(node)
                             << ": precision, scientific and shortest apply to floats only";
  if (scientific && shortest)
    return node->emitError() << tfg::nodeLabel(node)
                             << ": scientific and shortest are exclusive";
  std::string format = "%";
  if (fill)
    format += fill.getValue().str();
  if (width > -1)
    format += std::to_string(width);
  if (precision > -1)
    format += "." + std::to_string(precision);
  if (isFloat)
    format += scientific ? "e" : shortest ? "g" : "f";
  else
    format += element.isInteger(64) ? "lld" : "d";
  return format;
}

/// The string ops: the runtime's.
class StringOpPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    Location loc = node->getLoc();
    OpKind kind = opKindOf(node);
    SmallVector<Value> inputs;
    for (Value operand : tfg::getDataOperands(node)) {
      Value buffer = step.memrefFor(operand);
      if (!buffer)
        return step.error(node) << "an input has no buffer";
      inputs.push_back(buffer);
    }
    FailureOr<Value> out = step.outputFor(node);
    if (failed(out))
      return failure();
    int64_t count = memrefOf(tfg::getDataResults(node)[0]).getNumElements();

    if (kind == OpKind::StringJoin) {
      SmallVector<int64_t> counts;
      for (Value input : inputs)
        counts.push_back(cast<MemRefType>(input.getType()).getNumElements());
      auto separator = node->getAttrOfType<StringAttr>("separator");
      step.callKernel(
          loc, "tfc_string_join",
          {step.addressTable(loc, inputs),
           step.pointerTo(step.constantTable(loc, counts)),
           step.pointerTo(*out),
           step.stringPointer(loc, separator ? separator.getValue() : "")},
          {int64_t(inputs.size()), count});
      return success();
    }
    if (kind == OpKind::ShardedFilename) {
      step.callKernel(loc, "tfc_sharded_filename",
                      {step.pointerTo(inputs[0]), step.pointerTo(inputs[1]),
                       step.pointerTo(inputs[2]), step.pointerTo(*out)},
                      {});
      return success();
    }
    Value in = step.pointerTo(inputs[0]), result = step.pointerTo(*out);
    auto utf8 = [&] {
      auto unit = node->getAttrOfType<StringAttr>("unit");
      return int64_t(unit && unit.getValue() == "UTF8_CHAR");
    };
    switch (kind) {
    case OpKind::StringLength:
      step.callKernel(loc, "tfc_string_length", {in, result}, {count, utf8()});
      return success();
    case OpKind::StringLower:
    case OpKind::StringUpper:
      step.callKernel(loc, "tfc_string_case", {in, result},
                      {count, kind == OpKind::StringUpper});
      return success();
    case OpKind::StringStrip:
      step.callKernel(loc, "tfc_string_strip", {in, result}, {count});
      return success();
    case OpKind::InternalTfcDenseStringSplit: {
      FailureOr<Value> lengths = step.outputFor(node, 1);
      if (failed(lengths))
        return failure();
      step.callKernel(loc, "tfc_string_split_dense",
                      {in, step.pointerTo(inputs[1]), result,
                       step.pointerTo(*lengths)},
                      {memrefOf(tfg::getDataOperands(node)[0]).getNumElements(),
                       intAttr(node, "columns", 1), intAttr(node, "maxsplit", -1)});
      return success();
    }
    case OpKind::InternalTfcDenseUnicodeDecode: {
      FailureOr<Value> lengths = step.outputFor(node, 1);
      if (failed(lengths))
        return failure();
      auto errors = node->getAttrOfType<StringAttr>("errors");
      StringRef mode = errors ? errors.getValue() : "replace";
      step.callKernel(
          loc, "tfc_unicode_decode_dense",
          {in, result, step.pointerTo(*lengths),
           // (The user's node, which this one replaced under its name.)
           step.stringPointer(loc, "node '" + tfg::getNodeName(node).str() +
                                       "' (UnicodeDecode)")},
          {memrefOf(tfg::getDataOperands(node)[0]).getNumElements(),
           intAttr(node, "columns", 1),
           mode == "strict" ? 0 : mode == "replace" ? 1 : 2,
           intAttr(node, "replacement_char", 0xFFFD),
           boolAttr(node, "replace_control_characters")});
      return success();
    }
    case OpKind::StringToHashBucketFast:
      step.callKernel(loc, "tfc_string_to_hash_bucket_fast", {in, result},
                      {count, intAttr(node, "num_buckets", 1)});
      return success();
    case OpKind::AsString: {
      FailureOr<std::string> format = asStringFormat(node);
      if (failed(format))
        return failure();
      Type element = cast<MemRefType>(inputs[0].getType()).getElementType();
      step.callKernel(loc, "tfc_as_string",
                      {in, result, step.stringPointer(loc, *format)},
                      {count, int64_t(tfg::typeToDataType(element))});
      return success();
    }
    case OpKind::StringToNumber: {
      Type element = cast<MemRefType>(out->getType()).getElementType();
      step.callKernel(loc, "tfc_string_to_number",
                      {in, result, step.stringPointer(loc, tfg::nodeLabel(node))},
                      {count, int64_t(tfg::typeToDataType(element))});
      return success();
    }
    case OpKind::Substr: {
      auto pos = cast<MemRefType>(inputs[1].getType());
      if (pos != inputs[2].getType() ||
          (pos.getNumElements() != 1 && pos.getNumElements() != count))
        return step.error(node) << "pos and len must be scalars or the "
                                   "input's shape";
      step.callKernel(loc, "tfc_substr",
                      {in, step.pointerTo(inputs[1]), step.pointerTo(inputs[2]),
                       result, step.stringPointer(loc, tfg::nodeLabel(node))},
                      {count, pos.getNumElements(),
                       pos.getElementTypeBitWidth() / 8, utf8()});
      return success();
    }
    default:
      break;
    }
    // The regular expression ops: pattern and rewrite from the attributes
    // (Static*) or from scalar string tensors.
    bool fromTensors = kind == OpKind::RegexFullMatch || kind == OpKind::RegexReplace;
    auto text = [&](StringRef attr, unsigned operand) -> Value {
      if (fromTensors)
        return step.pointerTo(inputs[operand]);
      auto value = node->getAttrOfType<StringAttr>(attr);
      return step.stringPointer(loc, value ? value.getValue() : "");
    };
    Value label = step.stringPointer(loc, tfg::nodeLabel(node));
    if (kind == OpKind::StaticRegexFullMatch || kind == OpKind::RegexFullMatch) {
      step.callKernel(loc, "tfc_regex_full_match",
                      {in, result, text("pattern", 1), label},
                      {count, fromTensors});
      return success();
    }
    step.callKernel(loc, "tfc_regex_replace",
                    {in, result, text("pattern", 1), text("rewrite", 2), label},
                    {count, boolAttr(node, "replace_global", true), fromTensors});
    return success();
  }
};

} // namespace

void populateStringPatterns(CodegenPatterns &patterns) {
  patterns.add<StringOpPattern>("StringOp");
}

} // namespace tfc
