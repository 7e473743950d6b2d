//===- OpTable.td - every op tfc handles, one declaration each -*- tablegen -*-===//
//
// One declaration per TensorFlow op type: its family, its lowering, the
// device types with a kernel, its shape and cost functions, whether it
// folds (the vocabulary is in OpTableBase.td). An op type that is not
// declared here, or is declared NotLowered, is refused by
// tfc-verify-supported with every node that uses it.
//
// To add an op: declare it in its family's section, give it a lowering
// (docs/AddingAnOp.md), and test it against TensorFlow in test/ops.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TRANSFORMS_OPTABLE_TD
#define TFC_TRANSFORMS_OPTABLE_TD

include "tfc/Transforms/OpTableBase.td"

//===----------------------------------------------------------------------===//
// Graph structure
//===----------------------------------------------------------------------===//

let devices = [CPU, GPU] in {
  let cost = "zero" in {
    def : TfcOp<"_Arg", Structure, NoCode>;
    def : TfcOp<"NoOp", Structure, NoCode>;
    def : TfcOp<"Const", Structure, NoCode> { let shape = "constOp"; }
    def : AliasOp<"Identity", "identity">;
    def : AliasOp<"IdentityN", "">;
    def : AliasOp<"StopGradient", "identity">;
  }
  def : TfcOp<"_Retval", Structure, Pattern<"Retval">>;
  def : AliasOp<"PreventGradient", "identity">;
  def : AliasOp<"Snapshot", "identity">;
}
// A fed placeholder becomes an _Arg; one that is not fed is an error.
def : TfcOp<"Placeholder", Structure, RewrittenBy<"tfc-prune">> {
  let shape = "fromShapeAttr";
}
def : TfcOp<"PlaceholderV2", Structure, RewrittenBy<"tfc-prune">>;
// Fed, it becomes an _Arg (tfc-prune); otherwise it is its default.
def : AliasOp<"PlaceholderWithDefault">;
def : AliasOp<"EnsureShape", "">;
def : KnownOp<"RefIdentity", "sameAsInput0", Structure> {
  let refFormOf = "Identity";
}
def : KnownOp<"CheckNumerics", "sameAsInput0", Structure>;

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

