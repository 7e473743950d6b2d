//===- FuseElementwise.cpp - group elementwise chains ---------------------===//
//
// Groups the elementwise nodes code generation computes together in one
// loop nest. An elementwise node is fused into its consumer when that
// consumer is elementwise too, has the same output shape, and is on the
// same device, and is its only user, or its users (GELU's x * 0.5 *
// erfc(-x / sqrt(2)) reads x twice) are already members of one group.
// Each group's root is then the only node whose value leaves the group
// (the group is a tree, or a DAG whose shared values the loop body
// computes once per element). A group stops growing at `max-members`
// nodes: its loop body is one basic block, and LLVM's time on a block
// grows faster than its length. The group becomes one
// `tfc.fusion_group` where the root was: the members move into its region,
// their outside inputs become its operands (their control inputs too), and
// its results are the root's. The members' values never exist in memory:
// the group's loop computes them element by element.
//
// First, though, a convolution claims the elementwise ops after it that
// its kernel can apply as it writes its output (its epilogue): a bias
// (Add/AddV2/BiasAdd of a per-channel vector), then a residual (Add/AddV2
// of a tensor of the output's shape), then ReLU, ReLU6, swish or hard
// swish, in that order, each optional, each the only user of the value
// before it. Swish (EfficientNet's) and hard swish (MobileNetV3's) take
// several nodes, which only read x and each other (Activations.h has
// their forms). The convolution and those ops form a group
// of their own whose root is the last op: the convolution writes the
// root's value, and its intermediate values never exist. Epilogue groups
// take precedence over loop fusion. Where two convolutions' outputs are
// added, the first to reach the add takes it as its residual; the other's
// epilogue stops before it (its bias, say).
//
// An expansion (a 1x1 Conv2D, stride 1, unpadded, by a constant filter
// of at most 64 input channels, or 128 when its activation is swish, to
// at least twice as many) whose value, after its epilogue, only a
// DepthwiseConv2dNative (multiplier 1, dilation 1, by a constant filter)
// reads joins the depthwise's group with the depthwise's epilogue, when
// neither epilogue adds a residual: the pointwise-depthwise kernel
// computes the group without writing the expansion (MobileNetV2's and
// EfficientNet's inverted bottlenecks, whose expansion is their largest
// tensor).
//
// The other way round, a separable convolution: a pointwise convolution
// (1x1, stride 1, unpadded, by a constant filter) that alone reads a
// depthwise convolution's value (multiplier 1, dilation 1, by a constant
// filter; after the depthwise's epilogue, which adds no residual) takes
// the depthwise and its epilogue in, and before them the ReLU or ReLU6
// whose value only the depthwise reads, where no convolution's epilogue
// took it (Keras' SeparableConv2D after a ReLU: Xception's, NASNet's;
// MobileNet's depthwise and pointwise layers). The pointwise's epilogue
// may add a residual. The depthwise-pointwise kernel computes the group
// band by band, without writing the depthwise's output. Where the 1x1's
// epilogue adds no residual and a MaxPool alone reads the group's output
// (Xception's blocks), the pooling joins too: the kernel pools each band,
// and the unpooled output is never written. Where a separable group's
// depthwise alone reads another one's output (Xception's blocks again),
// and that first group adds no residual, takes no pooling and writes at
// least kMinPairBytes an image, the two are one group, a pair: its
// kernel makes the first's output rows as the second's bands read them,
// so that output is never written either.
//
// A dense layer (StridedProducts.h: a product by a constant matrix whose
// output rows are A's rows times it) claims its epilogue the same way,
// GELU (Activations.h) among the activations, which convolutions' kernels
// do not apply. A Reshape may come first where it keeps each row whole in
// its last dims (Keras' Tensordot reshapes [batch * steps, n] back to
// [batch, steps, n]; an EinsumDense's projection splits n into [heads,
// size], and its bias is [heads, size]): the kernel writes the same bytes.
//
// A batch norm in training mode takes in the ReLU (or ReLU6) that is the
// only user of its output: its kernel applies it as it writes y. Unlike
// the groups, this rewrites the graph, since the batch norm's other
// results (its statistics) are read elsewhere: the ReLU goes, its users
// read the batch norm's y, and the batch norm carries `tfc.activation`
// (y now means the activation of the normalized value).
//
// A training batch norm also takes in a MaxPool of its y, and a batch
// norm gradient the BiasAddGrad of its x gradient (the bias added just
// before the batch norm): each kernel computes the other op's result as
// it writes its own, saving a pass over a large tensor. These rewrite the
// graph too: the node gets one more data result, the other op's, and an
// attribute saying so (tfc.max_pool with the window, tfc.input_gradient_sum);
// the other op goes. A pooled batch norm gradient (below) likewise takes in
// the filter gradient of a network's first convolution (3x3, over an image
// of one to three channels) whose output gradient its x gradient is and
// nothing else reads: the image is one more operand, the filter gradient
// one more result (tfc.filter_gradient with the convolution's window), and
// its kernel makes each image's share of it while the image's x gradient
// is in the cache, which then need not be written to memory and read back
// (bench/train.py's CNN: 8 MB a step).
//
// Attention: a batched product (BatchMatMul or Einsum) whose only user is
// a Mul by a one-element float (optional), then a Softmax, then a second
// batched product that reads the softmax as its first operand, form a
// group whose kernel never writes the scores (Q Kᵀ, the scaled scores and
// the weights): each thread computes a block of rows of one batch's
// scores in its cache, applies the softmax, and multiplies by V. The two
// products' layouts (StridedProducts.h) must agree: the softmax runs along
// the scores' last dim, which is the first product's columns, and the
// second product reads the weights with the first's batch dims, its rows
// as rows and its columns as the sum.
//
// A Mean over contiguous axes, keeping them, takes in the variance that
// reads it: the Mean, over the same axes, of the SquaredDifference of the
// Mean's input and its result (tf.nn.moments, as Keras' LayerNormalization
// computes it), when that SquaredDifference is read by nothing else. The
// Mean gets one more data result, the variance, and `tfc.variance`; its
// kernel sums each row's squared deviations while the row is in the cache
// (a layer norm's row of 256 floats), so the squared differences are never
// written and the input is read once instead of three times.
//
// A batch norm gradient whose output gradient is a MaxPoolGrad's (of y,
// the pooled tensor), or that MaxPoolGrad's ReluGrad by y's sign (conv ->
// batch norm -> ReLU -> max pooling, differentiated), takes both in: it
// reads the pooled gradient and y instead (one more data operand, last),
// with `tfc.max_pool_gradient` giving the window and `tfc.activation`
// "Relu" saying the ReluGrad's mask applies; its kernel never writes y's
// gradient, four times the pooled one's size, nor reads it back twice.
// When nothing else reads that y, it comes from a training batch norm that
// max-pools it with the same windows, and those windows tile y (2x2 at
// stride 2 on an even image), the batch norm records for the gradient
// where each window's maximum is and whether it is positive, a byte per
// pooled element (one more data result, last); the gradient reads that
// record in y's place, and y is never written: the two kernels need
// nothing else of it. Both nodes carry `tfc.max_pool_positions`.
//
// A MaxPoolGrad claims the ReluGrad after it when that ReluGrad's features
// are the pooling's input (ReLU then max pooling, differentiated): the
// pooling gradient's kernel masks each window's gradient by the sign of
// the window's maximum, which is ReluGrad's mask at the one position the
// gradient goes to.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfc/TfcDialect.h"
#include "tfc/Runtime/tfc_runtime.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/Activations.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"
#include "tfc/Transforms/ShapeInference.h"
#include "tfc/Transforms/StridedProducts.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_FUSEELEMENTWISEPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

