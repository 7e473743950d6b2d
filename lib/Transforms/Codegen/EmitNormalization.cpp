//===- EmitNormalization.cpp - normalizations: batch, softmax, LRN --------===//
//
// FusedBatchNorm (V1-V3) in training mode and FusedBatchNormGrad (V1-V3),
// NHWC float32, as calls of the runtime's batch norm kernels on the input
// seen as [rows, channels]; with the MaxPool of y (or the BiasAddGrad of
// x's gradient) tfc-fuse-elementwise folded in, the kernel computes that
// too, into the node's last result. A gradient that took in the gradient
// of a max pooling of y (and of y's ReLU) calls the pooled gradient's
// kernel, which reads the pooling's gradient and y (its last operand), or
// with tfc.max_pool_positions the forward pass's record of where its
// windows' maxima are (the forward node's last result, after the pooled
// one; its y, then read by nothing, is not written); with
// tfc.filter_gradient, the kernel that computes the folded filter gradient
// too, from the convolution's input (the last operand) into the last
// result, told whether anything reads x's gradient. Inference-mode
// FusedBatchNorm never gets here: tfc-decompose-batch-norm turns it into
// an affine map.
//
// Softmax and LogSoftmax over the last axis, (Sparse)SoftmaxCrossEntropy-
// WithLogits, and LRN over NHWC channels: float32, calls of the runtime's
// kernels on the input seen as rows.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Transforms/OpTable.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;

