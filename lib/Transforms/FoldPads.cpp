//===- FoldPads.cpp - zero padding into the window op that reads it -------===//
//
// Keras pads an image with ZeroPadding2D before a VALID strided
// convolution (MobileNetV2's and EfficientNet's stride-2 depthwise blocks)
// or max pooling (ResNet's first pooling): a Pad node that fills a copy of
// the whole tensor with zeros, then copies the image into it, for a window
// op that could have read the image with those zeros as its own padding.
// This pass makes that padding the window op's: Conv2D,
// DepthwiseConv2dNative or MaxPool (NHWC) with VALID or EXPLICIT padding,
// reading a Pad of constant paddings that pad only the spatial dimensions,
// and no more on a side than the (dilated) window's extent minus one (so
// that every output still reads one input element), becomes the same op
// with EXPLICIT padding (its own plus the Pad's) reading the Pad's input.
// The Pad must have no other reader, no control edges and the op's
// device; tfc-remove-dead-nodes then erases it. The output shape is
// unchanged.
//
// A convolution's padding counts as zeros, as the Pad's did. Max pooling
// skips its padding instead, which is the same where the maximum of each
// window's elements is at least zero: the Pad's input is a ReLU's or
// ReLU6's output (ResNet's: convolution, batch norm, ReLU, then the Pad),
// and every window holds an element of it. Of any other value (ResNetV2
// pads its first convolution's output, which may be negative) the pooling
// must count its padding as zeros, which tfc.zero_padding says: only when
// all its padding is the Pad's (its own VALID, or zeros already), since
// one window cannot skip some padded positions and count others.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_FOLDPADSPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

/// The window op's explicit paddings as 8 values (NHWC: before and
/// after each dimension): zeros for VALID, none for SAME or a malformed
/// list.
std::optional<SmallVector<int64_t>> ownPaddings(Operation *window) {
  auto padding = window->getAttrOfType<StringAttr>("padding");
  if (!padding)
    return std::nullopt;
  if (padding.getValue() == "VALID")
    return SmallVector<int64_t>(8, 0);
  if (padding.getValue() != "EXPLICIT")
    return std::nullopt;
  SmallVector<int64_t> pads = intListAttr(window, "explicit_paddings");
  if (pads.size() != 8)
    return std::nullopt;
  return pads;
}

/// Whether `value` is never negative: a ReLU's or ReLU6's output.
bool nonNegative(Value value) {
  Operation *producer = value.getDefiningOp();
  if (!producer || !tfg::isNode(producer) ||
      value != tfg::getDataResults(producer)[0])
    return false;
  OpKind kind = opKindOf(producer);
  return kind == OpKind::Relu || kind == OpKind::Relu6;
}

/// The window's extent minus one along NHWC dimension `spatial` (1 or 2):
/// a convolution's dilated filter's, or a pooling's ksize's; none if
/// unknown.
std::optional<int64_t> windowReach(Operation *window, int spatial) {
  if (opKindOf(window) == OpKind::MaxPool) {
    SmallVector<int64_t> ksize = intListAttr(window, "ksize");
    if (ksize.size() != 4)
      return std::nullopt;
    return ksize[spatial] - 1;
  }
  auto filter =
      dyn_cast<RankedTensorType>(tfg::getDataOperands(window)[1].getType());
  if (!filter || !filter.hasStaticShape())
    return std::nullopt;
  SmallVector<int64_t> dilations = intListAttr(window, "dilations");
  if (dilations.size() != 4)
    dilations.assign(4, 1);
  return (filter.getDimSize(spatial - 1) - 1) * dilations[spatial];
}

/// Folds the Pad `window` (a convolution or max pooling) reads into it;
/// whether it did.
bool foldPad(Operation *window) {
  OpKind kind = opKindOf(window);
  if (kind != OpKind::Conv2D && kind != OpKind::DepthwiseConv2dNative &&
      kind != OpKind::MaxPool)
    return false;
  auto format = window->getAttrOfType<StringAttr>("data_format");
  if (format && format.getValue() != "NHWC")
    return false;
  Operation *pad =
      soleProducer(tfg::getDataOperands(window)[0], OpKind::Pad, window);
  if (!pad)
    return false;
  std::optional<SmallVector<int64_t>> added =
      constantInts(tfg::getDataOperands(pad)[1]);
  std::optional<SmallVector<int64_t>> own = ownPaddings(window);
  if (!added || added->size() != 8 || !own)
    return false;
  // A max pooling that must count the Pad's zeros (see the file comment).
  bool countZeros = kind == OpKind::MaxPool &&
                    !nonNegative(tfg::getDataOperands(pad)[0]) &&
                    !window->hasAttr(kZeroPaddingAttr);
  if (countZeros && llvm::any_of(*own, [](int64_t v) { return v != 0; }))
    return false;
  // Only the spatial dimensions (1 and 2 of NHWC) may be padded, and only
  // outwards (a negative padding crops).
  for (auto [index, value] : llvm::enumerate(*added))
    if (value < 0 || (value != 0 && (index < 2 || index > 5)))
      return false;
  SmallVector<int64_t> total(8);
  for (int index = 0; index < 8; ++index)
    total[index] = (*own)[index] + (*added)[index];
  for (int spatial : {1, 2}) {
    std::optional<int64_t> reach = windowReach(window, spatial);
    if (!reach || total[2 * spatial] > *reach || total[2 * spatial + 1] > *reach)
      return false;
  }
  Builder builder(window->getContext());
  SmallVector<Attribute> list;
  for (int64_t value : total)
    list.push_back(builder.getI64IntegerAttr(value));
  window->setAttr("padding", builder.getStringAttr("EXPLICIT"));
  window->setAttr("explicit_paddings", builder.getArrayAttr(list));
  if (countZeros)
    window->setAttr(kZeroPaddingAttr, builder.getUnitAttr());
  window->setOperand(0, tfg::getDataOperands(pad)[0]);
  return true;
}

struct FoldPadsPass : public impl::FoldPadsPassBase<FoldPadsPass> {
  PassCounter numFolded{this, "folded",
                        "Pads folded into convolutions and max poolings"};

  void runOnOperation() override {
    numFolded = 0;
    for (Block *body : getBodies(getOperation()))
      for (Operation &node : *body)
        if (foldPad(&node))
          ++numFolded;
  }
};

} // namespace
} // namespace tfc