/// The only user of `node`'s single data result, when that is its one use.
/// Nodes that wait on `node` by a control edge do not count: a group
/// rewires them (see rewireControlUsers).
Operation *soleUser(Operation *node) {
  ResultRange results = tfg::getDataResults(node);
  return results.size() == 1 ? soleReader(results[0]) : nullptr;
}

/// Whether a node's layout is NHWC (its `data_format`, NHWC if absent):
/// the layout the kernels that take in epilogues work on.
bool isNhwc(Operation *node) {
  auto format = node->getAttrOfType<StringAttr>("data_format");
  return !format || format.getValue() == "NHWC";
}

/// A value's type if it is a float32 tensor of static shape (of `rank`
/// dimensions, unless -1), as the kernels taking in epilogues need.
RankedTensorType staticFloat32(Value value, int64_t rank = -1) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape() || !type.getElementType().isF32() ||
      (rank >= 0 && type.getRank() != rank))
    return {};
  return type;
}

/// The ReluGrad a MaxPoolGrad's kernel applies (see the file comment), or
/// empty.
SmallVector<Operation *> poolingGradientEpilogueOf(Operation *pool) {
  Value gradient = tfg::getDataResults(pool)[0];
  if (opKindOf(pool) != OpKind::MaxPoolGrad || !isNhwc(pool) ||
      !staticFloat32(gradient))
    return {};
  Operation *user = soleUser(pool);
  if (!user || opKindOf(user) != OpKind::ReluGrad || !sameDevice(user, pool) ||
      !tfg::getControlOperands(user).empty())
    return {};
  OperandRange in = tfg::getDataOperands(user);
  if (in.size() != 2 || in[0] != gradient ||
      in[1] != tfg::getDataOperands(pool)[0])
    return {};
  return {user};
}

/// Whether `node` is a FusedBatchNorm (V1-V3) or, if `gradient`, a
/// FusedBatchNormGrad (V1-V3), NHWC, with a static float32 4-D first
/// result.
bool isNhwcBatchNorm(Operation *node, bool gradient) {
  bool isGradient = llvm::is_contained({OpKind::FusedBatchNormGrad,
                                        OpKind::FusedBatchNormGradV2,
                                        OpKind::FusedBatchNormGradV3},
                                       opKindOf(node));
  return isBatchNorm(node) && isGradient == gradient && isNhwc(node) &&
         staticFloat32(tfg::getDataResults(node)[0], 4);
}

/// Folds the ReLU or ReLU6 that alone reads a training batch norm's y
/// into it (see the file comment). Returns whether it did.
bool foldActivationIntoBatchNorm(Operation *norm) {
  if (!isNhwcBatchNorm(norm, /*gradient=*/false))
    return false;
  auto training = norm->getAttrOfType<BoolAttr>("is_training");
  Value y = tfg::getDataResults(norm)[0];
  auto yType = cast<RankedTensorType>(y.getType());
  if ((training && !training.getValue()) || !y.hasOneUse() ||
      norm->hasAttr(kActivationAttr))
    return false;
  Operation *user = *y.getUsers().begin();
  OpKind activation = opKindOf(user);
  if ((activation != OpKind::Relu && activation != OpKind::Relu6) ||
      !sameDevice(user, norm) || !tfg::getControlOperands(user).empty() ||
      tfg::getDataResults(user)[0].getType() != yType)
    return false;
  tfg::getDataResults(user)[0].replaceAllUsesWith(y);
  tfg::getControlToken(user).replaceAllUsesWith(tfg::getControlToken(norm));
  norm->setAttr(kActivationAttr,
                StringAttr::get(norm->getContext(), tfg::getOpType(user)));
  user->erase();
  return true;
}

/// `node` rebuilt with data operands `operands`, its data results and
/// `extraTypes` more, and its attributes and `extraAttrs`: its users read
/// the new node's results and what waited on it waits on the new node,
/// which is returned; `node` goes.
Operation *rebuildNode(Operation *node, ValueRange operands,
                       TypeRange extraTypes,
                       ArrayRef<NamedAttribute> extraAttrs) {
  ResultRange results = tfg::getDataResults(node);
  SmallVector<Type> types(results.getTypes());
  llvm::append_range(types, extraTypes);
  SmallVector<NamedAttribute> attrs;
  for (NamedAttribute existing : node->getAttrs())
    if (existing.getName() != tfg::kNameAttr &&
        existing.getName() != tfg::kDeviceAttr)
      attrs.push_back(existing);
  llvm::append_range(attrs, extraAttrs);
  OpBuilder builder(node);
  Operation *replacement = createNodeLike(
      builder, node, tfg::getOpType(node), tfg::getNodeName(node), types,
      operands, tfg::getControlOperands(node), attrs);
  for (auto [k, result] : llvm::enumerate(results))
    result.replaceAllUsesWith(replacement->getResult(k));
  tfg::getControlToken(node).replaceAllUsesWith(
      tfg::getControlToken(replacement));
  node->erase();
  return replacement;
}

/// `node` rebuilt with one more data result, `absorbed`'s only one, which
/// it now computes: `absorbed`'s users read it, and wait on the new node.
/// `attr` on the new node says so; `extraOperand`, unless null, is one more
/// data operand, last, that the computation reads.
void absorbResult(Operation *node, Operation *absorbed, NamedAttribute attr,
                  Value extraOperand = {}) {
  Value absorbedResult = tfg::getDataResults(absorbed)[0];
  SmallVector<Value> operands(tfg::getDataOperands(node));
  if (extraOperand)
    operands.push_back(extraOperand);
  Operation *replacement =
      rebuildNode(node, operands, TypeRange{absorbedResult.getType()}, {attr});
  absorbedResult.replaceAllUsesWith(
      tfg::getDataResults(replacement).back());
  tfg::getControlToken(absorbed).replaceAllUsesWith(
      tfg::getControlToken(replacement));
  absorbed->erase();
}

/// The window of a MaxPool or MaxPoolGrad (NHWC, static shapes) from
/// `input` ([n, h, w, c]) to `pooled` ([n, oh, ow, c]), as [kh, kw,
/// stride_h, stride_w, pad_top, pad_left] (the kernels' explicit padding);
/// none if it pools across images or channels, or pads otherwise.
std::optional<SmallVector<int64_t>> poolWindowOf(Operation *pool,
                                                 RankedTensorType input,
                                                 RankedTensorType pooled) {
  SmallVector<int64_t> ksize = intListAttr(pool, "ksize");
  SmallVector<int64_t> strides = intListAttr(pool, "strides");
  auto padding = pool->getAttrOfType<StringAttr>("padding");
  if (!input || !pooled || ksize.size() != 4 || strides.size() != 4 ||
      !padding || ksize[0] != 1 || ksize[3] != 1 || strides[0] != 1 ||
      strides[3] != 1 ||
      (padding.getValue() != "SAME" && padding.getValue() != "VALID"))
    return std::nullopt;
  bool same = padding.getValue() == "SAME";
  int64_t padTop = same ? samePaddingBefore(input.getDimSize(1),
                                            pooled.getDimSize(1), ksize[1],
                                            strides[1])
                        : 0;
  int64_t padLeft = same ? samePaddingBefore(input.getDimSize(2),
                                             pooled.getDimSize(2), ksize[2],
                                             strides[2])
                         : 0;
  return SmallVector<int64_t>{ksize[1],   ksize[2], strides[1],
                              strides[2], padTop,   padLeft};
}