let devices = [CPU, GPU] in {
  def : BinaryOp<"Add">;
  def : BinaryOp<"AddV2">;
  def : BinaryOp<"Sub">;
  def : BinaryOp<"Mul">;
  def : BinaryOp<"RealDiv">;
  def : BinaryOp<"Div">;
  def : BinaryOp<"DivNoNan">;
  def : BinaryOp<"FloorDiv">;
  def : BinaryOp<"FloorMod">;
  def : BinaryOp<"Maximum">;
  def : BinaryOp<"Minimum">;
  def : BinaryOp<"Pow">;
  def : BinaryOp<"SquaredDifference">;
  def : BinaryOp<"Equal">;
  def : BinaryOp<"NotEqual">;
  def : BinaryOp<"Less">;
  def : BinaryOp<"LessEqual">;
  def : BinaryOp<"Greater">;
  def : BinaryOp<"GreaterEqual">;
  def : BinaryOp<"LogicalAnd">;
  def : BinaryOp<"LogicalOr">;
  def : ElementwiseOp<"LogicalNot">;
  def : ElementwiseOp<"Neg">;
  def : ElementwiseOp<"Abs">;
  def : ElementwiseOp<"Square">;
  def : MathUnaryOp<"Sqrt", "SqrtOp">;
  def : MathUnaryOp<"Rsqrt", "RsqrtOp">;
  def : ElementwiseOp<"Exp">;
  def : ElementwiseOp<"Expm1">;
  def : MathUnaryOp<"Log", "LogOp">;
  def : ElementwiseOp<"Log1p">;
  def : MathUnaryOp<"Sin", "SinOp">;
  def : MathUnaryOp<"Cos", "CosOp">;
  def : MathUnaryOp<"Tanh", "TanhOp">;
  def : ElementwiseOp<"Sigmoid">;
  def : MathUnaryOp<"Erf", "ErfOp">;
  def : ElementwiseOp<"Relu">;
  def : ElementwiseOp<"Relu6">;
  def : ElementwiseOp<"Elu">;
  def : ElementwiseOp<"Selu">;
  def : ElementwiseOp<"LeakyRelu">;
  def : ElementwiseOp<"Softplus">;
  def : ElementwiseOp<"Softsign">;
  def : ElementwiseOp<"Floor">;
  def : ElementwiseOp<"Ceil">;
  def : ElementwiseOp<"Round">;
  def : ElementwiseOp<"Sign">;
  def : ElementwiseOp<"Reciprocal">;
  def : ElementwiseOp<"IsNan">;
  def : ElementwiseOp<"IsInf">;
  def : ElementwiseOp<"IsFinite">;
  def : ElementwiseOp<"ZerosLike">;
  def : ElementwiseOp<"OnesLike">;
  def : ElementwiseOp<"ClipByValue">;
  def : ElementwiseOp<"BiasAdd">;
  def : ElementwiseOp<"Cast", "castOp">;
  def : ElementwiseOp<"AddN", "sameAsAllInputs">;
  def : ElementwiseOp<"Select", "select">;
  def : ElementwiseOp<"SelectV2", "selectV2">;
  // Gradients of the activations, elementwise in (gradient, value).
  def : ElementwiseOp<"ReluGrad">;
  def : ElementwiseOp<"Relu6Grad">;
  def : ElementwiseOp<"SigmoidGrad">;
  def : ElementwiseOp<"TanhGrad">;
}
def : BinaryOp<"MulNoNan">;
def : BinaryOp<"TruncateDiv">;
def : BinaryOp<"TruncateMod">;
def : BinaryOp<"Mod">;
def : ElementwiseOp<"Erfc">;
def : ElementwiseOp<"Rint">;
def : ElementwiseOp<"Inv">;
def : ElementwiseOp<"RsqrtGrad">;
def : ElementwiseOp<"SqrtGrad">;
def : ElementwiseOp<"ReciprocalGrad">;
def : ElementwiseOp<"InvGrad">;
def : ElementwiseOp<"EluGrad">;
def : ElementwiseOp<"SeluGrad">;
def : ElementwiseOp<"LeakyReluGrad">;
def : ElementwiseOp<"SoftplusGrad">;
def : ElementwiseOp<"SoftsignGrad">;

let devices = [CPU, GPU] in
  def : MathUnaryOp<"Tan", "TanOp">;
def : MathUnaryOp<"Asin", "AsinOp">;
def : MathUnaryOp<"Acos", "AcosOp">;
def : MathUnaryOp<"Atan", "AtanOp">;
def : MathUnaryOp<"Sinh", "SinhOp">;
def : MathUnaryOp<"Cosh", "CoshOp">;
def : MathUnaryOp<"Asinh", "AsinhOp">;
def : MathUnaryOp<"Acosh", "AcoshOp">;
def : MathUnaryOp<"Atanh", "AtanhOp">;
foreach type = ["Erfinv", "Lgamma", "Digamma", "Invert", "BiasAddV1"] in
  def : KnownOp<type, "sameAsInput0", Elementwise>;
foreach type = ["Atan2", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift",
                "RightShift", "Xdivy", "Xlogy", "Xlog1py", "ApproximateEqual"] in
  def : KnownOp<type, "broadcastBinary", Elementwise>;
def : KnownOp<"AccumulateNV2", "sameAsAllInputs", Elementwise>;

//===----------------------------------------------------------------------===//
// Contractions, windows, normalization
//===----------------------------------------------------------------------===//

