// Tests tfc-bound-dynamic-rows with `feeds`: a feed dimension --max-dim
// bounds (tfc.feed_max_dims) is planned for its bound and counted by a feed
// added after the others; its padding is zeroed. Self-attention shows the
// rules that rows along several dimensions need: a contraction keeps the
// labels it outputs and masks to zero those it sums over, in each operand;
// softmax along rows masks to -inf; Mean over rows divides by the count. A
// shape of rows keeps the bound where it shapes (the Reshape) and reads
// the count where it is data (the Cast). Fetches of rows along dimension 1
// get counts and tfc.row_axes.
// RUN: tfc-opt %s -split-input-file -tfc-bound-dynamic-rows=feeds=true -verify-diagnostics | FileCheck %s

// CHECK-LABEL: module attributes
// CHECK-SAME: tfc.feed_row_counts = array<i64: 1, -1>
// CHECK-SAME: tfc.feeds = ["x:0", "x:0/dim1"]
// CHECK-SAME: tfc.fetches = ["y:0", "mean:0", "n:0", "r:0", "y:0/rows", "r:0/rows"]
// CHECK-SAME: tfc.row_axes = array<i64: 1, 0, 0, 1, 0, 0>
// CHECK-SAME: tfc.row_counts = array<i64: 4, -1, -1, 5, -1, -1>
// CHECK-DAG: %[[COUNT:.*]]:2 = _Arg name("x/dim1") {T = i64, index = 1 : i64} : () -> tensor<i64>
// CHECK-DAG: %[[XROW:.*]]:2 = Const name("x/row") {{.*}} value = dense<{{\[\[\[}}0], [1], [2], [3]]]> : tensor<1x4x1xi64>
// CHECK-DAG: %[[XVALID:.*]]:2 = Less(%[[XROW]]#0, %[[COUNT]]#0) name("x/valid")
// CHECK-DAG: %[[X:.*]]:2 = SelectV2(%[[XVALID]]#0, %[[ARG:.*]]#0, %{{.*}}) name("x/padded")
// CHECK-DAG: %[[ARG]]:2 = _Arg name("x") {T = f32, index = 0 : i64}
// CHECK-DAG: %[[SCORES:.*]]:2 = Einsum(%[[X]]#0, %[[X]]#0) name("scores")
// CHECK-DAG: %[[LOW:.*]]:2 = Const name("p/fill") {{.*}} value = dense<0xFF800000> : tensor<f32>
// CHECK-DAG: %[[KEYS:.*]]:2 = Const name("p/row") {{.*}} value = dense<{{\[\[\[}}0, 1, 2, 3]]]> : tensor<1x1x4xi64>
// CHECK-DAG: %[[PVALID:.*]]:2 = Less(%[[KEYS]]#0, %[[COUNT]]#0) name("p/valid")
// CHECK-DAG: %[[MASKED:.*]]:2 = SelectV2(%[[PVALID]]#0, %[[SCORES]]#0, %[[LOW]]#0) name("p/padded")
// CHECK-DAG: %[[P:.*]]:2 = Softmax(%[[MASKED]]#0) name("p")
// CHECK-DAG: %[[P0:.*]]:2 = SelectV2(%{{.*}}, %[[P]]#0, %{{.*}}) name("y/operand_0/padded") {{.*}} -> tensor<2x4x4xf32>
// CHECK-DAG: %[[X1:.*]]:2 = SelectV2(%{{.*}}, %[[X]]#0, %{{.*}}) name("y/operand_1/padded") {{.*}} -> tensor<2x4x3xf32>
// CHECK-DAG: %[[Y:.*]]:2 = Einsum(%[[P0]]#0, %[[X1]]#0) name("y")
// CHECK-DAG: %[[SUMMED:.*]]:2 = SelectV2(%{{.*}}, %[[Y]]#0, %{{.*}}) name("mean/padded")
// CHECK-DAG: %[[SUM:.*]]:2 = Sum(%[[SUMMED]]#0, %{{.*}}) name("mean/sum")
// CHECK-DAG: %[[N:.*]]:2 = Cast(%[[COUNT]]#0) name("mean/count")
// CHECK-DAG: %[[MEAN:.*]]:2 = RealDiv(%[[SUM]]#0, %[[N]]#0) name("mean")
// CHECK-DAG: %[[SHAPE:.*]]:2 = Shape(%[[Y]]#0) name("shape")
// CHECK-DAG: %[[LENGTHS:.*]]:2 = FloorDiv(%{{.*}}, %{{.*}}) name("shape/count")
// CHECK-DAG: %[[LEN:.*]]:2 = StridedSlice(%[[SHAPE]]#0, {{.*}}) name("len")
// CHECK-DAG: %[[READ:.*]]:2 = StridedSlice(%[[LENGTHS]]#0, {{.*}}) name("len/count")
// CHECK-DAG: %[[NF:.*]]:2 = Cast(%[[READ]]#0) name("n/count")
// CHECK-DAG: %[[TARGET:.*]]:2 = Pack(%{{.*}}, %[[LEN]]#0, %{{.*}}) name("target")
// CHECK-DAG: %[[R:.*]]:2 = Reshape(%[[Y]]#0, %[[TARGET]]#0) name("r") {{.*}} -> tensor<2x4x3xf32>
// CHECK-DAG: _Retval(%[[COUNT]]#0) name("y/_retval_0/rows") {T = i64, index = 4 : i64}
// CHECK-DAG: _Retval(%[[Y]]#0) name("y/_retval_0")
// CHECK-DAG: _Retval(%[[MEAN]]#0) name("mean/_retval_1")
// CHECK-DAG: _Retval(%[[NF]]#0) name("n/_retval_2")
// CHECK-DAG: _Retval(%[[R]]#0) name("r/_retval_3")
module attributes {tfc.feeds = ["x:0"], tfc.feed_max_dims = [array<i64: 1, 4>], tfc.fetches = ["y:0", "mean:0", "n:0", "r:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<2x4x3xf32>
    %scores:2 = Einsum(%x#0, %x#0) name("scores") {N = 2 : i64, T = f32, equation = "btd,bsd->bts"} : (tensor<2x4x3xf32>, tensor<2x4x3xf32>) -> tensor<2x4x4xf32>
    %p:2 = Softmax(%scores#0) name("p") {T = f32} : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %y:2 = Einsum(%p#0, %x#0) name("y") {N = 2 : i64, T = f32, equation = "bts,bsd->btd"} : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
    %axis:2 = Const name("axis") {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %mean:2 = Mean(%y#0, %axis#0) name("mean") {T = f32, Tidx = i32, keep_dims = false} : (tensor<2x4x3xf32>, tensor<i32>) -> tensor<2x3xf32>
    %shape:2 = Shape(%y#0) name("shape") {T = f32, out_type = i32} : (tensor<2x4x3xf32>) -> tensor<3xi32>
    %b:2 = Const name("b") {dtype = i32, value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
    %e:2 = Const name("e") {dtype = i32, value = dense<2> : tensor<1xi32>} : () -> tensor<1xi32>
    %len:2 = StridedSlice(%shape#0, %b#0, %e#0, %b#0) name("len") {Index = i32, T = i32, shrink_axis_mask = 1 : i64} : (tensor<3xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
    %n:2 = Cast(%len#0) name("n") {DstT = f32, SrcT = i32, Truncate = false} : (tensor<i32>) -> tensor<f32>
    %minus:2 = Const name("minus") {dtype = i32, value = dense<-1> : tensor<i32>} : () -> tensor<i32>
    %two:2 = Const name("two") {dtype = i32, value = dense<2> : tensor<i32>} : () -> tensor<i32>
    %target:2 = Pack(%two#0, %len#0, %minus#0) name("target") {N = 3 : i64, T = i32, axis = 0 : i64} : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3xi32>
    %r:2 = Reshape(%y#0, %target#0) name("r") {T = f32, Tshape = i32} : (tensor<2x4x3xf32>, tensor<3xi32>) -> tensor<2x4x3xf32>
    _Retval(%y#0) name("y/_retval_0") {T = f32, index = 0 : i64} : (tensor<2x4x3xf32>) -> ()
    _Retval(%mean#0) name("mean/_retval_1") {T = f32, index = 1 : i64} : (tensor<2x3xf32>) -> ()
    _Retval(%n#0) name("n/_retval_2") {T = f32, index = 2 : i64} : (tensor<f32>) -> ()
    _Retval(%r#0) name("r/_retval_3") {T = f32, index = 3 : i64} : (tensor<2x4x3xf32>) -> ()
  }
}

// -----

// A cumulative sum along the rows from the end: the padding would be
// summed in. (From the start, it reads only the slices before.)
module attributes {tfc.feeds = ["x:0"], tfc.feed_max_dims = [array<i64: 1, 4>], tfc.fetches = ["c:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<2x4xf32>
    %axis:2 = Const name("axis") {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
    // expected-error @+1 {{node 'c' (Cumsum) accumulates along the rows of feed 'x:0' along dimension 1, whose size --max-dim bounds; tfc plans them for their bound and cannot here}}
    %c:2 = Cumsum(%x#0, %axis#0) name("c") {T = f32, Tidx = i32, reverse = true} : (tensor<2x4xf32>, tensor<i32>) -> tensor<2x4xf32>
    _Retval(%c#0) name("c/_retval_0") {T = f32, index = 0 : i64} : (tensor<2x4xf32>) -> ()
  }
}

// -----

// A shape computed from the length (twice it) used as a shape.
module attributes {tfc.feeds = ["x:0"], tfc.feed_max_dims = [array<i64: 1, 4>], tfc.fetches = ["r:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<2x4xf32>
    %shape:2 = Shape(%x#0) name("shape") {T = f32, out_type = i32} : (tensor<2x4xf32>) -> tensor<2xi32>
    %two:2 = Const name("two") {dtype = i32, value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
    %zero:2 = Const name("zero") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %twice:2 = Mul(%shape#0, %two#0) name("twice") {T = i32} : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    // expected-error @+1 {{node 'r' (Fill) fills a shape computed from the rows of feed 'x:0' along dimension 1, whose size --max-dim bounds; tfc plans them for their bound and cannot here}}
    %r:2 = Fill(%twice#0, %zero#0) name("r") {T = i32, index_type = i32} : (tensor<2xi32>, tensor<i32>) -> tensor<2x8xi32>
    _Retval(%r#0) name("r/_retval_0") {T = i32, index = 0 : i64} : (tensor<2x8xi32>) -> ()
  }
}

// -----

// Two bounded feeds that the model adds: their counts become one, and an
// Assert that the Add waits for stops the step where they differ, as
// TensorFlow stops on incompatible shapes. x[:, 0] takes the first slice of
// the rows, checked within them.
// CHECK-LABEL: module attributes
// CHECK-SAME: tfc.feed_row_counts = array<i64: 2, 3, -1, -1>
// CHECK-SAME: tfc.feeds = ["a:0", "b:0", "a:0/dim1", "b:0/dim1"]
// CHECK-DAG: %[[A:.*]]:2 = _Arg name("a/dim1") {T = i64, index = 2 : i64}
// CHECK-DAG: %[[B:.*]]:2 = _Arg name("b/dim1") {T = i64, index = 3 : i64}
// CHECK-DAG: %[[SAME:.*]]:2 = Equal(%[[B]]#0, %[[A]]#0) name("sum/same_length/equal")
// CHECK-DAG: %[[WHY:.*]]:2 = Const name("sum/check/message") {{.*}} value = dense<"Incompatible shapes: feeds 'b:0' (dimension 1) and 'a:0' (dimension 1) differ in size where node 'sum' combines them">
// CHECK-DAG: %[[CHECK:.*]] = Assert(%[[SAME]]#0, %[[WHY]]#0) name("sum/check")
// CHECK-DAG: AddV2(%{{.*}}, %{{.*}}) [%[[CHECK]]] name("sum")
// CHECK-DAG: %[[FIRST:.*]]:2 = Const name("first/within/index") {{.*}} value = dense<0> : tensor<i64>
// CHECK-DAG: %[[WITHIN:.*]]:2 = Less(%[[FIRST]]#0, %[[A]]#0) name("first/within/less")
// CHECK-DAG: %[[BOUNDS:.*]] = Assert(%[[WITHIN]]#0, %{{.*}}) name("first/check")
// CHECK-DAG: StridedSlice({{.*}}) [%[[BOUNDS]]] name("first")
module attributes {tfc.feeds = ["a:0", "b:0"], tfc.feed_max_dims = [array<i64: 1, 4>, array<i64: 1, 4>], tfc.fetches = ["first:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %a:2 = _Arg name("a") {T = f32, index = 0 : i64} : () -> tensor<2x4xf32>
    %b:2 = _Arg name("b") {T = f32, index = 1 : i64} : () -> tensor<2x4xf32>
    %sum:2 = AddV2(%a#0, %b#0) name("sum") {T = f32} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %begin:2 = Const name("begin") {dtype = i32, value = dense<[0, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
    %end:2 = Const name("end") {dtype = i32, value = dense<[0, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
    %strides:2 = Const name("strides") {dtype = i32, value = dense<1> : tensor<2xi32>} : () -> tensor<2xi32>
    %first:2 = StridedSlice(%sum#0, %begin#0, %end#0, %strides#0) name("first") {Index = i32, T = f32, begin_mask = 1 : i64, end_mask = 1 : i64, shrink_axis_mask = 2 : i64} : (tensor<2x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2xf32>
    _Retval(%first#0) name("first/_retval_0") {T = f32, index = 0 : i64} : (tensor<2xf32>) -> ()
  }
}

// -----

// Keras' causal Conv1D: a Pad of 2 before the rows (2 more slices are
// TensorFlow's), then a valid convolution of 3 (2 fewer): the same count
// as the feed's, added to it. A valid convolution of 2 then has one slice
// fewer: its fetch's count is count - 1, at least 0.
// CHECK-LABEL: module attributes
// CHECK-SAME: tfc.fetches = ["causal:0", "valid:0", "causal:0/rows", "valid:0/rows"]
// CHECK-SAME: tfc.row_axes = array<i64: 1, 2, 0, 0>
// CHECK-DAG: %[[COUNT:.*]]:2 = _Arg name("x/dim1")
// CHECK-DAG: %[[CAUSAL:.*]]:2 = Squeeze(%{{.*}}) name("causal")
// CHECK-DAG: AddV2(%[[CAUSAL]]#0, %{{.*}}) name("sum")
// CHECK-DAG: _Retval(%[[COUNT]]#0) name("causal/_retval_0/rows")
// CHECK-DAG: %[[MINUS:.*]]:2 = Const name("valid/_retval_1/count/offset") {{.*}} value = dense<-1> : tensor<i64>
// CHECK-DAG: %[[FEWER:.*]]:2 = AddV2(%[[COUNT]]#0, %[[MINUS]]#0) name("valid/_retval_1/count")
// CHECK-DAG: %[[LEFT:.*]]:2 = Maximum(%[[FEWER]]#0, %{{.*}}) name("valid/_retval_1/count/at_least_none")
// CHECK-DAG: _Retval(%[[LEFT]]#0) name("valid/_retval_1/rows")
module attributes {tfc.feeds = ["x:0"], tfc.feed_max_dims = [array<i64: 1, 4>], tfc.fetches = ["causal:0", "valid:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<2x4x3xf32>
    %pads:2 = Const name("pads") {dtype = i32, value = dense<[[0, 0], [2, 0], [0, 0]]> : tensor<3x2xi32>} : () -> tensor<3x2xi32>
    %padded:2 = Pad(%x#0, %pads#0) name("padded") {T = f32, Tpaddings = i32} : (tensor<2x4x3xf32>, tensor<3x2xi32>) -> tensor<2x6x3xf32>
    %one:2 = Const name("one") {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %wide:2 = ExpandDims(%padded#0, %one#0) name("wide") {T = f32, Tdim = i32} : (tensor<2x6x3xf32>, tensor<i32>) -> tensor<2x1x6x3xf32>
    %w3:2 = Const name("w3") {dtype = f32, value = dense<0.5> : tensor<1x3x3x3xf32>} : () -> tensor<1x3x3x3xf32>
    %conv:2 = Conv2D(%wide#0, %w3#0) name("conv") {T = f32, data_format = "NHWC", dilations = [1, 1, 1, 1], padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<2x1x6x3xf32>, tensor<1x3x3x3xf32>) -> tensor<2x1x4x3xf32>
    %causal:2 = Squeeze(%conv#0) name("causal") {T = f32, squeeze_dims = [1]} : (tensor<2x1x4x3xf32>) -> tensor<2x4x3xf32>
    %sum:2 = AddV2(%causal#0, %x#0) name("sum") {T = f32} : (tensor<2x4x3xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
    %wide2:2 = ExpandDims(%sum#0, %one#0) name("wide2") {T = f32, Tdim = i32} : (tensor<2x4x3xf32>, tensor<i32>) -> tensor<2x1x4x3xf32>
    %w2:2 = Const name("w2") {dtype = f32, value = dense<0.5> : tensor<1x2x3x3xf32>} : () -> tensor<1x2x3x3xf32>
    %valid:2 = Conv2D(%wide2#0, %w2#0) name("valid") {T = f32, data_format = "NHWC", dilations = [1, 1, 1, 1], padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<2x1x4x3xf32>, tensor<1x2x3x3xf32>) -> tensor<2x1x3x3xf32>
    _Retval(%causal#0) name("causal/_retval_0") {T = f32, index = 0 : i64} : (tensor<2x4x3xf32>) -> ()
    _Retval(%valid#0) name("valid/_retval_1") {T = f32, index = 1 : i64} : (tensor<2x1x3x3xf32>) -> ()
  }
}

// -----

// Rows along a list's elements (a sequence unstacked for a loop): the list
// made from the rows, stacked back, is rows again; its length is the count
// where it is data (the Cast) and the bound where it sizes a list (the
// Reserve, whose stack is rows too). A reverse along the rows is a
// ReverseSequence of `count` slices, the padding left after them.
// CHECK-LABEL: module attributes
// CHECK-SAME: tfc.fetches = ["stacked:0", "reversed:0", "n:0", "empty:0", "stacked:0/rows", "reversed:0/rows", "empty:0/rows"]
// CHECK-DAG: %[[COUNT:.*]]:2 = _Arg name("x/dim0")
// CHECK-DAG: %[[LIST:.*]]:2 = TensorListFromTensor(%{{.*}}, %{{.*}}) name("list")
// CHECK-DAG: %[[LENGTH:.*]]:2 = TensorListLength(%[[LIST]]#0) name("length")
// CHECK-DAG: %[[READ:.*]]:2 = Cast(%[[COUNT]]#0) name("length/count") {{.*}} -> tensor<i32>
// CHECK-DAG: Cast(%[[READ]]#0) name("n/count")
// CHECK-DAG: %[[LENGTHS:.*]]:2 = Fill(%{{.*}}, %[[COUNT]]#0) name("reversed/lengths") {{.*}} -> tensor<2xi64>
// CHECK-DAG: ReverseSequence(%{{.*}}, %[[LENGTHS]]#0) name("reversed") {T = f32, Tlen = i64, batch_dim = 1 : i64, seq_dim = 0 : i64}
// CHECK-DAG: TensorListReserve(%{{.*}}, %[[LENGTH]]#0) name("reserved")
// CHECK-DAG: _Retval(%[[COUNT]]#0) name("empty/_retval_3/rows")
module attributes {tfc.feeds = ["x:0"], tfc.feed_max_dims = [array<i64: 0, 4>], tfc.fetches = ["stacked:0", "reversed:0", "n:0", "empty:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<4x2x3xf32>
    %element:2 = Const name("element") {dtype = i32, value = dense<[2, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
    %list:2 = TensorListFromTensor(%x#0, %element#0) name("list") {element_dtype = f32, shape_type = i32} : (tensor<4x2x3xf32>, tensor<2xi32>) -> tensor<!tfg.variant>
    %stacked:2 = TensorListStack(%list#0, %element#0) name("stacked") {element_dtype = f32, num_elements = -1 : i64} : (tensor<!tfg.variant>, tensor<2xi32>) -> tensor<4x2x3xf32>
    %length:2 = TensorListLength(%list#0) name("length") : (tensor<!tfg.variant>) -> tensor<i32>
    %n:2 = Cast(%length#0) name("n") {DstT = f32, SrcT = i32, Truncate = false} : (tensor<i32>) -> tensor<f32>
    %zero:2 = Const name("zero") {dtype = i32, value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
    %reversed:2 = ReverseV2(%x#0, %zero#0) name("reversed") {T = f32, Tidx = i32} : (tensor<4x2x3xf32>, tensor<1xi32>) -> tensor<4x2x3xf32>
    %reserved:2 = TensorListReserve(%element#0, %length#0) name("reserved") {element_dtype = f32, shape_type = i32} : (tensor<2xi32>, tensor<i32>) -> tensor<!tfg.variant>
    %empty:2 = TensorListStack(%reserved#0, %element#0) name("empty") {element_dtype = f32, num_elements = -1 : i64} : (tensor<!tfg.variant>, tensor<2xi32>) -> tensor<4x2x3xf32>
    _Retval(%stacked#0) name("stacked/_retval_0") {T = f32, index = 0 : i64} : (tensor<4x2x3xf32>) -> ()
    _Retval(%reversed#0) name("reversed/_retval_1") {T = f32, index = 1 : i64} : (tensor<4x2x3xf32>) -> ()
    _Retval(%n#0) name("n/_retval_2") {T = f32, index = 2 : i64} : (tensor<f32>) -> ()
    _Retval(%empty#0) name("empty/_retval_3") {T = f32, index = 3 : i64} : (tensor<4x2x3xf32>) -> ()
  }
}

// -----

// An FFT2D whose outer transformed dimension is the rows (FNet's over
// positions): the inner dimension by an FFT, then the rows by the count's
// DFT matrix, cos and sin parts, zero past the count in both directions.
// CHECK-LABEL: module attributes
// CHECK-DAG: %[[COUNT:.*]]:2 = _Arg name("x/dim1")
// CHECK-DAG: %[[INNER:.*]]:2 = FFT(%{{.*}}) name("mixed/inner") {Tcomplex = complex<f32>}
// CHECK-DAG: %[[POINTS:.*]]:2 = Maximum(%[[COUNT]]#0, %{{.*}}) name("mixed/dft/points")
// CHECK-DAG: %[[KJ:.*]]:2 = Const name("mixed/dft/kj") {{.*}} value = dense<{{\[\[}}0, 0, 0], [0, 1, 2], [0, 2, 4]]> : tensor<3x3xi64>
// CHECK-DAG: FloorMod(%[[KJ]]#0, %[[POINTS]]#0) name("mixed/dft/phase")
// CHECK-DAG: Less(%{{.*}}, %[[COUNT]]#0) name("mixed/dft/valid_k")
// CHECK-DAG: Less(%{{.*}}, %[[COUNT]]#0) name("mixed/dft/valid_j")
// CHECK-DAG: %[[COS:.*]]:2 = SelectV2(%{{.*}}, %{{.*}}, %{{.*}}) name("mixed/dft/cos_masked")
// CHECK-DAG: %[[SIN:.*]]:2 = SelectV2(%{{.*}}, %{{.*}}, %{{.*}}) name("mixed/dft/sin_masked")
// CHECK-DAG: %[[RE:.*]]:2 = Real(%[[INNER]]#0) name("mixed/dft/real")
// CHECK-DAG: %[[IM:.*]]:2 = Imag(%[[INNER]]#0) name("mixed/dft/imag")
// CHECK-DAG: %[[CA:.*]]:2 = Einsum(%[[COS]]#0, %[[RE]]#0) name("mixed/dft/ca") {N = 2 : i64, T = f32, equation = "Zb,abc->aZc"}
// CHECK-DAG: %[[SB:.*]]:2 = Einsum(%[[SIN]]#0, %[[IM]]#0) name("mixed/dft/sb")
// CHECK-DAG: %[[OUTRE:.*]]:2 = AddV2(%[[CA]]#0, %[[SB]]#0) name("mixed/dft/re")
// CHECK-DAG: %[[OUTIM:.*]]:2 = Sub(%{{.*}}, %{{.*}}) name("mixed/dft/im")
// CHECK-DAG: Complex(%[[OUTRE]]#0, %[[OUTIM]]#0) name("mixed") {T = f32, Tout = complex<f32>}
module attributes {tfc.feeds = ["x:0"], tfc.feed_max_dims = [array<i64: 1, 3>], tfc.fetches = ["mixed:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = complex<f32>, index = 0 : i64} : () -> tensor<2x3x4xcomplex<f32>>
    %mixed:2 = FFT2D(%x#0) name("mixed") {Tcomplex = complex<f32>} : (tensor<2x3x4xcomplex<f32>>) -> tensor<2x3x4xcomplex<f32>>
    _Retval(%mixed#0) name("mixed/_retval_0") {T = complex<f32>, index = 0 : i64} : (tensor<2x3x4xcomplex<f32>>) -> ()
  }
}

// -----

// Along the rows, an RFFT (whose points are real) is refused.
module attributes {tfc.feeds = ["x:0"], tfc.feed_max_dims = [array<i64: 1, 3>], tfc.fetches = ["spectrum:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<2x3xf32>
    %length:2 = Const name("length") {dtype = i32, value = dense<3> : tensor<1xi32>} : () -> tensor<1xi32>
    // expected-error @+1 {{node 'spectrum' (RFFT) transforms along the rows of feed 'x:0' along dimension 1, whose size --max-dim bounds; tfc plans them for their bound and cannot here}}
    %spectrum:2 = RFFT(%x#0, %length#0) name("spectrum") {Tcomplex = complex<f32>, Treal = f32} : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<2x2xcomplex<f32>>
    _Retval(%spectrum#0) name("spectrum/_retval_0") {T = complex<f32>, index = 0 : i64} : (tensor<2x2xcomplex<f32>>) -> ()
  }
}

// -----

// DeBERTa's relative positions: a Tile by the count (reshaped from a
// shape of rows, tf.repeat's way) along a dimension of 1 is rows of the
// count there; a Tile by the batch size sliced from the same shape is an
// ordinary Tile (no count in it). A gather with batch_dims=2 whose params
// and indices have the same rows along a batch dimension keeps them.
// CHECK-LABEL: module attributes
// CHECK-SAME: tfc.fetches = ["repeated:0", "batched:0", "gathered:0", "repeated:0/rows", "gathered:0/rows"]
// CHECK-SAME: tfc.row_axes = array<i64: 0, 0, 1, 0, 0>, tfc.row_counts = array<i64: 3, -1, 4, -1, -1>
// CHECK-DAG: %[[COUNT:.*]]:2 = _Arg name("x/dim1")
// CHECK-DAG: _Retval(%[[COUNT]]#0) name("repeated/_retval_0/rows")
// CHECK-DAG: _Retval(%[[COUNT]]#0) name("gathered/_retval_2/rows")
// CHECK-DAG: Tile(%{{.*}}, %{{.*}}) name("batched")
module attributes {tfc.feeds = ["x:0"], tfc.feed_max_dims = [array<i64: 1, 4>], tfc.fetches = ["repeated:0", "batched:0", "gathered:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<2x4xf32>
    %shape:2 = Shape(%x#0) name("shape") {T = f32, out_type = i32} : (tensor<2x4xf32>) -> tensor<2xi32>
    %b0:2 = Const name("b0") {dtype = i32, value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
    %b1:2 = Const name("b1") {dtype = i32, value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
    %b2:2 = Const name("b2") {dtype = i32, value = dense<2> : tensor<1xi32>} : () -> tensor<1xi32>
    %n:2 = StridedSlice(%shape#0, %b1#0, %b2#0, %b1#0) name("n") {Index = i32, T = i32, shrink_axis_mask = 1 : i64} : (tensor<2xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
    %batch:2 = StridedSlice(%shape#0, %b0#0, %b1#0, %b1#0) name("batch") {Index = i32, T = i32, shrink_axis_mask = 1 : i64} : (tensor<2xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
    %nv:2 = Reshape(%n#0, %b1#0) name("nv") {T = i32, Tshape = i32} : (tensor<i32>, tensor<1xi32>) -> tensor<1xi32>
    %bv:2 = Reshape(%batch#0, %b1#0) name("bv") {T = i32, Tshape = i32} : (tensor<i32>, tensor<1xi32>) -> tensor<1xi32>
    %axis:2 = Const name("axis") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %by:2 = ConcatV2(%nv#0, %b1#0, %axis#0) name("by") {N = 2 : i64, T = i32, Tidx = i32} : (tensor<1xi32>, tensor<1xi32>, tensor<i32>) -> tensor<2xi32>
    %bybatch:2 = ConcatV2(%bv#0, %b1#0, %axis#0) name("bybatch") {N = 2 : i64, T = i32, Tidx = i32} : (tensor<1xi32>, tensor<1xi32>, tensor<i32>) -> tensor<2xi32>
    %row:2 = Const name("row") {dtype = f32, value = dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>} : () -> tensor<1x3xf32>
    %repeated:2 = Tile(%row#0, %by#0) name("repeated") {T = f32, Tmultiples = i32} : (tensor<1x3xf32>, tensor<2xi32>) -> tensor<4x3xf32>
    %batched:2 = Tile(%row#0, %bybatch#0) name("batched") {T = f32, Tmultiples = i32} : (tensor<1x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
    %two:2 = Const name("two") {dtype = i32, value = dense<2> : tensor<i32>} : () -> tensor<i32>
    %column:2 = ExpandDims(%x#0, %two#0) name("column") {T = f32, Tdim = i32} : (tensor<2x4xf32>, tensor<i32>) -> tensor<2x4x1xf32>
    %params:2 = AddV2(%column#0, %row#0) name("params") {T = f32} : (tensor<2x4x1xf32>, tensor<1x3xf32>) -> tensor<2x4x3xf32>
    %zero:2 = Const name("zero") {dtype = f32, value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
    %negative:2 = Less(%column#0, %zero#0) name("negative") {T = f32} : (tensor<2x4x1xf32>, tensor<f32>) -> tensor<2x4x1xi1>
    %indices:2 = Cast(%negative#0) name("indices") {DstT = i32, SrcT = i1, Truncate = false} : (tensor<2x4x1xi1>) -> tensor<2x4x1xi32>
    %gathered:2 = GatherV2(%params#0, %indices#0, %two#0) name("gathered") {Taxis = i32, Tindices = i32, Tparams = f32, batch_dims = 2 : i64} : (tensor<2x4x3xf32>, tensor<2x4x1xi32>, tensor<i32>) -> tensor<2x4x1xf32>
    _Retval(%repeated#0) name("repeated/_retval_0") {T = f32, index = 0 : i64} : (tensor<4x3xf32>) -> ()
    _Retval(%batched#0) name("batched/_retval_1") {T = f32, index = 1 : i64} : (tensor<2x3xf32>) -> ()
    _Retval(%gathered#0) name("gathered/_retval_2") {T = f32, index = 2 : i64} : (tensor<2x4x1xf32>) -> ()
  }
}
