//===- OpTable.td - every op tfc handles, one declaration each -*- tablegen -*-===//
//
// One declaration per TensorFlow op type: its family, its lowering, the
// device types with a kernel, its shape and cost functions, whether it
// folds (the vocabulary is in OpTableBase.td). An op type that is not
// declared here, or is declared NotLowered, is refused by
// tfc-verify-supported with every node that uses it.
//
// To add an op: declare it in its family's section, give it a lowering
// (docs/AddingAnOp.md), say what the lowering does with each attribute
// (`attrs`), and test it against TensorFlow in test/ops, every handled
// attribute with a value other than its default.
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
    def : TfcOp<"_Arg", Structure, NoCode> { let attrs = ["index"]; }
    def : TfcOp<"NoOp", Structure, NoCode>;
    def : TfcOp<"Const", Structure, NoCode> {
      let shape = "constOp";
      let attrs = ["value"];
    }
    def : AliasOp<"Identity", "identity">;
    def : AliasOp<"IdentityN", "identityN">;
    def : AliasOp<"StopGradient", "identity">;
  }
  def : TfcOp<"_Retval", Structure, Pattern<"Retval">> { let attrs = ["index"]; }
  // Its message is for the gradient that TensorFlow refuses to build.
  def : AliasOp<"PreventGradient", "identity"> { let attrs = ["message:ignored"]; }
  def : AliasOp<"Snapshot", "identity">;
}
// A fed placeholder becomes an _Arg; one that is not fed is an error.
def : TfcOp<"Placeholder", Structure, RewrittenBy<"tfc-prune">> {
  let shape = "fromShapeAttr";
  let attrs = ["shape"];
}
def : TfcOp<"PlaceholderV2", Structure, RewrittenBy<"tfc-prune">> {
  let attrs = ["shape"];
}
// Fed, it becomes an _Arg (tfc-prune); otherwise it is its default.
def : AliasOp<"PlaceholderWithDefault"> { let attrs = ["shape"]; }
// Its input's shape must be compatible with `shape`: checked at compile
// time, where TensorFlow checks it at run time.
def : AliasOp<"EnsureShape", "ensureShape"> { let attrs = ["shape"]; }
def : KnownOp<"RefIdentity", "sameAsInput0", Structure> {
  let refFormOf = "Identity";
}

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
  // (incompatible_shape_error=false, a scalar answer for shapes that do
  // not broadcast, is not handled.)
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
  def : ElementwiseOp<"LeakyRelu"> { let attrs = ["alpha"]; }
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
  def : ElementwiseOp<"BiasAdd"> { let attrs = ["data_format=NHWC|NCHW"]; }
  // Truncate=true is handled from float32 to bfloat16; emitScalar refuses
  // it on the other casts that narrow a float.
  def : ElementwiseOp<"Cast", "castOp"> { let attrs = ["Truncate"]; }
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
def : ElementwiseOp<"LeakyReluGrad"> { let attrs = ["alpha"]; }
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
def : BinaryOp<"Atan2"> { let floatBody = "call(\"atan2\", in)"; }
def : BinaryOp<"NextAfter"> { let floatBody = "call(\"nextafter\", in)"; }
// 0 where x is 0, whatever y (NaN and infinities included).
def : BinaryOp<"Xdivy">;
def : BinaryOp<"Xlogy">;
def : BinaryOp<"Xlog1py">;
def : BinaryOp<"ApproximateEqual"> { let attrs = ["tolerance"]; }
// The bias of the first BiasAdd runs along the last dimension.
def : ElementwiseOp<"BiasAddV1">;
// AddN whose inputs may be computed in any order: here, AddN.
def : ElementwiseOp<"AccumulateNV2", "sameAsAllInputs"> {
  let attrs = ["shape:ignored"];
}
// Integers only (the registry's types say so).
foreach type = ["BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift",
                "RightShift"] in
  def : BinaryOp<type>;
def : ElementwiseOp<"Invert">;
// The bucket of each element: a comparison per boundary.
def : ElementwiseOp<"Bucketize"> { let attrs = ["boundaries"]; }
def : ElementwiseOp<"PopulationCount">;

// Complex numbers (complex64, complex128), from real parts and back; the
// arithmetic ops above take them too (emitComplexScalar).
def : BinaryOp<"Complex">;
foreach type = ["Real", "Imag", "ComplexAbs", "Conj", "Angle"] in
  def : ElementwiseOp<type>;

// Special functions: the runtime's (runtime/kernels/cpu/SpecialFunctions.cpp),
// which call Eigen's, as TensorFlow's kernels do.
class SpecialFunctionOp<string type, string function,
                        string shapeFunction = "sameAsInput0">
    : ElementwiseOp<type, shapeFunction> {
  let floatBody = "call(\"tfc_" # function # "\", in)";
}
def : SpecialFunctionOp<"Lgamma", "lgamma">;
def : SpecialFunctionOp<"Digamma", "digamma">;
def : SpecialFunctionOp<"Erfinv", "erfinv">;
def : SpecialFunctionOp<"Ndtri", "ndtri">;
foreach kind = ["I0", "I0e", "I1", "I1e", "J0", "J1", "K0", "K0e", "K1", "K1e",
                "Y0", "Y1"] in
  def : SpecialFunctionOp<"Bessel" # kind, "bessel_" # !tolower(kind)>;
def : SpecialFunctionOp<"Igamma", "igamma", "broadcastBinary">;
def : SpecialFunctionOp<"Igammac", "igammac", "broadcastBinary">;
def : SpecialFunctionOp<"IgammaGradA", "igamma_der_a", "broadcastBinary">;
def : SpecialFunctionOp<"RandomGammaGrad", "gamma_sample_der_alpha",
                        "broadcastBinary">;
def : SpecialFunctionOp<"Zeta", "zeta", "broadcastBinary">;
def : SpecialFunctionOp<"Polygamma", "polygamma", "broadcastBinary">;
def : SpecialFunctionOp<"Betainc", "betainc", "broadcastAll">;

//===----------------------------------------------------------------------===//
// Contractions, windows, normalization
//===----------------------------------------------------------------------===//

