//===- EmitWindows.cpp - convolutions and pooling ---------------------------===//
//
// Conv2D, DepthwiseConv2dNative, MaxPool and AvgPool on NHWC tensors, and
// their 3-D forms on NDHWC, as calls of the runtime's window kernels, with
// TensorFlow's padding rules resolved at compile time; Dilation2D and the
// image resamplings of the runtime (ResizeBicubic, ResizeArea,
// CropAndResize) the same way.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Dialect/Tfg/DataType.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/OpTable.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace tfc {

namespace {

/// Where a window op's windows lie: the NHWC input [n, h, w, c], the
/// output's [oh, ow], the window, its strides and dilations, and the top
/// and left padding, as TensorFlow derives them.
struct WindowGeometry {
  int64_t n, h, w, c, kh, kw, oh, ow, strideH, strideW, dilationH, dilationW,
      padTop = 0, padLeft = 0;
};

/// The int list attribute `name` of `size` values, or `fallback` in each.
SmallVector<int64_t> intsAttr(Operation *node, StringRef name,
                              int64_t fallback, size_t size = 4) {
  SmallVector<int64_t> values = intListAttr(node, name);
  if (values.size() != size)
    values.assign(size, fallback);
  return values;
}

/// The geometry of `node` whose windowed input has type `in` and output
/// `out`; kh/kw from the filter type, or from ksize when it is null.
FailureOr<WindowGeometry> windowGeometry(Operation *node,
                                         RankedTensorType in,
                                         RankedTensorType out,
                                         RankedTensorType filter) {
  WindowGeometry g;
  SmallVector<int64_t> strides = intsAttr(node, "strides", 1);
  SmallVector<int64_t> dilations = intsAttr(node, "dilations", 1);
  g.n = in.getDimSize(0), g.h = in.getDimSize(1), g.w = in.getDimSize(2),
  g.c = in.getDimSize(3);
  g.oh = out.getDimSize(1), g.ow = out.getDimSize(2);
  if (filter) {
    g.kh = filter.getDimSize(0);
    g.kw = filter.getDimSize(1);
  } else {
    SmallVector<int64_t> ksize = intsAttr(node, "ksize", 1);
    g.kh = ksize[1];
    g.kw = ksize[2];
  }
  g.strideH = strides[1], g.strideW = strides[2];
  g.dilationH = dilations[1], g.dilationW = dilations[2];
  StringRef padding = node->getAttrOfType<StringAttr>("padding").getValue();
  if (padding == "SAME") {
    g.padTop = samePaddingBefore(g.h, g.oh, g.kh, g.strideH, g.dilationH);
    g.padLeft = samePaddingBefore(g.w, g.ow, g.kw, g.strideW, g.dilationW);
  } else if (padding == "EXPLICIT") {
    SmallVector<int64_t> pads = intListAttr(node, "explicit_paddings");
    if (pads.size() != 8)
      return failure();
    g.padTop = pads[2];
    g.padLeft = pads[4];
  }
  return g;
}

/// The geometry of a depthwise convolution node, whose input, output and
/// filter are static (the fused kernels' depthwise halves).
FailureOr<WindowGeometry> depthwiseGeometry(Operation *depthwise) {
  return windowGeometry(
      depthwise,
      cast<RankedTensorType>(tfg::getDataOperands(depthwise)[0].getType()),
      cast<RankedTensorType>(tfg::getDataResults(depthwise)[0].getType()),
      cast<RankedTensorType>(tfg::getDataOperands(depthwise)[1].getType()));
}

/// The window fields tfc_pointwise_depthwise_params and
/// tfc_depthwise_pointwise_params share (a depthwise window: no
/// dilation), from `g`.
template <typename Params>
void setDepthwiseWindow(Params &params, const WindowGeometry &g) {
  params.kh = g.kh;
  params.kw = g.kw;
  params.oh = g.oh;
  params.ow = g.ow;
  params.stride_h = g.strideH;
  params.stride_w = g.strideW;
  params.pad_top = g.padTop;
  params.pad_left = g.padLeft;
}

/// The geometry fields tfc_conv2d_params and tfc_conv2d_backprop_params
/// share, from `g` and the filter's last dimension `outC`.
template <typename Params>
Params convParams(const WindowGeometry &g, int64_t outC) {
  Params params = {};
  params.n = g.n;
  params.h = g.h;
  params.w = g.w;
  params.c = g.c;
  params.kh = g.kh;
  params.kw = g.kw;
  params.out_c = outC;
  params.oh = g.oh;
  params.ow = g.ow;
  params.stride_h = g.strideH;
  params.stride_w = g.strideW;
  params.dilation_h = g.dilationH;
  params.dilation_w = g.dilationW;
  params.pad_top = g.padTop;
  params.pad_left = g.padLeft;
  return params;
}

/// Float32 NHWC only: a diagnostic otherwise.
LogicalResult checkFloatNHWC(Operation *node, RankedTensorType type,
                             function_ref<InFlightDiagnostic()> error) {
  if (!type.getElementType().isF32())
    return error() << "code generation supports float32 only for now";
  auto format = node->getAttrOfType<StringAttr>("data_format");
  if (format && format.getValue() != "NHWC")
    return error() << "code generation supports NHWC only for now";
  return success();
}

} // namespace

