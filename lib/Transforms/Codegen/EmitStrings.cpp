//===- EmitStrings.cpp - the string ops of savers -------------------------===//
//
// StringJoin, ShardedFilename and StaticRegexFullMatch: calls of the
// runtime's string ops on handles (tfc_runtime.h). Strings that other ops
// only pass on (Identity, Pack, Select, ...) need nothing here: a handle
// is a 64-bit element like any other.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "tfc/Transforms/OpTable.h"

using namespace mlir;

namespace tfc {

LogicalResult StepEmitter::emitStringOp(Operation *node) {
  Location loc = node->getLoc();
  OpKind kind = opKindOf(node);
  SmallVector<Value> inputs;
  for (Value operand : tfg::getDataOperands(node)) {
    Value buffer = memrefFor(operand);
    if (!buffer)
      return error(node) << "an input has no buffer";
    inputs.push_back(buffer);
  }
  FailureOr<Value> out = outputFor(node);
  if (failed(out))
    return failure();
  int64_t count = memrefOf(tfg::getDataResults(node)[0]).getNumElements();

  if (kind == OpKind::StringJoin) {
    SmallVector<int64_t> counts;
    for (Value input : inputs)
      counts.push_back(cast<MemRefType>(input.getType()).getNumElements());
    auto separator = node->getAttrOfType<StringAttr>("separator");
    callKernel(loc, "tfc_string_join",
               {addressTable(loc, inputs), pointerTo(constantTable(loc, counts)),
                pointerTo(*out),
                stringPointer(loc, separator ? separator.getValue() : "")},
               {int64_t(inputs.size()), count});
    return success();
  }
  if (kind == OpKind::ShardedFilename) {
    callKernel(loc, "tfc_sharded_filename",
               {pointerTo(inputs[0]), pointerTo(inputs[1]), pointerTo(inputs[2]),
                pointerTo(*out)},
               {});
    return success();
  }
  auto pattern = node->getAttrOfType<StringAttr>("pattern");
  if (!pattern)
    return error(node) << "no 'pattern' attr";
  callKernel(loc, "tfc_static_regex_full_match",
             {pointerTo(inputs[0]), pointerTo(*out),
              stringPointer(loc, pattern.getValue()),
              stringPointer(loc, tfg::getNodeName(node))},
             {count});
  return success();
}

void populateStringPatterns(CodegenPatterns &patterns) {
  patterns.add<EmitterPattern<&StepEmitter::emitStringOp>>("StringOp");
}

} // namespace tfc