let devices = [CPU, GPU] in {
  // grad_a/grad_b (grad_x/grad_y) only say that a product is a gradient.
  def : TfcOp<"MatMul", Contraction, Pattern<"MatMul">> {
    let shape = "matMul";
    let cost = "matMul";
    let attrs = ["transpose_a", "transpose_b", "grad_a:ignored", "grad_b:ignored"];
  }
  foreach type = ["BatchMatMul", "BatchMatMulV2", "BatchMatMulV3"] in
    def : TfcOp<type, Contraction, Pattern<"BatchMatMul">> {
      let shape = "batchMatMul";
      let cost = "batchMatMul";
      let attrs = ["adj_x", "adj_y", "grad_x:ignored", "grad_y:ignored"];
    }
  def : TfcOp<"Einsum", Contraction, Pattern<"Einsum">> {
    let shape = "einsum";
    let attrs = ["equation"];
  }

  // use_cudnn_on_gpu chooses a GPU library. NCHW is not handled, nor
  // depthwise EXPLICIT padding, nor dilated depthwise convolutions and
  // gradients (TensorFlow's CPU kernels have none to check them against).
  def : TfcOp<"Conv2D", Window, Pattern<"Window">> {
    let shape = "conv2D";
    let cost = "convolution";
    let attrs = ["strides", "padding=SAME|VALID|EXPLICIT", "explicit_paddings",
                 "data_format=NHWC", "dilations", "use_cudnn_on_gpu:ignored"];
  }
  def : TfcOp<"DepthwiseConv2dNative", Window, Pattern<"Window">> {
    let shape = "depthwiseConv2D";
    let cost = "convolution";
    let attrs = ["strides", "padding=SAME|VALID", "data_format=NHWC"];
  }
  foreach type = ["MaxPool", "AvgPool"] in
    def : TfcOp<type, Window, Pattern<"Window">> {
      let shape = "pool2D";
      let cost = "pooling";
      let attrs = ["ksize", "strides", "padding=SAME|VALID", "data_format=NHWC"];
    }

  // The output shape is an input's value (input_sizes, orig_input_shape,
  // filter_sizes).
  foreach type = ["Conv2DBackpropInput", "Conv2DBackpropFilter"] in
    def : TfcOp<type, WindowGradient, Pattern<"WindowGradient">> {
      let shape = !if(!eq(type, "Conv2DBackpropInput"), "shapeInInput0",
                      "shapeInInput1");
      let attrs = ["strides", "padding=SAME|VALID|EXPLICIT", "explicit_paddings",
                   "data_format=NHWC", "use_cudnn_on_gpu:ignored"];
    }
  foreach type = ["DepthwiseConv2dNativeBackpropInput",
                  "DepthwiseConv2dNativeBackpropFilter"] in
    def : TfcOp<type, WindowGradient, Pattern<"WindowGradient">> {
      let shape = !if(!eq(type, "DepthwiseConv2dNativeBackpropInput"),
                      "shapeInInput0", "shapeInInput1");
      let attrs = ["strides", "padding=SAME|VALID", "data_format=NHWC"];
    }
  foreach type = ["AvgPoolGrad", "MaxPoolGrad"] in
    def : TfcOp<type, WindowGradient, Pattern<"WindowGradient">> {
      let shape = !if(!eq(type, "AvgPoolGrad"), "shapeInInput0", "sameAsInput0");
      let attrs = ["ksize", "strides", "padding=SAME|VALID", "data_format=NHWC"];
    }

  // Inference batch norms are arithmetic (tfc-decompose-batch-norm), in
  // either layout; what reaches code generation trains, on NHWC (the
  // pattern refuses NCHW, naming the node).
  foreach type = ["FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3"] in
    def : TfcOp<type, BatchNorm, Pattern<"BatchNorm">> {
      let shape = "fusedBatchNorm";
      let attrs = ["epsilon", "exponential_avg_factor", "data_format=NHWC|NCHW",
                   "is_training"];
    }
  foreach type = ["FusedBatchNormGrad", "FusedBatchNormGradV2",
                  "FusedBatchNormGradV3"] in
    def : TfcOp<type, BatchNorm, Pattern<"BatchNorm">> {
      let shape = "fusedBatchNormGrad";
      let attrs = ["epsilon", "data_format=NHWC", "is_training"];
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
    let attrs = ["depth_radius", "bias", "alpha", "beta"];
  }
}

// Grayscale dilation: a max-plus window (Images.cpp).
def : TfcOp<"Dilation2D", Window, Pattern<"Image">> {
  let shape = "dilation2D";
  let attrs = ["strides", "rates", "padding=SAME|VALID"];
}

// 3-D windows on NDHWC float32, through oneDNN (Window3D.cpp).
def : TfcOp<"Conv3D", Window, Pattern<"Window3D">> {
  let shape = "conv3D";
  let cost = "convolution";
  let attrs = ["strides", "padding=SAME|VALID", "data_format=NDHWC"];
}
// Its gradients, as oneDNN's backward primitives (the V1 forms, which take
// the input or filter itself for its shape, are deprecated).
def : TfcOp<"Conv3DBackpropInputV2", WindowGradient, Pattern<"Window3D">> {
  let shape = "shapeInInput0";
  let cost = "convolution";
  let attrs = ["strides", "padding=SAME|VALID", "data_format=NDHWC"];
}
def : TfcOp<"Conv3DBackpropFilterV2", WindowGradient, Pattern<"Window3D">> {
  let shape = "shapeInInput1";
  let cost = "convolution";
  let attrs = ["strides", "padding=SAME|VALID", "data_format=NDHWC"];
}
foreach type = ["MaxPool3D", "AvgPool3D"] in
  def : TfcOp<type, Window, Pattern<"Window3D">> {
    let shape = "pool3D";
    let cost = "pooling";
    let attrs = ["ksize", "strides", "padding=SAME|VALID", "data_format=NDHWC"];
  }
def : TfcOp<"MaxPool3DGrad", WindowGradient, Pattern<"Window3D">> {
  let shape = "sameAsInput0";
  let cost = "pooling";
  let attrs = ["ksize", "strides", "padding=SAME|VALID", "data_format=NDHWC"];
}
def : TfcOp<"AvgPool3DGrad", WindowGradient, Pattern<"Window3D">> {
  let shape = "shapeInInput0";
  let cost = "pooling";
  let attrs = ["ksize", "strides", "padding=SAME|VALID", "data_format=NDHWC"];
}

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

// Batched float32 or float64 matrices through Eigen's decompositions, as
// TensorFlow's kernels (LinearAlgebra.cpp).
class LinearAlgebraOp<string type, list<string> handled = []>
    : TfcOp<type, LinearAlgebra, Pattern<"LinearAlgebra">> {
  let shape = "linearAlgebra";
  let attrs = handled;
}
def : LinearAlgebraOp<"MatrixInverse", ["adjoint"]>;
def : LinearAlgebraOp<"MatrixDeterminant">;
def : LinearAlgebraOp<"LogMatrixDeterminant">;
def : LinearAlgebraOp<"Cholesky">;
def : LinearAlgebraOp<"MatrixSolve", ["adjoint"]>;
def : LinearAlgebraOp<"MatrixTriangularSolve", ["lower", "adjoint"]>;
def : LinearAlgebraOp<"Qr", ["full_matrices"]>;
def : LinearAlgebraOp<"Svd", ["compute_uv", "full_matrices"]>;
def : LinearAlgebraOp<"SelfAdjointEigV2", ["compute_v"]>;

