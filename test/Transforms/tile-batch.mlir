// Tests tfc-tile-batch: a feed of unknown batch whose rows stay apart down
// to the fetches (Keras' Flatten: Shape -> StridedSlice -> Pack ->
// Reshape; a product with weights; a softmax over features) is fixed at
// the tile, shapes refined, and tfc.batch records the tile and which feeds
// and fetches carry the batch (a fetch computed from constants alone does
// not); every way rows can mix is an error naming the feed and the node.
// RUN: tfc-opt %s -split-input-file -tfc-tile-batch -verify-diagnostics | FileCheck %s

// CHECK: module attributes {tfc.batch = {feeds = [0], fetches = [0], tile = 1 : i64}
// CHECK-DAG: _Arg name("x") {{.*}} : () -> tensor<1x3x8xf32>
// CHECK-DAG: Reshape({{.*}}) name("flatten") {{.*}} -> tensor<1x24xf32>
// CHECK-DAG: Softmax({{.*}}) name("probs") {{.*}} -> tensor<1x4xf32>
module attributes {tfc.feeds = ["x:0"], tfc.fetches = ["probs:0", "bias:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<?x3x8xf32>
    %zero:2 = Const name("zero") {dtype = i32, value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
    %one:2 = Const name("one") {dtype = i32, value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
    %width:2 = Const name("width") {dtype = i32, value = dense<24> : tensor<i32>} : () -> tensor<i32>
    %shape:2 = Shape(%x#0) name("shape") {T = f32, out_type = i32} : (tensor<?x3x8xf32>) -> tensor<3xi32>
    %rows:2 = StridedSlice(%shape#0, %zero#0, %one#0, %one#0) name("rows") {Index = i32, T = i32, shrink_axis_mask = 1 : i64} : (tensor<3xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
    %to:2 = Pack(%rows#0, %width#0) name("to") {N = 2 : i64, T = i32} : (tensor<i32>, tensor<i32>) -> tensor<2xi32>
    %flat:2 = Reshape(%x#0, %to#0) name("flatten") {T = f32, Tshape = i32} : (tensor<?x3x8xf32>, tensor<2xi32>) -> tensor<?x24xf32>
    %w:2 = Const name("w") {dtype = f32, value = dense<1.0> : tensor<24x4xf32>} : () -> tensor<24x4xf32>
    %logits:2 = MatMul(%flat#0, %w#0) name("logits") {T = f32} : (tensor<?x24xf32>, tensor<24x4xf32>) -> tensor<?x4xf32>
    %probs:2 = Softmax(%logits#0) name("probs") {T = f32} : (tensor<?x4xf32>) -> tensor<?x4xf32>
    %b:2 = Const name("b") {dtype = f32, value = dense<2.0> : tensor<4xf32>} : () -> tensor<4xf32>
    %bias:2 = Neg(%b#0) name("bias") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
    _Retval(%probs#0) name("probs/_retval_0") {T = f32, index = 0 : i64} : (tensor<?x4xf32>) -> ()
    _Retval(%bias#0) name("bias/_retval_1") {T = f32, index = 1 : i64} : (tensor<4xf32>) -> ()
  }
}

// -----

// A tile of 4 rows; the batch moved by a Transpose and back.
// CHECK: module attributes {tfc.batch = {feeds = [0], fetches = [0], tile = 4 : i64}
// CHECK-DAG: _Arg name("x") {{.*}} : () -> tensor<4x5xf32>
// CHECK-DAG: Transpose({{.*}}) name("t") {{.*}} -> tensor<5x4xf32>
// CHECK-DAG: Transpose({{.*}}) name("back") {{.*}} -> tensor<4x5xf32>
module attributes {tfc.batch_tile = 4 : i64, tfc.feeds = ["x:0"], tfc.fetches = ["back:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<?x5xf32>
    %perm:2 = Const name("perm") {dtype = i32, value = dense<[1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
    %t:2 = Transpose(%x#0, %perm#0) name("t") {T = f32, Tperm = i32} : (tensor<?x5xf32>, tensor<2xi32>) -> tensor<5x?xf32>
    %e:2 = Exp(%t#0) name("e") {T = f32} : (tensor<5x?xf32>) -> tensor<5x?xf32>
    %back:2 = Transpose(%e#0, %perm#0) name("back") {T = f32, Tperm = i32} : (tensor<5x?xf32>, tensor<2xi32>) -> tensor<?x5xf32>
    _Retval(%back#0) name("back/_retval_0") {T = f32, index = 0 : i64} : (tensor<?x5xf32>) -> ()
  }
}

// -----

// The 3-D windows keep rows apart, as the 2-D ones do (Keras' Conv3D and
// MaxPooling3D).
// CHECK: module attributes {tfc.batch = {feeds = [0], fetches = [0], tile = 1 : i64}
// CHECK-DAG: Conv3D({{.*}}) name("conv") {{.*}} -> tensor<1x4x4x4x3xf32>
// CHECK-DAG: MaxPool3D({{.*}}) name("pool") {{.*}} -> tensor<1x2x2x2x3xf32>
module attributes {tfc.feeds = ["x:0"], tfc.fetches = ["pool:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<?x5x5x5x2xf32>
    %w:2 = Const name("w") {dtype = f32, value = dense<1.0> : tensor<2x2x2x2x3xf32>} : () -> tensor<2x2x2x2x3xf32>
    %conv:2 = Conv3D(%x#0, %w#0) name("conv") {T = f32, padding = "VALID", strides = [1, 1, 1, 1, 1]} : (tensor<?x5x5x5x2xf32>, tensor<2x2x2x2x3xf32>) -> tensor<?x4x4x4x3xf32>
    %pool:2 = MaxPool3D(%conv#0) name("pool") {T = f32, ksize = [1, 2, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 2, 1]} : (tensor<?x4x4x4x3xf32>) -> tensor<?x2x2x2x3xf32>
    _Retval(%pool#0) name("pool/_retval_0") {T = f32, index = 0 : i64} : (tensor<?x2x2x2x3xf32>) -> ()
  }
}

// -----

// A dilated convolution's blocks: SpaceToBatchND makes two blocks of the
// batch, row kernels keep them apart, BatchToSpaceND gathers them back
// (Keras' dilated causal Conv1D); a tile of 2 rows.
// CHECK: module attributes {tfc.batch = {feeds = [0], fetches = [0], tile = 2 : i64}
// CHECK-DAG: SpaceToBatchND({{.*}}) name("s2b") {{.*}} -> tensor<4x6x4xf32>
// CHECK-DAG: BatchToSpaceND({{.*}}) name("b2s") {{.*}} -> tensor<2x12x4xf32>
module attributes {tfc.batch_tile = 2 : i64, tfc.feeds = ["x:0"], tfc.fetches = ["b2s:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<?x12x4xf32>
    %block:2 = Const name("block") {dtype = i32, value = dense<2> : tensor<1xi32>} : () -> tensor<1xi32>
    %pads:2 = Const name("pads") {dtype = i32, value = dense<0> : tensor<1x2xi32>} : () -> tensor<1x2xi32>
    %s2b:2 = SpaceToBatchND(%x#0, %block#0, %pads#0) name("s2b") {T = f32, Tblock_shape = i32, Tpaddings = i32} : (tensor<?x12x4xf32>, tensor<1xi32>, tensor<1x2xi32>) -> tensor<?x6x4xf32>
    %r:2 = Relu(%s2b#0) name("relu") {T = f32} : (tensor<?x6x4xf32>) -> tensor<?x6x4xf32>
    %b2s:2 = BatchToSpaceND(%r#0, %block#0, %pads#0) name("b2s") {T = f32, Tblock_shape = i32, Tcrops = i32} : (tensor<?x6x4xf32>, tensor<1xi32>, tensor<1x2xi32>) -> tensor<?x12x4xf32>
    _Retval(%b2s#0) name("b2s/_retval_0") {T = f32, index = 0 : i64} : (tensor<?x12x4xf32>) -> ()
  }
}

// -----

// expected-error @+1 {{feed 'x:0' has shape [?,12,4], unknown at compile time, and one program cannot serve every batch: node 't' (Transpose) moves the blocks SpaceToBatchND made of the rows}}
module attributes {tfc.feeds = ["x:0"], tfc.fetches = ["t:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<?x12x4xf32>
    %block:2 = Const name("block") {dtype = i32, value = dense<2> : tensor<1xi32>} : () -> tensor<1xi32>
    %pads:2 = Const name("pads") {dtype = i32, value = dense<0> : tensor<1x2xi32>} : () -> tensor<1x2xi32>
    %s2b:2 = SpaceToBatchND(%x#0, %block#0, %pads#0) name("s2b") {T = f32, Tblock_shape = i32, Tpaddings = i32} : (tensor<?x12x4xf32>, tensor<1xi32>, tensor<1x2xi32>) -> tensor<?x6x4xf32>
    %perm:2 = Const name("perm") {dtype = i32, value = dense<[1, 0, 2]> : tensor<3xi32>} : () -> tensor<3xi32>
    %t:2 = Transpose(%s2b#0, %perm#0) name("t") {T = f32, Tperm = i32} : (tensor<?x6x4xf32>, tensor<3xi32>) -> tensor<6x?x4xf32>
    _Retval(%t#0) name("t/_retval_0") {T = f32, index = 0 : i64} : (tensor<6x?x4xf32>) -> ()
  }
}

// -----

// expected-error @+1 {{feed 'x:0' has shape [?,3], unknown at compile time, and one program cannot serve every batch: node 'mean' (Mean) reduces over the batch; give its shape, e.g. --feed x:0=1,3}}
module attributes {tfc.feeds = ["x:0"], tfc.fetches = ["mean:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<?x3xf32>
    %axis:2 = Const name("axis") {dtype = i32, value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
    %mean:2 = Mean(%x#0, %axis#0) name("mean") {T = f32, Tidx = i32} : (tensor<?x3xf32>, tensor<1xi32>) -> tensor<3xf32>
    _Retval(%mean#0) name("mean/_retval_0") {T = f32, index = 0 : i64} : (tensor<3xf32>) -> ()
  }
}

// -----

// Dividing by the batch size (a mean written by hand).
// expected-error @+1 {{node 'n' (Cast) computes with the batch size other than as a shape}}
module attributes {tfc.feeds = ["x:0"], tfc.fetches = ["y:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<?x3xf32>
    %size:2 = Size(%x#0) name("size") {T = f32, out_type = i32} : (tensor<?x3xf32>) -> tensor<i32>
    %n:2 = Cast(%size#0) name("n") {DstT = f32, SrcT = i32} : (tensor<i32>) -> tensor<f32>
    %y:2 = RealDiv(%x#0, %n#0) name("y") {T = f32} : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x3xf32>
    _Retval(%y#0) name("y/_retval_0") {T = f32, index = 0 : i64} : (tensor<?x3xf32>) -> ()
  }
}

// -----

// The whole batch as one row: each row's elements stay apart (a run of 3
// along dimension 1), but the fetch's rows are not the batch's.
// expected-error @+1 {{fetch 'all:0' has the batch as dimension 1, not the first}}
module attributes {tfc.feeds = ["x:0"], tfc.fetches = ["all:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<?x3xf32>
    %to:2 = Const name("to") {dtype = i32, value = dense<[1, -1]> : tensor<2xi32>} : () -> tensor<2xi32>
    %all:2 = Reshape(%x#0, %to#0) name("all") {T = f32, Tshape = i32} : (tensor<?x3xf32>, tensor<2xi32>) -> tensor<1x?xf32>
    _Retval(%all#0) name("all/_retval_0") {T = f32, index = 0 : i64} : (tensor<1x?xf32>) -> ()
  }
}

// -----

// x^T x: a product over the batch.
// expected-error @+1 {{node 'gram' (MatMul) combines rows of the batch}}
module attributes {tfc.feeds = ["x:0"], tfc.fetches = ["gram:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<?x3xf32>
    %gram:2 = MatMul(%x#0, %x#0) name("gram") {T = f32, transpose_a = true} : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<3x3xf32>
    _Retval(%gram#0) name("gram/_retval_0") {T = f32, index = 0 : i64} : (tensor<3x3xf32>) -> ()
  }
}

// -----

// expected-error @+1 {{fetch 'y:0' has the batch as dimension 1, not the first}}
module attributes {tfc.feeds = ["x:0"], tfc.fetches = ["y:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<?x5xf32>
    %perm:2 = Const name("perm") {dtype = i32, value = dense<[1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
    %y:2 = Transpose(%x#0, %perm#0) name("y") {T = f32, Tperm = i32} : (tensor<?x5xf32>, tensor<2xi32>) -> tensor<5x?xf32>
    _Retval(%y#0) name("y/_retval_0") {T = f32, index = 0 : i64} : (tensor<5x?xf32>) -> ()
  }
}

// -----

// A random draw per row would be one draw per tile.
// expected-error @+1 {{node 'noise' (RandomUniform) has a side effect, which would happen once per tile of the batch}}
module attributes {tfc.feeds = ["x:0"], tfc.fetches = ["y:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<?x3xf32>
    %shape:2 = Shape(%x#0) name("shape") {T = f32, out_type = i32} : (tensor<?x3xf32>) -> tensor<2xi32>
    %noise:2 = RandomUniform(%shape#0) name("noise") {T = i32, dtype = f32, seed = 1 : i64, seed2 = 2 : i64} : (tensor<2xi32>) -> tensor<?x3xf32>
    %y:2 = Add(%x#0, %noise#0) name("y") {T = f32} : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
    _Retval(%y#0) name("y/_retval_0") {T = f32, index = 0 : i64} : (tensor<?x3xf32>) -> ()
  }
}

// -----

// Keras' RepeatVector: Tile's multiples computed, the batch's one 1.
// CHECK: module attributes {tfc.batch = {feeds = [0], fetches = [0], tile = 1 : i64}
// CHECK-DAG: Tile({{.*}}) name("repeat") {{.*}} -> tensor<1x3x5xf32>
module attributes {tfc.feeds = ["x:0"], tfc.fetches = ["repeat:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<?x5xf32>
    %axis:2 = Const name("axis") {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %e:2 = ExpandDims(%x#0, %axis#0) name("e") {T = f32, Tdim = i32} : (tensor<?x5xf32>, tensor<i32>) -> tensor<?x1x5xf32>
    %one:2 = Const name("one") {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %three:2 = Const name("three") {dtype = i32, value = dense<3> : tensor<i32>} : () -> tensor<i32>
    %m:2 = Pack(%one#0, %three#0, %one#0) name("m") {N = 3 : i64, T = i32} : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3xi32>
    %repeat:2 = Tile(%e#0, %m#0) name("repeat") {T = f32, Tmultiples = i32} : (tensor<?x1x5xf32>, tensor<3xi32>) -> tensor<?x3x5xf32>
    _Retval(%repeat#0) name("repeat/_retval_0") {T = f32, index = 0 : i64} : (tensor<?x3x5xf32>) -> ()
  }
}

// -----

// A recurrent layer as Keras writes it: the sequence, time major, in a
// TensorList read an element per iteration of a TF1 loop, the outputs
// written to a reserved list and stacked after it. The lists hold the
// batch at axis 1 (their elements' axis 0), so every iteration computes
// on the rows alone; the loop's count does not depend on them.
// CHECK: module attributes {tfc.batch = {feeds = [0], fetches = [0], tile = 1 : i64}
// CHECK-DAG: TensorListGetItem({{.*}}) name("item") {{.*}} -> tensor<1x3xf32>
// CHECK-DAG: MatMul({{.*}}) name("step") {{.*}} -> tensor<1x5xf32>
// CHECK-DAG: TensorListStack({{.*}}) name("stack") {{.*}} -> tensor<4x1x5xf32>
// CHECK-DAG: Transpose({{.*}}) name("out") {{.*}} -> tensor<1x4x5xf32>
module attributes {tfc.feeds = ["x:0"], tfc.fetches = ["out:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<?x4x3xf32>
    %perm:2 = Const name("perm") {dtype = i32, value = dense<[1, 0, 2]> : tensor<3xi32>} : () -> tensor<3xi32>
    %t:2 = Transpose(%x#0, %perm#0) name("time_major") {T = f32, Tperm = i32} : (tensor<?x4x3xf32>, tensor<3xi32>) -> tensor<4x?x3xf32>
    %s3:2 = Const name("s3") {dtype = i32, value = dense<[-1, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
    %s5:2 = Const name("s5") {dtype = i32, value = dense<[-1, 5]> : tensor<2xi32>} : () -> tensor<2xi32>
    %n:2 = Const name("n") {dtype = i32, value = dense<4> : tensor<i32>} : () -> tensor<i32>
    %zero:2 = Const name("zero") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %one:2 = Const name("one") {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %w:2 = Const name("w") {dtype = f32, value = dense<0.5> : tensor<3x5xf32>} : () -> tensor<3x5xf32>
    %in:2 = TensorListFromTensor(%t#0, %s3#0) name("in") {element_dtype = f32, shape_type = i32} : (tensor<4x?x3xf32>, tensor<2xi32>) -> tensor<!tfg.variant>
    %outs:2 = TensorListReserve(%s5#0, %n#0) name("outs") {element_dtype = f32, shape_type = i32} : (tensor<2xi32>, tensor<i32>) -> tensor<!tfg.variant>
    %ei:2 = Enter(%zero#0) name("enter_i") {T = i32, frame_name = "loop", is_constant = false} : (tensor<i32>) -> tensor<i32>
    %eo:2 = Enter(%outs#0) name("enter_outs") {T = !tfg.variant, frame_name = "loop", is_constant = false} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
    %ein:2 = Enter(%in#0) name("enter_in") {T = !tfg.variant, frame_name = "loop", is_constant = true} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
    %mi:3 = Merge(%ei#0, %ni#0) name("merge_i") {N = 2, T = i32} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %mo:3 = Merge(%eo#0, %no#0) name("merge_outs") {N = 2, T = !tfg.variant} : (tensor<!tfg.variant>, tensor<!tfg.variant>) -> (tensor<!tfg.variant>, tensor<i32>)
    %less:2 = Less(%mi#0, %n#0) name("less") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %cond:2 = LoopCond(%less#0) name("cond") : (tensor<i1>) -> tensor<i1>
    %si:3 = Switch(%mi#0, %cond#0) name("switch_i") {T = i32} : (tensor<i32>, tensor<i1>) -> (tensor<i32>, tensor<i32>)
    %so:3 = Switch(%mo#0, %cond#0) name("switch_outs") {T = !tfg.variant} : (tensor<!tfg.variant>, tensor<i1>) -> (tensor<!tfg.variant>, tensor<!tfg.variant>)
    %i:2 = Identity(%si#1) name("i") {T = i32} : (tensor<i32>) -> tensor<i32>
    %item:2 = TensorListGetItem(%ein#0, %i#0, %s3#0) name("item") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<i32>, tensor<2xi32>) -> tensor<?x3xf32>
    %step:2 = MatMul(%item#0, %w#0) name("step") {T = f32} : (tensor<?x3xf32>, tensor<3x5xf32>) -> tensor<?x5xf32>
    %set:2 = TensorListSetItem(%so#1, %i#0, %step#0) name("set") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<i32>, tensor<?x5xf32>) -> tensor<!tfg.variant>
    %inc:2 = AddV2(%i#0, %one#0) name("inc") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %ni:2 = NextIteration(%inc#0) name("next_i") {T = i32} : (tensor<i32>) -> tensor<i32>
    %no:2 = NextIteration(%set#0) name("next_outs") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
    %xo:2 = Exit(%so#0) name("exit_outs") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
    %stack:2 = TensorListStack(%xo#0, %s5#0) name("stack") {element_dtype = f32, num_elements = 4 : i64} : (tensor<!tfg.variant>, tensor<2xi32>) -> tensor<4x?x5xf32>
    %out:2 = Transpose(%stack#0, %perm#0) name("out") {T = f32, Tperm = i32} : (tensor<4x?x5xf32>, tensor<3xi32>) -> tensor<?x4x5xf32>
    _Retval(%out#0) name("out/_retval_0") {T = f32, index = 0 : i64} : (tensor<?x4x5xf32>) -> ()
  }
}

// -----

// A list of the rows themselves (the batch at axis 0): reading element i
// reads row i, which a tile does not hold.
// expected-error @+1 {{node 'in' (TensorListFromTensor) combines rows of the batch}}
module attributes {tfc.feeds = ["x:0"], tfc.fetches = ["item:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<?x3xf32>
    %s:2 = Const name("s") {dtype = i32, value = dense<3> : tensor<1xi32>} : () -> tensor<1xi32>
    %zero:2 = Const name("zero") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %in:2 = TensorListFromTensor(%x#0, %s#0) name("in") {element_dtype = f32, shape_type = i32} : (tensor<?x3xf32>, tensor<1xi32>) -> tensor<!tfg.variant>
    %item:2 = TensorListGetItem(%in#0, %zero#0, %s#0) name("item") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<i32>, tensor<1xi32>) -> tensor<3xf32>
    _Retval(%item#0) name("item/_retval_0") {T = f32, index = 0 : i64} : (tensor<3xf32>) -> ()
  }
}

// -----

// A loop whose back edge holds the batch elsewhere than its entry (a
// Transpose per iteration): the Merge has no one batch dimension.
// expected-error @+1 {{node 'merge' (Merge) has output shape [?,?] at a batch of 2, where the batch should be dimension 0}}
module attributes {tfc.feeds = ["x:0"], tfc.fetches = ["exit:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<?x3xf32>
    %perm:2 = Const name("perm") {dtype = i32, value = dense<[1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
    %true:2 = Const name("true") {dtype = i1, value = dense<true> : tensor<i1>} : () -> tensor<i1>
    %e:2 = Enter(%x#0) name("enter") {T = f32, frame_name = "loop", is_constant = false} : (tensor<?x3xf32>) -> tensor<?x3xf32>
    %m:3 = Merge(%e#0, %next#0) name("merge") {N = 2, T = f32} : (tensor<?x3xf32>, tensor<*xf32>) -> (tensor<*xf32>, tensor<i32>)
    %cond:2 = LoopCond(%true#0) name("cond") : (tensor<i1>) -> tensor<i1>
    %sw:3 = Switch(%m#0, %cond#0) name("switch") {T = f32} : (tensor<*xf32>, tensor<i1>) -> (tensor<*xf32>, tensor<*xf32>)
    %t:2 = Transpose(%sw#1, %perm#0) name("t") {T = f32, Tperm = i32} : (tensor<*xf32>, tensor<2xi32>) -> tensor<*xf32>
    %next:2 = NextIteration(%t#0) name("next") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
    %exit:2 = Exit(%sw#0) name("exit") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
    _Retval(%exit#0) name("exit/_retval_0") {T = f32, index = 0 : i64} : (tensor<*xf32>) -> ()
  }
}

// -----

// Keras' Dense on a 4-D input (Tensordot): the batch and the pixels folded
// into one dimension for the MatMul, a run of 16 slices per row, and
// unfolded after it.
// CHECK: module attributes {tfc.batch = {feeds = [0], fetches = [0], tile = 2 : i64}
// CHECK-DAG: MatMul({{.*}}) name("mm") {{.*}} -> tensor<32x5xf32>
// CHECK-DAG: Reshape({{.*}}) name("unfolded") {{.*}} -> tensor<2x4x4x5xf32>
module attributes {tfc.batch_tile = 2 : i64, tfc.feeds = ["x:0"], tfc.fetches = ["unfolded:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<?x4x4x3xf32>
    %fold:2 = Const name("fold") {dtype = i32, value = dense<[-1, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
    %folded:2 = Reshape(%x#0, %fold#0) name("folded") {T = f32, Tshape = i32} : (tensor<?x4x4x3xf32>, tensor<2xi32>) -> tensor<?x3xf32>
    %w:2 = Const name("w") {dtype = f32, value = dense<0.5> : tensor<3x5xf32>} : () -> tensor<3x5xf32>
    %b:2 = Const name("b") {dtype = f32, value = dense<0.25> : tensor<5xf32>} : () -> tensor<5xf32>
    %mm:2 = MatMul(%folded#0, %w#0) name("mm") {T = f32} : (tensor<?x3xf32>, tensor<3x5xf32>) -> tensor<?x5xf32>
    %biased:2 = BiasAdd(%mm#0, %b#0) name("biased") {T = f32} : (tensor<?x5xf32>, tensor<5xf32>) -> tensor<?x5xf32>
    %unfold:2 = Const name("unfold") {dtype = i32, value = dense<[-1, 4, 4, 5]> : tensor<4xi32>} : () -> tensor<4xi32>
    %unfolded:2 = Reshape(%biased#0, %unfold#0) name("unfolded") {T = f32, Tshape = i32} : (tensor<?x5xf32>, tensor<4xi32>) -> tensor<?x4x4x5xf32>
    _Retval(%unfolded#0) name("unfolded/_retval_0") {T = f32, index = 0 : i64} : (tensor<?x4x4x5xf32>) -> ()
  }
}

// -----

// The folded rows fetched as they are: the program's rows would not be
// the batch's.
// expected-error @+1 {{fetch 'mm:0' has 16 slices per row of the batch, not one}}
module attributes {tfc.feeds = ["x:0"], tfc.fetches = ["mm:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<?x4x4x3xf32>
    %fold:2 = Const name("fold") {dtype = i32, value = dense<[-1, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
    %folded:2 = Reshape(%x#0, %fold#0) name("folded") {T = f32, Tshape = i32} : (tensor<?x4x4x3xf32>, tensor<2xi32>) -> tensor<?x3xf32>
    %w:2 = Const name("w") {dtype = f32, value = dense<0.5> : tensor<3x5xf32>} : () -> tensor<3x5xf32>
    %mm:2 = MatMul(%folded#0, %w#0) name("mm") {T = f32} : (tensor<?x3xf32>, tensor<3x5xf32>) -> tensor<?x5xf32>
    _Retval(%mm#0) name("mm/_retval_0") {T = f32, index = 0 : i64} : (tensor<?x5xf32>) -> ()
  }
}

// -----

// A reduction of the folded rows: refused, as every op that does not
// keep the batch dimension whole is where rows are folded.
// expected-error @+1 {{node 'total' (Sum) moves the rows a Reshape folded into the batch dimension}}
module attributes {tfc.feeds = ["x:0"], tfc.fetches = ["total:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<?x4x3xf32>
    %fold:2 = Const name("fold") {dtype = i32, value = dense<[-1, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
    %folded:2 = Reshape(%x#0, %fold#0) name("folded") {T = f32, Tshape = i32} : (tensor<?x4x3xf32>, tensor<2xi32>) -> tensor<?x3xf32>
    %axis:2 = Const name("axis") {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %total:2 = Sum(%folded#0, %axis#0) name("total") {T = f32, Tidx = i32, keep_dims = false} : (tensor<?x3xf32>, tensor<i32>) -> tensor<?xf32>
    _Retval(%total#0) name("total/_retval_0") {T = f32, index = 0 : i64} : (tensor<?xf32>) -> ()
  }
}

// -----

// A Reshape that puts other elements before the batch's: each of the 4
// new rows holds a piece of every row of the batch.
// expected-error @+1 {{node 'mixed' (Reshape) combines rows of the batch}}
module attributes {tfc.feeds = ["x:0"], tfc.fetches = ["mixed:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<?x4x3xf32>
    %to:2 = Const name("to") {dtype = i32, value = dense<[4, -1]> : tensor<2xi32>} : () -> tensor<2xi32>
    %mixed:2 = Reshape(%x#0, %to#0) name("mixed") {T = f32, Tshape = i32} : (tensor<?x4x3xf32>, tensor<2xi32>) -> tensor<4x?xf32>
    _Retval(%mixed#0) name("mixed/_retval_0") {T = f32, index = 0 : i64} : (tensor<4x?xf32>) -> ()
  }
}

// -----

// A constant row tiled batch times (DeBERTa's relative embeddings): every
// row alike, added to the rows.
// CHECK: module attributes {tfc.batch = {feeds = [0], fetches = [0], tile = 1 : i64}
// CHECK-DAG: Tile({{.*}}) name("repeated") {{.*}} -> tensor<1x3xf32>
// CHECK-DAG: AddV2({{.*}}) name("sum") {{.*}} -> tensor<1x3xf32>
module attributes {tfc.feeds = ["x:0"], tfc.fetches = ["sum:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<?x3xf32>
    %zero:2 = Const name("zero") {dtype = i32, value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
    %one:2 = Const name("one") {dtype = i32, value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
    %single:2 = Const name("single") {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %shape:2 = Shape(%x#0) name("shape") {T = f32, out_type = i32} : (tensor<?x3xf32>) -> tensor<2xi32>
    %rows:2 = StridedSlice(%shape#0, %zero#0, %one#0, %one#0) name("rows") {Index = i32, T = i32, shrink_axis_mask = 1 : i64} : (tensor<2xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
    %times:2 = Pack(%rows#0, %single#0) name("times") {N = 2 : i64, T = i32} : (tensor<i32>, tensor<i32>) -> tensor<2xi32>
    %c:2 = Const name("c") {dtype = f32, value = dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>} : () -> tensor<1x3xf32>
    %repeated:2 = Tile(%c#0, %times#0) name("repeated") {T = f32, Tmultiples = i32} : (tensor<1x3xf32>, tensor<2xi32>) -> tensor<?x3xf32>
    %sum:2 = AddV2(%x#0, %repeated#0) name("sum") {T = f32} : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
    _Retval(%sum#0) name("sum/_retval_0") {T = f32, index = 0 : i64} : (tensor<?x3xf32>) -> ()
  }
}

// -----

// A gather with batch_dims (take_along_axis; DeBERTa's relative scores):
// params and indices go together along the batch, which keeps rows apart.
// CHECK: module attributes {tfc.batch = {feeds = [0, 1], fetches = [0], tile = 1 : i64}
// CHECK-DAG: GatherV2({{.*}}) name("along") {{.*}} -> tensor<1x3x2xf32>
module attributes {tfc.feeds = ["x:0", "i:0"], tfc.fetches = ["along:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<?x3x4xf32>
    %i:2 = _Arg name("i") {T = i32, index = 1 : i64} : () -> tensor<?x3x2xi32>
    %axis:2 = Const name("axis") {dtype = i32, value = dense<2> : tensor<i32>} : () -> tensor<i32>
    %along:2 = GatherV2(%x#0, %i#0, %axis#0) name("along") {Taxis = i32, Tindices = i32, Tparams = f32, batch_dims = 2 : i64} : (tensor<?x3x4xf32>, tensor<?x3x2xi32>, tensor<i32>) -> tensor<?x3x2xf32>
    _Retval(%along#0) name("along/_retval_0") {T = f32, index = 0 : i64} : (tensor<?x3x2xf32>) -> ()
  }
}
