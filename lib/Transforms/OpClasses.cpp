//===- OpClasses.cpp - the kinds of op code generation knows --------------===//

#include "tfc/Transforms/OpClasses.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace tfc {

bool isElementwise(Operation *node) {
  if (!tfg::isNode(node) || tfg::getDataResults(node).size() != 1)
    return false;
  return llvm::StringSwitch<bool>(tfg::getOpType(node))
      .Cases("Add", "AddV2", "Sub", "Mul", "RealDiv", "Div", "FloorDiv",
             "FloorMod", "Maximum", "Minimum", true)
      .Cases("Pow", "SquaredDifference", "Neg", "Abs", "Square", "Sqrt",
             "Rsqrt", "Exp", "Log", "Log1p", true)
      .Cases("Tanh", "Sigmoid", "Erf", "Erfc", "Relu", "Relu6", "Elu", "Selu",
             "LeakyRelu", "Softplus", true)
      .Cases("Softsign", "Floor", "Ceil", "Round", "Sign", "Reciprocal",
             "Cast", "BiasAdd", "Equal", "NotEqual", true)
      .Cases("Less", "LessEqual", "Greater", "GreaterEqual", "LogicalAnd",
             "LogicalOr", "LogicalNot", "Select", "SelectV2", true)
      .Cases("AddN", "ClipByValue", "ZerosLike", "OnesLike", "IsNan", "IsInf",
             "IsFinite", "Expm1", "Sin", "Cos", true)
      .Cases("TruncateDiv", "TruncateMod", "Mod", "DivNoNan", "MulNoNan",
             "Rint", "Inv", true)
      // Gradients of the activations, elementwise in (value, gradient).
      .Cases("TanhGrad", "SigmoidGrad", "RsqrtGrad", "SqrtGrad",
             "ReciprocalGrad", "InvGrad", true)
      .Cases("ReluGrad", "Relu6Grad", "EluGrad", "SeluGrad", "LeakyReluGrad",
             "SoftplusGrad", "SoftsignGrad", true)
      .Default(false);
}

bool isAlias(Operation *node) {
  if (!tfg::isNode(node))
    return false;
  return llvm::StringSwitch<bool>(tfg::getOpType(node))
      .Cases("Identity", "IdentityN", "StopGradient", "PreventGradient",
             "Snapshot", "Reshape", "Squeeze", "ExpandDims", true)
      .Cases("PlaceholderWithDefault", "EnsureShape", true)
      // Both outputs are the data input; which one is alive is decided at
      // run time (see ConvertTfgToMemref.cpp).
      .Cases("Switch", "RefSwitch", true)
      // TF1 loops: values passed into, around and out of a frame.
      .Cases("Enter", "RefEnter", "Exit", "RefExit", true)
      .Cases("NextIteration", "RefNextIteration", "LoopCond", true)
      // A push to a stack outputs the element it pushed.
      .Case("StackPushV2", true)
      .Default(false);
}

bool isControlFlow(Operation *node) {
  if (!tfg::isNode(node))
    return false;
  return llvm::StringSwitch<bool>(tfg::getOpType(node))
      .Cases("Switch", "RefSwitch", "Merge", "RefMerge", "Enter", "RefEnter",
             true)
      .Cases("Exit", "RefExit", "NextIteration", "RefNextIteration",
             "LoopCond", "ControlTrigger", true)
      .Default(false);
}

Value aliasedInput(Operation *node, unsigned port) {
  StringRef type = tfg::getOpType(node);
  if (type == "StackPushV2")
    return tfg::getDataOperands(node)[1];
  return tfg::getDataOperands(node)[type == "Switch" || type == "RefSwitch"
                                        ? 0
                                        : port];
}

bool isDataMovement(Operation *node) {
  if (!tfg::isNode(node))
    return false;
  return llvm::StringSwitch<bool>(tfg::getOpType(node))
      .Cases("Transpose", "Slice", "StridedSlice", "StridedSliceGrad", "Tile",
             "BroadcastTo", "ConcatV2", "Pack", "Unpack", true)
      .Cases("Split", "SplitV", true)
      .Cases("Pad", "PadV2", "MirrorPad", "GatherV2", "OneHot", "Fill",
             "Range", "ResizeBilinear", "ResizeNearestNeighbor", true)
      .Default(false);
}

bool isWindowGradient(Operation *node) {
  if (!tfg::isNode(node))
    return false;
  return llvm::StringSwitch<bool>(tfg::getOpType(node))
      .Cases("Conv2DBackpropInput", "Conv2DBackpropFilter",
             "DepthwiseConv2dNativeBackpropInput",
             "DepthwiseConv2dNativeBackpropFilter", true)
      .Cases("MaxPoolGrad", "AvgPoolGrad", true)
      .Default(false);
}

bool isBatchNorm(Operation *node) {
  if (!tfg::isNode(node))
    return false;
  return llvm::StringSwitch<bool>(tfg::getOpType(node))
      .Cases("FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3", true)
      .Cases("FusedBatchNormGrad", "FusedBatchNormGradV2",
             "FusedBatchNormGradV3", true)
      .Default(false);
}

bool hasCodeGeneration(Operation *node) {
  if (isElementwise(node) || isAlias(node) || isDataMovement(node) ||
      isWindowGradient(node) || isBatchNorm(node))
    return true;
  if (!tfg::isNode(node))
    return false;
  return llvm::StringSwitch<bool>(tfg::getOpType(node))
      .Cases("_Arg", "_Retval", "Const", "NoOp", "ControlTrigger", true)
      .Cases("MatMul", "BatchMatMul", "BatchMatMulV2", "BatchMatMulV3",
             "Einsum", true)
      .Cases("Conv2D", "DepthwiseConv2dNative", "MaxPool", "AvgPool", true)
      .Cases("Sum", "Mean", "Max", "Min", "Prod", "All", "Any", true)
      .Cases("BiasAddGrad", "SoftmaxCrossEntropyWithLogits",
             "SparseSoftmaxCrossEntropyWithLogits", true)
      .Cases("ArgMax", "ArgMin", "Cumsum", "Cumprod", "TopKV2", "Softmax",
             "LogSoftmax", true)
      .Cases("UnsortedSegmentSum", "Unique", true)
      .Cases("SaveV2", "RestoreV2", "MergeV2Checkpoints", true)
      .Cases("Merge", "RefMerge", "TensorScatterUpdate", true)
      .Cases("StringJoin", "ShardedFilename", "StaticRegexFullMatch", true)
      .Default(false);
}

} // namespace tfc