namespace tfc {

namespace {

/// FusedBatchNorm in training mode and FusedBatchNormGrad: batch norm kernels.
class BatchNormPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    bool gradient = llvm::is_contained({OpKind::FusedBatchNormGrad,
                                        OpKind::FusedBatchNormGradV2,
                                        OpKind::FusedBatchNormGradV3},
                                       opKindOf(node));
    OperandRange operands = tfg::getDataOperands(node);
    Value x = operands[gradient ? 1 : 0];
    auto xType = cast<RankedTensorType>(x.getType());
    auto format = node->getAttrOfType<StringAttr>("data_format");
    if (!xType.getElementType().isF32() || xType.getRank() != 4 ||
        (format && format.getValue() != "NHWC"))
      return step.error(node)
             << "code generation supports float32 NHWC only for now";
    bool isTraining = boolAttr(node, "is_training", true);
    if (!gradient && !isTraining)
      return step.error(node)
             << "an inference batch norm reached code generation "
                "(tfc-decompose-batch-norm rewrites each)";
    int64_t channels = xType.getDimSize(3);
    int64_t rows = channels ? xType.getNumElements() / channels : 0;
    Location loc = node->getLoc();
    auto f32 = [&](float value) -> Value {
      return step.builder.create<arith::ConstantFloatOp>(
          loc, APFloat(value), step.builder.getF32Type());
    };
    Value epsilon = f32(float(floatAttr(node, "epsilon", 1e-4f)));
    Value null = step.nullPointer(loc);
    // A tensor's pointer, or null when it holds nothing (the empty running
    // statistics of a batch norm that does not average).
    auto pointerOrNull = [&](Value value) {
      Value memref = step.memrefFor(value);
      return memref &&
                     cast<RankedTensorType>(value.getType()).getNumElements() > 0
                 ? step.pointerTo(memref)
                 : null;
    };
    SmallVector<Value> pointers;
    for (Value operand : operands.take_front(5))
      pointers.push_back(pointerOrNull(operand));
    // Five outputs of interest (V3's sixth, reserve space 3, is empty); the
    // two last may have no buffer when nothing reads them. y is not written
    // where the batch norm records its windows' maxima for its gradient
    // and nothing reads y (tfc.max_pool_positions).
    bool skipY = !gradient && node->hasAttr(kMaxPoolPositionsAttr) &&
                 tfg::getDataResults(node)[0].use_empty();
    for (unsigned port = 0; port < 5; ++port) {
      Value result = tfg::getDataResults(node)[port];
      if (port == 0 && skipY) {
        pointers.push_back(null);
      } else if (port < 3) {
        FailureOr<Value> out = step.outputFor(node, port);
        if (failed(out))
          return failure();
        pointers.push_back(step.pointerTo(*out));
      } else {
        pointers.push_back(pointerOrNull(result));
      }
    }
    // The result of the op tfc-fuse-elementwise folded in, last: a MaxPool
    // of y, or the BiasAddGrad of x's gradient (last but one where a
    // filter gradient is folded in too, which is last).
    bool filterFolded = gradient && node->hasAttr(kFilterGradientAttr);
    auto folded = [&](unsigned fromEnd = 1) -> FailureOr<Value> {
      FailureOr<Value> out =
          step.outputFor(node, tfg::getDataResults(node).size() - fromEnd);
      if (failed(out))
        return failure();
      return step.pointerTo(*out);
    };
    if (gradient) {
      if (!node->hasAttr(kInputGradientSumAttr)) {
        pointers.push_back(null);
      } else {
        FailureOr<Value> sum = folded(filterFolded ? 2 : 1);
        if (failed(sum))
          return failure();
        pointers.push_back(*sum);
      }
      // A folded filter gradient: the convolution's input (the last
      // operand), its gradient (the last result) and its geometry.
      if (filterFolded) {
        Value convInput = operands.back();
        operands = operands.drop_back();
        FailureOr<Value> filterGradient = folded();
        if (failed(filterGradient))
          return failure();
        auto params = foldedFilterGradientParams(
            cast<RankedTensorType>(convInput.getType()), xType,
            cast<RankedTensorType>(tfg::getDataResults(node).back().getType()),
            node->getAttrOfType<DenseI64ArrayAttr>(kFilterGradientAttr).asArrayRef());
        pointers.push_back(pointerOrNull(convInput));
        pointers.push_back(*filterGradient);
        pointers.push_back(step.constantParams(loc, params));
      }
      pointers.push_back(epsilon);
      auto window = node->getAttrOfType<DenseI64ArrayAttr>(kMaxPoolGradientAttr);
      if (!window) {
        step.callKernel(loc, step.kernelName("batch_norm_grad_f32"), pointers,
                        {rows, channels, isTraining ? 1 : 0});
        return success();
      }
      // The pooled gradient's kernel: y (the last operand), or the forward
      // pass's record of its windows' maxima in y's place, after the
      // pooled gradient (the first).
      bool recorded = node->hasAttr(kMaxPoolPositionsAttr);
      pointers.insert(pointers.begin() + 1,
                      recorded ? null : pointerOrNull(operands.back()));
      pointers.insert(pointers.begin() + 2,
                      recorded ? pointerOrNull(operands.back()) : null);
      auto pooledType = cast<RankedTensorType>(operands[0].getType());
      ArrayRef<int64_t> w = window.asArrayRef();
      SmallVector<int64_t> sizes{xType.getDimSize(0), xType.getDimSize(1),
                                 xType.getDimSize(2), channels, isTraining ? 1 : 0,
                                 node->hasAttr(kActivationAttr) ? 1 : 0, w[0], w[1],
                                 pooledType.getDimSize(1), pooledType.getDimSize(2),
                                 w[2], w[3], w[4], w[5]};
      if (filterFolded)
        // Whether anything but idle Identity nodes reads x's gradient.
        sizes.push_back(onlyIdleIdentitiesRead(tfg::getDataResults(node)[0]) ? 0 : 1);
      step.callKernel(loc,
                      step.kernelName(filterFolded ? "batch_norm_grad_pooled_filter_f32"
                                                   : "batch_norm_grad_pooled_f32"),
                      pointers, sizes);
      return success();
    }
    // [kh, kw, stride_h, stride_w, pad_top, pad_left] of the folded MaxPool,
    // whose result is the last but for the record of its windows' maxima
    // (tfc.max_pool_positions), last when there is one.
    SmallVector<int64_t> pool(6, 0);
    int64_t pooledH = 0, pooledW = 0;
    ResultRange results = tfg::getDataResults(node);
    bool recorded = node->hasAttr(kMaxPoolPositionsAttr);
    if (auto window = node->getAttrOfType<DenseI64ArrayAttr>(kMaxPoolAttr)) {
      unsigned pooledPort = results.size() - (recorded ? 2 : 1);
      FailureOr<Value> pooled = step.outputFor(node, pooledPort);
      if (failed(pooled) || window.size() != 6)
        return failure();
      pointers.push_back(step.pointerTo(*pooled));
      if (recorded) {
        FailureOr<Value> positions = folded();
        if (failed(positions))
          return failure();
        pointers.push_back(*positions);
      } else {
        pointers.push_back(null);
      }
      pool.assign(window.asArrayRef().begin(), window.asArrayRef().end());
      auto pooledType = cast<RankedTensorType>(results[pooledPort].getType());
      pooledH = pooledType.getDimSize(1);
      pooledW = pooledType.getDimSize(2);
    } else {
      pointers.append({null, null});
    }
    float factor = float(floatAttr(node, "exponential_avg_factor", 1.f));
    if (factor != 1.f && (pointers[3] == null || pointers[4] == null))
      return step.error(node)
             << "averaging needs the running mean and variance";
    pointers.push_back(epsilon);
    pointers.push_back(f32(factor));
    // The ReLU or ReLU6 tfc-fuse-elementwise folded in, applied to y.
    auto activation = node->getAttrOfType<StringAttr>(kActivationAttr);
    int64_t activationKind = !activation ? TFC_ACTIVATION_NONE
                             : activation.getValue() == "Relu"
                                 ? TFC_ACTIVATION_RELU
                                 : TFC_ACTIVATION_RELU6;
    step.callKernel(loc, step.kernelName("batch_norm_training_f32"), pointers,
                    {rows, channels, activationKind, xType.getDimSize(0),
                     xType.getDimSize(1), xType.getDimSize(2), pool[0], pool[1],
                     pooledH, pooledW, pool[2], pool[3], pool[4], pool[5]});
    return success();
  }
};

