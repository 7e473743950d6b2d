// Nodes that forward a Const's memory, folded by tfc-fold-constants itself
// (no evaluator program: its statistic `evaluated` stays 0).
// RUN: tfc-opt %s -tfc-fold-constants | FileCheck %s
// RUN: tfc-opt %s -tfc-fold-constants -mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// A node whose output is its input's memory, of a Const, becomes a Const
// of the same elements with the output's type, in the pass itself: a
// frozen weight read through an Identity, squeezed, then scaled (the Mul
// folds too, its operand now a Const), and an int32 Reshape. A node with
// a control input stays.
// CHECK-LABEL: tfg.graph
// CHECK-DAG: Const name("flat") {dtype = f32, value = dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>}
// CHECK-DAG: Const name("scaled") {dtype = f32, value = dense<{{\[\[}}2.000000e+00, 4.000000e+00, 6.000000e+00], [8.000000e+00, 1.000000e+01, 1.200000e+01]]> : tensor<2x3xf32>}
// CHECK-DAG: Const name("square") {dtype = i32, value = dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi32>}
// CHECK-DAG: Identity(%{{.*}}) [%{{.*}}] name("ordered")
// CHECK-NOT: Squeeze(
// CHECK-NOT: Reshape(
// CHECK-NOT: Mul(
// STATS: FoldConstantsPass
// STATS-NEXT: (S) 4 folded
// STATS-NEXT: (S) 0 evaluated
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %w:2 = Const name("w") {dtype = f32, value = dense<[[[1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0]]]> : tensor<2x1x3xf32>} : () -> tensor<2x1x3xf32>
  %read:2 = Identity(%w#0) name("read") {T = f32} : (tensor<2x1x3xf32>) -> tensor<2x1x3xf32>
  %flat:2 = Squeeze(%read#0) name("flat") {T = f32, squeeze_dims = [1]} : (tensor<2x1x3xf32>) -> tensor<2x3xf32>
  %two:2 = Const name("two") {dtype = f32, value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %scaled:2 = Mul(%flat#0, %two#0) name("scaled") {T = f32} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2x3>} : () -> tensor<2x3xf32>
  %y:2 = AddV2(%x#0, %scaled#0) name("y") {T = f32} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %b:2 = Const name("b") {dtype = i32, value = dense<[1, 2, 3, 4]> : tensor<4xi32>} : () -> tensor<4xi32>
  %shape:2 = Const name("shape") {dtype = i32, value = dense<[2, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %square:2 = Reshape(%b#0, %shape#0) name("square") {T = i32, Tshape = i32} : (tensor<4xi32>, tensor<2xi32>) -> tensor<2x2xi32>
  %ordered:2 = Identity(%square#0) [%y#1] name("ordered") {T = i32} : (tensor<2x2xi32>) -> tensor<2x2xi32>
}