FailureOr<StepEmitter::EpilogueOperands>
StepEmitter::epilogueOperands(Operation *node, const Epilogue *epilogue,
                              Value out) {
  Value none = nullPointer(node->getLoc());
  auto pointerOrNull = [&](Value value) -> FailureOr<Value> {
    if (!value)
      return none;
    Value memref = memrefFor(value);
    if (!memref)
      return error(node) << "an epilogue operand has no buffer";
    return pointerTo(memref);
  };
  FailureOr<Value> bias = pointerOrNull(epilogue ? epilogue->bias : Value());
  FailureOr<Value> residual =
      pointerOrNull(epilogue ? epilogue->residual : Value());
  if (failed(bias) || failed(residual))
    return failure();
  // A residual planned in the output's buffer is accumulated onto in
  // place (2); otherwise it is read as a second input (1).
  int64_t residualMode = 0;
  if (epilogue && epilogue->residual) {
    auto placeOf = [&](Value memref) {
      auto it = views.find(memref);
      return it == views.end() ? std::make_pair(Value(), int64_t(-1))
                               : it->second;
    };
    auto at = placeOf(memrefFor(epilogue->residual));
    residualMode = at.first && at == placeOf(out) ? 2 : 1;
  }
  return EpilogueOperands{*bias, *residual, residualMode};
}

/// Conv2D, DepthwiseConv2dNative, MaxPool, AvgPool on NHWC float32; a
/// convolution with an epilogue writes the value of the epilogue's root.
LogicalResult StepEmitter::emitWindow(Operation *node,
                                      const Epilogue *epilogue) {
  OpKind kind = opKindOf(node);
  bool isConv = kind == OpKind::Conv2D;
  bool isDepthwise = kind == OpKind::DepthwiseConv2dNative;
  Value input = tfg::getDataOperands(node)[0];
  Value result = tfg::getDataResults(node)[0];
  auto in = cast<RankedTensorType>(input.getType());
  auto out = cast<RankedTensorType>(result.getType());
  if (failed(checkFloatNHWC(node, in, [&] { return error(node); })))
    return failure();
  RankedTensorType filterType;
  if (isConv || isDepthwise)
    filterType = cast<RankedTensorType>(tfg::getDataOperands(node)[1].getType());
  FailureOr<WindowGeometry> geometry = windowGeometry(node, in, out, filterType);
  if (failed(geometry))
    return error(node) << "explicit_paddings must have 8 values";
  auto [n, h, w, c, kh, kw, oh, ow, strideH, strideW, dilationH, dilationW,
        padTop, padLeft] = *geometry;
  Value outMemref =
      memrefFor(epilogue ? tfg::getDataResults(epilogue->root)[0] : result);
  if (!outMemref)
    return error(node) << "output has no buffer";
  Location loc = node->getLoc();
  if (isConv || isDepthwise) {
    if (isConv && filterType.getDimSize(2) != c)
      return error(node) << "grouped convolutions are not supported";
    Value filterValue = valueOutsideGroup(tfg::getDataOperands(node)[1]);
    Operation *filterNode = filterValue.getDefiningOp();
    bool constantFilter = filterNode && opKindOf(filterNode) == OpKind::Const;
    FailureOr<EpilogueOperands> operands =
        epilogueOperands(node, epilogue, outMemref);
    if (failed(operands))
      return failure();
    // The call site's parameters; their address also keys its cached
    // oneDNN primitive.
    tfc_conv2d_params params = convParams<tfc_conv2d_params>(
        *geometry, filterType.getDimSize(3));
    params.depthwise = isDepthwise;
    params.filter_constant = constantFilter;
    params.activation = epilogue ? epilogue->activation : TFC_ACTIVATION_NONE;
    params.has_bias = epilogue && epilogue->bias;
    params.residual = operands->residualMode;
    // A window of a concatenation's buffer (tfc-plan-memory): its pixels
    // are the concatenation's channels apart.
    auto outType = cast<MemRefType>(outMemref.getType());
    if (!outType.getLayout().isIdentity())
      params.out_pixel_stride = getStridesAndOffset(outType).first[2];
    Value paramsPointer = constantParams(loc, params);
    callKernel(loc, kernelName("conv2d_dnnl_f32"),
               {pointerTo(memrefFor(input)), pointerTo(memrefFor(filterValue)),
                operands->bias, operands->residual, pointerTo(outMemref),
                paramsPointer},
               {});
    return success();
  }
  // tfc_cpu_pool2d_f32's kinds: max, average, max over zero padding.
  int32_t poolKind = kind != OpKind::MaxPool      ? 1
                     : node->hasAttr(kZeroPaddingAttr) ? 2
                                                       : 0;
  callKernel(loc, kernelName("pool2d_f32"),
             {pointerTo(memrefFor(input)), pointerTo(outMemref)},
             {n, h, w, c, kh, kw, oh, ow, strideH, strideW, padTop, padLeft},
             poolKind);
  return success();
}