// Fourier transforms over the last 1, 2 or 3 dimensions, complex to
// complex, real to complex and back (Fft.cpp: Eigen's FFT on each line).
foreach rank = ["", "2D", "3D"] in {
  def : TfcOp<"FFT" # rank, Spectral, Pattern<"Fourier">> {
    let shape = "sameAsInput0";
    let cost = "fourier";
  }
  def : TfcOp<"IFFT" # rank, Spectral, Pattern<"Fourier">> {
    let shape = "sameAsInput0";
    let cost = "fourier";
  }
  def : TfcOp<"RFFT" # rank, Spectral, Pattern<"Fourier">> {
    let shape = "fourier";
    let cost = "fourier";
  }
  def : TfcOp<"IRFFT" # rank, Spectral, Pattern<"Fourier">> {
    let shape = "fourier";
    let cost = "fourier";
  }
}

//===----------------------------------------------------------------------===//
// Quantization
//===----------------------------------------------------------------------===//

// Float32 values rounded to the levels of a nudged range and back
// (FakeQuant.cpp); the gradients pass what was inside the range.
foreach type = ["FakeQuantWithMinMaxArgs", "FakeQuantWithMinMaxArgsGradient"] in
  def : TfcOp<type, Quantization, Pattern<"FakeQuant">> {
    let shape = "sameAsInput0";
    let attrs = ["min", "max", "num_bits", "narrow_range"];
  }
foreach type = ["FakeQuantWithMinMaxVars", "FakeQuantWithMinMaxVarsPerChannel"] in
  def : TfcOp<type, Quantization, Pattern<"FakeQuant">> {
    let shape = "sameAsInput0";
    let attrs = ["num_bits", "narrow_range"];
  }
foreach type = ["FakeQuantWithMinMaxVarsGradient",
                "FakeQuantWithMinMaxVarsPerChannelGradient"] in
  def : TfcOp<type, Quantization, Pattern<"FakeQuant">> {
    let shape = "fakeQuantGradient";
    let attrs = ["num_bits", "narrow_range"];
  }

//===----------------------------------------------------------------------===//
// Reductions, scans, segments
//===----------------------------------------------------------------------===//

let devices = [CPU, GPU] in {
  foreach type = ["Sum", "Mean", "Max", "Min", "Prod", "All", "Any"] in
    def : TfcOp<type, Reduction, Pattern<"Reduction">> {
      let shape = "reduction";
      let attrs = ["keep_dims"];
    }
  def : TfcOp<"BiasAddGrad", Reduction, Pattern<"Reduction">> {
    let shape = "biasAddGrad";
    let attrs = ["data_format=NHWC|NCHW"];
  }
  foreach type = ["ArgMax", "ArgMin"] in
    def : TfcOp<type, Reduction, Pattern<"AxisKernel">> {
      let shape = "argMinMax";
    }
  foreach type = ["Cumsum", "Cumprod"] in
    def : TfcOp<type, Reduction, Pattern<"AxisKernel">> {
      let shape = "sameAsInput0";
      let attrs = ["exclusive", "reverse"];
    }
  // sorted=false leaves the order to the kernel: tfc's, sorted, is one.
  def : TfcOp<"TopKV2", Reduction, Pattern<"TopK">> {
    let shape = "topK";
    let attrs = ["sorted:ignored"];
  }
}
// Segment reductions of float32 rows (the runtime's Segments.cpp). The
// sorted ops without num_segments need constant ids for their shape.
// (SegmentSumV2 and its kin have no CPU kernel in TensorFlow.)
foreach type = ["UnsortedSegmentSum", "UnsortedSegmentMax", "UnsortedSegmentMin",
                "UnsortedSegmentProd", "SegmentSum", "SegmentMean",
                "SegmentMax", "SegmentMin", "SegmentProd", "SparseSegmentSumGrad", "SparseSegmentMeanGrad",
                "SparseSegmentSqrtNGrad"] in
  def : TfcOp<type, Reduction, Pattern<"Segments">> {
    let shape = "segmentReduction";
  }
// sparse_gradient only chooses the gradient TensorFlow builds.
foreach type = ["SparseSegmentSum", "SparseSegmentMean", "SparseSegmentSqrtN",
                "SparseSegmentSumWithNumSegments",
                "SparseSegmentMeanWithNumSegments",
                "SparseSegmentSqrtNWithNumSegments"] in
  def : TfcOp<type, Reduction, Pattern<"Segments">> {
    let shape = "segmentReduction";
    let attrs = ["sparse_gradient:ignored"];
  }
// tf.searchsorted: std::lower_bound/upper_bound per row (SearchSorted.cpp).
foreach type = ["LowerBound", "UpperBound"] in
  def : TfcOp<type, Reduction, Pattern<"SearchSorted">> {
    let shape = "sameAsInput1";
  }
// Histograms of int32 values into a constant number of bins (Bincount.cpp).
def : TfcOp<"Bincount", Reduction, Pattern<"Bincount">> { let shape = "bincount"; }
def : TfcOp<"DenseBincount", Reduction, Pattern<"Bincount">> {
  let shape = "bincount";
  let attrs = ["binary_output"];
}
// Its output's length is bounded by tfc-bound-unique.
def : TfcOp<"Unique", Reduction, Pattern<"Unique">> { let shape = "unique"; }
// The coordinates of the true elements, as many rows as only the data
// decides: tfc-bound-dynamic-rows plans them for their bound.
def : TfcOp<"Where", DataMovement, Pattern<"Where">> { let shape = "where"; }
// Rows to the partition each names: as many per output as only the data
// decides, planned for every row the same way.
def : TfcOp<"DynamicPartition", DataMovement, Pattern<"DynamicPartition">> {
  let shape = "dynamicPartition";
}
// Its inverse: each data slice to the row its index names. The output's
// rows must be known at compile time (constant indices, or partitions of
// every position), and rows of DynamicPartitions stitch only their count.
foreach type = ["DynamicStitch", "ParallelDynamicStitch"] in
  def : TfcOp<type, DataMovement, Pattern<"DynamicStitch">> {
    let shape = "dynamicStitch";
  }
