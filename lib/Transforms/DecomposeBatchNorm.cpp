//===- DecomposeBatchNorm.cpp - inference batch norm as arithmetic --------===//
//
// An inference FusedBatchNorm (is_training = false) is an affine map per
// channel:
//
//   y = x * s + b,  s = scale * rsqrt(variance + epsilon),
//                   b = offset - mean * s
//
// This pass writes it so, as AddV2/Rsqrt/Mul/Sub nodes: the per-channel
// vectors are a handful of small nodes (constants when the statistics
// are), and x * s + b joins the elementwise group of what follows (the
// ReLU), so that a convolution's output is read once for normalization
// and activation together. NCHW reshapes s and b to [C, 1, 1]. Nodes that
// train are left alone.
//
// An inference batch norm's statistics outputs are its own mean and
// variance inputs, as TensorFlow's kernel outputs them (batch_mean and
// reserve_space_1 the mean, batch_variance and reserve_space_2 the
// variance, reserve_space_3 empty): a model fine-tuned with its batch
// norms frozen passes them to FusedBatchNormGrad (is_training = false),
// whose users read them from there instead.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_DECOMPOSEBATCHNORMPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

struct DecomposeBatchNormPass
    : public impl::DecomposeBatchNormPassBase<DecomposeBatchNormPass> {
  PassCounter numDecomposed{this, "decomposed", "batch norms decomposed"};

  void runOnOperation() override {
    numDecomposed = 0;
    for (Block *body : getBodies(getOperation())) {
      NameUniquer names(*body);
      for (Operation &op : llvm::make_early_inc_range(*body))
        if (tfg::isNode(&op) && decompose(&op, names))
          ++numDecomposed;
    }
  }

  bool decompose(Operation *node, NameUniquer &names) {
    OpKind kind = opKindOf(node);
    if (kind != OpKind::FusedBatchNorm && kind != OpKind::FusedBatchNormV2 &&
        kind != OpKind::FusedBatchNormV3)
      return false;
    auto training = node->getAttrOfType<BoolAttr>("is_training");
    if (!training || training.getValue())
      return false;
    ValueRange results = tfg::getDataResults(node);
    OperandRange inputs = tfg::getDataOperands(node);
    Value x = inputs[0], scale = inputs[1], offset = inputs[2],
          mean = inputs[3], variance = inputs[4];
    auto xType = dyn_cast<RankedTensorType>(x.getType());
    auto vType = dyn_cast<RankedTensorType>(scale.getType());
    if (!xType || !vType || xType.getElementType() != vType.getElementType() ||
        !isa<FloatType>(xType.getElementType()))
      return false;
    auto format = node->getAttrOfType<StringAttr>("data_format");
    bool channelsFirst = format && format.getValue().starts_with("NC");
    if (channelsFirst && xType.getRank() != 4)
      return false;
    auto epsilonAttr = node->getAttrOfType<FloatAttr>("epsilon");
    double epsilon = epsilonAttr ? epsilonAttr.getValueAsDouble() : 1e-4;

    OpBuilder b(node);
    Location loc = node->getLoc();
    StringRef name = tfg::getNodeName(node);
    Type element = xType.getElementType();
    TypeAttr t = TypeAttr::get(element);
    StringRef device = tfg::getRequestedDevice(node);
    auto make = [&](StringRef op, StringRef suffix, Type result,
                    ValueRange operands,
                    SmallVector<NamedAttribute> attrs) -> Value {
      attrs.push_back(b.getNamedAttr(
          tfg::kNameAttr, b.getStringAttr(names.get((name + "/" + suffix).str()))));
      if (!device.empty())
        attrs.push_back(b.getNamedAttr(tfg::kDeviceAttr, b.getStringAttr(device)));
      return tfg::createNode(b, loc, op, result, operands, {}, attrs)->getResult(0);
    };
    auto binary = [&](StringRef op, StringRef suffix, Value l, Value r) {
      return make(op, suffix, l.getType(), {l, r}, {b.getNamedAttr("T", t)});
    };
    auto scalarType = RankedTensorType::get({}, element);
    Value eps = make("Const", "epsilon", scalarType, {},
                     {b.getNamedAttr("dtype", t),
                      b.getNamedAttr("value", DenseElementsAttr::get(
                                                  scalarType, b.getFloatAttr(element, epsilon)))});
    Value inverse = make("Rsqrt", "inverse_stddev", vType,
                         {binary("AddV2", "variance_epsilon", variance, eps)},
                         {b.getNamedAttr("T", t)});
    Value s = binary("Mul", "scale_factor", scale, inverse);
    Value shift = binary("Sub", "shift", offset, binary("Mul", "mean_scaled", mean, s));
    if (channelsFirst) {
      // [C] -> [C, 1, 1], to broadcast over H and W.
      int64_t c = vType.getDimSize(0);
      auto shapeType = RankedTensorType::get({3}, b.getI32Type());
      Value shape = make(
          "Const", "channel_shape", shapeType, {},
          {b.getNamedAttr("dtype", TypeAttr::get(b.getI32Type())),
           b.getNamedAttr("value", DenseElementsAttr::get(
                                       shapeType, ArrayRef<int32_t>{int32_t(c), 1, 1}))});
      auto column = RankedTensorType::get({c, 1, 1}, element);
      auto reshape = [&](Value v, StringRef suffix) {
        return make("Reshape", suffix, column, {v, shape},
                    {b.getNamedAttr("T", t),
                     b.getNamedAttr("Tshape", TypeAttr::get(b.getI32Type()))});
      };
      s = reshape(s, "scale_factor_nchw");
      shift = reshape(shift, "shift_nchw");
    }
    Value scaled = binary("Mul", "scaled", x, s);
    // The result takes the node's name, its control inputs and users.
    SmallVector<NamedAttribute> attrs = {
        b.getNamedAttr("T", t),
        b.getNamedAttr(tfg::kNameAttr, b.getStringAttr(name))};
    if (!device.empty())
      attrs.push_back(b.getNamedAttr(tfg::kDeviceAttr, b.getStringAttr(device)));
    Operation *y = tfg::createNode(b, loc, "AddV2", results[0].getType(),
                                   {scaled, shift}, tfg::getControlOperands(node),
                                   attrs);
    results[0].replaceAllUsesWith(y->getResult(0));
    // The statistics outputs: mean, variance, mean, variance, empty.
    for (auto [k, statistic] : llvm::enumerate(results.drop_front())) {
      if (statistic.use_empty())
        continue;
      if (k < 4) {
        statistic.replaceAllUsesWith(k % 2 == 0 ? mean : variance);
        continue;
      }
      auto empty = RankedTensorType::get({0}, element);
      statistic.replaceAllUsesWith(
          make("Const", "reserve_space_3", empty, {},
               {b.getNamedAttr("dtype", t),
                b.getNamedAttr("value", DenseElementsAttr::get(
                                            empty, ArrayRef<Attribute>{}))}));
    }
    tfg::getControlToken(node).replaceAllUsesWith(tfg::getControlToken(y));
    node->erase();
    return true;
  }
};

} // namespace
} // namespace tfc