LogicalResult StepEmitter::emitPointwiseDepthwise(Operation *pointwise,
                                                  const Epilogue &first,
                                                  Operation *depthwise,
                                                  const Epilogue &second) {
  Value input = tfg::getDataOperands(pointwise)[0];
  auto in = cast<RankedTensorType>(input.getType());
  FailureOr<WindowGeometry> geometry = depthwiseGeometry(depthwise);
  if (failed(geometry))
    return error(depthwise) << "explicit_paddings must have 8 values";
  Value outMemref = memrefFor(tfg::getDataResults(second.root)[0]);
  if (!outMemref)
    return error(depthwise) << "output has no buffer";
  FailureOr<EpilogueOperands> firstOperands =
      epilogueOperands(pointwise, &first, outMemref);
  FailureOr<EpilogueOperands> secondOperands =
      epilogueOperands(depthwise, &second, outMemref);
  if (failed(firstOperands) || failed(secondOperands))
    return failure();
  if (first.residual || second.residual)
    return error(depthwise) << "an expansion group adds no residual";
  const WindowGeometry &g = *geometry;
  tfc_pointwise_depthwise_params params = {};
  params.n = in.getDimSize(0);
  params.h = in.getDimSize(1);
  params.w = in.getDimSize(2);
  params.c = in.getDimSize(3);
  params.expanded = g.c;
  setDepthwiseWindow(params, g);
  params.pointwise_bias = first.bias != nullptr;
  params.pointwise_activation = first.activation;
  params.depthwise_bias = second.bias != nullptr;
  params.depthwise_activation = second.activation;
  Location loc = depthwise->getLoc();
  Value pointwiseFilter =
      valueOutsideGroup(tfg::getDataOperands(pointwise)[1]);
  Value depthwiseFilter =
      valueOutsideGroup(tfg::getDataOperands(depthwise)[1]);
  callKernel(loc, kernelName("pointwise_depthwise_f32"),
             {pointerTo(memrefFor(input)),
              pointerTo(memrefFor(pointwiseFilter)), firstOperands->bias,
              pointerTo(memrefFor(depthwiseFilter)), secondOperands->bias,
              pointerTo(outMemref), constantParams(loc, params)},
             {});
  return success();
}

struct StepEmitter::SeparableCall {
  tfc_depthwise_pointwise_params params = {};
  /// Null for a pair's second group.
  Value input, depthwiseFilter, depthwiseBias, pointwiseFilter, pointwiseBias,
      residual;
};