def : TfcOp<"EuclideanNorm", Reduction, Pattern<"Reduction">> {
  let shape = "reduction";
  let attrs = ["keep_dims"];
}
def : TfcOp<"L2Loss", Reduction, Pattern<"Reduction">> {
  let shape = "scalarOutput";
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

defvar stridedSliceMasks = ["begin_mask", "end_mask", "ellipsis_mask",
                            "new_axis_mask", "shrink_axis_mask"];

let devices = [CPU, GPU] in {
  let cost = "zero" in {
    def : AliasOp<"Reshape", "reshape", DataMovement>;
    def : AliasOp<"Squeeze", "squeeze", DataMovement> {
      let attrs = ["squeeze_dims"];
    }
    def : AliasOp<"ExpandDims", "expandDims", DataMovement>;
  }
  // [op type, shape function, attrs...].
  defvar resizeFlags = ["align_corners", "half_pixel_centers"];
  defvar moves = [
    ["Transpose", "transpose"], ["ConcatV2", "concatV2"],
    ["Pack", "pack", "axis"], ["Unpack", "unpack", "axis"],
    ["Split", "splitOp"], ["SplitV", "splitVOp"], ["Slice", "slice"],
    !listconcat(["StridedSlice", "stridedSlice"], stridedSliceMasks),
    ["Pad", "pad"], ["PadV2", "pad"],
    ["MirrorPad", "pad", "mode=REFLECT|SYMMETRIC"], ["Tile", "tile"],
    ["GatherV2", "gatherV2", "batch_dims"], ["OneHot", "oneHot", "axis"],
    ["Range", "range"], ["BroadcastTo", "broadcastTo"], ["Fill", "fill"],
    ["ReverseV2", "sameAsInput0"], ["Roll", "sameAsInput0"],
    ["DepthToSpace", "depthToSpace", "block_size", "data_format=NHWC"],
    ["SpaceToDepth", "spaceToDepth", "block_size", "data_format=NHWC"],
    ["BatchToSpaceND", "batchToSpaceND"], ["SpaceToBatchND", "spaceToBatchND"],
    ["MatrixBandPart", "sameAsInput0"],
    ["ReverseSequence", "sameAsInput0", "seq_dim", "batch_dim"],
    !listconcat(["ResizeBilinear", "resize"], resizeFlags),
    !listconcat(["ResizeNearestNeighbor", "resize"], resizeFlags)];
  foreach move = moves in
    def : TfcOp<move[0], DataMovement, Pattern<"DataMovement">> {
      let shape = move[1];
      let attrs = !listremove(move, [move[0], move[1]]);
    }
}
// Image resampling of the runtime (Images.cpp), as TensorFlow's kernels.
def : TfcOp<"ResizeBicubic", DataMovement, Pattern<"Image">> {
  let shape = "resize";
  let attrs = ["align_corners", "half_pixel_centers"];
}
def : TfcOp<"ResizeArea", DataMovement, Pattern<"Image">> {
  let shape = "resize";
  let attrs = ["align_corners"];
}
def : TfcOp<"CropAndResize", DataMovement, Pattern<"Image">> {
  let shape = "cropAndResize";
  let attrs = ["method=bilinear|nearest", "extrapolation_value"];
}
// Greedy selection of boxes by score on float32 (NonMaxSuppression.cpp).
// Unpadded, the selection's length only the data decides:
// tfc-bound-dynamic-rows plans it for its bound (V2 and V3 as V4, whose
// count it takes).
foreach type = ["NonMaxSuppressionV2", "NonMaxSuppressionV3"] in
  def : TfcOp<type, DataMovement, Pattern<"NonMaxSuppression">> {
    let shape = "nonMaxSuppression";
  }
foreach type = ["NonMaxSuppressionV4", "NonMaxSuppressionV5"] in
  def : TfcOp<type, DataMovement, Pattern<"NonMaxSuppression">> {
    let shape = "nonMaxSuppression";
    let attrs = ["pad_to_max_output_size"];
  }
def : TfcOp<"StridedSliceGrad", DataMovement, Pattern<"DataMovement">> {
  let shape = "stridedSliceGrad";
  let attrs = stridedSliceMasks;
}
// Rows (indices [count, 1]); the combining ones on float32.
foreach type = ["TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub",
                "TensorScatterMin", "TensorScatterMax"] in
  def : TfcOp<type, DataMovement, Pattern<"TensorScatter">> {
    let shape = "sameAsInput0";
  }
def : TfcOp<"ScatterNd", DataMovement, Pattern<"TensorScatter">> {
  let shape = "scatterNd";
}
// Indices are always checked: validate_indices=false changes nothing.
def : TfcOp<"Gather", DataMovement, Pattern<"DataMovement">> {
  let shape = "gatherV2";
  let attrs = ["validate_indices:ignored"];
}
def : TfcOp<"GatherNd", DataMovement, Pattern<"DataMovement">> {
  let shape = "gatherNd";
}

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
def : TfcOp<"BroadcastArgs", ShapeOf, RewrittenBy<"tfc-fold-constants">> {
  let shape = "broadcastArgs";
}
def : TfcOp<"ConcatOffset", ShapeOf, RewrittenBy<"tfc-fold-constants">> {
  let shape = "concatOffset";
}
// A variable's declared shape (tfc variables keep their shapes).
def : TfcOp<"VariableShape", ShapeOf, RewrittenBy<"tfc-fold-constants">> {
  let shape = "variableShape";
}

//===----------------------------------------------------------------------===//
// State: variables, updates, random generators
//===----------------------------------------------------------------------===//

// A resource variable is named by its shared_name, as in TensorFlow:
// handles that name the same variable share it. debug_name is for
// messages; allowed_devices for placing a handle on other devices than its
// variable's. (Containers, and TF1 variables shared by name, are not
// handled.)
let devices = [CPU, GPU], cost = "zero" in {
  def : TfcOp<"VariableV2", State, NoCode> {
    let shape = "fromShapeAttr";
    let attrs = ["shape"];
  }
  def : TfcOp<"Variable", State, NoCode> { let attrs = ["shape"]; }
  def : TfcOp<"VarHandleOp", State, NoCode> {
    let shape = "scalarOutput";
    let attrs = ["shape", "shared_name", "debug_name:ignored",
                 "allowed_devices:ignored"];
  }
}
// TensorFlow's copy-on-read mode of a resource variable; tfc never copies a
// variable to read it, so there is nothing to turn off.
def : TfcOp<"DisableCopyOnRead", State, NoCode> { let cost = "zero"; }
let devices = [CPU, GPU] in {
  def : TfcOp<"ReadVariableOp", State, Pattern<"StateOp">> {
    let shape = "readVariable";
  }
  // validate_indices is TensorFlow's no-op: indices are always checked.
  // (batch_dims is not handled.)
  def : TfcOp<"ResourceGather", State, Pattern<"StateOp">> {
    let shape = "readVariable";
    let attrs = ["validate_indices:ignored"];
  }
}
foreach type = ["VarIsInitializedOp", "IsVariableInitialized"] in
  def : TfcOp<type, State, Pattern<"StateOp">>;

// use_locking: tfc orders every access to a variable in a step
// (tfc-order-variable-accesses), and every update holds the variable's
// lock whatever the attribute says (EmitState.cpp), for the steps of
// several workers that a parameter server runs at once. The optimizers' flags (use_nesterov, update_slots,
// multiply_linear_by_lr) are handled on the forms that test/ops checks
// against TensorFlow with them set: the resource forms, and ApplyMomentum.
// (DestroyResourceOp's ignore_lookup_error=false and Assign's
// validate_shape=false are not handled.)
class UpdateOp<string type, list<string> flags = []>
    : TfcOp<type, State, Pattern<"StateOp">> {
  let attrs = !listconcat(["use_locking:ignored"], flags);
}
/// An optimizer's flags on its resource forms.
class OptimizerFlags<string type> {
  list<string> flags = !cond(
      !or(!eq(type, "Momentum"), !eq(type, "Adam")): ["use_nesterov"],
      !or(!eq(type, "Adagrad"), !eq(type, "AdagradV2")): ["update_slots"],
      !or(!eq(type, "Ftrl"), !eq(type, "FtrlV2")): ["multiply_linear_by_lr"],
      true: []<string>);
}
let writesVariable = 1 in {
  def : TfcOp<"DestroyResourceOp", State, Pattern<"StateOp">>;
  let devices = [CPU, GPU] in {
    foreach type = ["Assign", "AssignAdd", "AssignSub"] in
      def : UpdateOp<type> { let shape = "sameAsInput0"; }
    def : TfcOp<"AssignVariableOp", State, Pattern<"StateOp">> {
      let attrs = ["validate_shape"];
    }
    foreach type = ["AssignAddVariableOp", "AssignSubVariableOp"] in
      def : TfcOp<type, State, Pattern<"StateOp">>;
    foreach type = ["GradientDescent", "Momentum", "Adagrad", "RMSProp",
                    "Adam"] in {
      def : UpdateOp<"Apply" # type,
                     !if(!eq(type, "Momentum"), ["use_nesterov"], [])> {
        let shape = "applyOp";
      }
      def : UpdateOp<"ResourceApply" # type, OptimizerFlags<type>.flags>;
    }
  }
  foreach type = ["CenteredRMSProp", "Adadelta", "Ftrl", "FtrlV2"] in {
    def : UpdateOp<"Apply" # type> { let shape = "applyOp"; }
    def : UpdateOp<"ResourceApply" # type, OptimizerFlags<type>.flags>;
  }
  def : UpdateOp<"ApplyAdagradV2">;
  def : UpdateOp<"ResourceApplyAdagradV2", OptimizerFlags<"AdagradV2">.flags>;
  foreach type = ["Momentum", "Adagrad", "AdagradV2", "RMSProp",
                  "CenteredRMSProp", "Adadelta", "Ftrl", "FtrlV2"] in {
    def : UpdateOp<"SparseApply" # type> { let shape = "applyOp"; }
    def : UpdateOp<"ResourceSparseApply" # type, OptimizerFlags<type>.flags>;
  }
  foreach type = ["Update", "Add", "Sub", "Mul", "Div"] in {
    def : UpdateOp<"Scatter" # type> { let shape = "applyOp"; }
    def : TfcOp<"ResourceScatter" # type, State, Pattern<"StateOp">>;
  }
  foreach type = ["ResourceScatterMin", "ResourceScatterMax"] in
    def : TfcOp<type, State, Pattern<"StateOp">>;
  // The value before the increment; at the limit, TensorFlow's
  // OutOfRangeError, which ends the run as a closed queue does (how
  // tf.train.limit_epochs ends an input).
  foreach type = ["CountUpTo", "ResourceCountUpTo"] in
    def : TfcOp<type, State, Pattern<"StateOp">> {
      let shape = "scalarOutput";
      let attrs = ["limit"];
    }
}
foreach type = ["RandomUniform", "RandomStandardNormal", "TruncatedNormal",
                "RandomUniformInt"] in
  def : TfcOp<type, State, Pattern<"StateOp">> {
    let shape = "shapeFromInput0Value";
    let attrs = ["seed", "seed2"];
  }
// Rows in a random order: TensorFlow's Fisher-Yates over its Philox stream.
def : TfcOp<"RandomShuffle", State, Pattern<"StateOp">> {
  let shape = "sameAsInput0";
  let attrs = ["seed", "seed2"];
}
// The stateless random ops draw float32 values (int32 or int64 for the
// uniform integers) from the Philox streams their seeds start, as
// TensorFlow's CPU kernels do (Random.cpp).
foreach type = ["StatelessRandomUniform", "StatelessRandomNormal",
                "StatelessTruncatedNormal", "StatelessRandomUniformInt",
                "StatelessRandomUniformV2", "StatelessRandomNormalV2",
                "StatelessTruncatedNormalV2", "StatelessRandomUniformIntV2"] in
  def : TfcOp<type, State, Pattern<"StatelessRandom">> {
    let shape = "shapeFromInput0Value";
  }
foreach type = ["StatelessRandomGetKeyCounter",
                "StatelessRandomGetKeyCounterAlg"] in
  def : TfcOp<type, State, Pattern<"StatelessRandom">> {
    let shape = "randomKeyCounter";
  }
def : TfcOp<"StatelessRandomGetAlg", State, Pattern<"StatelessRandom">> {
  let shape = "scalarOutput";
}
// Zeros for init=true; for init=false the buffer as it is, as TensorFlow
// leaves its memory.
def : TfcOp<"Empty", DataMovement, Pattern<"DataMovement">> {
  let shape = "shapeFromInput0Value";
  let attrs = ["init"];
}

// Bands of diagonals (the runtime's MatrixDiag.cpp), any element type; k
// must be a constant.
foreach type = ["Diag", "DiagPart", "MatrixDiag", "MatrixDiagPart",
                "MatrixSetDiag", "MatrixDiagV2", "MatrixDiagPartV2",
                "MatrixSetDiagV2"] in
  def : TfcOp<type, DataMovement, Pattern<"MatrixDiag">> {
    let shape = "diagonals";
  }
foreach type = ["MatrixDiagV3", "MatrixDiagPartV3", "MatrixSetDiagV3"] in
  def : TfcOp<type, DataMovement, Pattern<"MatrixDiag">> {
    let shape = "diagonals";
    let attrs = ["align"];
  }

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

// Both outputs of a Switch are its data input; which one is alive is
// decided at run time.
foreach type = ["Switch", "RefSwitch"] in
  def : AliasOp<type, "switchOp", ControlFlow> {
    let aliasOperand = 0;
    let refFormOf = !if(!eq(type, "RefSwitch"), "Switch", "");
  }
// parallel_iterations bounds how many iterations TensorFlow runs at once;
// tfc runs them in order. (RefEnter's is_constant=true is not handled.)
foreach type = ["Enter", "Exit", "NextIteration"] in {
  defvar frameAttrs = !if(!eq(type, "Enter"),
                          ["frame_name", "parallel_iterations:ignored"],
                          []<string>);
  def : AliasOp<type, "sameAsInput0", ControlFlow> {
    let attrs = !if(!eq(type, "Enter"), !listconcat(frameAttrs, ["is_constant"]),
                    frameAttrs);
  }
  def : AliasOp<"Ref" # type, "sameAsInput0", ControlFlow> {
    let refFormOf = type;
    let attrs = frameAttrs;
  }
}
def : AliasOp<"LoopCond", "sameAsInput0", ControlFlow>;
def : TfcOp<"Merge", ControlFlow, Pattern<"Merge">> { let shape = "merge"; }
def : TfcOp<"RefMerge", ControlFlow, Pattern<"Merge">> {
  let shape = "merge";
  let refFormOf = "Merge";
}
def : TfcOp<"ControlTrigger", ControlFlow, NoCode>;
// Stops the step when its condition is false; summarize only shortens
// TensorFlow's message.
def : TfcOp<"Assert", Checks, Pattern<"Assert">> {
  let attrs = ["summarize:ignored"];
}
// Its output is a copy of its input, checked for NaN and infinities.
def : TfcOp<"CheckNumerics", Checks, Pattern<"CheckNumerics">> {
  let shape = "sameAsInput0";
  let attrs = ["message"];
}

