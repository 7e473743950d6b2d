// Tests tfc-fold-constants: shape computations of known value become Const
// nodes (a single-output node keeps its name and control users), multi-
// output nodes get one Const per output, and inside a TF1 cond branch the
// Const keeps control edges from the node's inputs.
// RUN: tfc-opt %s -split-input-file -tfc-fold-constants | FileCheck %s

// CHECK-LABEL: tfg.graph
// CHECK-DAG: %[[T:.*]]:2 = Const name("target") {dtype = i32, value = dense<[2, -1]> : tensor<2xi32>} : () -> tensor<2xi32>
// CHECK-DAG: Reshape(%{{.*}}, %[[T]]#0) name("flat")
// CHECK-DAG: NoOp [%[[T]]#1] name("after_target")
// CHECK-DAG: %[[R0:.*]]:2 = Const name("bga/_folded_0") {dtype = i32, value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
// CHECK-DAG: %[[R1:.*]]:2 = Const name("bga/_folded_1") {dtype = i32, value = dense<> : tensor<0xi32>} : () -> tensor<0xi32>
// CHECK-DAG: Sum(%{{.*}}, %[[R0]]#0) name("grad_a")
// CHECK-DAG: Sum(%{{.*}}, %[[R1]]#0) name("grad_b")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2x4x5>} : () -> tensor<*xf32>
  %s:2 = Shape(%x#0) name("shape") {T = f32, out_type = i32} : (tensor<*xf32>) -> tensor<*xi32>
  %b:2 = Const name("b") {dtype = i32, value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %e:2 = Const name("e") {dtype = i32, value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %batch:2 = StridedSlice(%s#0, %b#0, %e#0, %e#0) name("batch") {Index = i32, T = i32, shrink_axis_mask = 1} : (tensor<*xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xi32>
  %m1:2 = Const name("m1") {dtype = i32, value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %t:2 = Pack(%batch#0, %m1#0) name("target") {N = 2, T = i32, axis = 0} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
  %r:2 = Reshape(%x#0, %t#0) name("flat") {T = f32, Tshape = i32} : (tensor<*xf32>, tensor<*xi32>) -> tensor<*xf32>
  %after = NoOp [%t#1] name("after_target")
  // Gradients of a [3,4] + [4] broadcast: [3,4] sums axis 0, [4] nothing.
  %sa:2 = Const name("sa") {dtype = i32, value = dense<[1, 4]> : tensor<2xi32>} : () -> tensor<2xi32>
  %sb:2 = Const name("sb") {dtype = i32, value = dense<[3, 4]> : tensor<2xi32>} : () -> tensor<2xi32>
  %g:3 = BroadcastGradientArgs(%sa#0, %sb#0) name("bga") {T = i32} : (tensor<2xi32>, tensor<2xi32>) -> (tensor<*xi32>, tensor<*xi32>)
  %grad:2 = Placeholder name("grad") {dtype = f32, shape = #tfg.shape<3x4>} : () -> tensor<*xf32>
  %ga:2 = Sum(%grad#0, %g#0) name("grad_a") {T = f32, Tidx = i32} : (tensor<*xf32>, tensor<*xi32>) -> tensor<*xf32>
  %gb:2 = Sum(%grad#0, %g#1) name("grad_b") {T = f32, Tidx = i32} : (tensor<*xf32>, tensor<*xi32>) -> tensor<*xf32>
}

// -----

// In a cond branch, the folded Shape still waits for (and is dead with)
// its input.
// CHECK-LABEL: tfg.graph
// CHECK-DAG: %[[SW:.*]]:3 = Switch
// CHECK-DAG: %[[ID:.*]]:2 = Identity(%[[SW]]#1) name("branch")
// CHECK-DAG: Const [%[[ID]]#1] name("branch_shape") {dtype = i32, value = dense<3> : tensor<1xi32>}
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<3>} : () -> tensor<*xf32>
  %p:2 = Placeholder name("p") {dtype = i1, shape = #tfg.shape<>} : () -> tensor<*xi1>
  %sw:3 = Switch(%x#0, %p#0) name("switch") {T = f32} : (tensor<*xf32>, tensor<*xi1>) -> (tensor<*xf32>, tensor<*xf32>)
  %id:2 = Identity(%sw#1) name("branch") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %s:2 = Shape(%id#0) name("branch_shape") {T = f32, out_type = i32} : (tensor<*xf32>) -> tensor<*xi32>
  %f:2 = Fill(%s#0, %id#0) name("fill") {T = f32, index_type = i32} : (tensor<*xi32>, tensor<*xf32>) -> tensor<*xf32>
}

// -----

// A cond over a constant (TF1: cond(p, lambda: n, lambda: n * 2)): the
// Switch carries n's value but is not folded (a Const cannot be dead as
// its untaken output is), and each branch's folded Const is dead with its
// side of the Switch: it waits for an Identity of that output (the
// graph's own, or one made, never the node the Const replaces; here the
// pivot switch_f is folded too, so both are made).
// CHECK-LABEL: tfg.graph
// CHECK-DAG: %[[SW:.*]]:3 = Switch(%{{.*}}, %{{.*}}) name("switch")
// CHECK-DAG: %[[ALIVE0:.*]]:2 = Identity(%[[SW]]#0) name("switch/_alive_0")
// CHECK-DAG: %[[ALIVE1:.*]]:2 = Identity(%[[SW]]#1) name("switch/_alive_1")
// CHECK-DAG: %[[F:.*]]:2 = Const [%[[ALIVE0]]#1] name("switch_f") {dtype = i32, value = dense<5> : tensor<i32>}
// CHECK-DAG: %[[TWICE:.*]]:2 = Const [%[[F]]#1, %{{.*}}] name("twice") {dtype = i32, value = dense<10> : tensor<i32>}
// CHECK-DAG: %[[SAME:.*]]:2 = Const [%[[ALIVE1]]#1] name("same") {dtype = i32, value = dense<5> : tensor<i32>}
// CHECK-DAG: Merge(%[[TWICE]]#0, %[[SAME]]#0)
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %n:2 = Const name("n") {dtype = i32, value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %two:2 = Const name("two") {dtype = i32, value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %p:2 = Placeholder name("p") {dtype = i1, shape = #tfg.shape<>} : () -> tensor<*xi1>
  %sw:3 = Switch(%n#0, %p#0) name("switch") {T = i32} : (tensor<i32>, tensor<*xi1>) -> (tensor<*xi32>, tensor<*xi32>)
  %f:2 = Identity(%sw#0) name("switch_f") {T = i32} : (tensor<*xi32>) -> tensor<*xi32>
  %twice:2 = Mul(%f#0, %two#0) name("twice") {T = i32} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
  %same:2 = Identity(%sw#1) name("same") {T = i32} : (tensor<*xi32>) -> tensor<*xi32>
  %m:3 = Merge(%twice#0, %same#0) name("merge") {N = 2 : i64, T = i32} : (tensor<*xi32>, tensor<*xi32>) -> (tensor<*xi32>, tensor<i32>)
}

// -----

// Numeric subgraphs of constants are compiled and run: the Consts read by
// non-constant nodes (the scale, the shifted bias) hold the computed
// values, and the subgraph is gone; rsqrt(4 + 0) * 3 = 1.5 and 1 - 2 * 1.5
// = -2 per channel. A node in the subgraph with a user outside the
// subgraph keeps its name; a stateful node (RandomUniform) and what it
// feeds are not folded, nor is a value over the size limit (ones of 3 M
// float32 = 12 MiB).
// CHECK-LABEL: tfg.graph
// CHECK-DAG: %[[S:.*]]:2 = Const name("scale") {dtype = f32, value = dense<1.500000e+00> : tensor<2xf32>}
// CHECK-DAG: %[[B:.*]]:2 = Const name("shift") {dtype = f32, value = dense<-2.000000e+00> : tensor<2xf32>}
// CHECK-DAG: Mul(%{{.*}}#0, %[[S]]#0) name("scaled")
// CHECK-DAG: AddV2(%{{.*}}#0, %[[B]]#0) name("out")
// CHECK-DAG: AddV2(%{{.*}}, %{{.*}}) name("noisy")
// CHECK-DAG: Fill(%{{.*}}, %{{.*}}) name("big")
// CHECK-NOT: Rsqrt
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<3x2>} : () -> tensor<3x2xf32>
  %var:2 = Const name("variance") {dtype = f32, value = dense<4.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %eps:2 = Const name("epsilon") {dtype = f32, value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %gamma:2 = Const name("gamma") {dtype = f32, value = dense<3.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %beta:2 = Const name("beta") {dtype = f32, value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %mean:2 = Const name("mean") {dtype = f32, value = dense<2.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %ve:2 = AddV2(%var#0, %eps#0) name("var_eps") {T = f32} : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  %inv:2 = Rsqrt(%ve#0) name("inv") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %s:2 = Mul(%gamma#0, %inv#0) name("scale") {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %ms:2 = Mul(%mean#0, %s#0) name("mean_scaled") {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %b:2 = Sub(%beta#0, %ms#0) name("shift") {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %xs:2 = Mul(%x#0, %s#0) name("scaled") {T = f32} : (tensor<3x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  %y:2 = AddV2(%xs#0, %b#0) name("out") {T = f32} : (tensor<3x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  %shape:2 = Const name("shape") {dtype = i32, value = dense<2> : tensor<1xi32>} : () -> tensor<1xi32>
  %r:2 = RandomUniform(%shape#0) name("random") {T = i32, dtype = f32, seed = 1 : i64, seed2 = 2 : i64} : (tensor<1xi32>) -> tensor<2xf32>
  %n:2 = AddV2(%r#0, %beta#0) name("noisy") {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %bigshape:2 = Const name("bigshape") {dtype = i32, value = dense<3000000> : tensor<1xi32>} : () -> tensor<1xi32>
  %one:2 = Const name("one") {dtype = f32, value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %big:2 = Fill(%bigshape#0, %one#0) name("big") {T = f32, index_type = i32} : (tensor<1xi32>, tensor<f32>) -> tensor<3000000xf32>
  %axis:2 = Const name("axis") {dtype = i32, value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %bs:2 = Sum(%big#0, %axis#0) name("big_sum") {T = f32, Tidx = i32} : (tensor<3000000xf32>, tensor<1xi32>) -> tensor<f32>
  %u:2 = Identity(%bs#0) name("use_big") {T = f32} : (tensor<f32>) -> tensor<f32>
  %z:2 = AddV2(%x#0, %u#0) name("uses_big") {T = f32} : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
}

// -----

// A Const read by a numeric subgraph may have control inputs (TensorFlow's
// gradients put their constants under control dependencies): the subgraph
// is evaluated without them, and the Const keeps them.
// CHECK-LABEL: tfg.graph
// CHECK-DAG: Const [%{{.*}}] name("ones") {{.*}}dense<1.000000e+00>
// CHECK-DAG: Const name("{{doubled.*}}") {{.*}}dense<2.000000e+00> : tensor<3xf32>
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<3>} : () -> tensor<3xf32>
  %ones:2 = Const [%x#1] name("ones") {dtype = f32, value = dense<1.0> : tensor<3xf32>} : () -> tensor<3xf32>
  %d:2 = AddV2(%ones#0, %ones#0) name("doubled") {T = f32} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %y:2 = Mul(%x#0, %d#0) name("y") {T = f32} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
}

// -----

// VariableShape (stateful in TensorFlow, where a variable may take a new
// shape) folds: a tfc variable keeps its declared shape. The handle may
// come through a loop (Keras passes the weights' handles through its
// While; the gradient asks for their shapes after the loop).
// CHECK-LABEL: tfg.graph
// CHECK: Const name("shape") {dtype = i32, value = dense<[6, 8]> : tensor<2xi32>}
// CHECK: Const name("shape_after_loop") {dtype = i64, value = dense<[6, 8]> : tensor<2xi64>}
// CHECK-NOT: VariableShape
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %w:2 = VarHandleOp name("w") {container = "", dtype = f32, shape = #tfg.shape<6x8>, shared_name = "w"} : () -> tensor<!tfg.resource>
  %s:2 = VariableShape(%w#0) name("shape") {out_type = i32} : (tensor<!tfg.resource>) -> tensor<*xi32>
  %zeros:2 = Fill(%s#0, %one#0) name("zeros") {T = f32, index_type = i32} : (tensor<*xi32>, tensor<f32>) -> tensor<*xf32>
  %one:2 = Const name("one") {dtype = f32, value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %pred:2 = Placeholder name("pred") {dtype = i1, shape = #tfg.shape<>} : () -> tensor<i1>
  %enter:2 = Enter(%w#0) name("enter") {T = !tfg.resource, frame_name = "f", is_constant = false} : (tensor<!tfg.resource>) -> tensor<!tfg.resource>
  %merge:3 = Merge(%enter#0, %next#0) name("merge") {N = 2, T = !tfg.resource} : (tensor<!tfg.resource>, tensor<!tfg.resource>) -> (tensor<!tfg.resource>, tensor<i32>)
  %cond:2 = LoopCond(%pred#0) name("cond") : (tensor<i1>) -> tensor<i1>
  %switch:3 = Switch(%merge#0, %cond#0) name("switch") {T = !tfg.resource} : (tensor<!tfg.resource>, tensor<i1>) -> (tensor<!tfg.resource>, tensor<!tfg.resource>)
  %body:2 = Identity(%switch#1) name("body") {T = !tfg.resource} : (tensor<!tfg.resource>) -> tensor<!tfg.resource>
  %next:2 = NextIteration(%body#0) name("next") {T = !tfg.resource} : (tensor<!tfg.resource>) -> tensor<!tfg.resource>
  %exit:2 = Exit(%switch#0) name("exit") {T = !tfg.resource} : (tensor<!tfg.resource>) -> tensor<!tfg.resource>
  %s2:2 = VariableShape(%exit#0) name("shape_after_loop") {out_type = i64} : (tensor<!tfg.resource>) -> tensor<*xi64>
  %zeros2:2 = Fill(%s2#0, %one#0) name("zeros2") {T = f32, index_type = i64} : (tensor<*xi64>, tensor<f32>) -> tensor<*xf32>
}

// -----

// float32 arithmetic of Consts, computed by the pass itself (one correctly
// rounded operation per element, as the generated code computes it) with
// broadcasting: weights [2, 3] times per-channel scales [3], a chain of
// them, a scalar subtracted, a division. The nodes keep their names.
// CHECK-LABEL: tfg.graph
// CHECK-DAG: Const name("scaled") {dtype = f32, value = dense<{{\[\[}}1.000000e+01, 1.000000e+00, -3.000000e+00], [4.000000e+01, 2.500000e+00, -6.000000e+00]]> : tensor<2x3xf32>}
// CHECK-DAG: Const name("shifted") {dtype = f32, value = dense<{{\[\[}}8.000000e+00, -1.000000e+00, -5.000000e+00], [3.800000e+01, 5.000000e-01, -8.000000e+00]]> : tensor<2x3xf32>}
// CHECK-DAG: Const name("halved") {dtype = f32, value = dense<{{\[\[}}4.000000e+00, -5.000000e-01, -2.500000e+00], [1.900000e+01, 2.500000e-01, -4.000000e+00]]> : tensor<2x3xf32>}
// CHECK-NOT: Mul(
// CHECK-NOT: RealDiv(
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %w:2 = Const name("w") {dtype = f32, value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %s:2 = Const name("s") {dtype = f32, value = dense<[10.0, 0.5, -1.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %two:2 = Const name("two") {dtype = f32, value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %scaled:2 = Mul(%w#0, %s#0) name("scaled") {T = f32} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %shifted:2 = Sub(%scaled#0, %two#0) name("shifted") {T = f32} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %halved:2 = RealDiv(%shifted#0, %two#0) name("halved") {T = f32} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2x3>} : () -> tensor<2x3xf32>
  %y:2 = AddV2(%x#0, %halved#0) name("y") {T = f32} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
}
