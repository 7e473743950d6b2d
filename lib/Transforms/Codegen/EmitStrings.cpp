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

namespace {

/// StringJoin, ShardedFilename, StaticRegexFullMatch: the runtime's string ops.
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
    auto pattern = node->getAttrOfType<StringAttr>("pattern");
    if (!pattern)
      return step.error(node) << "no 'pattern' attr";
    step.callKernel(loc, "tfc_static_regex_full_match",
                    {step.pointerTo(inputs[0]), step.pointerTo(*out),
                     step.stringPointer(loc, pattern.getValue()),
                     step.stringPointer(loc, tfg::getNodeName(node))},
                    {count});
    return success();
  }
};

} // namespace

void populateStringPatterns(CodegenPatterns &patterns) {
  patterns.add<StringOpPattern>("StringOp");
}

} // namespace tfc