FailureOr<StepEmitter::SeparableCall>
StepEmitter::separableCall(const SeparableGroup &group, Value out) {
  Operation *depthwise = group.depthwise, *pointwise = group.pointwise,
            *pool = group.pool;
  const Epilogue &first = group.first, &second = group.second;
  Value input = group.inputActivation
                    ? tfg::getDataOperands(group.inputActivation)[0]
                    : tfg::getDataOperands(depthwise)[0];
  auto pointwiseFilter =
      cast<RankedTensorType>(tfg::getDataOperands(pointwise)[1].getType());
  FailureOr<WindowGeometry> geometry = depthwiseGeometry(depthwise);
  if (failed(geometry))
    return error(depthwise) << "explicit_paddings must have 8 values";
  if (pool && second.residual)
    return error(pool) << "a pooled separable group adds no residual";
  FailureOr<EpilogueOperands> firstOperands =
      epilogueOperands(depthwise, &first, out);
  FailureOr<EpilogueOperands> secondOperands =
      epilogueOperands(pointwise, &second, out);
  if (failed(firstOperands) || failed(secondOperands))
    return failure();
  if (first.residual)
    return error(depthwise) << "a separable group's depthwise adds no residual";
  const WindowGeometry &g = *geometry;
  SeparableCall call;
  tfc_depthwise_pointwise_params &params = call.params;
  params.n = g.n;
  params.h = g.h;
  params.w = g.w;
  params.c = g.c;
  setDepthwiseWindow(params, g);
  params.input_activation = !group.inputActivation ? TFC_ACTIVATION_NONE
                            : opKindOf(group.inputActivation) == OpKind::Relu
                                ? TFC_ACTIVATION_RELU
                                : TFC_ACTIVATION_RELU6;
  params.depthwise_bias = first.bias != nullptr;
  params.depthwise_activation = first.activation;
  params.out_c = pointwiseFilter.getDimSize(3);
  params.pointwise_bias = second.bias != nullptr;
  params.pointwise_activation = second.activation;
  params.residual = secondOperands->residualMode;
  if (pool) {
    Value unpooled = tfg::getDataResults(second.root)[0];
    FailureOr<WindowGeometry> window = windowGeometry(
        pool, cast<RankedTensorType>(unpooled.getType()),
        cast<RankedTensorType>(tfg::getDataResults(pool)[0].getType()),
        nullptr);
    if (failed(window))
      return error(pool) << "explicit_paddings must have 8 values";
    params.pool_kh = window->kh;
    params.pool_kw = window->kw;
    params.pool_stride_h = window->strideH;
    params.pool_stride_w = window->strideW;
    params.pool_pad_top = window->padTop;
    params.pool_pad_left = window->padLeft;
    params.pool_oh = window->oh;
    params.pool_ow = window->ow;
  }
  // A pair's second group reads the first's output, which has no buffer.
  if (Value inputMemref = memrefFor(valueOutsideGroup(input)))
    call.input = pointerTo(inputMemref);
  call.depthwiseFilter = pointerTo(
      memrefFor(valueOutsideGroup(tfg::getDataOperands(depthwise)[1])));
  call.depthwiseBias = firstOperands->bias;
  call.pointwiseFilter = pointerTo(
      memrefFor(valueOutsideGroup(tfg::getDataOperands(pointwise)[1])));
  call.pointwiseBias = secondOperands->bias;
  call.residual = secondOperands->residual;
  return call;
}

LogicalResult StepEmitter::emitDepthwisePointwise(const SeparableGroup &group) {
  Operation *written = group.pool ? group.pool : group.second.root;
  Value out = memrefFor(tfg::getDataResults(written)[0]);
  if (!out)
    return error(group.pointwise) << "output has no buffer";
  FailureOr<SeparableCall> call = separableCall(group, out);
  if (failed(call))
    return failure();
  Location loc = group.pointwise->getLoc();
  callKernel(loc, kernelName("depthwise_pointwise_f32"),
             {call->input, call->depthwiseFilter, call->depthwiseBias,
              call->pointwiseFilter, call->pointwiseBias, call->residual,
              pointerTo(out), constantParams(loc, call->params)},
             {});
  return success();
}

