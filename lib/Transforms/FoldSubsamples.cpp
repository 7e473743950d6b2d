//===- FoldSubsamples.cpp - a 1x1 pooling as a strided read ---------------===//
//
// NASNet's factorized reduction (Keras' NASNet `_adjust_block`) halves an
// image by keeping every other pixel: AveragePooling2D((1, 1), strides=2),
// on its second path after shifting the image one pixel up and left with
// ZeroPadding2D(((0, 1), (0, 1))) and Cropping2D(((1, 0), (1, 0))). As
// written, that is a Pad and a StridedSlice that each copy the whole image,
// then a pooling whose windows hold one pixel each.
//
// A MaxPool or AvgPool with 1x1 windows, VALID padding and NHWC data keeps
// the pixels (i * sh, j * sw) of its input: it is a strided read. When its
// input is a crop (a StridedSlice of unit strides and constant bounds that
// slices only the spatial dimensions), of a Pad of zeros (constant
// paddings, spatial only, none negative), or a crop of such a Pad, with
// each of them read only there, this pass writes the pooling as one
// StridedSlice of the original image with the pooling's strides, followed
// by a Pad for the kept pixels that fall in the padding: a copy of a
// quarter of the image and a few rows of zeros instead of two full copies.
// A pooling of neither stays as it is (code generation's pooling of 1x1
// windows is already one read of each kept pixel).
//
// The new nodes take the pooling's device and control inputs; the last of
// them its name, so that fetches and traces keep naming it. The crop and
// the Pad are left for tfc-remove-dead-nodes.
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
#define GEN_PASS_DEF_FOLDSUBSAMPLESPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

/// A 4-D float tensor type with a static shape, or null.
RankedTensorType staticImage(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || type.getRank() != 4 || !type.hasStaticShape() ||
      !isa<FloatType>(type.getElementType()))
    return nullptr;
  return type;
}

/// Where a crop's output starts in its input along each dimension: the
/// StridedSlice's begin (a masked one 0, a negative one counted from the
/// end), when its strides are 1 and its other masks clear; nullopt
/// otherwise.
std::optional<SmallVector<int64_t>> cropOffsets(Operation *slice,
                                                ArrayRef<int64_t> inShape) {
  OperandRange operands = tfg::getDataOperands(slice);
  std::optional<SmallVector<int64_t>> begin = constantInts(operands[1]);
  std::optional<SmallVector<int64_t>> strides = constantInts(operands[3]);
  if (!begin || !strides || begin->size() != 4 || strides->size() != 4 ||
      !constantInts(operands[2]) ||
      llvm::any_of(*strides, [](int64_t s) { return s != 1; }) ||
      intAttr(slice, "ellipsis_mask") || intAttr(slice, "new_axis_mask") ||
      intAttr(slice, "shrink_axis_mask"))
    return std::nullopt;
  int64_t beginMask = intAttr(slice, "begin_mask");
  SmallVector<int64_t> offsets(4);
  for (int d = 0; d < 4; ++d) {
    int64_t b = (beginMask >> d) & 1 ? 0 : (*begin)[d];
    offsets[d] = std::clamp<int64_t>(b < 0 ? b + inShape[d] : b, 0, inShape[d]);
  }
  return offsets;
}

/// Along one spatial dimension: the pooling keeps `kept` pixels, the
/// k-th at `offset + k * stride` of an image with `before` rows of zeros
/// above its `size` rows. What the rewrite needs: the first kept pixel
/// inside the image, how many are inside, and the zeros before and after.
struct Picks {
  int64_t first = 0, count = 0, zerosBefore = 0, zerosAfter = 0;
};

Picks picksAlong(int64_t kept, int64_t offset, int64_t stride, int64_t before,
                 int64_t size) {
  Picks p;
  // Kept pixel k lies at image row offset + k * stride - before.
  int64_t start = offset - before;
  int64_t k0 = std::min(start >= 0 ? 0 : (-start + stride - 1) / stride, kept);
  int64_t k1 = k0;
  while (k1 < kept && start + k1 * stride < size)
    ++k1;
  p.zerosBefore = k0;
  p.count = k1 - k0;
  p.zerosAfter = kept - k1;
  p.first = start + k0 * stride;
  return p;
}