/// Folds a MaxPool of a training batch norm's y into it (see the file
/// comment). Returns whether it did.
bool foldMaxPoolIntoBatchNorm(Operation *norm) {
  auto training = norm->getAttrOfType<BoolAttr>("is_training");
  if (!isNhwcBatchNorm(norm, /*gradient=*/false) ||
      (training && !training.getValue()) || norm->hasAttr(kMaxPoolAttr))
    return false;
  Value y = tfg::getDataResults(norm)[0];
  auto yType = cast<RankedTensorType>(y.getType());
  for (Operation *user : y.getUsers()) {
    if (opKindOf(user) != OpKind::MaxPool || !isNhwc(user) ||
        !sameDevice(user, norm) || !tfg::getControlOperands(user).empty())
      continue;
    std::optional<SmallVector<int64_t>> window = poolWindowOf(
        user, yType, staticFloat32(tfg::getDataResults(user)[0], 4));
    if (!window)
      continue;
    Builder b(norm->getContext());
    absorbResult(norm, user,
                 b.getNamedAttr(kMaxPoolAttr, b.getDenseI64ArrayAttr(*window)));
    return true;
  }
  return false;
}

/// Folds the MaxPoolGrad (and its ReluGrad) that computes a batch norm
/// gradient's output gradient into it (see the file comment). Returns the
/// rebuilt gradient node, or null if it did not fold.
Operation *foldPoolingGradientIntoBatchNormGrad(Operation *grad) {
  if (!isNhwcBatchNorm(grad, /*gradient=*/true) ||
      grad->hasAttr(kMaxPoolGradientAttr) ||
      grad->hasAttr(kInputGradientSumAttr))
    return nullptr;
  OperandRange operands = tfg::getDataOperands(grad);
  Value outputGradient = operands[0];
  Operation *producer = outputGradient.getDefiningOp();
  if (!producer || !tfg::isNode(producer) ||
      soleReader(outputGradient) != grad)
    return nullptr;
  // The ReluGrad, if the pooling gradient's epilogue is one.
  Operation *relu = nullptr, *pool = producer;
  if (opKindOf(producer) == OpKind::ReluGrad) {
    relu = producer;
    pool = tfg::getDataOperands(relu)[0].getDefiningOp();
    if (!pool || !tfg::isNode(pool) ||
        poolingGradientEpilogueOf(pool) != SmallVector<Operation *>{relu})
      return nullptr;
  }
  if (opKindOf(pool) != OpKind::MaxPoolGrad || !isNhwc(pool) ||
      !sameDevice(pool, grad) || !tfg::getControlOperands(pool).empty())
    return nullptr;
  OperandRange poolOperands = tfg::getDataOperands(pool);
  Value y = poolOperands[0], pooledGradient = poolOperands[2];
  std::optional<SmallVector<int64_t>> window = poolWindowOf(
      pool, staticFloat32(y, 4), staticFloat32(pooledGradient, 4));
  if (!window || y.getType() != operands[1].getType())
    return nullptr;
  SmallVector<Value> newOperands(operands);
  newOperands[0] = pooledGradient;
  newOperands.push_back(y);
  Builder b(grad->getContext());
  SmallVector<NamedAttribute> attrs{
      b.getNamedAttr(kMaxPoolGradientAttr, b.getDenseI64ArrayAttr(*window))};
  if (relu)
    attrs.push_back(b.getNamedAttr(kActivationAttr, b.getStringAttr("Relu")));
  Operation *replacement = rebuildNode(grad, newOperands, {}, attrs);
  // What waited on the folded nodes waits on the batch norm gradient.
  for (Operation *folded : {relu, pool})
    if (folded) {
      tfg::getControlToken(folded).replaceAllUsesWith(
          tfg::getControlToken(replacement));
      folded->erase();
    }
  return replacement;
}

/// Has the training batch norm whose y a pooled batch norm gradient reads
/// (foldPoolingGradientIntoBatchNormGrad) record where its windows' maxima
/// are for that gradient, when nothing else reads y, the batch norm pools
/// y with the same window, and the windows tile y (see the file comment).
/// Returns whether it did.
bool recordMaximaForGradient(Operation *grad) {
  auto window = grad->getAttrOfType<DenseI64ArrayAttr>(kMaxPoolGradientAttr);
  if (!window || grad->hasAttr(kMaxPoolPositionsAttr))
    return false;
  Value y = tfg::getDataOperands(grad).back();
  Operation *norm = y.getDefiningOp();
  if (!norm || !tfg::isNode(norm) || !isNhwcBatchNorm(norm, false) ||
      y != tfg::getDataResults(norm)[0] || !y.hasOneUse() ||
      norm->getAttr(kMaxPoolAttr) != window ||
      norm->hasAttr(kMaxPoolPositionsAttr) || !sameDevice(norm, grad))
    return false;
  // [kh, kw, stride_h, stride_w, pad_top, pad_left]: windows that tile y
  // own their positions, at most 127 of them (a byte's).
  ArrayRef<int64_t> w = window.asArrayRef();
  auto yType = cast<RankedTensorType>(y.getType());
  auto pooledType =
      cast<RankedTensorType>(tfg::getDataResults(norm).back().getType());
  if (w[0] != w[2] || w[1] != w[3] || w[4] != 0 || w[5] != 0 ||
      w[0] * w[1] > 127 ||
      pooledType.getDimSize(1) * w[0] != yType.getDimSize(1) ||
      pooledType.getDimSize(2) * w[1] != yType.getDimSize(2))
    return false;
  Builder b(grad->getContext());
  NamedAttribute recorded =
      b.getNamedAttr(kMaxPoolPositionsAttr, b.getUnitAttr());
  Operation *recorder = rebuildNode(
      norm, tfg::getDataOperands(norm),
      TypeRange{RankedTensorType::get(pooledType.getShape(), b.getI8Type())},
      {recorded});
  // The gradient's operands after the rebuild (it reads the batch norm's
  // saved statistics too), the record in y's place.
  SmallVector<Value> operands(tfg::getDataOperands(grad));
  operands.back() = tfg::getDataResults(recorder).back();
  rebuildNode(grad, operands, {}, {recorded});
  return true;
}

/// The nodes that read `value`, directly or through Identity nodes (the
/// gradient tuples of TF1's optimizers, whose control inputs only delay
/// the value), the Identity nodes left out.
SmallVector<Operation *> readersThroughIdentities(Value value) {
  SmallVector<Operation *> readers;
  SmallVector<Value> values{value};
  while (!values.empty())
    for (Operation *user : values.pop_back_val().getUsers()) {
      if (opKindOf(user) == OpKind::Identity)
        values.push_back(tfg::getDataResults(user)[0]);
      else
        readers.push_back(user);
    }
  return readers;
}

/// Folds the BiasAddGrad of a batch norm gradient's x gradient into it (see
/// the file comment). Returns whether it did.
bool foldBiasGradientIntoBatchNormGrad(Operation *grad) {
  if (!isNhwcBatchNorm(grad, /*gradient=*/true) ||
      grad->hasAttr(kInputGradientSumAttr))
    return false;
  for (Operation *user : readersThroughIdentities(tfg::getDataResults(grad)[0])) {
    if (opKindOf(user) != OpKind::BiasAddGrad || !isNhwc(user) ||
        !sameDevice(user, grad) || !tfg::getControlOperands(user).empty() ||
        !staticFloat32(tfg::getDataResults(user)[0], 1))
      continue;
    Builder b(grad->getContext());
    absorbResult(grad, user,
                 b.getNamedAttr(kInputGradientSumAttr, b.getUnitAttr()));
    return true;
  }
  return false;
}