LogicalResult StepEmitter::emitSeparablePair(const SeparableGroup &first,
                                             const SeparableGroup &second) {
  Operation *written = second.pool ? second.pool : second.second.root;
  Value out = memrefFor(tfg::getDataResults(written)[0]);
  if (!out)
    return error(second.pointwise) << "output has no buffer";
  if (first.pool || first.second.residual)
    return error(first.pointwise) << "a pair's first separable group neither "
                                     "adds a residual nor pools";
  FailureOr<SeparableCall> one = separableCall(first, Value());
  FailureOr<SeparableCall> two = separableCall(second, out);
  if (failed(one) || failed(two))
    return failure();
  Location loc = second.pointwise->getLoc();
  callKernel(loc, kernelName("separable_pair_f32"),
             {one->input, one->depthwiseFilter, one->depthwiseBias,
              one->pointwiseFilter, one->pointwiseBias, two->depthwiseFilter,
              two->depthwiseBias, two->pointwiseFilter, two->pointwiseBias,
              two->residual, pointerTo(out), constantParams(loc, one->params),
              constantParams(loc, two->params)},
             {});
  return success();
}

} // namespace tfc

namespace tfc {

tfc_conv2d_backprop_params foldedFilterGradientParams(RankedTensorType in,
                                                      RankedTensorType out,
                                                      RankedTensorType filter,
                                                      ArrayRef<int64_t> window) {
  WindowGeometry g{in.getDimSize(0), in.getDimSize(1), in.getDimSize(2),
                   in.getDimSize(3), window[0],        window[1],
                   out.getDimSize(1), out.getDimSize(2), window[2],
                   window[3],        1,                1,
                   window[4],        window[5]};
  auto params = convParams<tfc_conv2d_backprop_params>(g, filter.getDimSize(3));
  params.filter_gradient = 1;
  return params;
}

/// The gradients of the window ops, NHWC float32: Conv2DBackpropInput/
/// Filter and their depthwise forms (tfc_cpu_conv2d_backprop_f32),
/// MaxPoolGrad and AvgPoolGrad (tfc_cpu_pool2d_grad_f32).
LogicalResult StepEmitter::emitWindowGradient(Operation *node,
                                              Operation *reluGrad) {
  OpKind kind = opKindOf(node);
  OperandRange operands = tfg::getDataOperands(node);
  Value result = tfg::getDataResults(node)[0];
  bool isPool = kind == OpKind::MaxPoolGrad || kind == OpKind::AvgPoolGrad;
  bool filterGradient = kind == OpKind::Conv2DBackpropFilter ||
                        kind == OpKind::DepthwiseConv2dNativeBackpropFilter;
  bool depthwise = kind == OpKind::DepthwiseConv2dNativeBackpropInput ||
                   kind == OpKind::DepthwiseConv2dNativeBackpropFilter;
  // The forward op's input and output (its gradient) and filter types.
  Value gradient = operands[kind == OpKind::AvgPoolGrad ? 1 : 2];
  auto out = cast<RankedTensorType>(gradient.getType());
  auto in = cast<RankedTensorType>(
      (filterGradient || kind == OpKind::MaxPoolGrad ? operands[0] : result)
          .getType());
  RankedTensorType filter;
  if (!isPool)
    filter = cast<RankedTensorType>(
        (filterGradient ? result : operands[1]).getType());
  if (failed(checkFloatNHWC(node, out, [&] { return error(node); })))
    return failure();
  FailureOr<WindowGeometry> geometry = windowGeometry(node, in, out, filter);
  if (failed(geometry))
    return error(node) << "explicit_paddings must have 8 values";
  const WindowGeometry &g = *geometry;
  FailureOr<Value> output = outputFor(reluGrad ? reluGrad : node);
  if (failed(output))
    return failure();
  Location loc = node->getLoc();
  if (isPool) {
    // kind: 0 max, 1 average, 2 max masked by ReluGrad.
    Value input =
        kind == OpKind::MaxPoolGrad ? memrefFor(operands[0]) : Value();
    callKernel(loc, kernelName("pool2d_grad_f32"),
               {input ? pointerTo(input) : nullPointer(loc),
                pointerTo(memrefFor(gradient)), pointerTo(*output)},
               {g.n, g.h, g.w, g.c, g.kh, g.kw, g.oh, g.ow, g.strideH,
                g.strideW, g.padTop, g.padLeft},
               kind == OpKind::AvgPoolGrad ? 1 : reluGrad ? 2 : 0);
    return success();
  }
  if (!depthwise && filter.getDimSize(2) != g.c)
    return error(node) << "grouped convolutions are not supported";
  // The call site's parameters; their address also keys its cached oneDNN
  // primitive.
  auto params = convParams<tfc_conv2d_backprop_params>(
      g, filter.getDimSize(3));
  params.depthwise = depthwise;
  params.filter_gradient = filterGradient;
  Value paramsPointer = constantParams(loc, params);
  Value operand = memrefFor(operands[filterGradient ? 0 : 1]);
  callKernel(loc, kernelName("conv2d_backprop_f32"),
             {pointerTo(operand), pointerTo(memrefFor(gradient)),
              pointerTo(*output), paramsPointer},
             {});
  return success();
}

namespace {

/// Conv2D, DepthwiseConv2dNative and the pools, without an epilogue (a
/// fused group's root writes those with theirs).
class WindowPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    return step.emitWindow(node);
  }
};

