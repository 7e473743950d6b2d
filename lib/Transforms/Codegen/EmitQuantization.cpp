//===- EmitQuantization.cpp - fake quantization ---------------------------===//
//
// The FakeQuantWithMinMax* ops of quantization-aware training and their
// gradients: one call of the runtime's kernel each (FakeQuant.cpp), the
// range from the attributes (Args) or from the min and max tensors (Vars,
// per tensor or per channel of the last dimension).
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/OpTable.h"

using namespace mlir;

namespace tfc {
namespace {

class FakeQuantPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    OpKind kind = opKindOf(node);
    bool gradient = kind == OpKind::FakeQuantWithMinMaxArgsGradient ||
                    kind == OpKind::FakeQuantWithMinMaxVarsGradient ||
                    kind == OpKind::FakeQuantWithMinMaxVarsPerChannelGradient;
    bool fromAttributes = kind == OpKind::FakeQuantWithMinMaxArgs ||
                          kind == OpKind::FakeQuantWithMinMaxArgsGradient;
    bool perChannel = kind == OpKind::FakeQuantWithMinMaxVarsPerChannel ||
                      kind == OpKind::FakeQuantWithMinMaxVarsPerChannelGradient;
    OperandRange operands = tfg::getDataOperands(node);
    // (gradients,) inputs, (min, max).
    unsigned first = gradient ? 1 : 0;
    Value inputs = operands[first];
    auto type = cast<RankedTensorType>(inputs.getType());
    if (!type.getElementType().isF32())
      return step.error(node) << "supports float32 only";
    tfc_fake_quant_params params = {};
    params.num_bits = intAttr(node, "num_bits", 8);
    params.narrow_range = boolAttr(node, "narrow_range");
    if (params.num_bits < 2 || params.num_bits > 16)
      return step.error(node) << "num_bits must be in [2, 16], not "
                              << params.num_bits;
    params.min = floatAttr(node, "min", -6.0);
    params.max = floatAttr(node, "max", 6.0);
    if (fromAttributes && !(params.min < params.max))
      return step.error(node) << "min must be below max";
    int64_t channels = perChannel ? type.getShape().back() : 1;
    Location loc = node->getLoc();
    Value none = step.nullPointer(loc);
    auto pointer = [&](Value value) { return step.pointerTo(step.memrefFor(value)); };
    Value min = fromAttributes ? none : pointer(operands[first + 1]);
    Value max = fromAttributes ? none : pointer(operands[first + 2]);
    SmallVector<Value> outs;
    for (unsigned port = 0; port < tfg::getDataResults(node).size(); ++port) {
      FailureOr<Value> out = step.outputFor(node, port);
      if (failed(out))
        return failure();
      outs.push_back(step.pointerTo(*out));
    }
    Value parameters = step.constantParams(loc, params);
    if (!gradient) {
      step.callKernel(loc, step.kernelName("fake_quant_f32"),
                      {pointer(inputs), outs[0], min, max, parameters},
                      {type.getNumElements(), channels});
      return success();
    }
    bool rangeGradients = outs.size() == 3;
    step.callKernel(loc, step.kernelName("fake_quant_grad_f32"),
                    {pointer(operands[0]), pointer(inputs), outs[0],
                     rangeGradients ? outs[1] : none,
                     rangeGradients ? outs[2] : none, min, max, parameters},
                    {type.getNumElements(), channels});
    return success();
  }
};

} // namespace

void populateQuantizationPatterns(CodegenPatterns &patterns) {
  patterns.add<FakeQuantPattern>("FakeQuant");
}

} // namespace tfc