/// Folds the filter gradient of a network's first convolution (an image of
/// one to three channels, a 3x3 filter) into the pooled batch norm
/// gradient whose x gradient is that convolution's output gradient (see
/// the file comment). Returns whether it did.
bool foldFilterGradientIntoBatchNormGrad(Operation *grad) {
  if (!grad->hasAttr(kMaxPoolGradientAttr) || grad->hasAttr(kFilterGradientAttr))
    return false;
  // The x gradient's readers, through Identity nodes: one
  // Conv2DBackpropFilter alone.
  Value xGradient = tfg::getDataResults(grad)[0];
  SmallVector<Operation *> readers = readersThroughIdentities(xGradient);
  if (readers.size() != 1)
    return false;
  Operation *filterGradient = readers[0];
  if (opKindOf(filterGradient) != OpKind::Conv2DBackpropFilter ||
      !isNhwc(filterGradient) || !sameDevice(filterGradient, grad) ||
      !tfg::getControlOperands(filterGradient).empty())
    return false;
  OperandRange operands = tfg::getDataOperands(filterGradient);
  Value result = tfg::getDataResults(filterGradient)[0];
  RankedTensorType input = staticFloat32(operands[0], 4);
  RankedTensorType filter = staticFloat32(result, 4);
  auto dy = cast<RankedTensorType>(xGradient.getType());
  SmallVector<int64_t> strides = intListAttr(filterGradient, "strides");
  SmallVector<int64_t> dilations = intListAttr(filterGradient, "dilations");
  auto padding = filterGradient->getAttrOfType<StringAttr>("padding");
  // A 3x3 filter over 1-3 channels, no dilation, SAME or VALID: what the
  // few-channel kernel computes (FewChannelConv.h); its output the batch
  // norm's x.
  if (!input || !filter || filter.getDimSize(0) != 3 || filter.getDimSize(1) != 3 ||
      input.getDimSize(3) < 1 || input.getDimSize(3) > 3 ||
      filter.getDimSize(2) != input.getDimSize(3) ||
      filter.getDimSize(3) != dy.getDimSize(3) ||
      input.getDimSize(0) != dy.getDimSize(0) || strides.size() != 4 ||
      strides[0] != 1 || strides[3] != 1 ||
      (!dilations.empty() && llvm::any_of(dilations, [](int64_t d) { return d != 1; })) ||
      !padding || (padding.getValue() != "SAME" && padding.getValue() != "VALID"))
    return false;
  bool same = padding.getValue() == "SAME";
  int64_t padTop = same ? samePaddingBefore(input.getDimSize(1), dy.getDimSize(1), 3,
                                            strides[1])
                        : 0;
  int64_t padLeft = same ? samePaddingBefore(input.getDimSize(2), dy.getDimSize(2), 3,
                                             strides[2])
                         : 0;
  Builder b(grad->getContext());
  absorbResult(grad, filterGradient,
               b.getNamedAttr(kFilterGradientAttr,
                              b.getDenseI64ArrayAttr({3, 3, strides[1], strides[2],
                                                      padTop, padLeft})),
               operands[0]);
  return true;
}

/// The axes a Mean reduces, from its constant second operand: in range,
/// sorted, without repeats; none unless they are constant.
std::optional<SmallVector<int64_t>> meanAxes(Operation *mean, int64_t rank) {
  std::optional<SmallVector<int64_t>> axes =
      constantInts(tfg::getDataOperands(mean)[1]);
  if (!axes)
    return std::nullopt;
  return normalizeAxes(*axes, rank);
}

/// Folds the variance of a Mean's input around its result into the Mean
/// (see the file comment). Returns the variance's Mean, now erased, or
/// null if it did not.
Operation *foldVarianceIntoMean(Operation *mean) {
  if (opKindOf(mean) != OpKind::Mean || mean->hasAttr(kVarianceAttr) ||
      tfg::getDataOperands(mean).size() != 2 ||
      tfg::getDataResults(mean).size() != 1 || !boolAttr(mean, "keep_dims"))
    return nullptr;
  Value x = tfg::getDataOperands(mean)[0];
  Value average = tfg::getDataResults(mean)[0];
  RankedTensorType xType = staticFloat32(x);
  if (!xType || xType.getNumElements() == 0 || !staticFloat32(average))
    return nullptr;
  std::optional<SmallVector<int64_t>> axes = meanAxes(mean, xType.getRank());
  if (!axes || axes->empty() ||
      axes->back() - axes->front() + 1 != int64_t(axes->size()))
    return nullptr; // The kernel reduces the middle of [outer, reduced, inner].
  for (Operation *user : average.getUsers()) {
    OperandRange in = tfg::getDataOperands(user);
    if (opKindOf(user) != OpKind::SquaredDifference || in.size() != 2 ||
        !((in[0] == x && in[1] == average) || (in[0] == average && in[1] == x)) ||
        tfg::getDataResults(user)[0].getType() != xType ||
        !sameDevice(user, mean) || !tfg::getControlOperands(user).empty())
      continue;
    Operation *variance = soleUser(user);
    if (!variance || opKindOf(variance) != OpKind::Mean ||
        tfg::getDataOperands(variance)[0] != tfg::getDataResults(user)[0] ||
        meanAxes(variance, xType.getRank()) != axes ||
        !staticFloat32(tfg::getDataResults(variance)[0]) ||
        !sameDevice(variance, mean) ||
        !tfg::getControlOperands(variance).empty())
      continue;
    // What waited on the squared differences waits on the moments.
    tfg::getControlToken(user).replaceAllUsesWith(tfg::getControlToken(mean));
    Builder b(mean->getContext());
    absorbResult(mean, variance, b.getNamedAttr(kVarianceAttr, b.getUnitAttr()));
    user->erase();
    return variance;
  }
  return nullptr;
}

/// Whether `value` is a float32 tensor of one element (a scale).
bool isOneFloat(Value value) {
  RankedTensorType type = staticFloat32(value);
  return type && type.getNumElements() == 1;
}

/// The nodes after a batched product that the attention kernel computes
/// with it (see the file comment): [Mul,] Softmax, product; empty if none.
SmallVector<Operation *> attentionOf(Operation *scoresNode) {
  std::string why;
  FailureOr<StridedProduct> scores = stridedProductOf(scoresNode, why);
  if (failed(scores) || tfg::getDataResults(scoresNode).size() != 1)
    return {};
  // The next node in the chain: the sole user, on the same device, that
  // waits on nothing else.
  auto next = [&](Operation *node) -> Operation * {
    Operation *user = soleUser(node);
    if (!user || !sameDevice(user, scoresNode) ||
        !tfg::getControlOperands(user).empty())
      return nullptr;
    return user;
  };
  SmallVector<Operation *> chain;
  Operation *user = next(scoresNode);
  Value logits = tfg::getDataResults(scoresNode)[0];
  if (user && (opKindOf(user) == OpKind::Mul)) {
    OperandRange in = tfg::getDataOperands(user);
    if (in.size() != 2 || in[0] == in[1])
      return {};
    Value factor = in[0] == logits ? in[1] : in[0];
    if (!isOneFloat(factor) ||
        tfg::getDataResults(user)[0].getType() != logits.getType())
      return {};
    chain.push_back(user);
    logits = tfg::getDataResults(user)[0];
    user = next(user);
  }
  if (!user || opKindOf(user) != OpKind::Softmax ||
      tfg::getDataResults(user)[0].getType() != logits.getType())
    return {};
  chain.push_back(user);
  Value weights = tfg::getDataResults(user)[0];
  Operation *contextNode = next(user);
  if (!contextNode || tfg::getDataOperands(contextNode).size() != 2 ||
      tfg::getDataOperands(contextNode)[0] != weights ||
      tfg::getDataOperands(contextNode)[1] == weights)
    return {};
  FailureOr<StridedProduct> context = stridedProductOf(contextNode, why);
  if (failed(context))
    return {};
  // The softmax runs along the scores' columns: the last dim, contiguous.
  // The context's product reads the weights as the scores' product wrote
  // them: the same batch dims with the same strides, the scores' rows as
  // its rows and their columns as its sum.
  auto logitsType = cast<RankedTensorType>(logits.getType());
  if (scores->cN != 1 || logitsType.getShape().back() != scores->n ||
      context->batch != scores->batch || context->batchA != scores->batchC ||
      context->m != scores->m || context->k != scores->n ||
      context->aM != scores->cM || context->aK != scores->cN)
    return {};
  chain.push_back(contextNode);
  return chain;
}