/// The gradients of convolutions and pools.
class WindowGradientPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    return step.emitWindowGradient(node);
  }
};

} // namespace

namespace {

/// Conv3D, MaxPool3D, AvgPool3D and their gradients on NDHWC float32: one
/// call of the runtime's oneDNN kernels with the geometry as constant
/// parameters.
class Window3DPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    OpKind kind = opKindOf(node);
    OperandRange operands = tfg::getDataOperands(node);
    Value result0 = tfg::getDataResults(node)[0];
    // The forward convolution's input, filter and output types: a
    // gradient's output is the input's (or the filter's) gradient, its
    // last operand the output's.
    bool inputGradient = kind == OpKind::Conv3DBackpropInputV2;
    bool filterGradient = kind == OpKind::Conv3DBackpropFilterV2;
    bool poolGradient = kind == OpKind::MaxPool3DGrad || kind == OpKind::AvgPool3DGrad;
    bool isConv = kind == OpKind::Conv3D || inputGradient || filterGradient;
    auto typeOf = [](Value v) { return cast<RankedTensorType>(v.getType()); };
    RankedTensorType in = inputGradient || poolGradient ? typeOf(result0)
                                                        : typeOf(operands[0]);
    RankedTensorType out = inputGradient || filterGradient ? typeOf(operands[2])
                           : poolGradient ? typeOf(operands.back())
                                          : typeOf(result0);
    RankedTensorType filter;
    if (isConv)
      filter = filterGradient ? typeOf(result0) : typeOf(operands[1]);
    if (!in.getElementType().isF32())
      return step.error(node) << "code generation supports float32 only for now";
    auto format = node->getAttrOfType<StringAttr>("data_format");
    if (format && format.getValue() != "NDHWC")
      return step.error(node) << "code generation supports NDHWC only for now";
    SmallVector<int64_t> strides = intsAttr(node, "strides", 1, 5);
    SmallVector<int64_t> window(5, 1);
    if (isConv) {
      for (unsigned d = 0; d < 3; ++d)
        window[d + 1] = filter.getDimSize(d);
    } else {
      window = intsAttr(node, "ksize", 1, 5);
    }
    bool same = node->getAttrOfType<StringAttr>("padding").getValue() == "SAME";
    auto before = [&](unsigned d) -> int64_t {
      return same ? samePaddingBefore(in.getDimSize(d), out.getDimSize(d),
                                      window[d], strides[d], /*dilation=*/1)
                  : 0;
    };
    tfc_window3d_params params = {};
    params.n = in.getDimSize(0);
    params.d = in.getDimSize(1);
    params.h = in.getDimSize(2);
    params.w = in.getDimSize(3);
    params.c = in.getDimSize(4);
    params.kd = window[1];
    params.kh = window[2];
    params.kw = window[3];
    params.out_c = out.getDimSize(4);
    params.od = out.getDimSize(1);
    params.oh = out.getDimSize(2);
    params.ow = out.getDimSize(3);
    params.stride_d = strides[1];
    params.stride_h = strides[2];
    params.stride_w = strides[3];
    params.pad_front = before(1);
    params.pad_top = before(2);
    params.pad_left = before(3);
    FailureOr<Value> result = step.outputFor(node);
    if (failed(result))
      return failure();
    Location loc = node->getLoc();
    Value parameters = step.constantParams(loc, params);
    if (typeOf(result0).getNumElements() == 0)
      return success();
    if (inputGradient || filterGradient || poolGradient) {
      // An empty output gradient: no window contributes.
      if (out.getNumElements() == 0 || in.getNumElements() == 0) {
        step.builder.create<linalg::FillOp>(
            loc, zeroElement(step.builder, loc, step.builder.getF32Type()),
            *result);
        return success();
      }
      if (poolGradient) {
        bool max = kind == OpKind::MaxPool3DGrad;
        step.callKernel(loc, step.kernelName("pool3d_backprop_f32"),
                        {max ? step.pointerTo(step.memrefFor(operands[0]))
                             : step.nullPointer(loc),
                         step.pointerTo(step.memrefFor(operands.back())),
                         step.pointerTo(*result), parameters},
                        {}, max ? 0 : 1);
        return success();
      }
      step.callKernel(loc, step.kernelName("conv3d_backprop_f32"),
                      {step.pointerTo(step.memrefFor(operands[filterGradient ? 0 : 1])),
                       step.pointerTo(step.memrefFor(operands[2])),
                       step.pointerTo(*result), parameters},
                      {}, filterGradient ? 1 : 0);
      return success();
    }
    Value input = step.pointerTo(step.memrefFor(operands[0]));
    if (isConv)
      step.callKernel(loc, step.kernelName("conv3d_f32"),
                      {input, step.pointerTo(step.memrefFor(operands[1])),
                       step.pointerTo(*result), parameters},
                      {});
    else
      step.callKernel(loc, step.kernelName("pool3d_f32"),
                      {input, step.pointerTo(*result), parameters}, {},
                      kind == OpKind::MaxPool3D ? 0 : 1);
    return success();
  }
};

