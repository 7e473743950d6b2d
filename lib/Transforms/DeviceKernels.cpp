//===- DeviceKernels.cpp - which device types can run a node --------------===//
//
// Placement's feasibility test (white paper §3.2.1: "a given operation may
// be implemented on some devices and not others"). tfc compiles every
// registered op for CPU. For GPU the table below lists the op types that
// TensorFlow 2.21 registers GPU kernels for among those tfc compiles; the
// GPU code generation of a later issue implements exactly this set, so a
// placement made now stays valid then. String tensors never live on a GPU.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/Placement.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;

namespace tfc {
namespace {

const llvm::StringSet<> &gpuOps() {
  static const llvm::StringSet<> ops = {
      // Graph plumbing.
      "_Arg", "_Retval", "_Send", "_Recv", "Const", "Identity", "IdentityN",
      "NoOp", "StopGradient", "PreventGradient", "Snapshot",
      // Variables and their updates.
      "VarHandleOp", "ReadVariableOp", "AssignVariableOp",
      "AssignAddVariableOp", "AssignSubVariableOp", "VariableV2", "Variable",
      "Assign", "AssignAdd", "AssignSub", "ApplyGradientDescent",
      "ResourceApplyGradientDescent", "ApplyMomentum", "ResourceApplyMomentum",
      "ApplyAdagrad", "ResourceApplyAdagrad", "ApplyRMSProp",
      "ResourceApplyRMSProp", "ApplyAdam", "ResourceApplyAdam",
      // Elementwise math.
      "Abs", "Add", "AddV2", "AddN", "BiasAdd", "BiasAddGrad", "Cast",
      "Ceil", "Cos", "Div", "DivNoNan", "Elu", "Equal", "Erf", "Exp",
      "Expm1", "Floor", "FloorDiv", "FloorMod", "Greater", "GreaterEqual",
      "IsFinite", "IsInf", "IsNan", "LeakyRelu", "Less", "LessEqual", "Log",
      "Log1p", "LogicalAnd", "LogicalNot", "LogicalOr", "Maximum", "Minimum",
      "Mul", "Neg", "NotEqual", "Pow", "RealDiv", "Reciprocal", "Relu",
      "Relu6", "ReluGrad", "Relu6Grad", "Round", "Rsqrt", "Select",
      "SelectV2", "Selu", "Sigmoid", "SigmoidGrad", "Sign", "Sin", "Softplus",
      "Softsign", "Sqrt", "Square", "SquaredDifference", "Sub", "Tan", "Tanh",
      "TanhGrad", "ClipByValue", "OnesLike", "ZerosLike", "Fill",
      // Contractions, convolutions, pooling, normalization.
      "MatMul", "BatchMatMul", "BatchMatMulV2", "BatchMatMulV3", "Einsum",
      "Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter",
      "DepthwiseConv2dNative", "MaxPool", "AvgPool", "MaxPoolGrad",
      "AvgPoolGrad", "DepthwiseConv2dNativeBackpropInput",
      "DepthwiseConv2dNativeBackpropFilter", "FusedBatchNorm",
      "FusedBatchNormV2", "FusedBatchNormV3", "FusedBatchNormGrad",
      "FusedBatchNormGradV2", "FusedBatchNormGradV3", "Softmax",
      "LogSoftmax", "SoftmaxCrossEntropyWithLogits",
      "SparseSoftmaxCrossEntropyWithLogits",
      // Reductions and scans.
      "Sum", "Mean", "Max", "Min", "Prod", "All", "Any", "ArgMax", "ArgMin",
      "Cumsum", "Cumprod", "TopKV2",
      // Data movement.
      "Reshape", "Squeeze", "ExpandDims", "Transpose", "ConcatV2", "Pack",
      "Unpack", "Split", "SplitV", "Slice", "StridedSlice", "Pad", "PadV2",
      "MirrorPad", "Tile", "GatherV2", "ResourceGather", "OneHot", "Reverse",
      "ReverseV2", "Range", "Shape", "Size", "Rank", "BroadcastTo",
      "ResizeBilinear", "ResizeNearestNeighbor",
  };
  return ops;
}

bool hasStringTensor(Operation *node) {
  auto isString = [](Type type) {
    auto tensor = dyn_cast<TensorType>(type);
    return tensor && isa<tfg::StringType>(tensor.getElementType());
  };
  return llvm::any_of(node->getOperandTypes(), isString) ||
         llvm::any_of(node->getResultTypes(), isString);
}

} // namespace

bool hasKernel(StringRef deviceType, Operation *node) {
  if (deviceType == "CPU")
    return true;
  if (deviceType == "GPU")
    return gpuOps().contains(tfg::getOpType(node)) && !hasStringTensor(node);
  return false;
}

} // namespace tfc