/// Softmax and LogSoftmax: the runtime's kernel `Kernel` over the rows of
/// a 2-D view of the input (the last axis against all the others).
template <const char *Kernel>
class RowKernelPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    Value input = tfg::getDataOperands(node)[0];
    auto type = cast<RankedTensorType>(input.getType());
    if (!type.getElementType().isF32() || type.getRank() < 1)
      return step.error(node) << "code generation supports float32 only for now";
    int64_t cols = type.getShape().back();
    int64_t rows = cols == 0 ? 0 : type.getNumElements() / cols;
    Value out = step.memrefFor(tfg::getDataResults(node)[0]);
    if (!out)
      return step.error(node) << "output has no buffer";
    Location loc = node->getLoc();
    OpBuilder &builder = step.builder;
    SmallVector<Value> args = {
        step.runtime, step.pointerTo(step.memrefFor(input)),
        step.pointerTo(out),
        builder.create<arith::ConstantIntOp>(loc, rows, 64),
        builder.create<arith::ConstantIntOp>(loc, cols, 64)};
    builder.create<func::CallOp>(
        loc,
        step.kernel(step.kernelName(Kernel), ValueRange(args).getTypes()),
        args);
    return success();
  }
};
constexpr char kSoftmaxKernel[] = "softmax_f32";
constexpr char kLogSoftmaxKernel[] = "log_softmax_f32";

/// (Sparse)SoftmaxCrossEntropyWithLogits on [rows, classes] logits.
class CrossEntropyPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    OperandRange operands = tfg::getDataOperands(node);
    auto logits = cast<RankedTensorType>(operands[0].getType());
    auto labels = cast<RankedTensorType>(operands[1].getType());
    bool sparse =
        opKindOf(node) == OpKind::SparseSoftmaxCrossEntropyWithLogits;
    if (!logits.getElementType().isF32() || logits.getRank() != 2 ||
        (!sparse && labels != logits))
      return step.error(node)
             << "supports float32 logits of rank 2 (and, dense, "
                "labels of their type) for now";
    FailureOr<Value> loss = step.outputFor(node, 0),
                     backprop = step.outputFor(node, 1);
    if (failed(loss) || failed(backprop))
      return failure();
    Location loc = node->getLoc();
    int64_t rows = logits.getDimSize(0), classes = logits.getDimSize(1);
    SmallVector<Value> pointers = {step.pointerTo(step.memrefFor(operands[0])),
                                   step.pointerTo(step.memrefFor(operands[1])),
                                   step.pointerTo(*loss),
                                   step.pointerTo(*backprop)};
    if (!sparse) {
      step.callKernel(loc, step.kernelName("softmax_xent_f32"), pointers,
                      {rows, classes});
      return success();
    }
    int64_t labelBytes = labels.getElementType().getIntOrFloatBitWidth() / 8;
    pointers.push_back(step.stringPointer(loc, tfg::getNodeName(node)));
    step.callKernel(loc, step.kernelName("sparse_softmax_xent_f32"), pointers,
                    {rows, classes, labelBytes});
    return success();
  }
};

/// LRN: tfc_cpu_lrn_f32 with the op's four attributes (OpDef defaults when
/// absent) in its parameters.
class LocalResponseNormPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    Value input = tfg::getDataOperands(node)[0];
    auto type = cast<RankedTensorType>(input.getType());
    if (!type.getElementType().isF32() || type.getRank() != 4)
      return step.error(node)
             << "code generation supports a 4-D float32 input only for now";
    FailureOr<Value> out = step.outputFor(node);
    if (failed(out))
      return failure();
    tfc_lrn_params params = {};
    params.depth = type.getDimSize(3);
    params.rows = params.depth ? type.getNumElements() / params.depth : 0;
    params.depth_radius = intAttr(node, "depth_radius", 5);
    if (params.depth_radius < 0)
      return step.error(node) << "depth_radius is negative";
    // TensorFlow computes in float: the attributes as floats, widened.
    params.bias = float(floatAttr(node, "bias", 1.0));
    params.alpha = float(floatAttr(node, "alpha", 1.0));
    params.beta = float(floatAttr(node, "beta", 0.5));
    Location loc = node->getLoc();
    step.callKernel(loc, step.kernelName("lrn_f32"),
                    {step.pointerTo(step.memrefFor(input)),
                     step.pointerTo(*out), step.constantParams(loc, params)},
                    {});
    return success();
  }
};

} // namespace

void populateNormalizationPatterns(CodegenPatterns &patterns) {
  patterns.add<BatchNormPattern>("BatchNorm");
  patterns.add<RowKernelPattern<kSoftmaxKernel>>("Softmax");
  patterns.add<RowKernelPattern<kLogSoftmaxKernel>>("LogSoftmax");
  patterns.add<CrossEntropyPattern>("CrossEntropy");
  patterns.add<LocalResponseNormPattern>("LocalResponseNorm");
}

} // namespace tfc