// Lowered as TensorFlow lowers them: calls inlined, While and If to frames.
// A call's config, config_proto and executor_type configure TensorFlow's
// runtime; a conditional's output_shapes are what its branches' outputs
// have, which tfc infers from the branches.
foreach type = ["While", "StatelessWhile"] in
  def : TfcOp<type, Functional, RewrittenBy<"tfc-inline">> {
    let shape = "fromOutputShapesAttr";
    let attrs = ["cond", "body", "output_shapes", "parallel_iterations:ignored"];
  }
foreach type = ["If", "StatelessIf"] in
  def : TfcOp<type, Functional, RewrittenBy<"tfc-inline">> {
    let shape = "fromOutputShapesAttr";
    let attrs = ["then_branch", "else_branch", "output_shapes:ignored"];
  }
foreach type = ["Case", "StatelessCase"] in
  def : TfcOp<type, Functional, RewrittenBy<"tfc-inline">> {
    let attrs = ["branches", "output_shapes:ignored"];
  }
foreach type = ["PartitionedCall", "StatefulPartitionedCall"] in
  def : TfcOp<type, Functional, RewrittenBy<"tfc-inline">> {
    let attrs = ["f", "config:ignored", "config_proto:ignored",
                 "executor_type:ignored"];
  }

//===----------------------------------------------------------------------===//
// Transfers between partitions
//===----------------------------------------------------------------------===//