let devices = [CPU, GPU] in {
  def : TfcOp<"MatMul", Contraction, Pattern<"MatMul">> {
    let shape = "matMul";
    let cost = "matMul";
  }
  foreach type = ["BatchMatMul", "BatchMatMulV2", "BatchMatMulV3"] in
    def : TfcOp<type, Contraction, Pattern<"BatchMatMul">> {
      let shape = "batchMatMul";
      let cost = "batchMatMul";
    }
  def : TfcOp<"Einsum", Contraction, Pattern<"Einsum">> { let shape = "einsum"; }

  def : TfcOp<"Conv2D", Window, Pattern<"Window">> {
    let shape = "conv2D";
    let cost = "convolution";
  }
  def : TfcOp<"DepthwiseConv2dNative", Window, Pattern<"Window">> {
    let shape = "depthwiseConv2D";
    let cost = "convolution";
  }
  foreach type = ["MaxPool", "AvgPool"] in
    def : TfcOp<type, Window, Pattern<"Window">> {
      let shape = "pool2D";
      let cost = "pooling";
    }

  // The output shape is an input's value (input_sizes, orig_input_shape,
  // filter_sizes).
  foreach type = ["Conv2DBackpropInput", "DepthwiseConv2dNativeBackpropInput",
                  "AvgPoolGrad"] in
    def : TfcOp<type, WindowGradient, Pattern<"WindowGradient">> {
      let shape = "shapeInInput0";
    }
  foreach type = ["Conv2DBackpropFilter", "DepthwiseConv2dNativeBackpropFilter"] in
    def : TfcOp<type, WindowGradient, Pattern<"WindowGradient">> {
      let shape = "shapeInInput1";
    }
  def : TfcOp<"MaxPoolGrad", WindowGradient, Pattern<"WindowGradient">> {
    let shape = "sameAsInput0";
  }

  // Inference batch norms are arithmetic (tfc-decompose-batch-norm); what
  // reaches code generation trains.
  foreach type = ["FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3"] in
    def : TfcOp<type, BatchNorm, Pattern<"BatchNorm">> {
      let shape = "fusedBatchNorm";
    }
  foreach type = ["FusedBatchNormGrad", "FusedBatchNormGradV2",
                  "FusedBatchNormGradV3"] in
    def : TfcOp<type, BatchNorm, Pattern<"BatchNorm">> {
      let shape = "fusedBatchNormGrad";
    }

  def : TfcOp<"Softmax", Normalization, Pattern<"Softmax">> {
    let shape = "sameAsInput0";
  }
  def : TfcOp<"LogSoftmax", Normalization, Pattern<"LogSoftmax">> {
    let shape = "sameAsInput0";
  }
  foreach type = ["SoftmaxCrossEntropyWithLogits",
                  "SparseSoftmaxCrossEntropyWithLogits"] in
    def : TfcOp<type, Normalization, Pattern<"CrossEntropy">> {
      let shape = "softmaxCrossEntropy";
    }
  def : TfcOp<"LRN", Normalization, Pattern<"LocalResponseNorm">> {
    let shape = "sameAsInput0";
  }
}

//===----------------------------------------------------------------------===//
// Reductions, scans, segments
//===----------------------------------------------------------------------===//

let devices = [CPU, GPU] in {
  foreach type = ["Sum", "Mean", "Max", "Min", "Prod", "All", "Any"] in
    def : TfcOp<type, Reduction, Pattern<"Reduction">> {
      let shape = "reduction";
    }
  def : TfcOp<"BiasAddGrad", Reduction, Pattern<"Reduction">> {
    let shape = "biasAddGrad";
  }
  foreach type = ["ArgMax", "ArgMin"] in
    def : TfcOp<type, Reduction, Pattern<"AxisKernel">> {
      let shape = "argMinMax";
    }
  foreach type = ["Cumsum", "Cumprod"] in
    def : TfcOp<type, Reduction, Pattern<"AxisKernel">> {
      let shape = "sameAsInput0";
    }
  def : TfcOp<"TopKV2", Reduction, Pattern<"TopK">> { let shape = "topK"; }
}
def : TfcOp<"UnsortedSegmentSum", Reduction, Pattern<"SegmentSum">> {
  let shape = "unsortedSegmentSum";
}
// Its output's length is bounded by tfc-bound-unique.
def : TfcOp<"Unique", Reduction, Pattern<"Unique">> { let shape = "unique"; }
def : KnownOp<"EuclideanNorm", "reduction", Reduction>;
def : KnownOp<"L2Loss", "scalarOutput", Reduction>;

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