/// The epilogue a convolution's or a dense layer's (or a max pooling
/// gradient's) kernel applies (see the file comment), in order, or what
/// attention's kernel computes after its first product; empty if none (a
/// dense layer's may be its Reshape alone, which the caller drops).
SmallVector<Operation *> epilogueOf(Operation *producer) {
  OpKind kind = opKindOf(producer);
  if (kind == OpKind::MaxPoolGrad)
    return poolingGradientEpilogueOf(producer);
  std::optional<DenseLayer> dense = denseLayerOf(producer);
  if (isBatchedProduct(producer) && !dense)
    return attentionOf(producer);
  bool conv = kind == OpKind::Conv2D || kind == OpKind::DepthwiseConv2dNative;
  if (!dense && !conv)
    return {};
  SmallVector<Operation *> chain;
  Operation *last = producer;
  RankedTensorType outType;
  if (conv) {
    outType = staticFloat32(tfg::getDataResults(producer)[0], 4);
    if (!isNhwc(producer) || !outType)
      return {};
  } else {
    // A dense layer's rows may be reshaped first, as long as each row
    // stays whole in the last dims: Keras' Tensordot (the product of
    // [batch * steps, k] by [k, n], then [batch, steps, n]), or an
    // EinsumDense's heads ([batch, steps, heads * size], then [batch,
    // steps, heads, size]).
    outType = staticFloat32(tfg::getDataResults(producer)[0]);
    Operation *user = soleUser(producer);
    if (user && opKindOf(user) == OpKind::Reshape &&
        sameDevice(user, producer) && tfg::getControlOperands(user).empty()) {
      RankedTensorType reshaped = staticFloat32(tfg::getDataResults(user)[0]);
      int64_t rowSize = 1;
      if (reshaped)
        for (int64_t d = reshaped.getRank() - 1;
             d >= 0 && rowSize < dense->n; --d)
          rowSize *= reshaped.getDimSize(d);
      if (reshaped && rowSize == dense->n) {
        chain.push_back(user);
        last = user;
        outType = reshaped;
      }
    }
  }
  if (!outType)
    return {};
  ArrayRef<int64_t> outShape = outType.getShape();
  // The bias's length: a convolution's channels, a dense layer's row.
  int64_t channels = dense ? dense->n : outShape.back();
  // The operand of `node` other than `value`, if it is a binary add of it.
  auto otherAddend = [&](Operation *node, Value value) -> Value {
    OpKind nodeKind = opKindOf(node);
    OperandRange in = tfg::getDataOperands(node);
    if (nodeKind == OpKind::BiasAdd)
      return in[0] == value && isNhwc(node) ? in[1] : Value();
    if ((nodeKind != OpKind::Add && nodeKind != OpKind::AddV2) ||
        in.size() != 2 || in[0] == in[1])
      return {};
    return in[0] == value ? in[1] : in[1] == value ? in[0] : Value();
  };
  // A bias: one value per channel, shaped as the output's last dims (an
  // EinsumDense's [heads, size] bias of a [..., heads, size] output, read
  // as one vector of a row).
  auto isBias = [&](Value v) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t || !t.hasStaticShape() || !t.getElementType().isF32() ||
        t.getRank() < 1 || t.getNumElements() != channels)
      return false;
    ArrayRef<int64_t> shape = t.getShape();
    while (shape.size() > 1 && shape.front() == 1)
      shape = shape.drop_front();
    return shape.size() <= outShape.size() &&
           shape == outShape.take_back(shape.size());
  };
  // Every node the epilogue takes in computes a value of the output's
  // type, alone on the producer's device, waiting on nothing else.
  auto fits = [&](Operation *node) {
    return tfg::getDataResults(node).size() == 1 &&
           sameDevice(node, producer) &&
           tfg::getDataResults(node)[0].getType() == outType &&
           tfg::getControlOperands(node).empty();
  };
  int stage = 0; // 0: bias next, 1: residual next, 2: activation next.
  while (stage < 3) {
    // GELU is dense layers' (a transformer's MLP); convolutions' kernels
    // do not take it.
    if (std::optional<ActivationNodes> activation = activationOf(last);
        activation && llvm::all_of(activation->nodes, fits) &&
        (dense || activation->kind != TFC_ACTIVATION_GELU)) {
      llvm::append_range(chain, activation->nodes);
      break;
    }
    Operation *user = soleUser(last);
    if (!user || !fits(user))
      break;
    Value value = tfg::getDataResults(last)[0];
    OpKind userKind = opKindOf(user);
    Value other = otherAddend(user, value);
    if (stage == 0 && other && isBias(other)) {
      stage = 1;
    } else if (stage <= 1 && other && other.getType() == outType &&
               userKind != OpKind::BiasAdd) {
      stage = 2;
    } else if (userKind == OpKind::Relu || userKind == OpKind::Relu6) {
      stage = 3;
    } else {
      break;
    }
    chain.push_back(user);
    last = user;
  }
  return chain;
}

/// Whether the epilogue `chain` adds a residual: an add whose operands
/// both have its result's type (a bias has fewer elements).
bool addsResidual(ArrayRef<Operation *> chain) {
  return llvm::any_of(chain, [](Operation *member) {
    OpKind kind = opKindOf(member);
    if (kind != OpKind::Add && kind != OpKind::AddV2)
      return false;
    Type type = tfg::getDataResults(member)[0].getType();
    return llvm::all_of(tfg::getDataOperands(member),
                        [&](Value in) { return in.getType() == type; });
  });
}

/// The 1x1 filter's input channels up to which the pointwise-depthwise
/// kernel computes a group faster than oneDNN's two kernels: the fewer
/// the channels, the more the expansion's traffic in memory outweighs its
/// arithmetic. Up to 64 in general (Xception's 128 to 256 channels on 74 x
/// 74 pixels were as fast or slower fused), 128 with swish, whose separate
/// pass over the expansion the group saves as well (EfficientNetB0's 112
/// to 672 channels on 14 x 14 pixels, 5-10% faster fused). Past those
/// (EfficientNet's last blocks, 192 channels on 7 x 7 pixels) the group
/// was slower.
constexpr int64_t kMaxExpansionInputs = 64;
constexpr int64_t kMaxSwishExpansionInputs = 128;

/// How many times its input channels an expansion's output has at least.
/// NASNet's separable convolutions keep their channels (44 to 44 on 28 x
/// 28 pixels, at batch 32): their 1x1 convolution and the depthwise after
/// it were 0.68-0.99 as fast in one kernel (its 7 x 7 windows the
/// slowest), where the expansion saves little traffic.
constexpr int64_t kMinExpansion = 2;

