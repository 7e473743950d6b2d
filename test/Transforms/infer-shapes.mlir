// Tests tfc-infer-shapes: shapes by family, values of shape computations
// (the Keras dynamic-reshape pattern), loops, and conflicts.
// RUN: tfc-opt %s -split-input-file -tfc-infer-shapes -verify-diagnostics | FileCheck %s

// Broadcasting, MatMul with transposes, BiasAdd, reductions with and
// without keep_dims, Transpose with a constant permutation.
// CHECK-LABEL: tfg.graph
// CHECK: name("add") {{.*}} -> tensor<4x3xf32>
// CHECK: name("mm") {{.*}} -> tensor<3x5xf32>
// CHECK: name("bias") {{.*}} -> tensor<3x5xf32>
// CHECK: name("sum") {{.*}} -> tensor<5xf32>
// CHECK: name("mean") {{.*}} -> tensor<3x1xf32>
// CHECK: name("tr") {{.*}} -> tensor<5x3xf32>
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %a:2 = Placeholder name("a") {dtype = f32, shape = #tfg.shape<4x1>} : () -> tensor<*xf32>
  %b:2 = Placeholder name("b") {dtype = f32, shape = #tfg.shape<3>} : () -> tensor<*xf32>
  %add:2 = AddV2(%a#0, %b#0) name("add") {T = f32} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %w:2 = Placeholder name("w") {dtype = f32, shape = #tfg.shape<5x4>} : () -> tensor<*xf32>
  %mm:2 = MatMul(%add#0, %w#0) name("mm") {T = f32, transpose_a = true, transpose_b = true} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %bv:2 = Placeholder name("bv") {dtype = f32, shape = #tfg.shape<5>} : () -> tensor<*xf32>
  %bias:2 = BiasAdd(%mm#0, %bv#0) name("bias") {T = f32} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %zero:2 = Const name("zero") {dtype = i32, value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %sum:2 = Sum(%bias#0, %zero#0) name("sum") {T = f32, Tidx = i32} : (tensor<*xf32>, tensor<1xi32>) -> tensor<*xf32>
  %one:2 = Const name("one") {dtype = i32, value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %mean:2 = Mean(%bias#0, %one#0) name("mean") {T = f32, Tidx = i32, keep_dims = true} : (tensor<*xf32>, tensor<i32>) -> tensor<*xf32>
  %perm:2 = Const name("perm") {dtype = i32, value = dense<[1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %tr:2 = Transpose(%bias#0, %perm#0) name("tr") {T = f32, Tperm = i32} : (tensor<*xf32>, tensor<2xi32>) -> tensor<*xf32>
}

// -----

// Convolutions and pooling: SAME and VALID, strides, NHWC.
// CHECK-LABEL: tfg.graph
// CHECK: name("conv_same") {{.*}} -> tensor<2x4x4x8xf32>
// CHECK: name("conv_valid") {{.*}} -> tensor<2x6x6x8xf32>
// CHECK: name("dw") {{.*}} -> tensor<2x8x8x6xf32>
// CHECK: name("pool") {{.*}} -> tensor<2x4x4x3xf32>
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2x8x8x3>} : () -> tensor<*xf32>
  %f:2 = Placeholder name("f") {dtype = f32, shape = #tfg.shape<3x3x3x8>} : () -> tensor<*xf32>
  %c1:2 = Conv2D(%x#0, %f#0) name("conv_same") {T = f32, padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %c2:2 = Conv2D(%x#0, %f#0) name("conv_valid") {T = f32, padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %df:2 = Placeholder name("df") {dtype = f32, shape = #tfg.shape<3x3x3x2>} : () -> tensor<*xf32>
  %dw:2 = DepthwiseConv2dNative(%x#0, %df#0) name("dw") {T = f32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %p:2 = MaxPool(%x#0) name("pool") {T = f32, ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<*xf32>) -> tensor<*xf32>
}

// -----

// The gradients of the window ops take their shape from a constant
// operand (conv input/filter gradients, AvgPoolGrad) or from the original
// input (MaxPoolGrad); batch norm in training and its gradient.
// CHECK-LABEL: tfg.graph
// CHECK: name("dx") {{.*}} -> tensor<2x8x8x3xf32>
// CHECK: name("dw") {{.*}} -> tensor<3x3x3x8xf32>
// CHECK: name("ddx") {{.*}} -> tensor<2x8x8x3xf32>
// CHECK: name("ddw") {{.*}} -> tensor<3x3x3x2xf32>
// CHECK: name("maxgrad") {{.*}} -> tensor<2x8x8x3xf32>
// CHECK: name("avggrad") {{.*}} -> tensor<2x8x8x3xf32>
// CHECK: name("bn") {{.*}} -> (tensor<2x8x8x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<0xf32>)
// CHECK: name("bngrad") {{.*}} -> (tensor<2x8x8x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<f32>, tensor<f32>)
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2x8x8x3>} : () -> tensor<*xf32>
  %f:2 = Placeholder name("f") {dtype = f32, shape = #tfg.shape<3x3x3x8>} : () -> tensor<*xf32>
  %g:2 = Placeholder name("g") {dtype = f32, shape = #tfg.shape<2x4x4x8>} : () -> tensor<*xf32>
  %xs:2 = Const name("xs") {dtype = i32, value = dense<[2, 8, 8, 3]> : tensor<4xi32>} : () -> tensor<4xi32>
  %fs:2 = Const name("fs") {dtype = i32, value = dense<[3, 3, 3, 8]> : tensor<4xi32>} : () -> tensor<4xi32>
  %dx:2 = Conv2DBackpropInput(%xs#0, %f#0, %g#0) name("dx") {T = f32, padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<4xi32>, tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %dw:2 = Conv2DBackpropFilter(%x#0, %fs#0, %g#0) name("dw") {T = f32, padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<*xf32>, tensor<4xi32>, tensor<*xf32>) -> tensor<*xf32>
  %df:2 = Placeholder name("df") {dtype = f32, shape = #tfg.shape<3x3x3x2>} : () -> tensor<*xf32>
  %dg:2 = Placeholder name("dg") {dtype = f32, shape = #tfg.shape<2x8x8x6>} : () -> tensor<*xf32>
  %dfs:2 = Const name("dfs") {dtype = i32, value = dense<[3, 3, 3, 2]> : tensor<4xi32>} : () -> tensor<4xi32>
  %ddx:2 = DepthwiseConv2dNativeBackpropInput(%xs#0, %df#0, %dg#0) name("ddx") {T = f32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<4xi32>, tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %ddw:2 = DepthwiseConv2dNativeBackpropFilter(%x#0, %dfs#0, %dg#0) name("ddw") {T = f32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<*xf32>, tensor<4xi32>, tensor<*xf32>) -> tensor<*xf32>
  %p:2 = MaxPool(%x#0) name("pool") {T = f32, ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<*xf32>) -> tensor<*xf32>
  %pg:2 = Placeholder name("pg") {dtype = f32, shape = #tfg.shape<2x4x4x3>} : () -> tensor<*xf32>
  %mg:2 = MaxPoolGrad(%x#0, %p#0, %pg#0) name("maxgrad") {T = f32, ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %ag:2 = AvgPoolGrad(%xs#0, %pg#0) name("avggrad") {T = f32, ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<4xi32>, tensor<*xf32>) -> tensor<*xf32>
  %s:2 = Placeholder name("s") {dtype = f32, shape = #tfg.shape<3>} : () -> tensor<*xf32>
  %e:2 = Const name("e") {dtype = f32, value = dense<> : tensor<0xf32>} : () -> tensor<0xf32>
  %bn:7 = FusedBatchNormV3(%x#0, %s#0, %s#0, %e#0, %e#0) name("bn") {T = f32, U = f32, is_training = true} : (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<0xf32>, tensor<0xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  %bg:6 = FusedBatchNormGradV3(%x#0, %x#0, %s#0, %bn#3, %bn#4, %bn#5) name("bngrad") {T = f32, U = f32, is_training = true} : (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
}

// -----

// Keras computes reshape targets from the input's shape:
// Reshape(x, Pack(StridedSlice(Shape(x), [0], [1], [1], shrink), -1)).
// The values are tracked, so the result is static.
// CHECK-LABEL: tfg.graph
// CHECK: name("shape") {{.*}} -> tensor<3xi32>
// CHECK: name("batch") {{.*}} -> tensor<i32>
// CHECK: name("target") {{.*}} -> tensor<2xi32>
// CHECK: name("flat") {{.*}} -> tensor<2x20xf32>
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2x4x5>} : () -> tensor<*xf32>
  %s:2 = Shape(%x#0) name("shape") {T = f32, out_type = i32} : (tensor<*xf32>) -> tensor<*xi32>
  %b:2 = Const name("b") {dtype = i32, value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %e:2 = Const name("e") {dtype = i32, value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %batch:2 = StridedSlice(%s#0, %b#0, %e#0, %e#0) name("batch") {Index = i32, T = i32, shrink_axis_mask = 1} : (tensor<*xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xi32>
  %m1:2 = Const name("m1") {dtype = i32, value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %t:2 = Pack(%batch#0, %m1#0) name("target") {N = 2, T = i32, axis = 0} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
  %r:2 = Reshape(%x#0, %t#0) name("flat") {T = f32, Tshape = i32} : (tensor<*xf32>, tensor<*xi32>) -> tensor<*xf32>
}

// -----

// TensorFlow's linspace, as TF2's histogram summary builds it inside a
// cond: its range's end is SelectV2(n >= 0, max(n - 1, 1), -1) of a count
// that reaches the branch through a Switch. Switch outputs, comparisons and
// SelectV2 carry known values, so the range is static.
// CHECK-LABEL: tfg.graph
// CHECK: name("branch") {{.*}} -> (tensor<i32>, tensor<i32>)
// CHECK: name("nonnegative") {{.*}} -> tensor<i1>
// CHECK: name("end") {{.*}} -> tensor<i32>
// CHECK: name("range") {{.*}} -> tensor<29xi32>
// CHECK: name("picked") {{.*}} -> tensor<2x31xi32>
// CHECK: name("picked_by_cast") {{.*}} -> tensor<2x3xi32>
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %n:2 = Const name("n") {dtype = i32, value = dense<31> : tensor<i32>} : () -> tensor<i32>
  %p:2 = Placeholder name("p") {dtype = i1, shape = #tfg.shape<>} : () -> tensor<*xi1>
  %sw:3 = Switch(%n#0, %p#0) name("branch") {T = i32} : (tensor<i32>, tensor<*xi1>) -> (tensor<*xi32>, tensor<*xi32>)
  %one:2 = Const name("one") {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %zero:2 = Const name("zero") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %m1:2 = Const name("m1") {dtype = i32, value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %ge:2 = GreaterEqual(%sw#1, %zero#0) name("nonnegative") {T = i32} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi1>
  %nm1:2 = Sub(%sw#1, %one#0) name("steps") {T = i32} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
  %steps:2 = Maximum(%nm1#0, %one#0) name("at_least_one") {T = i32} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
  %end:2 = SelectV2(%ge#0, %steps#0, %m1#0) name("end") {T = i32} : (tensor<*xi1>, tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
  %r:2 = Range(%one#0, %end#0, %one#0) name("range") {Tidx = i32} : (tensor<i32>, tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
  // A bool Const picks elementwise too.
  %c:2 = Const name("c") {dtype = i1, value = dense<[true, false]> : tensor<2xi1>} : () -> tensor<2xi1>
  %ab:2 = Const name("ab") {dtype = i32, value = dense<[2, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
  %pick:2 = SelectV2(%c#0, %ab#0, %n#0) name("pick") {T = i32} : (tensor<2xi1>, tensor<2xi32>, tensor<i32>) -> tensor<*xi32>
  %z:2 = Fill(%pick#0, %one#0) name("picked") {T = i32, index_type = i32} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
  // A cast to bool is 1 for any value but 0: n (31) as a bool equals true.
  %nb:2 = Cast(%n#0) name("n_bool") {SrcT = i32, DstT = i1, Truncate = false} : (tensor<i32>) -> tensor<*xi1>
  %t:2 = Const name("t") {dtype = i1, value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %eq:2 = Equal(%nb#0, %t#0) name("is_true") {T = i1} : (tensor<*xi1>, tensor<i1>) -> tensor<*xi1>
  %pick2:2 = SelectV2(%eq#0, %ab#0, %one#0) name("pick2") {T = i32} : (tensor<*xi1>, tensor<2xi32>, tensor<i32>) -> tensor<*xi32>
  %z2:2 = Fill(%pick2#0, %one#0) name("picked_by_cast") {T = i32, index_type = i32} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
}

// -----

// A target put together from pieces some of which are unknown keeps the
// known ones (TensorFlow's partial shape tensors): the gradient of a
// Gather reshapes to ConcatV2([Size(indices)], Shape(params)[1:]), with
// indices of a number only the data decides.
// CHECK-LABEL: tfg.graph
// CHECK: name("values") {{.*}} -> tensor<?x4xf32>
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %indices:2 = Placeholder name("indices") {dtype = i32, shape = #tfg.shape<?>} : () -> tensor<*xi32>
  %grad:2 = Placeholder name("grad") {dtype = f32, shape = #tfg.shape<?x4>} : () -> tensor<*xf32>
  %params:2 = Placeholder name("params") {dtype = f32, shape = #tfg.shape<10x4>} : () -> tensor<*xf32>
  %size:2 = Size(%indices#0) name("size") {T = i32, out_type = i32} : (tensor<*xi32>) -> tensor<*xi32>
  %zero:2 = Const name("zero") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %rows:2 = ExpandDims(%size#0, %zero#0) name("rows") {T = i32, Tdim = i32} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
  %shape:2 = Shape(%params#0) name("shape") {T = f32, out_type = i32} : (tensor<*xf32>) -> tensor<*xi32>
  %b:2 = Const name("b") {dtype = i32, value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %e:2 = Const name("e") {dtype = i32, value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %s:2 = Const name("s") {dtype = i32, value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %inner:2 = StridedSlice(%shape#0, %b#0, %e#0, %s#0) name("inner") {Index = i32, T = i32, end_mask = 1} : (tensor<*xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xi32>
  %target:2 = ConcatV2(%rows#0, %inner#0, %zero#0) name("target") {N = 2, T = i32, Tidx = i32} : (tensor<*xi32>, tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
  %values:2 = Reshape(%grad#0, %target#0) name("values") {T = f32, Tshape = i32} : (tensor<*xf32>, tensor<*xi32>) -> tensor<*xf32>
}

// -----

// Einsum as Keras' attention emits it, and ConcatV2 on a known axis.
// CHECK-LABEL: tfg.graph
// CHECK: name("scores") {{.*}} -> tensor<2x4x3x3xf32>
// CHECK: name("cat") {{.*}} -> tensor<2x7xf32>
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %q:2 = Placeholder name("q") {dtype = f32, shape = #tfg.shape<2x3x4x8>} : () -> tensor<*xf32>
  %k:2 = Placeholder name("k") {dtype = f32, shape = #tfg.shape<2x3x4x8>} : () -> tensor<*xf32>
  %s:2 = Einsum(%k#0, %q#0) name("scores") {N = 2, T = f32, equation = "aecd,abcd->acbe"} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %a:2 = Placeholder name("a") {dtype = f32, shape = #tfg.shape<2x3>} : () -> tensor<*xf32>
  %b:2 = Placeholder name("b") {dtype = f32, shape = #tfg.shape<2x4>} : () -> tensor<*xf32>
  %axis:2 = Const name("axis") {dtype = i32, value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %c:2 = ConcatV2(%a#0, %b#0, %axis#0) name("cat") {N = 2, T = f32, Tidx = i32} : (tensor<*xf32>, tensor<*xf32>, tensor<i32>) -> tensor<*xf32>
}

// -----

// A TF1 loop whose carried value keeps its shape stays static; one whose
// value grows (ConcatV2 in the body) is generalized to an unknown dimension.
// CHECK-LABEL: tfg.graph
// CHECK: name("m_same") {{.*}} -> (tensor<3xf32>, tensor<i32>)
// CHECK: name("m_grow") {{.*}} -> (tensor<?xf32>, tensor<i32>)
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<3>} : () -> tensor<*xf32>
  %p:2 = Placeholder name("p") {dtype = i1, shape = #tfg.shape<>} : () -> tensor<*xi1>
  %en:2 = Enter(%x#0) name("enter") {T = f32, frame_name = "loop"} : (tensor<*xf32>) -> tensor<*xf32>
  %m:3 = Merge(%en#0, %nx#0) name("m_same") {N = 2, T = f32} : (tensor<*xf32>, tensor<*xf32>) -> (tensor<*xf32>, tensor<*xi32>)
  %neg:2 = Neg(%m#0) name("neg") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %nx:2 = NextIteration(%neg#0) name("next") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %en2:2 = Enter(%x#0) name("enter2") {T = f32, frame_name = "loop2"} : (tensor<*xf32>) -> tensor<*xf32>
  %g:3 = Merge(%en2#0, %nx2#0) name("m_grow") {N = 2, T = f32} : (tensor<*xf32>, tensor<*xf32>) -> (tensor<*xf32>, tensor<*xi32>)
  %axis:2 = Const name("axis") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %cat:2 = ConcatV2(%g#0, %x#0, %axis#0) name("grow") {N = 2, T = f32, Tidx = i32} : (tensor<*xf32>, tensor<*xf32>, tensor<i32>) -> tensor<*xf32>
  %nx2:2 = NextIteration(%cat#0) name("next2") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %a:2 = Placeholder name("a") {dtype = f32, shape = #tfg.shape<2x3>} : () -> tensor<*xf32>
  %b:2 = Placeholder name("b") {dtype = f32, shape = #tfg.shape<4x5>} : () -> tensor<*xf32>
  // expected-error @+1 {{node 'mm' (MatMul): inner dimensions of [2,3] and [4,5] do not match}}
  %mm:2 = MatMul(%a#0, %b#0) name("mm") {T = f32} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %a:2 = Placeholder name("a") {dtype = f32, shape = #tfg.shape<2x3>} : () -> tensor<*xf32>
  %b:2 = Placeholder name("b") {dtype = f32, shape = #tfg.shape<4>} : () -> tensor<*xf32>
  // expected-error @+1 {{node 'add' (AddV2): shapes [2,3] and [4] do not broadcast}}
  %add:2 = AddV2(%a#0, %b#0) name("add") {T = f32} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %a:2 = Placeholder name("a") {dtype = f32, shape = #tfg.shape<2x3>} : () -> tensor<*xf32>
  // A shape recorded in the graph that the inputs contradict.
  // expected-error @+1 {{node 'neg' (Neg): output 0 has shape [2,3] by its inputs but [3,2] in the graph}}
  %n:2 = Neg(%a#0) name("neg") {T = f32} : (tensor<*xf32>) -> tensor<3x2xf32>
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %a:2 = Placeholder name("a") {dtype = f32, shape = #tfg.shape<2x3>} : () -> tensor<*xf32>
  %t:2 = Const name("t") {dtype = i32, value = dense<[4, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  // expected-error @+1 {{node 'r' (Reshape): cannot reshape [2,3] (6 elements) to [4,2]}}
  %r:2 = Reshape(%a#0, %t#0) name("r") {T = f32, Tshape = i32} : (tensor<*xf32>, tensor<2xi32>) -> tensor<*xf32>
}

// -----

// Unique takes a vector (its values output gets the input's length, the
// bound tfc-bound-unique checks is enough).
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %a:2 = Placeholder name("a") {dtype = i32, shape = #tfg.shape<2x3>} : () -> tensor<*xi32>
  // expected-error @+1 {{node 'u' (Unique): x [2,3] is not a vector}}
  %u:3 = Unique(%a#0) name("u") {T = i32, out_idx = i32} : (tensor<*xi32>) -> (tensor<*xi32>, tensor<*xi32>)
}

// -----

// RestoreV2's tensors take the shapes of the variables its outputs are
// assigned to (a ref variable by Assign; a resource variable by
// AssignVariableOp through Identity); StringJoin broadcasts scalars, and
// PlaceholderWithDefault passes its input's shape on.
// CHECK-LABEL: tfg.graph
// CHECK: PlaceholderWithDefault{{.*}} -> tensor<!tfg.string>
// CHECK: RestoreV2{{.*}} -> (tensor<2x3xf32>, tensor<5xf32>)
// CHECK: StringJoin{{.*}} -> tensor<2x!tfg.string>
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %c:2 = Const name("c") {dtype = !tfg.string, value = dense<"model"> : tensor<!tfg.string>} : () -> tensor<!tfg.string>
  %p:2 = PlaceholderWithDefault(%c#0) name("p") {dtype = !tfg.string, shape = #tfg.shape<>} : (tensor<!tfg.string>) -> tensor<*x!tfg.string>
  %names:2 = Const name("names") {dtype = !tfg.string, value = dense<["a", "b"]> : tensor<2x!tfg.string>} : () -> tensor<2x!tfg.string>
  %slices:2 = Const name("slices") {dtype = !tfg.string, value = dense<""> : tensor<2x!tfg.string>} : () -> tensor<2x!tfg.string>
  %r:3 = RestoreV2(%p#0, %names#0, %slices#0) name("restore") {dtypes = [f32, f32]} : (tensor<*x!tfg.string>, tensor<2x!tfg.string>, tensor<2x!tfg.string>) -> (tensor<*xf32>, tensor<*xf32>)
  %a:2 = VariableV2 name("a") {container = "", dtype = f32, shape = #tfg.shape<2x3>, shared_name = ""} : () -> tensor<2x3x!tfg.ref<f32>>
  %assign:2 = Assign(%a#0, %r#0) name("assign") {T = f32} : (tensor<2x3x!tfg.ref<f32>>, tensor<*xf32>) -> tensor<*x!tfg.ref<f32>>
  %b:2 = VarHandleOp name("b") {container = "", dtype = f32, shape = #tfg.shape<5>, shared_name = "b"} : () -> tensor<!tfg.resource>
  %id:2 = Identity(%r#1) name("id") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %assignb = AssignVariableOp(%b#0, %id#0) name("assign_b") {dtype = f32} : (tensor<!tfg.resource>, tensor<*xf32>) -> ()
  %join:2 = StringJoin(%p#0, %names#0) name("join") {N = 2} : (tensor<*x!tfg.string>, tensor<2x!tfg.string>) -> tensor<*x!tfg.string>
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %a:2 = Const name("a") {dtype = !tfg.string, value = dense<["x", "y"]> : tensor<2x!tfg.string>} : () -> tensor<2x!tfg.string>
  %b:2 = Const name("b") {dtype = !tfg.string, value = dense<["x", "y", "z"]> : tensor<3x!tfg.string>} : () -> tensor<3x!tfg.string>
  // expected-error @+1 {{node 'join' (StringJoin): inputs [2] and [3] are neither scalars nor of one shape}}
  %join:2 = StringJoin(%a#0, %b#0) name("join") {N = 2} : (tensor<2x!tfg.string>, tensor<3x!tfg.string>) -> tensor<*x!tfg.string>
}

// -----

// A stack's handle is a scalar; a push outputs its element; a pop outputs
// an element of the shape pushed to the stack it traces to (here through
// the Enter nodes of a forward and a gradient loop).
// CHECK-LABEL: tfg.graph
// CHECK: StackV2{{.*}}name("acc"){{.*}}-> tensor<!tfg.resource>
// CHECK: StackPushV2{{.*}}name("push"){{.*}}-> tensor<4x3xf32>
// CHECK: StackPopV2{{.*}}name("pop"){{.*}}-> tensor<4x3xf32>
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<4x3>} : () -> tensor<*xf32>
  %max:2 = Const name("max") {dtype = i32, value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %acc:2 = StackV2(%max#0) name("acc") {elem_type = f32, stack_name = ""} : (tensor<i32>) -> tensor<*x!tfg.resource>
  %forward:2 = Enter(%acc#0) name("forward") {T = !tfg.resource, frame_name = "loop", is_constant = true} : (tensor<*x!tfg.resource>) -> tensor<*x!tfg.resource>
  %push:2 = StackPushV2(%forward#0, %x#0) name("push") {T = f32, swap_memory = false} : (tensor<*x!tfg.resource>, tensor<*xf32>) -> tensor<*xf32>
  %backward:2 = Enter(%acc#0) name("backward") {T = !tfg.resource, frame_name = "loop_grad", is_constant = true} : (tensor<*x!tfg.resource>) -> tensor<*x!tfg.resource>
  %pop:2 = StackPopV2(%backward#0) name("pop") {elem_type = f32} : (tensor<*x!tfg.resource>) -> tensor<*xf32>
}

// -----

// A TF1 TensorArray's handle and flow are scalars; a read outputs an
// element of the shape its writes (or scatters, or the writes to its
// gradient arrays) store, a gather one per index.
// CHECK-LABEL: tfg.graph
// CHECK: TensorArrayV3{{.*}}name("ta"){{.*}}-> (tensor<!tfg.resource>, tensor<f32>)
// CHECK: TensorArrayReadV3{{.*}}name("read"){{.*}}-> tensor<4x3xf32>
// CHECK: TensorArrayGatherV3{{.*}}name("gather"){{.*}}-> tensor<2x4x3xf32>
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %rows:2 = Placeholder name("rows") {dtype = f32, shape = #tfg.shape<5x4x3>} : () -> tensor<*xf32>
  %at:2 = Placeholder name("at") {dtype = i32, shape = #tfg.shape<5>} : () -> tensor<*xi32>
  %two:2 = Placeholder name("two") {dtype = i32, shape = #tfg.shape<2>} : () -> tensor<*xi32>
  %i:2 = Placeholder name("i") {dtype = i32, shape = #tfg.shape<>} : () -> tensor<*xi32>
  %size:2 = Const name("size") {dtype = i32, value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %ta:3 = TensorArrayV3(%size#0) name("ta") {dtype = f32, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = ""} : (tensor<i32>) -> (tensor<*x!tfg.resource>, tensor<*xf32>)
  %s:2 = TensorArrayScatterV3(%ta#0, %at#0, %rows#0, %ta#1) name("scatter") {T = f32} : (tensor<*x!tfg.resource>, tensor<*xi32>, tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %enter:2 = Enter(%ta#0) name("enter") {T = !tfg.resource, frame_name = "loop", is_constant = true} : (tensor<*x!tfg.resource>) -> tensor<*x!tfg.resource>
  %read:2 = TensorArrayReadV3(%enter#0, %i#0, %s#0) name("read") {dtype = f32} : (tensor<*x!tfg.resource>, tensor<*xi32>, tensor<*xf32>) -> tensor<*xf32>
  %gather:2 = TensorArrayGatherV3(%ta#0, %two#0, %s#0) name("gather") {dtype = f32, element_shape = #tfg.shape<>} : (tensor<*x!tfg.resource>, tensor<*xi32>, tensor<*xf32>) -> tensor<*xf32>
}

// -----

// TensorLists: each list has the shape of the dense tensor it holds,
// [length, element...]. What is written to a list tells its elements'
// shape where the element_shape operands leave dimensions unknown (Keras'
// [-1, 5]); reads, stacks and pops take their shapes from it. In a loop,
// the list's Merge learns the elements' shape from its back edge.
// CHECK-LABEL: tfg.graph
// CHECK: name("get") {{.*}} -> tensor<2x5xf32>
// CHECK: name("stack") {{.*}} -> tensor<3x2x5xf32>
// CHECK: name("pushed_stack") {{.*}} -> tensor<4x2x5xf32>
// CHECK: name("pop") {{.*}} -> (tensor<!tfg.variant>, tensor<2x5xf32>)
// CHECK: name("gather") {{.*}} -> tensor<2x2x5xf32>
// CHECK: name("rows") {{.*}} -> tensor<2x7xf32>
// CHECK: name("loop_read") {{.*}} -> tensor<2x5xf32>
// CHECK: name("loop_stack") {{.*}} -> tensor<3x2x5xf32>
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %shape:2 = Const name("shape") {dtype = i32, value = dense<[-1, 5]> : tensor<2xi32>} : () -> tensor<2xi32>
  %n:2 = Const name("n") {dtype = i32, value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %zero:2 = Const name("zero") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %one:2 = Const name("one") {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %item:2 = Placeholder name("item") {dtype = f32, shape = #tfg.shape<2x5>} : () -> tensor<*xf32>
  %list:2 = TensorListReserve(%shape#0, %n#0) name("list") {element_dtype = f32, shape_type = i32} : (tensor<2xi32>, tensor<i32>) -> tensor<!tfg.variant>
  %set:2 = TensorListSetItem(%list#0, %zero#0, %item#0) name("set") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<i32>, tensor<*xf32>) -> tensor<!tfg.variant>
  %get:2 = TensorListGetItem(%set#0, %one#0, %shape#0) name("get") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<i32>, tensor<2xi32>) -> tensor<*xf32>
  %stack:2 = TensorListStack(%set#0, %shape#0) name("stack") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<2xi32>) -> tensor<*xf32>
  %pushed:2 = TensorListPushBack(%set#0, %item#0) name("pushed") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<*xf32>) -> tensor<!tfg.variant>
  %pstack:2 = TensorListStack(%pushed#0, %shape#0) name("pushed_stack") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<2xi32>) -> tensor<*xf32>
  %pop:3 = TensorListPopBack(%pushed#0, %shape#0) name("pop") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<2xi32>) -> (tensor<!tfg.variant>, tensor<*xf32>)
  %which:2 = Const name("which") {dtype = i32, value = dense<[0, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %gather:2 = TensorListGather(%set#0, %which#0, %shape#0) name("gather") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<2xi32>, tensor<2xi32>) -> tensor<*xf32>
  %seq:2 = Placeholder name("seq") {dtype = f32, shape = #tfg.shape<3x2x7>} : () -> tensor<*xf32>
  %any:2 = Const name("any") {dtype = i32, value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %from:2 = TensorListFromTensor(%seq#0, %any#0) name("from") {element_dtype = f32, shape_type = i32} : (tensor<*xf32>, tensor<i32>) -> tensor<!tfg.variant>
  %rows:2 = TensorListGetItem(%from#0, %one#0, %any#0) name("rows") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<i32>, tensor<i32>) -> tensor<*xf32>
  // A loop that writes item i of a reserved list, read in the loop too.
  %e:2 = Enter(%list#0) name("enter") {T = !tfg.variant, frame_name = "loop", is_constant = false} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
  %ei:2 = Enter(%zero#0) name("enter_i") {T = i32, frame_name = "loop", is_constant = false} : (tensor<i32>) -> tensor<i32>
  %eitem:2 = Enter(%item#0) name("enter_item") {T = f32, frame_name = "loop", is_constant = true} : (tensor<*xf32>) -> tensor<*xf32>
  %m:3 = Merge(%e#0, %next#0) name("merge") {N = 2, T = !tfg.variant} : (tensor<!tfg.variant>, tensor<!tfg.variant>) -> (tensor<!tfg.variant>, tensor<i32>)
  %mi:3 = Merge(%ei#0, %nexti#0) name("merge_i") {N = 2, T = i32} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
  %less:2 = Less(%mi#0, %n#0) name("less") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %cond:2 = LoopCond(%less#0) name("cond") : (tensor<i1>) -> tensor<i1>
  %sw:3 = Switch(%m#0, %cond#0) name("switch") {T = !tfg.variant} : (tensor<!tfg.variant>, tensor<i1>) -> (tensor<!tfg.variant>, tensor<!tfg.variant>)
  %swi:3 = Switch(%mi#0, %cond#0) name("switch_i") {T = i32} : (tensor<i32>, tensor<i1>) -> (tensor<i32>, tensor<i32>)
  %read:2 = TensorListGetItem(%sw#1, %swi#1, %shape#0) name("loop_read") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<i32>, tensor<2xi32>) -> tensor<*xf32>
  %w:2 = TensorListSetItem(%sw#1, %swi#1, %eitem#0) name("write") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<i32>, tensor<*xf32>) -> tensor<!tfg.variant>
  %inc:2 = AddV2(%swi#1, %one#0) name("inc") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %next:2 = NextIteration(%w#0) name("next") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
  %nexti:2 = NextIteration(%inc#0) name("next_i") {T = i32} : (tensor<i32>) -> tensor<i32>
  %x:2 = Exit(%sw#0) name("exit") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
  %ls:2 = TensorListStack(%x#0, %shape#0) name("loop_stack") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<2xi32>) -> tensor<*xf32>
}

// -----

// Tests that EnsureShape gives its input's shape with the dimensions its
// shape attr knows filled in, and refuses an input whose known shape
// contradicts the attr (TensorFlow's run-time check, made here).
// CHECK-LABEL: tfg.graph
// CHECK: EnsureShape(%{{.*}}) name("ensured") {{.*}} -> tensor<8x3xf32>
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<?x3>} : () -> tensor<*xf32>
  %e:2 = EnsureShape(%x#0) name("ensured") {T = f32, shape = #tfg.shape<8x?>} : (tensor<*xf32>) -> tensor<*xf32>
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2x3>} : () -> tensor<*xf32>
  // expected-error @+1 {{node 'wrong' (EnsureShape): the input's shape [2,3] is not compatible with the shape the node ensures, [2,4]}}
  %e:2 = EnsureShape(%x#0) name("wrong") {T = f32, shape = #tfg.shape<2x4>} : (tensor<*xf32>) -> tensor<*xf32>
}

// -----

// Where of a scalar, which TensorFlow's kernel refuses.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = i1, shape = #tfg.shape<>} : () -> tensor<i1>
  // expected-error @+1 {{node 'w' (Where): input is a scalar, which TensorFlow's kernel refuses}}
  %w:2 = Where(%x#0) name("w") {T = i1} : (tensor<i1>) -> tensor<*xi64>
}

// -----

// RFFT2D: the transformed dimensions are fft_length, the last halved plus
// one; fft_length must have one length per transformed dimension; and a
// DynamicStitch of constant indices has their largest + 1 rows.
// CHECK-LABEL: tfg.graph
// CHECK: RFFT2D({{.*}}) name("spectrum") {{.*}} -> tensor<2x4x5xcomplex<f32>>
// CHECK: DynamicStitch({{.*}}) name("stitched") {{.*}} -> tensor<5x3xf32>
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2x6x7>} : () -> tensor<*xf32>
  %n:2 = Const name("n") {dtype = i32, value = dense<[4, 8]> : tensor<2xi32>} : () -> tensor<2xi32>
  %s:2 = RFFT2D(%x#0, %n#0) name("spectrum") {Treal = f32, Tcomplex = complex<f32>} : (tensor<*xf32>, tensor<2xi32>) -> tensor<*xcomplex<f32>>
  %i:2 = Const name("i") {dtype = i32, value = dense<[0, 4]> : tensor<2xi32>} : () -> tensor<2xi32>
  %j:2 = Const name("j") {dtype = i32, value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %d:2 = Placeholder name("d") {dtype = f32, shape = #tfg.shape<2x3>} : () -> tensor<*xf32>
  %t:2 = DynamicStitch(%i#0, %j#0, %d#0, %d#0) name("stitched") {N = 2 : i64, T = f32} : (tensor<2xi32>, tensor<2xi32>, tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2x6x7>} : () -> tensor<*xf32>
  %n:2 = Const name("n") {dtype = i32, value = dense<8> : tensor<1xi32>} : () -> tensor<1xi32>
  // expected-error @+1 {{node 'spectrum' (RFFT2D): fft_length has 1 elements, not 2}}
  %s:2 = RFFT2D(%x#0, %n#0) name("spectrum") {Treal = f32, Tcomplex = complex<f32>} : (tensor<*xf32>, tensor<1xi32>) -> tensor<*xcomplex<f32>>
}

// -----

// Slices at indices the step computes (x[i], x[i, 1:3], x[i, :3], x[i:i+1]):
// a shrunk dimension leaves the output whatever the index; a range of
// constant ends keeps its size; a range whose end is the step's has a size
// only the data decides.
// CHECK-LABEL: tfg.graph
// CHECK: StridedSlice({{.*}}) name("row") {{.*}} -> tensor<5x3xf32>
// CHECK: StridedSlice({{.*}}) name("part") {{.*}} -> tensor<2x3xf32>
// CHECK: StridedSlice({{.*}}) name("head") {{.*}} -> tensor<3x3xf32>
// CHECK: StridedSlice({{.*}}) name("range") {{.*}} -> tensor<?x5x3xf32>
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<4x5x3>} : () -> tensor<*xf32>
  %i:2 = Placeholder name("i") {dtype = i32, shape = #tfg.shape<>} : () -> tensor<*xi32>
  %one:2 = Const name("one") {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %three:2 = Const name("three") {dtype = i32, value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %next:2 = AddV2(%i#0, %one#0) name("next") {T = i32} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
  %b1:2 = Pack(%i#0) name("b1") {N = 1 : i64, T = i32, axis = 0 : i64} : (tensor<*xi32>) -> tensor<*xi32>
  %e1:2 = Pack(%next#0) name("e1") {N = 1 : i64, T = i32, axis = 0 : i64} : (tensor<*xi32>) -> tensor<*xi32>
  %s1:2 = Const name("s1") {dtype = i32, value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %row:2 = StridedSlice(%x#0, %b1#0, %e1#0, %s1#0) name("row") {Index = i32, T = f32, shrink_axis_mask = 1} : (tensor<*xf32>, tensor<*xi32>, tensor<*xi32>, tensor<1xi32>) -> tensor<*xf32>
  %b2:2 = Pack(%i#0, %one#0) name("b2") {N = 2 : i64, T = i32, axis = 0 : i64} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
  %e2:2 = Pack(%next#0, %three#0) name("e2") {N = 2 : i64, T = i32, axis = 0 : i64} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
  %s2:2 = Const name("s2") {dtype = i32, value = dense<1> : tensor<2xi32>} : () -> tensor<2xi32>
  %part:2 = StridedSlice(%x#0, %b2#0, %e2#0, %s2#0) name("part") {Index = i32, T = f32, shrink_axis_mask = 1} : (tensor<*xf32>, tensor<*xi32>, tensor<*xi32>, tensor<2xi32>) -> tensor<*xf32>
  %head:2 = StridedSlice(%x#0, %b2#0, %e2#0, %s2#0) name("head") {Index = i32, T = f32, begin_mask = 2, shrink_axis_mask = 1} : (tensor<*xf32>, tensor<*xi32>, tensor<*xi32>, tensor<2xi32>) -> tensor<*xf32>
  %range:2 = StridedSlice(%x#0, %b1#0, %e1#0, %s1#0) name("range") {Index = i32, T = f32} : (tensor<*xf32>, tensor<*xi32>, tensor<*xi32>, tensor<1xi32>) -> tensor<*xf32>
}

// -----

// A queue's dequeues: one element of the queue's `shapes`, or `n` of them
// stacked; without `shapes`, the element its enqueues in the graph agree
// on (an EnqueueMany's components without their first dimension).
// CHECK-LABEL: tfg.graph
// CHECK: QueueDequeueV2(%{{.*}}) name("one") {{.*}} -> (tensor<3xf32>, tensor<!tfg.string>)
// CHECK: QueueDequeueManyV2(%{{.*}}, %{{.*}}) name("four") {{.*}} -> (tensor<4x3xf32>, tensor<4x!tfg.string>)
// CHECK: QueueDequeueV2(%{{.*}}) name("from_enqueues") {{.*}} -> tensor<2x5xi32>
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %q:2 = FIFOQueueV2 name("q") {capacity = -1 : i64, component_types = [f32, !tfg.string], container = "", shapes = [#tfg.shape<3>, #tfg.shape<>], shared_name = ""} : () -> tensor<!tfg.resource>
  %one:3 = QueueDequeueV2(%q#0) name("one") {component_types = [f32, !tfg.string], timeout_ms = -1 : i64} : (tensor<!tfg.resource>) -> (tensor<*xf32>, tensor<*x!tfg.string>)
  %n:2 = Const name("n") {dtype = i32, value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %four:3 = QueueDequeueManyV2(%q#0, %n#0) name("four") {component_types = [f32, !tfg.string], timeout_ms = -1 : i64} : (tensor<!tfg.resource>, tensor<i32>) -> (tensor<*xf32>, tensor<*x!tfg.string>)
  %p:2 = FIFOQueueV2 name("p") {capacity = -1 : i64, component_types = [i32], container = "", shapes = [], shared_name = ""} : () -> tensor<!tfg.resource>
  %rows:2 = Const name("rows") {dtype = i32, value = dense<1> : tensor<6x2x5xi32>} : () -> tensor<6x2x5xi32>
  %fill = QueueEnqueueManyV2(%p#0, %rows#0) name("fill") {Tcomponents = [i32], timeout_ms = -1 : i64} : (tensor<!tfg.resource>, tensor<6x2x5xi32>) -> ()
  %e:2 = QueueDequeueV2(%p#0) name("from_enqueues") {component_types = [i32], timeout_ms = -1 : i64} : (tensor<!tfg.resource>) -> tensor<*xi32>
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %q:2 = FIFOQueueV2 name("q") {capacity = -1 : i64, component_types = [f32], container = "", shapes = [#tfg.shape<3>], shared_name = ""} : () -> tensor<!tfg.resource>
  %n:2 = Const name("n") {dtype = i32, value = dense<-2> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+1 {{node 'take' (QueueDequeueManyV2): n = -2 is negative}}
  %take:2 = QueueDequeueManyV2(%q#0, %n#0) name("take") {component_types = [f32], timeout_ms = -1 : i64} : (tensor<!tfg.resource>, tensor<i32>) -> tensor<*xf32>
}