/// Dilation2D, ResizeBicubic, ResizeArea and CropAndResize: one call of
/// the runtime's image kernels (Images.cpp) with the geometry as constant
/// parameters.
class ImagePattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    OpKind kind = opKindOf(node);
    OperandRange operands = tfg::getDataOperands(node);
    auto in = cast<RankedTensorType>(operands[0].getType());
    auto out = cast<RankedTensorType>(tfg::getDataResults(node)[0].getType());
    Type element = in.getElementType();
    if (!element.isF32() && !element.isF64() && !element.isInteger(8) &&
        !element.isInteger(32) && !element.isInteger(64))
      return step.error(node) << "supports float, double, uint8, int32 and "
                                 "int64 images";
    if (kind == OpKind::Dilation2D && !element.isF32())
      return step.error(node) << "supports float32 only for now";
    FailureOr<Value> result = step.outputFor(node);
    if (failed(result))
      return failure();
    if (out.getNumElements() == 0)
      return success();
    Location loc = node->getLoc();
    int64_t dtype = tfg::typeToDataType(element);
    Value input = step.pointerTo(step.memrefFor(operands[0]));
    Value output = step.pointerTo(*result);
    switch (kind) {
    case OpKind::Dilation2D: {
      auto filter = cast<RankedTensorType>(operands[1].getType());
      SmallVector<int64_t> strides = intsAttr(node, "strides", 1);
      SmallVector<int64_t> rates = intsAttr(node, "rates", 1);
      bool same =
          node->getAttrOfType<StringAttr>("padding").getValue() == "SAME";
      tfc_dilation_params params = {};
      params.n = in.getDimSize(0);
      params.h = in.getDimSize(1);
      params.w = in.getDimSize(2);
      params.c = in.getDimSize(3);
      params.filter_h = filter.getDimSize(0);
      params.filter_w = filter.getDimSize(1);
      params.out_h = out.getDimSize(1);
      params.out_w = out.getDimSize(2);
      params.stride_h = strides[1];
      params.stride_w = strides[2];
      params.rate_h = rates[1];
      params.rate_w = rates[2];
      if (same) {
        params.pad_top = samePaddingBefore(params.h, params.out_h,
                                           params.filter_h, strides[1], rates[1]);
        params.pad_left = samePaddingBefore(params.w, params.out_w,
                                            params.filter_w, strides[2], rates[2]);
      }
      step.callKernel(loc, step.kernelName("dilation2d_f32"),
                      {input, step.pointerTo(step.memrefFor(operands[1])),
                       output, step.constantParams(loc, params)},
                      {});
      return success();
    }
    case OpKind::CropAndResize: {
      auto method = node->getAttrOfType<StringAttr>("method");
      auto extrapolation = node->getAttrOfType<FloatAttr>("extrapolation_value");
      tfc_crop_params params = {};
      params.n = in.getDimSize(0);
      params.h = in.getDimSize(1);
      params.w = in.getDimSize(2);
      params.c = in.getDimSize(3);
      params.boxes = out.getDimSize(0);
      params.crop_h = out.getDimSize(1);
      params.crop_w = out.getDimSize(2);
      params.nearest = method && method.getValue() == "nearest";
      params.dtype = dtype;
      params.extrapolation = extrapolation ? extrapolation.getValueAsDouble() : 0;
      step.callKernel(loc, step.kernelName("crop_and_resize"),
                      {input, step.pointerTo(step.memrefFor(operands[1])),
                       step.pointerTo(step.memrefFor(operands[2])), output,
                       step.stringPointer(loc, tfg::nodeLabel(node)),
                       step.constantParams(loc, params)},
                      {});
      return success();
    }
    default: {
      tfc_resize_params params = {};
      params.n = in.getDimSize(0);
      params.h = in.getDimSize(1);
      params.w = in.getDimSize(2);
      params.c = in.getDimSize(3);
      params.out_h = out.getDimSize(1);
      params.out_w = out.getDimSize(2);
      params.align_corners = boolAttr(node, "align_corners");
      params.half_pixel = boolAttr(node, "half_pixel_centers");
      params.dtype = dtype;
      step.callKernel(loc,
                      step.kernelName(kind == OpKind::ResizeBicubic
                                          ? "resize_bicubic"
                                          : "resize_area"),
                      {input, output, step.constantParams(loc, params)}, {});
      return success();
    }
    }
  }
};