/// Whether `conv` is a 1x1 Conv2D the pointwise-depthwise and
/// depthwise-pointwise kernels compute: stride and dilation 1, no
/// padding, by a constant filter, on a static float32 NHWC input.
bool isPointwise(Operation *conv) {
  if (opKindOf(conv) != OpKind::Conv2D || !isNhwc(conv))
    return false;
  OperandRange in = tfg::getDataOperands(conv);
  RankedTensorType input = staticFloat32(in[0], 4);
  RankedTensorType filter = staticFloat32(in[1], 4);
  Operation *filterNode = in[1].getDefiningOp();
  if (!input || !filter || !filterNode ||
      opKindOf(filterNode) != OpKind::Const || filter.getDimSize(0) != 1 ||
      filter.getDimSize(1) != 1 ||
      filter.getDimSize(2) != input.getDimSize(3))
    return false;
  auto ones = [&](StringRef name) {
    SmallVector<int64_t> values = intListAttr(conv, name);
    return values.empty() || llvm::all_of(values, [](int64_t v) { return v == 1; });
  };
  SmallVector<int64_t> pads = intListAttr(conv, "explicit_paddings");
  return ones("strides") && ones("dilations") &&
         llvm::all_of(pads, [](int64_t pad) { return pad == 0; });
}

/// Whether `conv` is an expansion the pointwise-depthwise kernel computes
/// (see the file comment): a pointwise convolution (isPointwise) of at
/// most `maxInputs` input channels to at least kMinExpansion times as
/// many.
bool isExpansion(Operation *conv, int64_t maxInputs) {
  if (!isPointwise(conv))
    return false;
  auto filter = cast<RankedTensorType>(tfg::getDataOperands(conv)[1].getType());
  return filter.getDimSize(2) <= maxInputs &&
         filter.getDimSize(3) >= kMinExpansion * filter.getDimSize(2);
}

/// Whether `conv` is a depthwise convolution the pointwise-depthwise
/// kernel computes: multiplier 1, dilation 1, by a constant filter, on a
/// static float32 NHWC input.
bool isSimpleDepthwise(Operation *conv) {
  if (opKindOf(conv) != OpKind::DepthwiseConv2dNative || !isNhwc(conv) ||
      !staticFloat32(tfg::getDataResults(conv)[0], 4))
    return false;
  OperandRange in = tfg::getDataOperands(conv);
  RankedTensorType filter = staticFloat32(in[1], 4);
  Operation *filterNode = in[1].getDefiningOp();
  SmallVector<int64_t> dilations = intListAttr(conv, "dilations");
  return staticFloat32(in[0], 4) && filter && filter.getDimSize(3) == 1 &&
         filterNode && opKindOf(filterNode) == OpKind::Const &&
         llvm::all_of(dilations, [](int64_t d) { return d == 1; });
}

/// Whether `members` (a group's, after its first convolution) are that
/// convolution's epilogue without a residual: no add of a tensor of the
/// output's shape (addsResidual), and no other convolution. A group found
/// by its root may already be a separable or pointwise-depthwise group,
/// whose second convolution must not pass for the first one's epilogue
/// (MobileNetV2's first block: its depthwise and projection, then the
/// next block's expansion reading them).
bool isEpilogueWithoutResidual(ArrayRef<Operation *> members) {
  return !addsResidual(members) &&
         llvm::none_of(members, [](Operation *member) {
           OpKind kind = opKindOf(member);
           return kind == OpKind::Conv2D ||
                  kind == OpKind::DepthwiseConv2dNative;
         });
}

/// Equal static shapes (element types may differ: Cast fuses).
bool sameShape(Value a, Value b) {
  auto ta = dyn_cast<RankedTensorType>(a.getType());
  auto tb = dyn_cast<RankedTensorType>(b.getType());
  return ta && tb && ta.hasStaticShape() && ta.getShape() == tb.getShape();
}

/// Nodes outside a group that wait on one of its members other than the
/// root, by a control edge, wait instead on what that member waited on:
/// the producers of its inputs from outside the group, through members,
/// and their control inputs. Waiting on the group itself could close a
/// cycle: tfc-schedule-recvs makes a _Recv wait on a convolution whose
/// epilogue adds the received bias. The member computes nothing else
/// (the group is elementwise or an epilogue), so every stateful node it
/// came after still comes first. The group moves the members to its
/// root's place, so no such edge can be honoured as it was.
void rewireControlUsers(ArrayRef<Operation *> members,
                        const llvm::DenseSet<Operation *> &inGroup) {
  for (Operation *member : members.drop_back()) {
    Value token = tfg::getControlToken(member);
    if (token.use_empty())
      continue;
    // The member's frontier outside the group.
    llvm::SetVector<Value> waits;
    SmallVector<Operation *> stack{member};
    llvm::DenseSet<Operation *> seen{member};
    while (!stack.empty()) {
      Operation *node = stack.pop_back_val();
      for (Value control : tfg::getControlOperands(node))
        waits.insert(control);
      for (Value operand : tfg::getDataOperands(node)) {
        Operation *producer = operand.getDefiningOp();
        if (!producer)
          continue;
        if (!inGroup.contains(producer))
          waits.insert(tfg::getControlToken(producer));
        else if (seen.insert(producer).second)
          stack.push_back(producer);
      }
    }
    for (OpOperand &use : llvm::make_early_inc_range(token.getUses())) {
      Operation *user = use.getOwner();
      user->eraseOperand(use.getOperandNumber());
      if (inGroup.contains(user))
        continue; // Members run in order inside the group.
      llvm::SmallDenseSet<Value> present(tfg::getControlOperands(user).begin(),
                                         tfg::getControlOperands(user).end());
      for (Value wait : waits)
        if (present.insert(wait).second)
          user->insertOperands(user->getNumOperands(), wait);
    }
  }
}

/// Replaces a group's members (in dependency order, its root last) by one
/// tfc.fusion_group where the root was (see the file comment).
void formGroup(ArrayRef<Operation *> members) {
  Operation *root = members.back();
  llvm::DenseSet<Operation *> inGroup(members.begin(), members.end());
  rewireControlUsers(members, inGroup);
  llvm::SetVector<Value> inputs, controls;
  for (Operation *member : members) {
    for (Value operand : tfg::getDataOperands(member))
      if (!inGroup.contains(operand.getDefiningOp()))
        inputs.insert(operand);
    controls.insert(tfg::getControlOperands(member).begin(),
                    tfg::getControlOperands(member).end());
  }
  OpBuilder builder(root);
  SmallVector<Value> operands(inputs.begin(), inputs.end());
  llvm::append_range(operands, controls);
  auto group = builder.create<FusionGroupOp>(root->getLoc(),
                                             root->getResultTypes(), operands);
  Block *body = new Block;
  group.getBody().push_back(body);
  llvm::DenseMap<Value, Value> argumentOf;
  for (Value input : inputs)
    argumentOf[input] = body->addArgument(input.getType(), input.getLoc());
  // What read the root reads the group.
  root->replaceAllUsesWith(group);
  for (Operation *member : members) {
    member->moveBefore(body, body->end());
    member->eraseOperands(tfg::getDataOperands(member).size(),
                          tfg::getControlOperands(member).size());
    for (OpOperand &operand : member->getOpOperands())
      if (Value argument = argumentOf.lookup(operand.get()))
        operand.set(argument);
  }
  builder.setInsertionPointToEnd(body);
  builder.create<YieldOp>(root->getLoc(), tfg::getDataResults(root));
}