let devices = [CPU, GPU] in {
  let cost = "zero" in {
    def : AliasOp<"Reshape", "reshape", DataMovement>;
    def : AliasOp<"Squeeze", "squeeze", DataMovement>;
    def : AliasOp<"ExpandDims", "expandDims", DataMovement>;
  }
  defvar moves = [
    ["Transpose", "transpose"], ["ConcatV2", "concatV2"], ["Pack", "pack"],
    ["Unpack", "unpack"], ["Split", "splitOp"], ["SplitV", "splitVOp"],
    ["Slice", "slice"], ["StridedSlice", "stridedSlice"], ["Pad", "pad"],
    ["PadV2", "pad"], ["MirrorPad", "pad"], ["Tile", "tile"],
    ["GatherV2", "gatherV2"], ["OneHot", "oneHot"], ["Range", "range"],
    ["BroadcastTo", "broadcastTo"], ["Fill", "fill"],
    ["ResizeBilinear", "resize"], ["ResizeNearestNeighbor", "resize"]];
  foreach move = moves in
    def : TfcOp<move[0], DataMovement, Pattern<"DataMovement">> {
      let shape = move[1];
    }
}
def : TfcOp<"StridedSliceGrad", DataMovement, Pattern<"DataMovement">> {
  let shape = "stridedSliceGrad";
}
def : TfcOp<"TensorScatterUpdate", DataMovement,
            Pattern<"TensorScatterUpdate">> {
  let shape = "sameAsInput0";
}
def : KnownOp<"Gather", "gatherV2", DataMovement>;
def : TfcOp<"GatherNd", DataMovement, NotLowered>;

//===----------------------------------------------------------------------===//
// Shapes: values known at compile time, folded into constants
//===----------------------------------------------------------------------===//

let devices = [CPU, GPU], cost = "zero" in {
  def : TfcOp<"Shape", ShapeOf, RewrittenBy<"tfc-fold-constants">> {
    let shape = "shapeOp";
  }
  def : TfcOp<"Size", ShapeOf, RewrittenBy<"tfc-fold-constants">> {
    let shape = "sizeOp";
  }
  def : TfcOp<"Rank", ShapeOf, RewrittenBy<"tfc-fold-constants">> {
    let shape = "rankOp";
  }
}
def : TfcOp<"ShapeN", ShapeOf, RewrittenBy<"tfc-fold-constants">> {
  let shape = "shapeOp";
}
def : TfcOp<"BroadcastGradientArgs", ShapeOf,
            RewrittenBy<"tfc-fold-constants">> {
  let shape = "broadcastGradientArgs";
}
// A variable's declared shape (tfc variables keep their shapes).
def : TfcOp<"VariableShape", ShapeOf, RewrittenBy<"tfc-fold-constants">> {
  let shape = "variableShape";
}

//===----------------------------------------------------------------------===//
// State: variables, updates, random generators
//===----------------------------------------------------------------------===//

let devices = [CPU, GPU], cost = "zero" in {
  def : TfcOp<"VariableV2", State, NoCode> { let shape = "fromShapeAttr"; }
  def : TfcOp<"Variable", State, NoCode>;
  def : TfcOp<"VarHandleOp", State, NoCode> { let shape = "scalarOutput"; }
}
// TensorFlow's copy-on-read mode of a resource variable; tfc never copies a
// variable to read it, so there is nothing to turn off.
def : TfcOp<"DisableCopyOnRead", State, NoCode> { let cost = "zero"; }
let devices = [CPU, GPU] in {
  def : TfcOp<"ReadVariableOp", State, Pattern<"StateOp">> {
    let shape = "readVariable";
  }
  def : TfcOp<"ResourceGather", State, Pattern<"StateOp">> {
    let shape = "readVariable";
  }
}
foreach type = ["VarIsInitializedOp", "IsVariableInitialized"] in
  def : TfcOp<type, State, Pattern<"StateOp">>;