// (client_terminated, a transfer to or from a client, is not handled.)
let devices = [CPU, GPU], cost = "zero" in
  foreach type = ["_Send", "_Recv"] in
    def : TfcOp<type, Transfer, Pattern<"Transfer">> {
      let attrs = ["tensor_name", "send_device", "send_device_incarnation",
                   "recv_device"];
    }
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
// Regular expressions are RE2's, as TensorFlow's (the runtime's
// RegexOps.cpp); the tensor forms take scalar patterns and rewrites.
def : TfcOp<"StaticRegexFullMatch", Strings, Pattern<"StringOp">> {
  let shape = "sameAsInput0";
  let attrs = ["pattern"];
}
def : TfcOp<"StaticRegexReplace", Strings, Pattern<"StringOp">> {
  let shape = "sameAsInput0";
  let attrs = ["pattern", "rewrite", "replace_global"];
}
def : TfcOp<"RegexFullMatch", Strings, Pattern<"StringOp">> {
  let shape = "sameAsInput0";
}
def : TfcOp<"RegexReplace", Strings, Pattern<"StringOp">> {
  let shape = "sameAsInput0";
  let attrs = ["replace_global"];
}
// Elementwise (Substr's pos and len: scalars or the input's shape). Case
// changes and stripping are ASCII's, as TensorFlow's without an encoding.
foreach type = ["StringLength", "Substr"] in
  def : TfcOp<type, Strings, Pattern<"StringOp">> {
    let shape = "sameAsInput0";
    let attrs = ["unit=BYTE|UTF8_CHAR"];
  }
foreach type = ["StringLower", "StringUpper", "StringStrip", "StringToNumber"] in
  def : TfcOp<type, Strings, Pattern<"StringOp">> { let shape = "sameAsInput0"; }
// FarmHash's fingerprint modulo the buckets (hashed feature columns).
def : TfcOp<"StringToHashBucketFast", Strings, Pattern<"StringOp">> {
  let shape = "sameAsInput0";
  let attrs = ["num_buckets"];
}
def : TfcOp<"AsString", Strings, Pattern<"StringOp">> {
  let shape = "sameAsInput0";
  let attrs = ["precision", "scientific", "shortest", "width", "fill"];
}
// A split whose tokens .to_tensor() pads to a constant width (after ops
// on each token), and that RaggedTensorToTensor: tfc-densify-ragged makes
// them a _TfcDenseStringSplit and a SelectV2, and refuses any other.
def : TfcOp<"StringSplitV2", Strings, RewrittenBy<"tfc-densify-ragged">> {
  let attrs = ["maxsplit"];
}
def : TfcOp<"RaggedTensorToTensor", Strings, RewrittenBy<"tfc-densify-ragged">> {
  let attrs = ["row_partition_types"];
}
// The same for a decode into code points (UTF-8, as the tfc runtime
// decodes it: a maximal invalid subsequence is one error).
def : TfcOp<"UnicodeDecode", Strings, RewrittenBy<"tfc-densify-ragged">> {
  let attrs = ["input_encoding=UTF-8", "errors", "replacement_char",
               "replace_control_characters"];
}
// StringSplitV2 padded to a constant number of tokens per string, which
// tfc-densify-ragged makes of a split that .to_tensor() pads.
def : TfcOp<"_TfcDenseStringSplit", Strings, Pattern<"StringOp">> {
  let shape = "denseStringSplit";
  let attrs = ["maxsplit", "columns"];
}
def : TfcOp<"_TfcDenseUnicodeDecode", Strings, Pattern<"StringOp">> {
  let shape = "denseStringSplit";
  let attrs = ["errors", "replacement_char", "replace_control_characters",
               "columns"];
}

