//===- FoldPads.cpp - zero padding into the convolution that reads it -----===//
//
// Keras pads an image with ZeroPadding2D before a VALID strided
// convolution (MobileNetV2's and EfficientNet's stride-2 depthwise blocks):
// a Pad node that fills a copy of the whole tensor with zeros, then copies
// the image into it, for a convolution that could have read the image with
// those zeros as its own padding. This pass makes that padding the
// convolution's: Conv2D or DepthwiseConv2dNative (NHWC) with VALID or
// EXPLICIT padding, reading a Pad of constant paddings that pad only the
// spatial dimensions, and no more on a side than the (dilated) filter's
// extent minus one (so that every output still reads one input element),
// becomes the same convolution with EXPLICIT padding (its own plus the
// Pad's) reading the Pad's input. The Pad must have no other reader, no
// control edges and the convolution's device; tfc-remove-dead-nodes then
// erases it. The convolution's output shape is unchanged.
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
#define GEN_PASS_DEF_FOLDPADSPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

/// The convolution's explicit paddings as 8 values (NHWC: before and
/// after each dimension): zeros for VALID, none for SAME or a malformed
/// list.
std::optional<SmallVector<int64_t>> ownPaddings(Operation *conv) {
  auto padding = conv->getAttrOfType<StringAttr>("padding");
  if (!padding)
    return std::nullopt;
  if (padding.getValue() == "VALID")
    return SmallVector<int64_t>(8, 0);
  if (padding.getValue() != "EXPLICIT")
    return std::nullopt;
  SmallVector<int64_t> pads = intListAttr(conv, "explicit_paddings");
  if (pads.size() != 8)
    return std::nullopt;
  return pads;
}

/// Folds the Pad `conv` reads into it; whether it did.
bool foldPad(Operation *conv) {
  OpKind kind = opKindOf(conv);
  if (kind != OpKind::Conv2D && kind != OpKind::DepthwiseConv2dNative)
    return false;
  auto format = conv->getAttrOfType<StringAttr>("data_format");
  if (format && format.getValue() != "NHWC")
    return false;
  Value padded = tfg::getDataOperands(conv)[0];
  Operation *pad = padded.getDefiningOp();
  if (!pad || !tfg::isNode(pad) || opKindOf(pad) != OpKind::Pad ||
      !padded.hasOneUse() || !tfg::getControlOperands(pad).empty() ||
      !tfg::getControlToken(pad).use_empty() ||
      tfg::getRequestedDevice(pad) != tfg::getRequestedDevice(conv) ||
      tfg::getAssignedDevice(pad) != tfg::getAssignedDevice(conv))
    return false;
  std::optional<SmallVector<int64_t>> added =
      constantInts(tfg::getDataOperands(pad)[1]);
  std::optional<SmallVector<int64_t>> own = ownPaddings(conv);
  auto filter =
      dyn_cast<RankedTensorType>(tfg::getDataOperands(conv)[1].getType());
  if (!added || added->size() != 8 || !own || !filter || !filter.hasStaticShape())
    return false;
  // Only the spatial dimensions (1 and 2 of NHWC) may be padded, and only
  // outwards (a negative padding crops).
  for (auto [index, value] : llvm::enumerate(*added))
    if (value < 0 || (value != 0 && (index < 2 || index > 5)))
      return false;
  SmallVector<int64_t> dilations = intListAttr(conv, "dilations");
  if (dilations.size() != 4)
    dilations.assign(4, 1);
  SmallVector<int64_t> total(8);
  for (int index = 0; index < 8; ++index)
    total[index] = (*own)[index] + (*added)[index];
  for (int spatial : {1, 2}) {
    int64_t extent = (filter.getDimSize(spatial - 1) - 1) * dilations[spatial];
    if (total[2 * spatial] > extent || total[2 * spatial + 1] > extent)
      return false;
  }
  Builder builder(conv->getContext());
  SmallVector<Attribute> list;
  for (int64_t value : total)
    list.push_back(builder.getI64IntegerAttr(value));
  conv->setAttr("padding", builder.getStringAttr("EXPLICIT"));
  conv->setAttr("explicit_paddings", builder.getArrayAttr(list));
  conv->setOperand(0, tfg::getDataOperands(pad)[0]);
  return true;
}

struct FoldPadsPass : public impl::FoldPadsPassBase<FoldPadsPass> {
  PassCounter numFolded{this, "folded", "Pads folded into convolutions"};

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