/// NonMaxSuppressionV2-V5: one call of the runtime's selection, into
/// buffers of the selection's static length (max_output_size padded, or
/// the bound tfc-bound-dynamic-rows planned).
class NonMaxSuppressionPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    OpKind kind = opKindOf(node);
    OperandRange operands = tfg::getDataOperands(node);
    auto boxes = cast<RankedTensorType>(operands[0].getType());
    if (!boxes.getElementType().isF32() ||
        !cast<TensorType>(operands[3].getType()).getElementType().isF32())
      return step.error(node) << "supports float32 boxes and thresholds only";
    bool v5 = kind == OpKind::NonMaxSuppressionV5;
    bool counts = v5 || kind == OpKind::NonMaxSuppressionV4;
    FailureOr<Value> selected = step.outputFor(node, 0);
    FailureOr<Value> scores = v5 ? step.outputFor(node, 1) : FailureOr<Value>();
    FailureOr<Value> valid =
        counts ? step.outputFor(node, v5 ? 2 : 1) : FailureOr<Value>();
    if (failed(selected) || (v5 && failed(scores)) || (counts && failed(valid)))
      return failure();
    Location loc = node->getLoc();
    Value none = step.nullPointer(loc);
    auto operand = [&](unsigned i) {
      return i < operands.size() ? step.pointerTo(step.memrefFor(operands[i]))
                                 : none;
    };
    step.callKernel(
        loc, step.kernelName("non_max_suppression"),
        {operand(0), operand(1), operand(2), operand(3),
         kind == OpKind::NonMaxSuppressionV2 ? none : operand(4),
         v5 ? operand(5) : none, step.pointerTo(*selected),
         v5 ? step.pointerTo(*scores) : none,
         counts ? step.pointerTo(*valid) : none,
         step.stringPointer(loc, tfg::nodeLabel(node))},
        {boxes.getDimSize(0),
         cast<MemRefType>(selected->getType()).getDimSize(0)});
    return success();
  }
};

} // namespace

void populateWindowPatterns(CodegenPatterns &patterns) {
  patterns.add<ImagePattern>("Image");
  patterns.add<NonMaxSuppressionPattern>("NonMaxSuppression");
  patterns.add<Window3DPattern>("Window3D");
  patterns.add<WindowPattern>("Window");
  patterns.add<WindowGradientPattern>("WindowGradient");
}

} // namespace tfc
