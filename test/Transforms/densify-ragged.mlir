// Tests tfc-densify-ragged: a StringSplitV2 whose tokens, after ops on each
// token, only .to_tensor(shape=[None, L]) reads becomes a
// _TfcDenseStringSplit of L columns, the ops apply to its tokens, and the
// RaggedTensorToTensor becomes a SelectV2 of the default past each
// string's own tokens; what only the split computed goes. Other splits and
// pads are errors naming them.
// RUN: tfc-opt %s -split-input-file -tfc-densify-ragged -verify-diagnostics | FileCheck %s

// CHECK-LABEL: tfg.graph
// CHECK-DAG: %[[X:.*]]:2 = _Arg name("x")
// CHECK-DAG: %[[SEP:.*]]:2 = Const name("sep")
// CHECK-DAG: %[[DENSE:.*]]:3 = _TfcDenseStringSplit(%[[X]]#0, %[[SEP]]#0) name("split") {columns = 3 : i64, maxsplit = 2 : i64} : (tensor<?x!tfg.string>, tensor<!tfg.string>) -> (tensor<?x3x!tfg.string>, tensor<?xi64>)
// CHECK-DAG: %[[LOWER:.*]]:2 = StringLower(%[[DENSE]]#0) name("lower") {{.*}} -> tensor<*x!tfg.string>
// CHECK-DAG: %[[LENGTHS:.*]]:2 = ExpandDims(%[[DENSE]]#1, %{{.*}}) name("padded/lengths")
// CHECK-DAG: %[[POSITIONS:.*]]:2 = Const name("padded/positions") {{.*}} value = dense<{{\[\[}}0, 1, 2]]> : tensor<1x3xi64>
// CHECK-DAG: %[[OWN:.*]]:2 = Less(%[[POSITIONS]]#0, %[[LENGTHS]]#0) name("padded/own")
// CHECK-DAG: %[[PADDED:.*]]:2 = SelectV2(%[[OWN]]#0, %[[LOWER]]#0, %{{.*}}) name("padded")
// CHECK-DAG: _Retval(%[[PADDED]]#0)
// CHECK-NOT: StringSplitV2
// CHECK-NOT: RaggedTensorToTensor
// CHECK-NOT: StridedSlice
tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
  %x:2 = _Arg name("x") {T = !tfg.string, index = 0 : i64} : () -> tensor<?x!tfg.string>
  %sep:2 = Const name("sep") {dtype = !tfg.string, value = dense<""> : tensor<!tfg.string>} : () -> tensor<!tfg.string>
  %split:4 = StringSplitV2(%x#0, %sep#0) name("split") {maxsplit = 2 : i64} : (tensor<?x!tfg.string>, tensor<!tfg.string>) -> (tensor<?x2xi64>, tensor<?x!tfg.string>, tensor<2xi64>)
  %b00:2 = Const name("b00") {dtype = i32, value = dense<0> : tensor<2xi32>} : () -> tensor<2xi32>
  %e01:2 = Const name("e01") {dtype = i32, value = dense<[0, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %s11:2 = Const name("s11") {dtype = i32, value = dense<1> : tensor<2xi32>} : () -> tensor<2xi32>
  %rowids:2 = StridedSlice(%split#0, %b00#0, %e01#0, %s11#0) name("rowids") {Index = i32, T = i64, begin_mask = 1 : i64, end_mask = 1 : i64, shrink_axis_mask = 2 : i64} : (tensor<?x2xi64>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?xi64>
  %b0:2 = Const name("b0") {dtype = i32, value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %e1:2 = Const name("e1") {dtype = i32, value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %nrows:2 = StridedSlice(%split#2, %b0#0, %e1#0, %e1#0) name("nrows") {Index = i32, T = i64, shrink_axis_mask = 1 : i64} : (tensor<2xi64>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i64>
  %lower:2 = StringLower(%split#1) name("lower") {encoding = ""} : (tensor<?x!tfg.string>) -> tensor<?x!tfg.string>
  %shape:2 = Const name("shape") {dtype = i64, value = dense<[-1, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %default:2 = Const name("default") {dtype = !tfg.string, value = dense<"<pad>"> : tensor<!tfg.string>} : () -> tensor<!tfg.string>
  %padded:2 = RaggedTensorToTensor(%shape#0, %lower#0, %default#0, %nrows#0, %rowids#0) name("padded") {T = !tfg.string, Tindex = i64, Tshape = i64, num_row_partition_tensors = 2 : i64, row_partition_types = ["FIRST_DIM_SIZE", "VALUE_ROWIDS"]} : (tensor<2xi64>, tensor<?x!tfg.string>, tensor<!tfg.string>, tensor<i64>, tensor<?xi64>) -> tensor<?x3x!tfg.string>
  _Retval(%padded#0) name("padded/_retval_0") {T = !tfg.string, index = 0 : i64} : (tensor<?x3x!tfg.string>) -> ()
}

// -----

// Padded to the longest string's number of tokens (to_tensor() without a
// shape, TextVectorization without output_sequence_length).
tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
  %x:2 = _Arg name("x") {T = !tfg.string, index = 0 : i64} : () -> tensor<?x!tfg.string>
  %sep:2 = Const name("sep") {dtype = !tfg.string, value = dense<""> : tensor<!tfg.string>} : () -> tensor<!tfg.string>
  %split:4 = StringSplitV2(%x#0, %sep#0) name("split") : (tensor<?x!tfg.string>, tensor<!tfg.string>) -> (tensor<?x2xi64>, tensor<?x!tfg.string>, tensor<2xi64>)
  %b00:2 = Const name("b00") {dtype = i32, value = dense<0> : tensor<2xi32>} : () -> tensor<2xi32>
  %e01:2 = Const name("e01") {dtype = i32, value = dense<[0, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %s11:2 = Const name("s11") {dtype = i32, value = dense<1> : tensor<2xi32>} : () -> tensor<2xi32>
  %rowids:2 = StridedSlice(%split#0, %b00#0, %e01#0, %s11#0) name("rowids") {Index = i32, T = i64, begin_mask = 1 : i64, end_mask = 1 : i64, shrink_axis_mask = 2 : i64} : (tensor<?x2xi64>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?xi64>
  %b0:2 = Const name("b0") {dtype = i32, value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %e1:2 = Const name("e1") {dtype = i32, value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %nrows:2 = StridedSlice(%split#2, %b0#0, %e1#0, %e1#0) name("nrows") {Index = i32, T = i64, shrink_axis_mask = 1 : i64} : (tensor<2xi64>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i64>
  %shape:2 = Const name("shape") {dtype = i64, value = dense<-1> : tensor<i64>} : () -> tensor<i64>
  %default:2 = Const name("default") {dtype = !tfg.string, value = dense<""> : tensor<!tfg.string>} : () -> tensor<!tfg.string>
  // expected-error @+1 {{node 'padded' (RaggedTensorToTensor) pads the tokens of node 'split' (StringSplitV2) to a shape other than [-1, L]; tfc compiles .to_tensor(shape=[None, L]) of a split, with L a constant (TextVectorization's output_sequence_length)}}
  %padded:2 = RaggedTensorToTensor(%shape#0, %split#1, %default#0, %nrows#0, %rowids#0) name("padded") {T = !tfg.string, Tindex = i64, Tshape = i64, num_row_partition_tensors = 2 : i64, row_partition_types = ["FIRST_DIM_SIZE", "VALUE_ROWIDS"]} : (tensor<i64>, tensor<?x!tfg.string>, tensor<!tfg.string>, tensor<i64>, tensor<?xi64>) -> tensor<?x?x!tfg.string>
  _Retval(%padded#0) name("padded/_retval_0") {T = !tfg.string, index = 0 : i64} : (tensor<?x?x!tfg.string>) -> ()
}

// -----

// Tokens fetched as they are: their number is the data's.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
  %x:2 = _Arg name("x") {T = !tfg.string, index = 0 : i64} : () -> tensor<?x!tfg.string>
  %sep:2 = Const name("sep") {dtype = !tfg.string, value = dense<" "> : tensor<!tfg.string>} : () -> tensor<!tfg.string>
  // expected-error @+1 {{node 'split' (StringSplitV2) splits strings into tokens of a number only the data decides; tfc compiles one whose pieces (after ops on each piece) only .to_tensor() of a constant number of columns reads, e.g. TextVectorization with output_sequence_length}}
  %split:4 = StringSplitV2(%x#0, %sep#0) name("split") : (tensor<?x!tfg.string>, tensor<!tfg.string>) -> (tensor<?x2xi64>, tensor<?x!tfg.string>, tensor<2xi64>)
  _Retval(%split#1) name("tokens/_retval_0") {T = !tfg.string, index = 0 : i64} : (tensor<?x!tfg.string>) -> ()
}

// -----

// A UnicodeDecode padded to 4 code points: a _TfcDenseUnicodeDecode under
// the decode's name (its run-time errors name it), with its attributes.
// CHECK-LABEL: tfg.graph
// CHECK-DAG: %[[DENSE:.*]]:3 = _TfcDenseUnicodeDecode(%{{.*}}) name("decode") {columns = 4 : i64, errors = "ignore", replacement_char = 63 : i64} : (tensor<?x!tfg.string>) -> (tensor<?x4xi32>, tensor<?xi64>)
// CHECK-DAG: SelectV2(%{{.*}}, %[[DENSE]]#0, %{{.*}}) name("padded")
// CHECK-NOT: UnicodeDecode(
tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
  %x:2 = _Arg name("x") {T = !tfg.string, index = 0 : i64} : () -> tensor<?x!tfg.string>
  %decode:3 = UnicodeDecode(%x#0) name("decode") {Tsplits = i64, errors = "ignore", input_encoding = "UTF-8", replacement_char = 63 : i64} : (tensor<?x!tfg.string>) -> (tensor<?xi64>, tensor<?xi32>)
  %shape:2 = Const name("shape") {dtype = i64, value = dense<[-1, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %default:2 = Const name("default") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %padded:2 = RaggedTensorToTensor(%shape#0, %decode#1, %default#0, %decode#0) name("padded") {T = i32, Tindex = i64, Tshape = i64, num_row_partition_tensors = 1 : i64, row_partition_types = ["ROW_SPLITS"]} : (tensor<2xi64>, tensor<?xi32>, tensor<i32>, tensor<?xi64>) -> tensor<?x4xi32>
  _Retval(%padded#0) name("padded/_retval_0") {T = i32, index = 0 : i64} : (tensor<?x4xi32>) -> ()
}

// -----

// Tokens that an op other than one of each token alone reads before the
// pad (here a Reshape) are refused, naming it.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
  %x:2 = _Arg name("x") {T = !tfg.string, index = 0 : i64} : () -> tensor<?x!tfg.string>
  %sep:2 = Const name("sep") {dtype = !tfg.string, value = dense<""> : tensor<!tfg.string>} : () -> tensor<!tfg.string>
  %split:4 = StringSplitV2(%x#0, %sep#0) name("split") : (tensor<?x!tfg.string>, tensor<!tfg.string>) -> (tensor<?x2xi64>, tensor<?x!tfg.string>, tensor<2xi64>)
  %b00:2 = Const name("b00") {dtype = i32, value = dense<0> : tensor<2xi32>} : () -> tensor<2xi32>
  %e01:2 = Const name("e01") {dtype = i32, value = dense<[0, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %s11:2 = Const name("s11") {dtype = i32, value = dense<1> : tensor<2xi32>} : () -> tensor<2xi32>
  %rowids:2 = StridedSlice(%split#0, %b00#0, %e01#0, %s11#0) name("rowids") {Index = i32, T = i64, begin_mask = 1 : i64, end_mask = 1 : i64, shrink_axis_mask = 2 : i64} : (tensor<?x2xi64>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?xi64>
  %b0:2 = Const name("b0") {dtype = i32, value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %e1:2 = Const name("e1") {dtype = i32, value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %nrows:2 = StridedSlice(%split#2, %b0#0, %e1#0, %e1#0) name("nrows") {Index = i32, T = i64, shrink_axis_mask = 1 : i64} : (tensor<2xi64>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i64>
  %flat:2 = Const name("flat") {dtype = i32, value = dense<-1> : tensor<1xi32>} : () -> tensor<1xi32>
  %reshaped:2 = Reshape(%split#1, %flat#0) name("reshaped") {T = !tfg.string, Tshape = i32} : (tensor<?x!tfg.string>, tensor<1xi32>) -> tensor<?x!tfg.string>
  %shape:2 = Const name("shape") {dtype = i64, value = dense<[-1, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %default:2 = Const name("default") {dtype = !tfg.string, value = dense<""> : tensor<!tfg.string>} : () -> tensor<!tfg.string>
  // expected-error @+1 {{node 'padded' (RaggedTensorToTensor) pads the tokens of node 'split' (StringSplitV2) after node 'reshaped' (Reshape), which does not compute each token alone; tfc compiles .to_tensor(shape=[None, L]) of a split, with L a constant (TextVectorization's output_sequence_length)}}
  %padded:2 = RaggedTensorToTensor(%shape#0, %split#1, %default#0, %nrows#0, %rowids#0) name("padded") {T = !tfg.string, Tindex = i64, Tshape = i64, num_row_partition_tensors = 2 : i64, row_partition_types = ["FIRST_DIM_SIZE", "VALUE_ROWIDS"]} : (tensor<2xi64>, tensor<?x!tfg.string>, tensor<!tfg.string>, tensor<i64>, tensor<?xi64>) -> tensor<?x3x!tfg.string>
  _Retval(%padded#0) name("padded/_retval_0") {T = !tfg.string, index = 0 : i64} : (tensor<?x3x!tfg.string>) -> ()
  _Retval(%reshaped#0) name("reshaped/_retval_1") {T = !tfg.string, index = 1 : i64} : (tensor<?x!tfg.string>) -> ()
}