//===----------------------------------------------------------------------===//
// Lookup tables
//===----------------------------------------------------------------------===//

// A static table: its keys and values, known at compile time, are
// constants of the program (tfc-bind-tables); its handle needs no code.
// Sharing names only matter to sessions that share tables.
def : TfcOp<"HashTableV2", Tables, NoCode> {
  let shape = "scalarOutput";
  let attrs = ["container:ignored", "shared_name:ignored",
               "use_node_name_sharing:ignored"];
}
// A binary search of the sorted keys (LookupTables.cpp).
def : TfcOp<"LookupTableFindV2", Tables, Pattern<"TableFind">> {
  let shape = "sameAsInput1";
}
def : TfcOp<"LookupTableSizeV2", Tables, Pattern<"TableFind">> {
  let shape = "scalarOutput";
}

//===----------------------------------------------------------------------===//
// Queues (tfc_runtime.h)
//===----------------------------------------------------------------------===//

// A queue lives in the runtime from the first time one of its nodes runs,
// so the init entry can fill it and the steps drain it; its number comes
// from code generation, by shared_name (or the node's name). container
// only scopes sharing between TensorFlow sessions. A padding queue pads
// components of unknown dimensions; with every shape known (which tfc
// needs) it is a FIFO queue.
def : TfcOp<"FIFOQueueV2", Queues, Pattern<"QueueOp">> {
  let shape = "scalarOutput";
  let attrs = ["shapes", "capacity", "container:ignored", "shared_name"];
}
def : TfcOp<"PaddingFIFOQueueV2", Queues, Pattern<"QueueOp">> {
  let shape = "scalarOutput";
  let attrs = ["shapes", "capacity", "container:ignored", "shared_name"];
}
// Elements in a random order: TensorFlow's draws from its Philox stream.
def : TfcOp<"RandomShuffleQueueV2", Queues, Pattern<"QueueOp">> {
  let shape = "scalarOutput";
  let attrs = ["shapes", "capacity", "min_after_dequeue", "seed", "seed2",
               "container:ignored", "shared_name"];
}
// timeout_ms is not implemented by TensorFlow either ("not supported
// yet"): its ops wait without a limit, as tfc's do (see tfc_queue_enqueue).
def : TfcOp<"QueueEnqueueV2", Queues, Pattern<"QueueOp">> {
  let attrs = ["timeout_ms:ignored"];
}
def : TfcOp<"QueueEnqueueManyV2", Queues, Pattern<"QueueOp">> {
  let attrs = ["timeout_ms:ignored"];
}
def : TfcOp<"QueueDequeueV2", Queues, Pattern<"QueueOp">> {
  let shape = "queueDequeue";
  let attrs = ["timeout_ms:ignored"];
}
def : TfcOp<"QueueDequeueManyV2", Queues, Pattern<"QueueOp">> {
  let shape = "queueDequeue";
  let attrs = ["timeout_ms:ignored"];
}
// Up to n elements: fewer (but one at least) once the queue is closed. Its
// rows are planned for n, their count a result tfc-bound-dynamic-rows adds.
def : TfcOp<"QueueDequeueUpToV2", Queues, Pattern<"QueueOp">> {
  let shape = "queueDequeue";
  let attrs = ["timeout_ms:ignored"];
}
def : TfcOp<"QueueCloseV2", Queues, Pattern<"QueueOp">> {
  let attrs = ["cancel_pending_enqueues"];
}
def : TfcOp<"QueueSizeV2", Queues, Pattern<"QueueOp">> { let shape = "scalarOutput"; }
// Accumulators of float32 gradients whose shape the node states.
foreach type = ["ConditionalAccumulator", "ResourceConditionalAccumulator"] in
  def : TfcOp<type, Queues, Pattern<"AccumulatorOp">> {
    let shape = "accumulatorHandle";
    let attrs = ["shape", "container:ignored", "shared_name",
                 "reduction_type=MEAN|SUM"];
  }
foreach form = ["", "Resource"] in {
  def : TfcOp<form # "AccumulatorApplyGradient", Queues, Pattern<"AccumulatorOp">>;
  def : TfcOp<form # "AccumulatorTakeGradient", Queues, Pattern<"AccumulatorOp">> {
    let shape = "accumulatorTake";
  }
  def : TfcOp<form # "AccumulatorNumAccumulated", Queues, Pattern<"AccumulatorOp">> {
    let shape = "scalarOutput";
  }
  def : TfcOp<form # "AccumulatorSetGlobalStep", Queues, Pattern<"AccumulatorOp">>;
}
// Accumulators of float32 rows (sparse gradients, IndexedSlices), whose
// take gives a number of rows only the data decides: tfc-bound-dynamic-rows
// plans it for a bound and counts it (docs/Training.md, Accumulators).
// AccumulatorNumAccumulated and AccumulatorSetGlobalStep serve them too.
def : TfcOp<"SparseConditionalAccumulator", Queues, Pattern<"AccumulatorOp">> {
  let shape = "accumulatorHandle";
  let attrs = ["shape", "container:ignored", "shared_name",
               "reduction_type=MEAN|SUM"];
}
def : TfcOp<"SparseAccumulatorApplyGradient", Queues, Pattern<"AccumulatorOp">> {
  let attrs = ["has_known_shape"];
}
def : TfcOp<"SparseAccumulatorTakeGradient", Queues, Pattern<"AccumulatorOp">> {
  let shape = "sparseAccumulatorTake";
}
def : TfcOp<"QueueIsClosedV2", Queues, Pattern<"QueueOp">> { let shape = "scalarOutput"; }

//===----------------------------------------------------------------------===//
// Summaries
//===----------------------------------------------------------------------===//