let writesVariable = 1 in {
  def : TfcOp<"DestroyResourceOp", State, Pattern<"StateOp">>;
  let devices = [CPU, GPU] in {
    foreach type = ["Assign", "AssignAdd", "AssignSub"] in
      def : TfcOp<type, State, Pattern<"StateOp">> {
        let shape = "sameAsInput0";
      }
    foreach type = ["AssignVariableOp", "AssignAddVariableOp",
                    "AssignSubVariableOp"] in
      def : TfcOp<type, State, Pattern<"StateOp">>;
    foreach type = ["GradientDescent", "Momentum", "Adagrad", "RMSProp",
                    "Adam"] in {
      def : TfcOp<"Apply" # type, State, Pattern<"StateOp">> {
        let shape = "applyOp";
      }
      def : TfcOp<"ResourceApply" # type, State, Pattern<"StateOp">>;
    }
  }
  foreach type = ["CenteredRMSProp", "Adadelta", "Ftrl", "FtrlV2"] in {
    def : TfcOp<"Apply" # type, State, Pattern<"StateOp">> {
      let shape = "applyOp";
    }
    def : TfcOp<"ResourceApply" # type, State, Pattern<"StateOp">>;
  }
  def : TfcOp<"ApplyAdagradV2", State, Pattern<"StateOp">>;
  def : TfcOp<"ResourceApplyAdagradV2", State, Pattern<"StateOp">>;
  foreach type = ["Momentum", "Adagrad", "AdagradV2", "RMSProp",
                  "CenteredRMSProp", "Adadelta", "Ftrl", "FtrlV2"] in {
    def : TfcOp<"SparseApply" # type, State, Pattern<"StateOp">> {
      let shape = "applyOp";
    }
    def : TfcOp<"ResourceSparseApply" # type, State, Pattern<"StateOp">>;
  }
  foreach type = ["Update", "Add", "Sub", "Mul", "Div"] in {
    def : TfcOp<"Scatter" # type, State, Pattern<"StateOp">> {
      let shape = "applyOp";
    }
    def : TfcOp<"ResourceScatter" # type, State, Pattern<"StateOp">>;
  }
  foreach type = ["ResourceScatterMin", "ResourceScatterMax"] in
    def : TfcOp<type, State, Pattern<"StateOp">>;
}
foreach type = ["RandomUniform", "RandomStandardNormal", "TruncatedNormal",
                "RandomUniformInt"] in
  def : TfcOp<type, State, Pattern<"StateOp">> {
    let shape = "shapeFromInput0Value";
  }
foreach type = ["StatelessRandomUniform", "StatelessRandomNormal",
                "StatelessTruncatedNormal", "StatelessRandomUniformInt",
                "StatelessRandomUniformV2", "StatelessRandomNormalV2",
                "StatelessTruncatedNormalV2", "StatelessRandomUniformIntV2",
                "Empty"] in
  def : KnownOp<type, "shapeFromInput0Value", State>;

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

// Both outputs of a Switch are its data input; which one is alive is
// decided at run time.
foreach type = ["Switch", "RefSwitch"] in
  def : AliasOp<type, "sameAsInput0", ControlFlow> {
    let aliasOperand = 0;
    let refFormOf = !if(!eq(type, "RefSwitch"), "Switch", "");
  }
foreach type = ["Enter", "Exit", "NextIteration"] in {
  def : AliasOp<type, "sameAsInput0", ControlFlow>;
  def : AliasOp<"Ref" # type, "sameAsInput0", ControlFlow> {
    let refFormOf = type;
  }
}
def : AliasOp<"LoopCond", "sameAsInput0", ControlFlow>;
def : TfcOp<"Merge", ControlFlow, Pattern<"Merge">> { let shape = "merge"; }
def : TfcOp<"RefMerge", ControlFlow, Pattern<"Merge">> {
  let shape = "merge";
  let refFormOf = "Merge";
}
def : TfcOp<"ControlTrigger", ControlFlow, NoCode>;

// Lowered as TensorFlow lowers them: calls inlined, While and If to frames.
foreach type = ["While", "StatelessWhile", "If", "StatelessIf"] in
  def : TfcOp<type, Functional, RewrittenBy<"tfc-inline">> {
    let shape = "fromOutputShapesAttr";
  }
foreach type = ["Case", "StatelessCase", "PartitionedCall",
                "StatefulPartitionedCall"] in
  def : TfcOp<type, Functional, RewrittenBy<"tfc-inline">>;

//===----------------------------------------------------------------------===//
// Transfers between partitions
//===----------------------------------------------------------------------===//

