//===- SplitGroupedConvolutions.cpp - a grouped Conv2D as G convolutions ---===//
//
// A Conv2D whose filter has fewer input channels than its input is
// grouped (Keras' Conv2D(groups=G), RegNet's and ResNeXt's blocks): its
// input channels fall into G = C / Cf groups, and output channel group g
// sees only input channel group g. This pass writes it as TensorFlow's
// definition says:
//
//   x_0..x_G-1 = Split(3, x)        w_0..w_G-1 = Split(3, w)
//   y = ConcatV2(Conv2D(x_0, w_0), ..., Conv2D(x_G-1, w_G-1), 3)
//
// so that code generation's convolution (which has no groups) computes
// each; the filter's splits fold when it is a constant. One input channel
// per group (ConvNeXt's) is a depthwise convolution: a
// DepthwiseConv2dNative of the filter reshaped to [kh, kw, C, O/C], one
// node where the split would make C. The ConcatV2 (or the depthwise) keeps
// the node's name, control inputs and users. A grouping the shapes do not
// allow (C or the output channels not a multiple of the groups) is an
// error naming the node.
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
#define GEN_PASS_DEF_SPLITGROUPEDCONVOLUTIONSPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

/// Whether a grouped Conv2D's attributes are ones DepthwiseConv2dNative
/// computes too: SAME or VALID padding, no dilation.
bool isDepthwise(Operation *node) {
  auto padding = node->getAttrOfType<StringAttr>("padding");
  return padding &&
         (padding.getValue() == "SAME" || padding.getValue() == "VALID") &&
         llvm::all_of(intListAttr(node, "dilations"),
                      [](int64_t d) { return d == 1; });
}