/// The expansion (isExpansion) whose output `depthwise` alone reads,
/// directly or as its epilogue group's root, when the two may be one
/// pointwise-depthwise group: neither epilogue adds a residual, and all is
/// on one device. Null otherwise. `chain` is the depthwise's epilogue.
Operation *expansionRead(
    Operation *depthwise, ArrayRef<Operation *> chain,
    const llvm::MapVector<Operation *, SmallVector<Operation *>> &groups) {
  if (!isSimpleDepthwise(depthwise) || addsResidual(chain))
    return nullptr;
  Value expanded = tfg::getDataOperands(depthwise)[0];
  Operation *producer = expanded.getDefiningOp();
  if (!producer || soleReader(expanded) != depthwise ||
      !sameDevice(producer, depthwise))
    return nullptr;
  ArrayRef<Operation *> members(producer);
  if (auto it = groups.find(producer); it != groups.end())
    members = it->second;
  // Swish is the only epilogue activation with a Sigmoid.
  bool swish = llvm::any_of(members, [](Operation *member) {
    return opKindOf(member) == OpKind::Sigmoid;
  });
  if (!isExpansion(members.front(), swish ? kMaxSwishExpansionInputs
                                          : kMaxExpansionInputs) ||
      !isEpilogueWithoutResidual(members.drop_front()))
    return nullptr;
  return members.front();
}

/// The most input channels of a separable group's 1x1 convolution, and
/// the fewest pixels of its images. The group's kernel multiplies each
/// band of rows by the whole 1x1 filter in one oneDNN call: it was faster
/// than oneDNN's two kernels on Xception's entry flow at batch 32 (64 to
/// 256 channels on 147 x 147 to 37 x 37 pixels: 208 against 267 ms for
/// its second block's two separable convolutions, 188 against 225 for the
/// third's), and slower where the filter outgrows a core's share of its
/// L2 cache, which each band then reads again (728 channels: 59-74 ms
/// per separable convolution of the middle flow against 58-68 for
/// oneDNN's two kernels and the ReLU), and
/// on small images, where the calls' overhead is a large part of each
/// band's work (NASNetMobile's 44 to 176 channels on 28 x 28 to 7 x 7
/// pixels: 195 against 178 ms for all of them).
constexpr int64_t kMaxSeparableChannels = 256;
constexpr int64_t kMinSeparablePixels = 32 * 32;

/// The members a separable group takes before `pointwise` (a pointwise
/// convolution, isPointwise): the depthwise convolution (isSimpleDepthwise)
/// whose value, after its epilogue (no residual), `pointwise` alone reads,
/// with that epilogue, and before them the ReLU or ReLU6 whose value the
/// depthwise alone reads, where no other group took it. Empty when
/// `pointwise` is no such convolution or things are on several devices.
/// The group found for the depthwise (by its root) leaves `groups`.
SmallVector<Operation *> separableBefore(
    Operation *pointwise,
    llvm::MapVector<Operation *, SmallVector<Operation *>> &groups,
    const llvm::DenseSet<Operation *> &claimed) {
  if (!isPointwise(pointwise))
    return {};
  auto filter =
      cast<RankedTensorType>(tfg::getDataOperands(pointwise)[1].getType());
  auto middle =
      cast<RankedTensorType>(tfg::getDataOperands(pointwise)[0].getType());
  if (filter.getDimSize(2) > kMaxSeparableChannels ||
      middle.getDimSize(1) * middle.getDimSize(2) < kMinSeparablePixels)
    return {};
  Value input = tfg::getDataOperands(pointwise)[0];
  Operation *producer = input.getDefiningOp();
  if (!producer || soleReader(input) != pointwise ||
      !sameDevice(producer, pointwise))
    return {};
  SmallVector<Operation *> members{producer};
  auto group = groups.find(producer);
  if (group != groups.end())
    members = group->second;
  else if (claimed.contains(producer))
    return {};
  Operation *depthwise = members.front();
  if (!isSimpleDepthwise(depthwise) ||
      !isEpilogueWithoutResidual(ArrayRef(members).drop_front()))
    return {};
  if (group != groups.end())
    groups.erase(group);
  Value image = tfg::getDataOperands(depthwise)[0];
  Operation *activation = image.getDefiningOp();
  if (activation && tfg::isNode(activation) &&
      (opKindOf(activation) == OpKind::Relu ||
       opKindOf(activation) == OpKind::Relu6) &&
      !claimed.contains(activation) && soleReader(image) == depthwise &&
      sameDevice(activation, depthwise) &&
      tfg::getControlOperands(activation).empty() &&
      tfg::getDataResults(activation).size() == 1)
    members.insert(members.begin(), activation);
  return members;
}

/// The MaxPool that alone reads the output of a separable group whose
/// last member is `last` (`chain` the 1x1 convolution's epilogue), for
/// the group to take in (see the file comment); null where the epilogue
/// adds a residual or the pooling is not one the kernel computes (NHWC,
/// static shapes, SAME or VALID, no zero padding folded in).
Operation *maxPoolAfterSeparable(Operation *last, ArrayRef<Operation *> chain,
                                 const llvm::DenseSet<Operation *> &claimed) {
  ResultRange results = tfg::getDataResults(last);
  if (addsResidual(chain) || results.size() != 1)
    return nullptr;
  Operation *pool = soleReader(results[0]);
  if (!pool || opKindOf(pool) != OpKind::MaxPool || !isNhwc(pool) ||
      claimed.contains(pool) || !sameDevice(pool, last) ||
      !tfg::getControlOperands(pool).empty() ||
      pool->hasAttr(kZeroPaddingAttr) ||
      !poolWindowOf(pool, staticFloat32(results[0], 4),
                    staticFloat32(tfg::getDataResults(pool)[0], 4)))
    return nullptr;
  return pool;
}

/// The fewest bytes of a pair's first group's output an image: the pair
/// saves writing that output and reading it back, and costs the rows its
/// threads' bands both make (the window's height and more). Xception's
/// blocks 2 and 3 (11 and 5.6 MB an image) were as fast or faster as
/// pairs (0.5 ms of a 54 ms step at batch 1), NASNetLarge's cells (1.2 MB
/// on 42 x 42 pixels, windows up to 7 x 7) 6% slower, MobileNet's first
/// groups (1.6-3.2 MB) no faster.
constexpr int64_t kMinPairBytes = 4 << 20;

/// The root of the separable group (separableBefore's) whose output a
/// second separable group's depthwise convolution `depthwise` alone
/// reads, for the pair to be one group (see the file comment): the first
/// adds no residual, takes no pooling and is no pair itself, and its
/// output is at least kMinPairBytes an image. Null where there is none.
Operation *separablePairFirst(
    Operation *depthwise,
    const llvm::MapVector<Operation *, SmallVector<Operation *>> &groups) {
  Value input = tfg::getDataOperands(depthwise)[0];
  auto group = groups.find(input.getDefiningOp());
  auto type = cast<RankedTensorType>(input.getType());
  if (group == groups.end() || soleReader(input) != depthwise ||
      tensorBytes(type) < kMinPairBytes * type.getDimSize(0))
    return nullptr;
  ArrayRef<Operation *> members = group->second;
  auto count = [&](OpKind kind) {
    return llvm::count_if(
        members, [&](Operation *member) { return opKindOf(member) == kind; });
  };
  if (count(OpKind::DepthwiseConv2dNative) != 1 || count(OpKind::Conv2D) != 1 ||
      opKindOf(members.front()) == OpKind::Conv2D ||
      opKindOf(members.back()) == OpKind::MaxPool || addsResidual(members))
    return nullptr;
  return group->first;
}