let devices = [CPU, GPU], cost = "zero" in
  foreach type = ["_Send", "_Recv"] in
    def : TfcOp<type, Transfer, Pattern<"Transfer">>;
foreach type = ["_HostSend", "_HostRecv"] in
  def : TfcOp<type, Transfer, NotLowered>;

//===----------------------------------------------------------------------===//
// Checkpoints and strings
//===----------------------------------------------------------------------===//

def : TfcOp<"SaveV2", Checkpoint, Pattern<"CheckpointOp">>;
def : TfcOp<"RestoreV2", Checkpoint, Pattern<"CheckpointOp">> {
  let shape = "restoreV2";
}
def : TfcOp<"MergeV2Checkpoints", Checkpoint, Pattern<"CheckpointOp">>;

def : TfcOp<"StringJoin", Strings, Pattern<"StringOp">> {
  let shape = "stringJoin";
}
def : TfcOp<"ShardedFilename", Strings, Pattern<"StringOp">> {
  let shape = "scalarOutput";
}
def : TfcOp<"StaticRegexFullMatch", Strings, Pattern<"StringOp">> {
  let shape = "sameAsInput0";
}

//===----------------------------------------------------------------------===//
// Stacks and TensorArrays (TF1 loop gradients), TensorLists (TF2)
//===----------------------------------------------------------------------===//

def : TfcOp<"StackV2", Stacks, Pattern<"StackOp">> { let shape = "scalarOutput"; }
def : TfcOp<"Stack", Stacks, Pattern<"StackOp">>;
// A push outputs the element it pushed.
def : TfcOp<"StackPushV2", Stacks, Pattern<"StackOp">> {
  let shape = "stackPush";
  let alias = 1;
  let aliasOperand = 1;
}
def : TfcOp<"StackPopV2", Stacks, Pattern<"StackOp">> { let shape = "stackPop"; }
def : TfcOp<"StackCloseV2", Stacks, Pattern<"StackOp">>;

foreach type = ["TensorArrayV3", "TensorArrayGradV3", "TensorArrayWriteV3",
                "TensorArrayScatterV3", "TensorArraySplitV3",
                "TensorArraySizeV3"] in
  def : TfcOp<type, TensorArrays, Pattern<"TensorArrayOp">> {
    let shape = "scalarOutput";
  }
foreach type = ["TensorArrayReadV3", "TensorArrayGatherV3",
                "TensorArrayConcatV3"] in
  def : TfcOp<type, TensorArrays, Pattern<"TensorArrayOp">> {
    let shape = "tensorArrayRead";
  }
def : TfcOp<"TensorArrayCloseV3", TensorArrays, Pattern<"TensorArrayOp">>;

foreach type = ["EmptyTensorList", "TensorListReserve", "TensorListFromTensor",
                "TensorListSetItem", "TensorListPushBack", "TensorListScatter",
                "TensorListScatterV2"] in
  def : TfcOp<type, TensorLists, RewrittenBy<"tfc-lower-tensor-lists">> {
    let shape = "tensorListHandle";
  }
def : TfcOp<"TensorListStack", TensorLists,
            RewrittenBy<"tfc-lower-tensor-lists">> {
  let shape = "tensorListStack";
}
def : TfcOp<"TensorListGetItem", TensorLists,
            RewrittenBy<"tfc-lower-tensor-lists">> {
  let shape = "tensorListGetItem";
}
foreach type = ["TensorListConcat", "TensorListConcatV2",
                "TensorListElementShape", "TensorListGather",
                "TensorListLength", "TensorListPopBack",
                "TensorListScatterIntoExistingList", "TensorListSplit"] in
  def : TfcOp<type, TensorLists, RewrittenBy<"tfc-lower-tensor-lists">>;
def : KnownOp<"TensorListResize", "tensorListHandle", TensorLists>;
foreach type = ["OptionalFromValue", "OptionalGetValue", "OptionalNone"] in
  def : TfcOp<type, TensorLists, RewrittenBy<"tfc-lower-optionals">>;
// Only Optionals whose branch is known at compile time are lowered.
def : TfcOp<"OptionalHasValue", TensorLists, NotLowered>;

#endif // TFC_TRANSFORMS_OPTABLE_TD