struct SplitGroupedConvolutionsPass
    : public impl::SplitGroupedConvolutionsPassBase<
          SplitGroupedConvolutionsPass> {
  PassCounter numSplit{this, "split", "grouped convolutions split"};

  void runOnOperation() override {
    numSplit = 0;
    for (Block *body : getBodies(getOperation())) {
      NameUniquer names(*body);
      for (Operation &op : llvm::make_early_inc_range(*body)) {
        if (opKindOf(&op) != OpKind::Conv2D)
          continue;
        FailureOr<bool> split = splitGroups(&op, names);
        if (failed(split))
          return signalPassFailure();
        numSplit += *split;
      }
    }
  }

  FailureOr<bool> splitGroups(Operation *node, NameUniquer &names) {
    OperandRange inputs = tfg::getDataOperands(node);
    auto xType = dyn_cast<RankedTensorType>(inputs[0].getType());
    auto wType = dyn_cast<RankedTensorType>(inputs[1].getType());
    auto yType = dyn_cast<RankedTensorType>(tfg::getDataResults(node)[0].getType());
    // NHWC only (tfc's convolutions); the filter is [kh, kw, Cf, O].
    auto format = node->getAttrOfType<StringAttr>("data_format");
    if (!xType || !wType || !yType || !xType.hasStaticShape() ||
        !wType.hasStaticShape() || !yType.hasStaticShape() ||
        xType.getRank() != 4 || wType.getRank() != 4 ||
        (format && format.getValue() != "NHWC"))
      return false;
    int64_t channels = xType.getDimSize(3), groupChannels = wType.getDimSize(2),
            outChannels = wType.getDimSize(3);
    if (groupChannels == channels || groupChannels == 0)
      return false;
    auto error = [&]() {
      return node->emitError() << "node '" << tfg::getNodeName(node)
                               << "' (Conv2D): ";
    };
    int64_t groups = channels / groupChannels;
    if (channels % groupChannels || outChannels % groups) {
      error() << "a filter of " << groupChannels << " input and "
              << outChannels << " output channels does not group an input of "
              << channels << " channels";
      return failure();
    }

    OpBuilder b(node);
    StringRef name = tfg::getNodeName(node);
    Type element = xType.getElementType();
    TypeAttr t = TypeAttr::get(element);
    auto i32 = b.getI32Type();
    if (groupChannels == 1 && isDepthwise(node)) {
      // One input channel per group (ConvNeXt's Conv2D(groups=C)): a
      // depthwise convolution, whose filter [kh, kw, C, O/C] holds the
      // same elements in the same order as [kh, kw, 1, O].
      SmallVector<int64_t> shape = {wType.getDimSize(0), wType.getDimSize(1),
                                    channels, outChannels / channels};
      auto shapeType = RankedTensorType::get({4}, i32);
      SmallVector<int32_t> dims(shape.begin(), shape.end());
      Value to = createConstLike(b, node, names.get((name + "/depthwise_shape").str()),
                                 DenseElementsAttr::get(shapeType, ArrayRef<int32_t>(dims)))
                     ->getResult(0);
      Value filter =
          createNodeLike(b, node, "Reshape",
                         names.get((name + "/depthwise_filter").str()),
                         RankedTensorType::get(shape, element),
                         {inputs[1], to}, {},
                         {b.getNamedAttr("T", t),
                          b.getNamedAttr("Tshape", TypeAttr::get(i32))})
              ->getResult(0);
      SmallVector<NamedAttribute> attrs;
      for (StringRef attr : {"T", "strides", "padding", "data_format"})
        if (Attribute value = node->getAttr(attr))
          attrs.push_back(b.getNamedAttr(attr, value));
      std::string keep = name.str();
      Operation *depthwise = createNodeLike(
          b, node, "DepthwiseConv2dNative", names.get(keep + "/depthwise"), yType,
          {inputs[0], filter}, tfg::getControlOperands(node), attrs);
      tfg::getDataResults(node)[0].replaceAllUsesWith(depthwise->getResult(0));
      tfg::getControlToken(node).replaceAllUsesWith(tfg::getControlToken(depthwise));
      node->erase();
      depthwise->setAttr(tfg::kNameAttr, b.getStringAttr(keep));
      return true;
    }
    auto axisType = RankedTensorType::get({}, i32);
    Value axis = createConstLike(
                     b, node, names.get((name + "/group_axis").str()),
                     DenseElementsAttr::get(axisType, int32_t(3)))
                     ->getResult(0);
    auto split = [&](Value value, RankedTensorType type, StringRef suffix) {
      SmallVector<int64_t> shape(type.getShape());
      shape[3] /= groups;
      SmallVector<Type> parts(groups, RankedTensorType::get(shape, element));
      return createNodeLike(b, node, "Split", names.get((name + suffix).str()),
                            parts, {axis, value}, {},
                            {b.getNamedAttr("T", t),
                             b.getNamedAttr("num_split", b.getI64IntegerAttr(groups))});
    };
    Operation *xs = split(inputs[0], xType, "/input_groups");
    Operation *ws = split(inputs[1], wType, "/filter_groups");
    SmallVector<int64_t> groupShape(yType.getShape());
    groupShape[3] /= groups;
    auto groupType = RankedTensorType::get(groupShape, element);
    // Each group's Conv2D has the node's attributes (strides, padding,
    // dilations) and name suffixed.
    SmallVector<NamedAttribute> attrs = tfg::getNodeAttrs(node);
    SmallVector<Value> outputs;
    for (int64_t g = 0; g < groups; ++g)
      outputs.push_back(
          createNodeLike(b, node, "Conv2D",
                         names.get((name + "/group_" + Twine(g)).str()),
                         groupType, {xs->getResult(g), ws->getResult(g)}, {},
                         attrs)
              ->getResult(0));
    outputs.push_back(axis);
    Operation *concat = createNodeLike(
        b, node, "ConcatV2", name, yType, outputs, tfg::getControlOperands(node),
        {b.getNamedAttr("T", t), b.getNamedAttr("N", b.getI64IntegerAttr(groups)),
         b.getNamedAttr("Tidx", TypeAttr::get(i32))});
    tfg::getDataResults(node)[0].replaceAllUsesWith(concat->getResult(0));
    tfg::getControlToken(node).replaceAllUsesWith(tfg::getControlToken(concat));
    node->erase();
    return true;
  }
};

} // namespace
} // namespace tfc
