#!/usr/bin/env python3
"""Generates tfc's op registry from an installed TensorFlow's OpDefs.

tfc needs the interface of every op it understands (typed input and output
args, attrs with their types, defaults and allowed values, statefulness) to
type the results of imported nodes and to verify graphs. TensorFlow registers
that interface in C++; this script reads it from a TensorFlow installation
(tensorflow-cpu==2.21.0 in a virtualenv) for every op TensorFlow exposes
(tf.raw_ops) and the internal ones listed below, adds tfc's own (TFC_OPS,
which its passes make), and writes
lib/Dialect/Tfg/OpRegistry.gen.inc: the OpDefs as a text-format OpList,
without their documentation strings. The output is committed, so building
tfc never needs TensorFlow.

Usage: /path/to/venv/bin/python scripts/gen_op_registry.py [OUT]
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

# The ops tfc's passes and tests name, by the family that needs them, some
# of them internal (_Arg, _Send: not in tf.raw_ops). An op missing from the
# installed TensorFlow is an error: the list must name real ops. Every op of
# tf.raw_ops is added to these, so that any graph TensorFlow makes imports
# typed.
OPS = {
    "graph structure and control flow (white paper Table 1, TF2 functional)": """
        NoOp Identity IdentityN RefIdentity StopGradient PreventGradient Snapshot
        Placeholder PlaceholderWithDefault PlaceholderV2 Const _Arg _Retval
        _DeviceArg _DeviceRetval GuaranteeConst
        Switch RefSwitch Merge RefMerge Enter RefEnter Exit RefExit
        NextIteration RefNextIteration LoopCond ControlTrigger
        If StatelessIf While StatelessWhile Case StatelessCase
        PartitionedCall StatefulPartitionedCall
        _Send _Recv _HostSend _HostRecv
        Assert Print PrintV2 StringFormat CheckNumerics CheckNumericsV2
        EnsureShape Timestamp
    """,
    "elementwise math": """
        Add AddV2 Sub Mul MulNoNan Div RealDiv DivNoNan FloorDiv FloorMod
        TruncateDiv TruncateMod Mod Maximum Minimum Pow SquaredDifference
        Neg Abs Sign Reciprocal Inv Square Sqrt Rsqrt Exp Expm1 Log Log1p
        Sin Cos Tan Asin Acos Atan Atan2 Sinh Cosh Tanh Asinh Acosh Atanh
        Sigmoid Erf Erfc Erfinv Lgamma Digamma Floor Ceil Round Rint
        IsNan IsInf IsFinite Equal NotEqual Less LessEqual Greater
        GreaterEqual ApproximateEqual LogicalAnd LogicalOr LogicalNot
        Select SelectV2 Cast ClipByValue AddN AccumulateNV2
        BitwiseAnd BitwiseOr BitwiseXor Invert LeftShift RightShift
        Xdivy Xlogy Xlog1py Complex Real Imag ComplexAbs Conj Angle
        BiasAdd BiasAddV1
    """,
    "reductions, scans and segments": """
        Sum Prod Mean Max Min All Any ArgMax ArgMin Cumsum Cumprod
        EuclideanNorm SegmentSum SegmentMean SegmentMax SegmentMin
        UnsortedSegmentSum UnsortedSegmentMax UnsortedSegmentMin
        UnsortedSegmentProd SparseSegmentSum SparseSegmentMean
        SparseSegmentSqrtN SparseSegmentSumGrad SparseSegmentMeanGrad
        SparseSegmentSqrtNGrad
    """,
    "matrix": """
        MatMul BatchMatMul BatchMatMulV2 BatchMatMulV3 Einsum
        Transpose ConjugateTranspose MatrixDiag MatrixDiagV3 MatrixDiagPart
        MatrixDiagPartV3 MatrixSetDiag MatrixSetDiagV3 MatrixBandPart
        MatrixInverse MatrixDeterminant Cholesky MatrixTriangularSolve Qr Svd
        _FusedMatMul
    """,
    "array": """
        Reshape Shape ShapeN Size Rank ExpandDims Squeeze Concat ConcatV2
        ConcatOffset Split SplitV Slice StridedSlice StridedSliceGrad Pack
        Unpack Tile Pad PadV2 MirrorPad MirrorPadGrad Fill ZerosLike OnesLike
        Range LinSpace Gather GatherV2 GatherNd ScatterNd TensorScatterUpdate
        TensorScatterAdd TensorScatterSub Where OneHot Reverse ReverseV2
        ReverseSequence BroadcastTo BroadcastArgs BroadcastGradientArgs
        InvertPermutation Unique UniqueV2 ListDiff TopKV2 Bitcast
        DepthToSpace SpaceToDepth SpaceToBatchND BatchToSpaceND Diag DiagPart
        Empty Roll UpperBound LowerBound Bincount DynamicStitch
        ParallelDynamicStitch DynamicPartition Bucketize
    """,
    "neural network": """
        Conv2D Conv2DBackpropInput Conv2DBackpropFilter Conv3D
        DepthwiseConv2dNative DepthwiseConv2dNativeBackpropInput
        DepthwiseConv2dNativeBackpropFilter _FusedConv2D
        MaxPool MaxPoolV2 MaxPoolGrad MaxPoolGradV2 AvgPool AvgPoolGrad
        MaxPool3D AvgPool3D
        Relu Relu6 Elu Selu LeakyRelu Softplus Softsign
        ReluGrad Relu6Grad EluGrad SeluGrad LeakyReluGrad SoftplusGrad
        SoftsignGrad TanhGrad SigmoidGrad RsqrtGrad SqrtGrad ReciprocalGrad
        InvGrad BiasAddGrad
        Softmax LogSoftmax SoftmaxCrossEntropyWithLogits
        SparseSoftmaxCrossEntropyWithLogits
        FusedBatchNorm FusedBatchNormV2 FusedBatchNormV3 FusedBatchNormGrad
        FusedBatchNormGradV2 FusedBatchNormGradV3
        LRN LRNGrad L2Loss InTopKV2 ResizeBilinear ResizeNearestNeighbor
        ResizeBilinearGrad ResizeNearestNeighborGrad
    """,
    "random": """
        RandomUniform RandomUniformInt RandomStandardNormal TruncatedNormal
        RandomShuffle Multinomial StatelessRandomUniform
        StatelessRandomUniformV2 StatelessRandomNormal StatelessRandomNormalV2
        StatelessTruncatedNormal StatelessTruncatedNormalV2
        StatelessRandomUniformInt StatelessRandomUniformIntV2
        StatelessRandomGetKeyCounter StatelessRandomGetKeyCounterAlg
        StatelessRandomGetAlg
    """,
    "variables": """
        VariableV2 Variable TemporaryVariable DestroyTemporaryVariable Assign
        AssignAdd AssignSub IsVariableInitialized VarHandleOp ReadVariableOp VariableShape
        AssignVariableOp AssignAddVariableOp AssignSubVariableOp
        VarIsInitializedOp DestroyResourceOp ResourceGather ResourceGatherNd
        ResourceScatterAdd ResourceScatterSub ResourceScatterMul
        ResourceScatterDiv ResourceScatterMin ResourceScatterMax
        ResourceScatterUpdate ResourceScatterNdUpdate ResourceScatterNdAdd
        ResourceStridedSliceAssign DisableCopyOnRead ScatterAdd ScatterSub
        ScatterMul ScatterDiv
        ScatterUpdate ScatterNdUpdate ScatterNdAdd StridedSliceAssign
    """,
    "optimizers": """
        ApplyGradientDescent ApplyProximalGradientDescent ApplyMomentum
        ApplyAdagrad ApplyAdagradV2 ApplyAdagradDA ApplyProximalAdagrad
        ApplyRMSProp ApplyCenteredRMSProp ApplyAdam ApplyAdaMax ApplyAdadelta
        ApplyFtrl ApplyFtrlV2 ApplyAddSign ApplyPowerSign
        ResourceApplyGradientDescent ResourceApplyProximalGradientDescent
        ResourceApplyMomentum ResourceApplyKerasMomentum ResourceApplyAdagrad
        ResourceApplyAdagradV2 ResourceApplyAdagradDA
        ResourceApplyProximalAdagrad ResourceApplyRMSProp
        ResourceApplyCenteredRMSProp ResourceApplyAdam
        ResourceApplyAdamWithAmsgrad ResourceApplyAdaMax
        ResourceApplyAdadelta ResourceApplyFtrl ResourceApplyFtrlV2
        ResourceApplyAddSign ResourceApplyPowerSign
        SparseApplyAdagrad SparseApplyAdagradV2 SparseApplyMomentum
        SparseApplyFtrl SparseApplyFtrlV2 SparseApplyRMSProp
        SparseApplyCenteredRMSProp SparseApplyAdadelta
        SparseApplyProximalAdagrad SparseApplyProximalGradientDescent
        ResourceSparseApplyAdagrad ResourceSparseApplyAdagradV2
        ResourceSparseApplyMomentum ResourceSparseApplyKerasMomentum
        ResourceSparseApplyFtrl ResourceSparseApplyFtrlV2
        ResourceSparseApplyRMSProp ResourceSparseApplyCenteredRMSProp
        ResourceSparseApplyAdadelta ResourceSparseApplyProximalAdagrad
        ResourceSparseApplyProximalGradientDescent
    """,
    "checkpoints and strings": """
        SaveV2 RestoreV2 Save Restore RestoreSlice SaveSlices
        MergeV2Checkpoints ShardedFilename ShardedFilespec StringJoin
        ReadFile WriteFile StaticRegexFullMatch RegexFullMatch AsString
        StringToNumber Substr StringLength StringToHashBucketFast
    """,
    "queues, readers and synchronous replicas": """
        FIFOQueue FIFOQueueV2 RandomShuffleQueue RandomShuffleQueueV2
        PaddingFIFOQueue PaddingFIFOQueueV2 PriorityQueue PriorityQueueV2
        QueueEnqueue QueueEnqueueV2 QueueEnqueueMany QueueEnqueueManyV2
        QueueDequeue QueueDequeueV2 QueueDequeueMany QueueDequeueManyV2
        QueueDequeueUpTo QueueDequeueUpToV2 QueueClose QueueCloseV2
        QueueSize QueueSizeV2 QueueIsClosed QueueIsClosedV2
        TFRecordReaderV2 FixedLengthRecordReaderV2 TextLineReaderV2
        WholeFileReaderV2 ReaderReadV2 ReaderReadUpToV2 DecodeRaw DecodeCSV
        ConditionalAccumulator AccumulatorApplyGradient
        AccumulatorTakeGradient AccumulatorNumAccumulated
        AccumulatorSetGlobalStep SparseConditionalAccumulator
        SparseAccumulatorApplyGradient SparseAccumulatorTakeGradient
    """,
    "stacks, tensor arrays, tensor lists and optionals": """
        Stack StackPush StackPop StackClose StackV2 StackPushV2 StackPopV2
        StackCloseV2 TensorArrayV3 TensorArrayReadV3 TensorArrayWriteV3
        TensorArrayGatherV3 TensorArrayScatterV3 TensorArrayConcatV3
        TensorArraySplitV3 TensorArraySizeV3 TensorArrayGradV3
        TensorArrayGradWithShape TensorArrayCloseV3
        EmptyTensorList TensorListReserve TensorListSetItem TensorListGetItem
        TensorListStack TensorListFromTensor TensorListLength
        TensorListPushBack TensorListPopBack TensorListElementShape
        TensorListConcat TensorListConcatV2 TensorListSplit TensorListGather
        TensorListScatter TensorListScatterV2
        TensorListScatterIntoExistingList TensorListResize
        TensorListConcatLists
        OptionalFromValue OptionalGetValue OptionalNone OptionalHasValue
    """,
    "sparse": """
        SparseToDense SparseTensorDenseMatMul SparseReshape
        SparseFillEmptyRows
    """,
    "summaries": """
        ScalarSummary HistogramSummary MergeSummary TensorSummaryV2
    """,
}

# tfc's own ops: nodes its passes make in place of TensorFlow's (never in a
# graph TensorFlow writes), in OpDef text format, named with tfc's prefix.
TFC_OPS = [
    # StringSplitV2 padded to a constant number of tokens per string, as
    # .to_tensor(shape=[None, columns]) pads them (tfc-densify-ragged):
    # tokens past a string's own are "", and `lengths` counts its own.
    'name: "_TfcDenseStringSplit" '
    'input_arg { name: "input" type: DT_STRING } '
    'input_arg { name: "sep" type: DT_STRING } '
    'output_arg { name: "tokens" type: DT_STRING } '
    'output_arg { name: "lengths" type: DT_INT64 } '
    'attr { name: "maxsplit" type: "int" default_value { i: -1 } } '
    'attr { name: "columns" type: "int" has_minimum: true minimum: 1 }',
    # UnicodeDecode (UTF-8) padded likewise: each string's first `columns`
    # code points, 0 past its own, and how many it has.
    'name: "_TfcDenseUnicodeDecode" '
    'input_arg { name: "input" type: DT_STRING } '
    'output_arg { name: "char_values" type: DT_INT32 } '
    'output_arg { name: "lengths" type: DT_INT64 } '
    'attr { name: "errors" type: "string" default_value { s: "replace" } '
    'allowed_values { list { s: "strict" s: "replace" s: "ignore" } } } '
    'attr { name: "replacement_char" type: "int" default_value { i: 65533 } } '
    'attr { name: "replace_control_characters" type: "bool" '
    'default_value { b: false } } '
    'attr { name: "columns" type: "int" has_minimum: true minimum: 1 }',
]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        here, "..", "lib", "Dialect", "Tfg", "OpRegistry.gen.inc")

    import tensorflow as tf
    from google.protobuf import text_format
    from tensorflow.python.framework import op_def_registry

    listed = {n for group in OPS.values() for n in group.split()}
    missing = sorted(n for n in listed if op_def_registry.get(n) is None)
    if missing:
        sys.exit("gen_op_registry: not registered in TensorFlow %s: %s" %
                 (tf.__version__, " ".join(missing)))
    exposed = {n for n in dir(tf.raw_ops) if not n.startswith("_")
               and op_def_registry.get(n) is not None}
    names = sorted(listed | exposed)

    chunks = []
    for name in names:
        op = type(op_def_registry.get(name))()
        op.CopyFrom(op_def_registry.get(name))
        # Documentation is TensorFlow's prose; tfc keeps only the facts.
        op.ClearField("summary")
        op.ClearField("description")
        for arg in list(op.input_arg) + list(op.output_arg):
            arg.ClearField("description")
        for attr in op.attr:
            attr.ClearField("description")
        if op.HasField("deprecation"):
            op.deprecation.ClearField("explanation")
        body = text_format.MessageToString(op, as_one_line=True)
        chunks.append("op { %s }" % body)

    for text in TFC_OPS:
        chunks.append("op { %s }" % text)
    names += [t.split('"')[1] for t in TFC_OPS]

    with open(out, "w") as f:
        f.write("// GENERATED by scripts/gen_op_registry.py from the OpDefs of "
                "TensorFlow %s. DO NOT EDIT.\n" % tf.__version__)
        f.write("// %d ops, as a text-format tfc.proto.OpList.\n" % len(names))
        f.write("// Each op is one string literal; the compiler joins them.\n")
        for c in chunks:
            # The ops' text never contains the raw-string delimiter.
            assert ")op\"" not in c
            f.write('R"op(%s)op" "\\n"\n' % c)
    print("gen_op_registry: wrote %d ops to %s" % (len(names), out))


if __name__ == "__main__":
    main()