def : TfcOp<"ScalarSummary", Summaries, Pattern<"SummaryOp">> {
  let shape = "scalarOutput";
}
def : TfcOp<"HistogramSummary", Summaries, Pattern<"SummaryOp">> {
  let shape = "scalarOutput";
}
def : TfcOp<"MergeSummary", Summaries, Pattern<"MergeOp">> {
  let shape = "scalarOutput";
}
def : TfcOp<"ImageSummary", Summaries, Pattern<"ImageOp">> {
  let shape = "scalarOutput";
  let attrs = ["max_images", "bad_color"];
}
def : TfcOp<"TensorSummaryV2", Summaries, Pattern<"SummaryOp">> {
  let shape = "scalarOutput";
}
// PNGs of uint8 images [..., height, width, channels], as TF2's image
// summaries encode theirs; the image data are stored deflate blocks, so the
// compression level changes the bytes TensorFlow writes, not the pixels.
def : TfcOp<"EncodePng", Summaries, Pattern<"EncodePngOp">> {
  let shape = "encodePng";
  let attrs = ["compression:ignored"];
}
// TF2's summary writers: a runtime resource per SummaryWriter node (by
// shared_name), made by CreateSummaryFileWriter, written to by the Write*
// ops as the summary ops above would serialize their values. Events are
// written as they come, so max_queue and flush_millis change nothing.
def : TfcOp<"SummaryWriter", Summaries, Pattern<"WriterOp">> {
  let shape = "scalarOutput";
  let attrs = ["shared_name", "container:ignored"];
}
foreach type = ["CreateSummaryFileWriter", "WriteSummary", "WriteScalarSummary",
                "WriteHistogramSummary", "FlushSummaryWriter",
                "CloseSummaryWriter"] in
  def : TfcOp<type, Summaries, Pattern<"WriterOp">>;

//===----------------------------------------------------------------------===//
// Stacks and TensorArrays (TF1 loop gradients), TensorLists (TF2)
//===----------------------------------------------------------------------===//

// A stack's name is for messages; swap_memory lets TensorFlow move pushed
// tensors to the host, where tfc's already are.
def : TfcOp<"StackV2", Stacks, Pattern<"StackOp">> {
  let shape = "scalarOutput";
  let attrs = ["stack_name:ignored"];
}
def : TfcOp<"Stack", Stacks, Pattern<"StackOp">> {
  let attrs = ["stack_name:ignored"];
}
// A push outputs the element it pushed.
def : TfcOp<"StackPushV2", Stacks, Pattern<"StackOp">> {
  let shape = "stackPush";
  let alias = 1;
  let aliasOperand = 1;
  let attrs = ["swap_memory:ignored"];
}
def : TfcOp<"StackPopV2", Stacks, Pattern<"StackOp">> { let shape = "stackPop"; }
def : TfcOp<"StackCloseV2", Stacks, Pattern<"StackOp">>;

// A TensorArray's name is for messages; its element_shape only limits what
// TensorFlow accepts (tfc takes the elements' shapes from the writes).
// clear_after_read=true makes a second read of an element an error in
// TensorFlow; tfc returns the element again. dynamic_size=true, an array
// that grows: tfc-bound-growable-lists makes it the fixed array its loop
// fills, or refuses it naming the node.
defvar tensorArrayAttrs = [
  ["TensorArrayV3", "element_shape:ignored", "clear_after_read:ignored",
   "identical_element_shapes", "tensor_array_name:ignored", "dynamic_size"],
  ["TensorArrayGradV3", "source"], ["TensorArrayWriteV3"],
  ["TensorArrayScatterV3"], ["TensorArraySplitV3"], ["TensorArraySizeV3"]];
foreach array = tensorArrayAttrs in
  def : TfcOp<array[0], TensorArrays, Pattern<"TensorArrayOp">> {
    let shape = "scalarOutput";
    let attrs = !listremove(array, [array[0]]);
  }
foreach type = ["TensorArrayReadV3", "TensorArrayGatherV3",
                "TensorArrayConcatV3"] in
  def : TfcOp<type, TensorArrays, Pattern<"TensorArrayOp">> {
    let shape = "tensorArrayRead";
    let attrs = !cond(!eq(type, "TensorArrayGatherV3"): ["element_shape"],
                      !eq(type, "TensorArrayConcatV3"): ["element_shape_except0"],
                      true: []<string>);
  }
def : TfcOp<"TensorArrayCloseV3", TensorArrays, Pattern<"TensorArrayOp">>;

foreach type = ["EmptyTensorList", "TensorListReserve", "TensorListFromTensor",
                "TensorListScatter", "TensorListScatterV2"] in
  def : TfcOp<type, TensorLists, RewrittenBy<"tfc-lower-tensor-lists">> {
    let shape = "tensorListMake";
  }
// (A list that SetItem grows, resize_if_index_out_of_bounds, gets its
// capacity from tfc-bound-growable-lists.)
foreach type = ["TensorListSetItem", "TensorListPushBack",
                "TensorListScatterIntoExistingList"] in
  def : TfcOp<type, TensorLists, RewrittenBy<"tfc-lower-tensor-lists">> {
    let shape = "tensorListWrite";
    let attrs = !if(!eq(type, "TensorListSetItem"),
                    ["resize_if_index_out_of_bounds"], []<string>);
  }
def : TfcOp<"TensorListStack", TensorLists,
            RewrittenBy<"tfc-lower-tensor-lists">> {
  let shape = "tensorListRead";
  let attrs = ["num_elements"];
}
foreach type = ["TensorListGetItem", "TensorListPopBack",
                "TensorListGather"] in
  def : TfcOp<type, TensorLists, RewrittenBy<"tfc-lower-tensor-lists">> {
    let shape = "tensorListRead";
  }
foreach type = ["TensorListConcat", "TensorListConcatV2",
                "TensorListElementShape", "TensorListLength",
                "TensorListSplit"] in
  def : TfcOp<type, TensorLists, RewrittenBy<"tfc-lower-tensor-lists">>;
def : KnownOp<"TensorListResize", "tensorListMake", TensorLists>;
foreach type = ["OptionalFromValue", "OptionalGetValue", "OptionalNone"] in
  def : TfcOp<type, TensorLists, RewrittenBy<"tfc-lower-optionals">> {
    let attrs = !if(!eq(type, "OptionalGetValue"), ["output_shapes"], []<string>);
  }
// Only Optionals whose branch is known at compile time are lowered.
def : TfcOp<"OptionalHasValue", TensorLists, NotLowered>;

#endif // TFC_TRANSFORMS_OPTABLE_TD