struct FuseElementwisePass
    : public impl::FuseElementwisePassBase<FuseElementwisePass> {
  using FuseElementwisePassBase::FuseElementwisePassBase;
  PassCounter numFused{this, "fused", "nodes fused into a consumer"};

  void runOnOperation() override {
    numFused = 0; // Reported even when nothing happens.
    for (Block *body : getBodies(getOperation())) {
      // Batch norms take in their ReLUs, then their MaxPools, and their
      // gradients the MaxPoolGrads (with ReluGrads), then the BiasAddGrads
      // (the nodes are listed first: the folded nodes go, and the folds
      // but the first rebuild the node, which is not visited again).
      SmallVector<Operation *> norms;
      for (Operation &op : *body)
        if (tfg::isNode(&op) && isBatchNorm(&op))
          norms.push_back(&op);
      for (Operation *norm : norms) {
        numFused += foldActivationIntoBatchNorm(norm);
        if (Operation *rebuilt = foldPoolingGradientIntoBatchNormGrad(norm)) {
          numFused += rebuilt->hasAttr(kActivationAttr) ? 2 : 1;
          norm = rebuilt;
        }
        numFused += foldMaxPoolIntoBatchNorm(norm) ||
                    foldBiasGradientIntoBatchNormGrad(norm);
      }
      // Then pooled gradients have their batch norms record the windows'
      // maxima (both nodes are rebuilt: the gradients are listed afresh).
      SmallVector<Operation *> pooledGradients;
      for (Operation &op : *body)
        if (tfg::isNode(&op) && op.hasAttr(kMaxPoolGradientAttr))
          pooledGradients.push_back(&op);
      for (Operation *grad : pooledGradients)
        recordMaximaForGradient(grad);
      // Then they take in the first convolution's filter gradient (listed
      // afresh: the records rebuilt them), its input their last operand.
      pooledGradients.clear();
      for (Operation &op : *body)
        if (tfg::isNode(&op) && op.hasAttr(kMaxPoolGradientAttr))
          pooledGradients.push_back(&op);
      for (Operation *grad : pooledGradients)
        numFused += foldFilterGradientIntoBatchNormGrad(grad);
      // Means take in the variances around them (each fold rebuilds the
      // Mean; the SquaredDifference and the variance's Mean go).
      SmallVector<Operation *> means;
      for (Operation &op : *body)
        if (tfg::isNode(&op) && opKindOf(&op) == OpKind::Mean)
          means.push_back(&op);
      llvm::DenseSet<Operation *> erased;
      for (Operation *mean : means)
        if (!erased.contains(mean))
          if (Operation *variance = foldVarianceIntoMean(mean)) {
            erased.insert(variance);
            numFused += 2;
          }
      // Visit consumers after producers, so that a producer joins the group
      // its consumer ends up in.
      SmallVector<Operation *> order = topologicalOrder(*body);
      llvm::DenseMap<Operation *, unsigned> position;
      for (Operation *op : order)
        position[op] = position.size();
      // Each group's members by root, the root included.
      llvm::MapVector<Operation *, SmallVector<Operation *>> groups;
      // Convolution (and pooling gradient) epilogues first.
      llvm::DenseSet<Operation *> claimed;
      for (Operation *node : order) {
        if (!tfg::isNode(node) || claimed.contains(node))
          continue;
        SmallVector<Operation *> chain = epilogueOf(node);
        auto firstClaimed = llvm::find_if(
            chain, [&](Operation *op) { return claimed.contains(op); });
        // Two convolutions whose outputs are added (a block whose shortcut
        // is a convolution too) both reach that add; the first claims it
        // as its residual, and the second keeps the bias before it. A
        // convolution's epilogue ends anywhere its stages do (the add
        // another one claimed ends this one's chain), attention's does not.
        OpKind kind = opKindOf(node);
        if (kind == OpKind::Conv2D || kind == OpKind::DepthwiseConv2dNative ||
            denseLayerOf(node)) {
          chain.erase(firstClaimed, chain.end());
          // A reshape alone (a dense layer's, whose epilogue took nothing
          // after it, or whose next node another claimed) is no epilogue.
          if (chain.size() == 1 && opKindOf(chain.front()) == OpKind::Reshape)
            chain.clear();
        } else if (firstClaimed != chain.end()) {
          continue;
        }
        // A depthwise convolution that alone reads an expansion (with its
        // epilogue, if it has one) joins its group.
        if (Operation *expansion = expansionRead(node, chain, groups)) {
          SmallVector<Operation *> members{expansion};
          Value expanded = tfg::getDataOperands(node)[0];
          if (auto it = groups.find(expanded.getDefiningOp());
              it != groups.end()) {
            members = std::move(it->second);
            groups.erase(it);
          }
          members.push_back(node);
          llvm::append_range(members, chain);
          claimed.insert(members.begin(), members.end());
          numFused += 1 + chain.size();
          groups[members.back()] = std::move(members);
          continue;
        }
        // A pointwise convolution that alone reads a depthwise one (with
        // the depthwise's epilogue and the ReLU before it) takes it in.
        if (SmallVector<Operation *> before =
                separableBefore(node, groups, claimed);
            !before.empty()) {
          // The depthwise's group, the ReLU and the epilogue join.
          numFused += 1 + chain.size() +
                      (opKindOf(before.front()) != OpKind::DepthwiseConv2dNative);
          before.push_back(node);
          llvm::append_range(before, chain);
          if (Operation *pool =
                  maxPoolAfterSeparable(before.back(), chain, claimed)) {
            before.push_back(pool);
            ++numFused;
          }
          // A separable group whose output only this one's depthwise
          // reads joins it first: the pair.
          if (opKindOf(before.front()) == OpKind::DepthwiseConv2dNative)
            if (Operation *firstRoot =
                    separablePairFirst(before.front(), groups)) {
              SmallVector<Operation *> pair = std::move(groups[firstRoot]);
              groups.erase(firstRoot);
              llvm::append_range(pair, before);
              before = std::move(pair);
              ++numFused;
            }
          claimed.insert(before.begin(), before.end());
          groups[before.back()] = std::move(before);
          continue;
        }
        if (chain.empty())
          continue;
        SmallVector<Operation *> &members = groups[chain.back()];
        members.push_back(node);
        llvm::append_range(members, chain);
        claimed.insert(members.begin(), members.end());
        numFused += chain.size();
      }
      llvm::DenseMap<Operation *, Operation *> root;
      // The root of the group `node` joins, or null: its consumers (one,
      // or several already in one group) are elementwise, of its shape,
      // on its device.
      auto groupToJoin = [&](Operation *node) -> Operation * {
        ResultRange results = tfg::getDataResults(node);
        if (results.size() != 1 || results[0].use_empty())
          return nullptr;
        llvm::SmallSetVector<Operation *, 4> consumers;
        for (Operation *user : results[0].getUsers())
          consumers.insert(user);
        Operation *common = nullptr;
        for (Operation *consumer : consumers) {
          if (!tfg::isNode(consumer) || !isElementwise(consumer) ||
              claimed.contains(consumer) || consumer->getBlock() != body ||
              !sameDevice(consumer, node) ||
              !sameShape(tfg::getDataResults(consumer)[0], results[0]))
            return nullptr;
          Operation *consumerRoot = root.lookup(consumer);
          if (!consumerRoot)
            consumerRoot = consumer;
          if (common && consumerRoot != common)
            return nullptr;
          common = consumerRoot;
        }
        return common;
      };
      for (Operation *node : llvm::reverse(order)) {
        if (!tfg::isNode(node) || !isElementwise(node) || claimed.contains(node))
          continue;
        Operation *groupRoot = groupToJoin(node);
        if (!groupRoot)
          continue;
        // The root counts, before its group exists.
        auto existing = groups.find(groupRoot);
        size_t size = existing == groups.end() ? 1 : existing->second.size();
        if (size >= maxMembers)
          continue;
        root[node] = groupRoot;
        SmallVector<Operation *> &members = groups[groupRoot];
        if (members.empty())
          members.push_back(groupRoot);
        members.push_back(node);
        ++numFused;
      }
      for (auto &[groupRoot, members] : groups) {
        llvm::sort(members, [&](Operation *a, Operation *b) {
          return position[a] < position[b];
        });
        formGroup(members);
      }
    }
  }
};

} // namespace
} // namespace tfc