/// Rewrites `pool` (see the file comment); whether it did.
bool foldSubsample(Operation *pool, NameUniquer &names) {
  OpKind kind = opKindOf(pool);
  if (kind != OpKind::AvgPool && kind != OpKind::MaxPool)
    return false;
  auto format = pool->getAttrOfType<StringAttr>("data_format");
  auto padding = pool->getAttrOfType<StringAttr>("padding");
  SmallVector<int64_t> ksize = intListAttr(pool, "ksize");
  SmallVector<int64_t> strides = intListAttr(pool, "strides");
  if ((format && format.getValue() != "NHWC") || !padding ||
      padding.getValue() != "VALID" || ksize != SmallVector<int64_t>{1, 1, 1, 1} ||
      strides.size() != 4 || strides[0] != 1 || strides[3] != 1)
    return false;
  Value input = tfg::getDataOperands(pool)[0];
  RankedTensorType outType = staticImage(tfg::getDataResults(pool)[0]);
  if (!outType || !staticImage(input))
    return false;

  // The chain back to the image: an optional crop, then an optional Pad.
  SmallVector<int64_t> offsets(4, 0), before(4, 0);
  Value image = input;
  Operation *crop = soleProducer(image, OpKind::StridedSlice, pool);
  if (crop) {
    RankedTensorType cropIn = staticImage(tfg::getDataOperands(crop)[0]);
    std::optional<SmallVector<int64_t>> at =
        cropIn ? cropOffsets(crop, cropIn.getShape()) : std::nullopt;
    RankedTensorType cropOut = staticImage(image);
    // The batch and the channels pass whole.
    if (!at || (*at)[0] != 0 || (*at)[3] != 0 ||
        cropOut.getDimSize(0) != cropIn.getDimSize(0) ||
        cropOut.getDimSize(3) != cropIn.getDimSize(3))
      return false;
    offsets = *at;
    image = tfg::getDataOperands(crop)[0];
  }
  Operation *pad = soleProducer(image, OpKind::Pad, crop ? crop : pool);
  if (pad) {
    std::optional<SmallVector<int64_t>> paddings =
        constantInts(tfg::getDataOperands(pad)[1]);
    if (!paddings || paddings->size() != 8 || (*paddings)[0] || (*paddings)[1] ||
        (*paddings)[6] || (*paddings)[7] ||
        llvm::any_of(*paddings, [](int64_t v) { return v < 0; }))
      return false;
    for (int d = 1; d <= 2; ++d)
      before[d] = (*paddings)[2 * d];
    image = tfg::getDataOperands(pad)[0];
  }
  if (!crop && !pad)
    return false;
  RankedTensorType imageType = staticImage(image);
  if (!imageType)
    return false;

  SmallVector<int64_t> begin(4, 0), end(imageType.getShape());
  SmallVector<int64_t> zeros(8, 0), sliced(outType.getShape());
  for (int d = 1; d <= 2; ++d) {
    Picks p = picksAlong(outType.getDimSize(d), offsets[d], strides[d],
                         before[d], imageType.getDimSize(d));
    // Every kept pixel in the padding: leave it (a Pad of nothing).
    if (p.count <= 0)
      return false;
    begin[d] = p.first;
    end[d] = p.first + (p.count - 1) * strides[d] + 1;
    zeros[2 * d] = p.zerosBefore;
    zeros[2 * d + 1] = p.zerosAfter;
    sliced[d] = p.count;
  }

  OpBuilder b(pool);
  std::string name = tfg::getNodeName(pool).str();
  Type element = imageType.getElementType();
  auto i32 = b.getI32Type();
  auto constant = [&](StringRef suffix, ArrayRef<int64_t> values,
                      ArrayRef<int64_t> shape) {
    SmallVector<int32_t> narrow(values.begin(), values.end());
    auto type = RankedTensorType::get(shape, i32);
    return createConstLike(b, pool, names.get(name + suffix.str()),
                           DenseElementsAttr::get(type, ArrayRef<int32_t>(narrow)))
        ->getResult(0);
  };
  bool padsAfter = llvm::any_of(zeros, [](int64_t v) { return v != 0; });
  SmallVector<Value> control = llvm::to_vector(tfg::getControlOperands(pool));
  auto slicedType = RankedTensorType::get(sliced, element);
  SmallVector<int64_t> step = {1, strides[1], strides[2], 1};
  Operation *slice = createNodeLike(
      b, pool, "StridedSlice",
      padsAfter ? names.get(name + "/strided_read") : name, slicedType,
      {image, constant("/read_begin", begin, {4}),
       constant("/read_end", end, {4}), constant("/read_strides", step, {4})},
      padsAfter ? ValueRange{} : ValueRange(control),
      {b.getNamedAttr("T", TypeAttr::get(element)),
       b.getNamedAttr("Index", TypeAttr::get(i32))});
  Operation *last = slice;
  if (padsAfter)
    last = createNodeLike(b, pool, "Pad", name, outType,
                          {slice->getResult(0),
                           constant("/read_zeros", zeros, {4, 2})},
                          control,
                          {b.getNamedAttr("T", TypeAttr::get(element)),
                           b.getNamedAttr("Tpaddings", TypeAttr::get(i32))});
  tfg::getDataResults(pool)[0].replaceAllUsesWith(last->getResult(0));
  tfg::getControlToken(pool).replaceAllUsesWith(tfg::getControlToken(last));
  pool->erase();
  return true;
}

struct FoldSubsamplesPass
    : public impl::FoldSubsamplesPassBase<FoldSubsamplesPass> {
  PassCounter numFolded{this, "folded",
                        "1x1 poolings of crops and Pads made strided reads"};

  void runOnOperation() override {
    numFolded = 0;
    for (Block *body : getBodies(getOperation())) {
      NameUniquer names(*body);
      for (Operation &node : llvm::make_early_inc_range(*body))
        if (foldSubsample(&node, names))
          ++numFolded;
    }
  }
};

} // namespace
} // namespace tfc
